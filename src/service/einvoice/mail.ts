import type { EInvoiceFormat } from '../../api/schemas/einvoice.js';
import { EINVOICE_FORMATS } from '../../api/schemas/einvoice.js';
import type { Sql } from '../db.js';
import type { InvoiceData } from '../invoicing/invoices.js';
import { findRow } from '../store.js';
import { type EInvoiceDocumentOptions, FACTUR_X_DOCUMENT, writeEInvoiceOf } from './document.js';

/**
 * The e-invoice a client prefers, in its e-mail: `ubl` is Peppol BIS Billing 3.0, `cii` EN 16931
 * in CII, `xrechnung` XRechnung 3.0 in UBL, each an XML attachment beside the PDF; `facturx` is the
 * Factur-X PDF in the plain PDF's place. What cannot be made leaves the plain PDF, and says why.
 */
const DOCUMENTS: Record<EInvoiceFormat, EInvoiceDocumentOptions> = {
  ubl: { syntax: 'ubl', profile: 'peppol' },
  cii: { syntax: 'cii', profile: 'en16931' },
  xrechnung: { syntax: 'ubl', profile: 'xrechnung' },
  facturx: FACTUR_X_DOCUMENT,
};

export interface MailAttachment {
  filename: string;
  contentType: string;
  content: Buffer;
}

export type EInvoiceForMail =
  | { kind: 'none' }
  | { kind: 'xml'; format: EInvoiceFormat; attachment: MailAttachment }
  | { kind: 'facturx'; cii: string }
  | { kind: 'unavailable'; format: EInvoiceFormat; problems: Record<string, string[]> };

/** The attention an invoice carries when its client's e-invoice could not go with its e-mail. */
export const EINVOICE_UNAVAILABLE = 'einvoice_unavailable';

const isFormat = (value: unknown): value is EInvoiceFormat => typeof value === 'string' && (EINVOICE_FORMATS as readonly string[]).includes(value);

/** `1/03/2026` → `1-03-2026.xml`. */
export const einvoiceMailFileName = (number: string): string => `${number.replace(/[^A-Za-z0-9._-]+/g, '-')}.xml`;

/** What the invoice's client prefers to receive, made now. */
export async function einvoiceForMail(sql: Sql, accountId: number, invoice: InvoiceData): Promise<EInvoiceForMail> {
  const client = typeof invoice.client_id === 'number' ? await findRow<Record<string, unknown>>(sql, 'clients', accountId, invoice.client_id) : undefined;
  const format = client?.data.einvoice_format;
  if (!isFormat(format)) return { kind: 'none' };
  const written = await writeEInvoiceOf(sql, accountId, invoice, DOCUMENTS[format]);
  if ('problems' in written) return { kind: 'unavailable', format, problems: written.problems };
  if (format === 'facturx') return { kind: 'facturx', cii: written.xml };
  return { kind: 'xml', format, attachment: { filename: einvoiceMailFileName(invoice.number), contentType: 'application/xml', content: Buffer.from(written.xml, 'utf8') } };
}

/**
 * Records on the invoice's data whether its e-invoice went: what was missing, as
 * `einvoice_problems` (`"buyer_reference: is required for XRechnung…"`) with the attention
 * `einvoice_unavailable` unless a more pressing one is set, or nothing once it went.
 */
export function recordEInvoiceMail(data: Record<string, unknown>, sent: EInvoiceForMail): void {
  if (sent.kind === 'unavailable') {
    data.einvoice_problems = Object.entries(sent.problems).flatMap(([field, messages]) => messages.map((message) => `${field}: ${message}`));
    if (!data.attention) data.attention = EINVOICE_UNAVAILABLE;
    return;
  }
  if (sent.kind === 'none') return;
  delete data.einvoice_problems;
  if (data.attention === EINVOICE_UNAVAILABLE) data.attention = null;
}
