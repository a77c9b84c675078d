import type { Hono } from 'hono';
import type { InvoiceEmail } from '../../api/schemas/seller.js';
import { mailLogOf } from '../data/mail-log.js';
import { idParam, respond, type ServiceEnv } from '../http.js';
import { requireRow } from '../store.js';

/**
 * `GET /invoices/{id}/emails.json`: every e-mail the service sent or tried to send for the invoice,
 * the newest first, with the mail server's words when one failed. Another account's invoice is 404.
 */
export function mountInvoiceEmails(invoices: Hono<ServiceEnv>): void {
  invoices.get('/:id/emails', async (c) => {
    const db = c.get('db');
    const accountId = c.get('account').id;
    const id = idParam(c);
    await requireRow(db, 'invoices', accountId, id);
    const emails: InvoiceEmail[] = (await mailLogOf(db, accountId, id)).map((row) => ({
      id: Number(row.id),
      time: new Date(row.sent_at).toISOString(),
      to: row.recipients.to,
      cc: row.recipients.cc,
      subject: row.subject,
      transport: row.transport,
      status: row.status,
      error: row.error,
    }));
    c.header('cache-control', 'no-store');
    return respond(c, emails, { root: 'emails' });
  });
}
