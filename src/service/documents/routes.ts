import type { Hono } from 'hono';
import { z } from 'zod';
import { sendByEmailInput } from '../../api/schemas/invoice.js';
import type { Database } from '../db.js';
import { type EmailRequest, holdForKsef } from '../ksef/email.js';
import type { InvoiceMail } from '../application/invoice-mail.js';
import type { KsefRuntime } from '../ksef/runtime.js';
import { answerCacheOf } from '../answer-cache.js';
import { ApiError, idParam, invalid, invalidField, respond, type ServiceContext, type ServiceEnv, validate } from '../http.js';
import type { InvoiceData } from '../invoicing/invoices.js';
import { requireRow, type StoredRow, todayText } from '../store.js';
import { toXml } from '../xml.js';
import { EMAIL_ADDRESS, MailDeliveryError, MailLimitError } from './mailer.js';
import { mountOutbox } from './outbox.js';
import type { OutboxAccess } from './outbox-access.js';
import { renderInvoicePdfForRow } from './invoice-pdf.js';
import { contentDisposition, pdfFileName } from './pdf.js';
import { einvoiceDocumentOf, FACTUR_X_DOCUMENT } from '../einvoice/document.js';

export interface InvoiceDocumentsOptions {
  /** How invoices are e-mailed (SMTP or the outbox). */
  mail: InvoiceMail;
  /** Signs outbox links and sessions; the outbox exists only without SMTP. */
  outboxAccess: OutboxAccess;
  /** The service's database, for e-mails sent after a request (those held for a KSeF number). */
  db: Database;
  ksef?: Pick<KsefRuntime, 'onSettled'> | undefined;
}

const pdfQuery = z.object({
  print_option: z.enum(['original', 'copy']).optional(),
  format: z.enum(['facturx'], { message: 'must be facturx, or left out for the plain PDF' }).optional(),
});

/**
 * The invoice's PDF: `print_option=copy` marks it as a copy, `format=facturx` makes it a Factur-X
 * PDF/A-3b carrying its CII document (a 422 names what the document lacks).
 */
async function renderRequestedPdf(c: ServiceContext, row: StoredRow<InvoiceData>, accountId: number): Promise<Buffer> {
  const { print_option, format } = validate(pdfQuery, { print_option: c.req.query('print_option'), format: c.req.query('format') || undefined });
  const db = c.get('db');
  const facturX = format === 'facturx' ? await einvoiceDocumentOf(db, accountId, row.data, FACTUR_X_DOCUMENT) : null;
  return renderInvoicePdfForRow(db, accountId, row, print_option, facturX);
}

/**
 * Answers with the invoice's PDF, shown inline and named after its number. Also used by the public
 * `/invoice/<token>.pdf` page.
 */
export async function invoicePdfResponse(c: ServiceContext, row: StoredRow<InvoiceData>, accountId: number): Promise<Response> {
  return pdfResponse(c, row, await renderRequestedPdf(c, row, accountId));
}

function pdfResponse(c: ServiceContext, row: StoredRow<InvoiceData>, pdf: Buffer): Response {
  return c.body(new Uint8Array(pdf), 200, {
    'content-type': 'application/pdf',
    'content-disposition': contentDisposition('inline', pdfFileName(row.data)),
    'content-length': String(pdf.length),
    'cache-control': 'private, no-store',
    'x-content-type-options': 'nosniff',
  });
}

const MAX_RECIPIENTS = 20;

/** `a@x.pl, b@y.pl; c@z.pl` as a list; a bad address is named in a 422 on `field`. */
function addressList(value: string | null | undefined, field: string): string[] {
  const addresses = (value ?? '')
    .split(/[,;]/)
    .map((part) => part.trim())
    .filter(Boolean);
  const bad = addresses.filter((address) => address.length > 254 || !EMAIL_ADDRESS.test(address));
  if (bad.length > 0) throw invalidField(field, `is not a valid e-mail address: ${bad.join(', ')}`);
  return addresses;
}

function deliveryFailure(c: ServiceContext, error: MailDeliveryError | MailLimitError): Response {
  if (error instanceof MailLimitError) throw new ApiError(429, error.message, undefined, { 'retry-after': String(error.retryAfter) });
  if (error.rejectedRecipients) throw invalid({ email: [`the mail server refused the recipients: ${error.message}`] });
  const body = { code: 'error', message: `The e-mail could not be sent: ${error.message}` };
  if (c.get('format') === 'xml') return c.body(toXml('error', body), 502, { 'content-type': 'application/xml; charset=utf-8' });
  return c.json(body, 502);
}

/**
 * Invoice documents: `GET /invoices/<id>.pdf`, `POST /invoices/<id>/send_by_email` and the outbox
 * pages. Mounted before the invoice resource routes, so a `.pdf` read lands here.
 */
export function mountInvoiceDocuments(groups: { invoices: Hono<ServiceEnv>; outbox: Hono<ServiceEnv> }, options: InvoiceDocumentsOptions): void {
  const app = groups.invoices;
  const { mail } = options;
  const mailer = mail.mailer;

  app.get('/:id', async (c, next) => {
    if (c.get('format') !== 'pdf') return next();
    const account = c.get('account');
    const kept = answerCacheOf(c.get('db'));
    if (!kept) return invoicePdfResponse(c, await requireRow<InvoiceData>(c.get('db'), 'invoices', account.id, idParam(c)), account.id);
    // The document follows from the database, the URL (print option) and today's date alone, as its
    // rendered copy's key says: while nothing is written it is answered without a query.
    const key = `pdf ${account.id} ${todayText()} ${c.req.url}`;
    const { row, pdf } = await kept.get(key, async () => {
      const found = await requireRow<InvoiceData>(c.get('db'), 'invoices', account.id, idParam(c));
      return { row: found, pdf: await renderRequestedPdf(c, found, account.id) };
    });
    return pdfResponse(c, row, pdf);
  });

  app.post('/:id/send_by_email', async (c) => {
    const id = idParam(c);
    const account = c.get('account');
    const db = c.get('db');
    const { publicUrl } = c.get('config');
    const input = validate(sendByEmailInput, { ...c.get('body'), ...c.req.query() });
    const row = await requireRow<InvoiceData>(db, 'invoices', account.id, id);
    const invoice = row.data;

    const to = input.email_to?.trim() ? addressList(input.email_to, 'email_to') : addressList(invoice.buyer_email, 'buyer_email');
    const cc = addressList(input.email_cc, 'email_cc').filter((address) => !to.includes(address));
    if (to.length === 0) {
      throw invalid({ email: ["there is no address to send the invoice to: the buyer has no e-mail and no email_to was given"] });
    }
    if (to.length + cc.length > MAX_RECIPIENTS) throw invalidField('email_to', `must name at most ${MAX_RECIPIENTS} addresses with email_cc`);
    const request: EmailRequest = { to, cc, pdf: input.email_pdf ?? true, printOption: input.print_option ?? 'original', publicUrl };
    const recipients = [...to, ...cc].join(', ');

    // While KSeF is on, a company's invoice goes out with its KSeF number (hosted guide).
    const gate = await holdForKsef(db, account.id, id, request);
    if (gate === 'refused') return respond(c, { status: 'error', message: `Invoice ${invoice.number} cannot be sent: it has no KSeF number` }, { root: 'result' });
    if (gate === 'held') {
      return respond(c, { status: 'ok', message: `Invoice ${invoice.number} will be sent to ${recipients} once KSeF has given it its number` }, { root: 'result' });
    }
    try {
      await mail.deliver(account.id, id, request);
    } catch (error) {
      if (error instanceof MailDeliveryError || error instanceof MailLimitError) return deliveryFailure(c, error);
      throw error;
    }
    const where = mailer.transport === 'outbox' ? ' (kept in the outbox: no SMTP server is configured)' : '';
    return respond(c, { status: 'ok', message: `Invoice ${invoice.number} was sent to ${recipients}${where}` }, { root: 'result' });
  });

  // E-mails held for a KSeF number go once the sender has settled the invoice, and after a restart.
  options.ksef?.onSettled?.((settled) => mail.release(settled));

  // With a real mail server there is no outbox at all: real mail to real buyers is never kept here.
  if (mailer.transport === 'outbox') mountOutbox(groups.outbox, mailer, options.outboxAccess);
}
