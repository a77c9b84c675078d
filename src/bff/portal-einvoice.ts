import { ValidationError } from '../api/errors.js';
import type { Invoice } from '../api/schemas/invoice.js';
import { EINVOICE_FORMATS, type EInvoiceFormat } from '../api/schemas/einvoice.js';
import { EINVOICE_FORMAT_DOCUMENTS, EINVOICE_FORMAT_LABELS, type EInvoiceFormatName } from '../contract/einvoice.js';
import type { PortalEInvoice } from '../contract/portal.js';
import type { Bff, BffContext } from './context.js';
import { BffError, ERROR_CODES } from './errors.js';
import { issuePdfLinkToken } from './portal-token.js';

// Every format a client may prefer is one the portal offers and names.
EINVOICE_FORMATS satisfies readonly EInvoiceFormatName[];

/** A document the portal answers: its bytes, type and file name. */
export interface EInvoiceDownload {
  body: Uint8Array;
  contentType: 'application/xml' | 'application/pdf';
  filename: string;
}

/** The e-invoice format the customer prefers, read from their client record; null when none is set (or the service keeps none). */
export async function einvoiceFormatOf(bff: Bff, c: BffContext, clientId: number): Promise<EInvoiceFormat | null> {
  try {
    const record = await bff.service(c, 'clients.get', (call) => bff.client.clients.get(clientId, call));
    return record.id === clientId ? (record.einvoice_format ?? null) : null;
  } catch (error) {
    if (error instanceof BffError && error.status === 404) return null;
    throw error;
  }
}

/** How long a row's signed e-invoice link opens at most: the session's remaining life, up to a day, as a rendered list's links. */
const MAX_LINK_TTL_SECONDS = 24 * 3600;

/**
 * Each row's e-invoice link in `format`, or null without one. Each is signed for the session's
 * customer and that one invoice (as a `pdf-link` is), so a plain `<a href>` opens it without the
 * portal token, until the session ends (at most a day).
 */
export async function einvoiceLinks(bff: Bff, c: BffContext, format: EInvoiceFormat | null, invoiceIds: readonly number[]): Promise<(PortalEInvoice | null)[]> {
  if (!format) return invoiceIds.map(() => null);
  const session = c.get('session');
  const ttl = Math.max(1, Math.min(session.expiresAt - Math.floor(Date.now() / 1000), MAX_LINK_TTL_SECONDS));
  const key = await crypto.subtle.importKey('raw', bff.secretKey as Uint8Array<ArrayBuffer>, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  const origin = bff.publicOrigin(c.req.raw);
  return Promise.all(
    invoiceIds.map(async (id) => {
      const link = await issuePdfLinkToken(session.clientId, id, ttl, key);
      const url = new URL(`${bff.basePath}/invoices/${id}/einvoice?link=${encodeURIComponent(link)}`, origin).href;
      return { format, label: EINVOICE_FORMAT_LABELS[format], url };
    }),
  );
}

/**
 * The invoice as the document of `format`, from the service. What the format needs and the invoice
 * lacks (the service's 422) is a 422 naming the fields; the service's words stay behind.
 */
export async function einvoiceDocument(bff: Bff, c: BffContext, invoice: Invoice, format: EInvoiceFormat): Promise<EInvoiceDownload> {
  const document = EINVOICE_FORMAT_DOCUMENTS[format];
  const invoices = bff.client.invoices;
  const name = invoice.number.replace(/[^A-Za-z0-9._-]+/g, '-');
  const body = await bff.service(c, 'invoices.einvoice', async (call) => {
    try {
      if (document === 'facturx') return await invoices.pdf(invoice.id, { ...call, format: 'facturx' });
      if (!invoices.einvoice) throw new BffError(404, ERROR_CODES.notFound, 'The invoicing service makes no e-invoices.');
      return new TextEncoder().encode(await invoices.einvoice(invoice.id, { ...call, ...document }));
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error;
      const missing = Object.keys(error.fields).sort();
      throw new BffError(422, ERROR_CODES.validation, `This invoice cannot be made as an e-invoice in ${EINVOICE_FORMAT_LABELS[format]}.`, {
        fields: Object.fromEntries(missing.map((field) => [field, ['is required for this e-invoice']])),
      });
    }
  });
  return document === 'facturx'
    ? { body, contentType: 'application/pdf', filename: `${name}.pdf` }
    : { body, contentType: 'application/xml', filename: `${name}.xml` };
}
