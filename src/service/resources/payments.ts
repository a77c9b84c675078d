import type { Hono } from 'hono';
import { decimal, toWire } from '../../kernel/money.js';
import { paymentCreateInput, paymentListQuery, paymentUpdateInput } from '../../api/schemas/payment.js';
import { invoicesByIds } from '../data/invoices.js';
import { invalid, type ServiceContext, type ServiceEnv } from '../http.js';
import { findRow, insertRow, type StoredRow, timestampText } from '../store.js';
import type { InvoiceData } from '../invoicing/invoices.js';
import { afterIssue } from '../application/issuing.js';
import { EXTRA_FIELDS, newPaymentData, PAYMENT_FIELDS, type PaymentData, settle, unsettle } from '../application/payments.js';
import { presentInvoice } from '../invoicing/invoice-answer.js';
import { merge, mountCrud, refuseNulls } from './crud.js';
import { settleDueBliks } from '../application/blik.js';

export type { PaymentData };

export function presentPayment(row: StoredRow<PaymentData>, publicUrl: string) {
  const payment: Record<string, unknown> = { id: row.id };
  for (const field of PAYMENT_FIELDS) payment[field] = row.data[field] ?? null;
  payment.payment_url = `${publicUrl}/banking/payments/pay/${row.data.token}`;
  for (const field of EXTRA_FIELDS) payment[field] = row.data[field] ?? null;
  // Where a BLIK payment stands (never its code); null for any other payment.
  payment.blik = row.data.blik ?? null;
  payment.created_at = timestampText(row.created_at);
  payment.updated_at = timestampText(row.updated_at);
  return payment;
}

/** `include=invoices` embeds the invoices each payment paid, as `invoices`. */
async function presentPaymentsWithInvoices(rows: StoredRow<PaymentData>[], c: ServiceContext): Promise<unknown[]> {
  const payments = rows.map((row) => presentPayment(row, publicUrl(c)));
  if (!String(c.req.query('include') ?? '').split(',').includes('invoices')) return payments;
  const ids = [...new Set(rows.map((row) => row.data.invoice_id).filter((id): id is number => id != null))];
  const invoices = ids.length
    ? await invoicesByIds<InvoiceData>(c.get('db'), c.get('account').id, ids)
    : [];
  const byId = new Map(invoices.map((row) => [row.id, presentInvoice(row, publicUrl(c), true)]));
  return payments.map((payment, index) => {
    const invoice = rows[index]!.data.invoice_id;
    return { ...payment, invoices: invoice != null && byId.has(invoice) ? [byId.get(invoice)] : [] };
  });
}

const publicUrl = (c: ServiceContext) => c.get('config').publicUrl;

export function mountPayments(app: Hono<ServiceEnv>): void {
  mountCrud<PaymentData, typeof paymentCreateInput, typeof paymentUpdateInput>(app, {
    table: 'payments',
    references: { client_id: 'clients', department_id: 'departments', product_id: 'products', invoice_id: 'invoices' },
    path: '/payments',
    // JSON reads use the singular path; XML reads the plural one (spec §4.5). Both answer either way.
    readPaths: ['/payment'],
    wrapper: 'banking_payment',
    listRoot: 'banking_payments',
    createSchema: paymentCreateInput,
    updateSchema: paymentUpdateInput,
    listQuery: paymentListQuery,
    order: 'id desc',
    filters(query, f) {
      if (query.invoice_id) f.add((p) => `(data->>'invoice_id')::integer = ${p}`, query.invoice_id);
      if (query.oid) f.add((p) => `data->>'oid' = ${p}`, query.oid);
    },
    present: (row, c) => presentPayment(row, publicUrl(c)),
    // A BLIK payment read after its time has its outcome recorded first (a timeout, the test provider's answer).
    presentAll: async (rows, c) => presentPaymentsWithInvoices(await settleDueBliks(c.get('config').issuing, rows), c),
    async createRow(tx, account, input, c) {
      const { data, issued } = await newPaymentData(tx, account, input, c.get('config').issuing);
      if (issued) issuedBy.set(c, issued);
      return insertRow(tx, 'payments', account.id, data);
    },
    async update(tx, account, current, input, c) {
      refuseNulls(input, ['name', 'price', 'quantity', 'currency', 'paid', 'kind', 'deleted', 'generate_invoice']);
      if (input.invoice_id != null && !(await findRow(tx, 'invoices', account.id, input.invoice_id))) {
        throw invalid({ invoice_id: ['does not exist'] });
      }
      await unsettle(tx, account, current);
      const next = merge(current, input) as PaymentData;
      if (input.price != null) next.price = toWire(decimal(input.price));
      if (!next.paid) next.paid_date = null;
      const issued = await settle(tx, account, next, c.get('config').issuing);
      if (issued) issuedBy.set(c, issued);
      return next;
    },
    async afterCommit(account, _row, c) {
      const issued = issuedBy.get(c);
      if (issued) await afterIssue(c.get('config').issuing, account.id, issued);
    },
    beforeDelete: (tx, account, row) => unsettle(tx, account, row.data),
  });
}

/** The invoice a request's paid payment issued, for the step after its commit. */
const issuedBy = new WeakMap<ServiceContext, StoredRow<InvoiceData>>();
