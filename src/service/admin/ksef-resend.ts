import type { Hono } from 'hono';
import { idParam, respond, type ServiceEnv } from '../http.js';
import type { InvoiceData } from '../invoicing/invoices.js';
import { presentInvoice } from '../invoicing/invoice-answer.js';
import { requestSend } from '../ksef/invoices.js';
import type { KsefRuntime } from '../ksef/runtime.js';
import { requireRow } from '../store.js';

/**
 * `POST /invoices/{id}/send_to_ksef`: sends one invoice to KSeF (again, after a fix), as
 * `GET /invoices/{id}.json?send_to_ksef=yes` does, and answers the invoice. A write is a POST here,
 * so the back office sends it with its CSRF token like every other write.
 */
export function mountKsefResend(invoices: Hono<ServiceEnv>, runtime: KsefRuntime): void {
  invoices.post('/:id/send_to_ksef', async (c) => {
    const account = c.get('account');
    const id = idParam(c);
    const row = await c.get('db').transaction(async (tx) =>
      requestSend(tx, account, await requireRow<InvoiceData>(tx, 'invoices', account.id, id, { forUpdate: true }), runtime),
    );
    return respond(c, presentInvoice(row, c.get('config').publicUrl, true, account.id), { root: 'invoice' });
  });
}
