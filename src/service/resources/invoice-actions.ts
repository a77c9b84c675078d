import type { Hono } from 'hono';
import { cancelInvoiceInput, changeStatusInput, INVOICE_ADDITIONAL_FIELDS } from '../../api/schemas/invoice.js';
import { paymentsOfInvoices } from '../data/payments.js';
import { idParam, invalid, invalidField, respond, type ServiceContext, type ServiceEnv, validate } from '../http.js';
import { requireRow, type StoredRow, todayText, updateRow } from '../store.js';
import { applyStatus, type InvoiceData } from '../invoicing/invoices.js';
import type { InvoiceParts } from '../invoicing/parts.js';
import { presentInvoice } from '../invoicing/presentation.js';
import { type PaymentData, presentPayment } from './payments.js';

/**
 * Invoice operations beside the five CRUD routes: `change_status`, `cancel`, and the extra keys a
 * read asks for with `additional_fields[invoice]=…`.
 */

type StoredInvoice = InvoiceData & InvoiceParts;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A field from the query, the body, or the body's `invoice` wrapper (Rails clients use all three). */
function givenField(c: ServiceContext, name: string): unknown {
  const body = c.get('body');
  const wrapper = isObject(body.invoice) ? body.invoice : {};
  return c.req.query(name) ?? body[name] ?? wrapper[name];
}

/** The names asked for in `additional_fields[invoice]` (comma-separated or repeated). */
function additionalFieldNames(c: ServiceContext): Set<string> {
  const values = [...(c.req.queries('additional_fields[invoice]') ?? []), ...(c.req.queries('additional_fields[invoice][]') ?? [])];
  const names = values.flatMap((value) => value.split(',')).map((name) => name.trim());
  return new Set(names.filter((name) => (INVOICE_ADDITIONAL_FIELDS as readonly string[]).includes(name)));
}

/** Adds the keys of `additional_fields[invoice]` to each answer (one query for all payments). */
export async function additionalInvoiceFields(
  c: ServiceContext,
  rows: StoredRow<InvoiceData>[],
  answers: Record<string, unknown>[],
): Promise<Record<string, unknown>[]> {
  const names = additionalFieldNames(c);
  if (names.size === 0) return answers;
  let payments = new Map<number, unknown[]>();
  if (names.has('connected_payments') && rows.length > 0) {
    const found = await paymentsOfInvoices<PaymentData>(c.get('db'), c.get('account').id, rows.map((row) => row.id));
    payments = new Map();
    for (const payment of found) {
      const list = payments.get(payment.data.invoice_id!) ?? [];
      list.push(presentPayment(payment, c.get('config').publicUrl));
      payments.set(payment.data.invoice_id!, list);
    }
  }
  return answers.map((answer, index) => {
    const data = rows[index]!.data as StoredInvoice;
    const extra: Record<string, unknown> = {};
    if (names.has('cancel_reason')) extra.cancel_reason = data.cancel_reason ?? null;
    if (names.has('connected_payments')) extra.connected_payments = payments.get(rows[index]!.id) ?? [];
    if (names.has('corrected_content_before')) extra.corrected_content_before = data.corrected_content_before ?? null;
    if (names.has('corrected_content_after')) extra.corrected_content_after = data.corrected_content_after ?? null;
    return { ...answer, ...extra };
  });
}

export function mountInvoiceActions(app: Hono<ServiceEnv>): void {
  const present = (c: ServiceContext, row: StoredRow<InvoiceData>) =>
    presentInvoice(row, { publicUrl: c.get('config').publicUrl, withPositions: true, accountId: c.get('account').id });

  app.post('/:id/change_status', async (c) => {
    const id = idParam(c);
    const account = c.get('account');
    const { status, paid_date } = validate(changeStatusInput, {
      status: givenField(c, 'status'),
      paid_date: givenField(c, 'paid_date'),
    });
    const row = await c.get('db').transaction(async (tx) => {
      const current = await requireRow<StoredInvoice>(tx, 'invoices', account.id, id, { forUpdate: true });
      if (current.data.cancelled) throw invalidField('status', 'cannot change on a cancelled invoice');
      const data = { ...current.data };
      if (status === 'paid' && paid_date) data.paid_date = paid_date;
      applyStatus(data, status, todayText());
      return updateRow(tx, 'invoices', account.id, id, data);
    });
    return respond(c, present(c, row), { root: 'invoice' });
  });

  app.post('/cancel', async (c) => {
    const account = c.get('account');
    const body = c.get('body');
    const wrapper = isObject(body.invoice) ? body.invoice : {};
    const input = validate(cancelInvoiceInput, {
      cancel_invoice_id: c.req.query('cancel_invoice_id') ?? body.cancel_invoice_id ?? wrapper.cancel_invoice_id,
      cancel_reason: c.req.query('cancel_reason') ?? body.cancel_reason ?? wrapper.cancel_reason,
    });
    const row = await c.get('db').transaction(async (tx) => {
      const current = await requireRow<StoredInvoice>(tx, 'invoices', account.id, input.cancel_invoice_id, { forUpdate: true });
      if (current.data.cancelled) throw invalid({ cancel_invoice_id: ['is already cancelled'] });
      const data: StoredInvoice = { ...current.data, cancelled: true, cancel_reason: input.cancel_reason ?? null };
      return updateRow(tx, 'invoices', account.id, current.id, data);
    });
    return respond(c, { ...present(c, row), cancel_reason: (row.data as StoredInvoice).cancel_reason ?? null }, { root: 'invoice' });
  });
}
