import type { Hono } from 'hono';
import { add, decimal, mul, sub, toPlain, toWire } from '../../kernel/money.js';
import { paymentCreateInput, paymentListQuery, paymentUpdateInput } from '../../api/schemas/payment.js';
import type { Sql } from '../db.js';
import { type Account, invalid, type ServiceContext, type ServiceEnv } from '../http.js';
import { Problems } from '../domain-errors.js';
import { randomToken } from '../passwords.js';
import { findRow, type StoredRow, timestampText, todayText, updateRow } from '../store.js';
import { buildNewInvoice, type InvoiceData, insertInvoice, settlePaid } from '../invoicing/invoices.js';
import { presentInvoice } from '../invoicing/invoice-answer.js';
import type { ProductData } from '../data/products.js';
import { DEFAULT_CURRENCY } from '../invoicing/amounts.js';
import { merge, mountCrud, refuseNulls } from './crud.js';
import { vatTreatment } from '../../kernel/checkout.js';
import { defaultDepartment, type DepartmentData } from '../accounts.js';

/** Spec §2.5 fields of a `banking_payment`, in order. */
const PAYMENT_FIELDS = [
  'name', 'price', 'quantity', 'currency', 'paid', 'paid_date', 'kind', 'invoice_id', 'client_id', 'department_id',
  'product_id', 'description', 'comment', 'email', 'first_name', 'last_name', 'phone', 'street', 'post_code', 'city',
  'country', 'invoice_name', 'invoice_tax_no', 'invoice_street', 'invoice_post_code', 'invoice_city', 'invoice_country',
  'invoice_comment', 'oid', 'promocode', 'provider', 'provider_response', 'provider_status', 'provider_title', 'deleted',
  'generate_invoice',
] as const;

export type PaymentData = Record<(typeof PAYMENT_FIELDS)[number], unknown> & {
  name: string;
  price: string;
  quantity: string;
  currency: string;
  paid: boolean;
  paid_date: string | null;
  invoice_id: number | null;
  generate_invoice: boolean;
  token: string;
  return_url?: string | null;
  cancel_url?: string | null;
  /** Set while the invoice a settlement issued still has to be e-mailed to the buyer. */
  invoice_mail_pending?: boolean;
  lang?: string | null;
  invoice_company?: boolean | null;
  invoice_tax_no_kind?: string | null;
};

/** This service's own fields of a payment, beside the hosted interface's. */
const EXTRA_FIELDS = ['return_url', 'cancel_url', 'lang', 'invoice_company', 'invoice_tax_no_kind'] as const;

export function presentPayment(row: StoredRow<PaymentData>, publicUrl: string) {
  const payment: Record<string, unknown> = { id: row.id };
  for (const field of PAYMENT_FIELDS) payment[field] = row.data[field] ?? null;
  payment.payment_url = `${publicUrl}/banking/payments/pay/${row.data.token}`;
  for (const field of EXTRA_FIELDS) payment[field] = row.data[field] ?? null;
  payment.created_at = timestampText(row.created_at);
  payment.updated_at = timestampText(row.updated_at);
  return payment;
}

/** Adds `amount` (negative to undo) to what an invoice has been paid, moving its status. */
export async function applyPaymentToInvoice(tx: Sql, account: Account, invoiceId: number, amount: string, paidDate: string): Promise<void> {
  const invoice = await findRow<InvoiceData>(tx, 'invoices', account.id, invoiceId, { forUpdate: true });
  if (!invoice) return;
  const data = { ...invoice.data };
  const paid = add(decimal(data.paid), decimal(amount));
  settlePaid(data, toPlain(paid.units < 0n ? decimal(0) : paid), paidDate);
  await updateRow(tx, 'invoices', account.id, invoiceId, data);
}

/**
 * A checkout's sale as its invoice will be: the buyer from the payment, the seller's department, the
 * product, and the VAT treatment the checkout core gives them (src/kernel/checkout.ts), so that the
 * checkout page, the price and the invoice agree.
 */
export async function saleOf(sql: Sql, account: Account, payment: PaymentData) {
  const text = (value: unknown) => (typeof value === 'string' && value) || null;
  const buyer = {
    email: text(payment.email) ?? '',
    name: text(payment.invoice_name),
    company: payment.invoice_company ?? null,
    tax_no: text(payment.invoice_tax_no),
    tax_no_kind: text(payment.invoice_tax_no_kind),
    country: text(payment.invoice_country) ?? text(payment.country),
  };
  const [product, seller] = await Promise.all([
    payment.product_id != null ? findRow<ProductData>(sql, 'products', account.id, payment.product_id as number) : undefined,
    payment.department_id != null ? findRow<DepartmentData>(sql, 'departments', account.id, payment.department_id as number) : defaultDepartment(sql, account.id),
  ]);
  const treatment = vatTreatment({ sellerCountry: seller?.data.country, service: product?.data.service === true, buyer });
  return { buyer, product: product?.data, seller: seller?.data, treatment };
}

/**
 * A `vat` invoice for the buyer data on a paid payment (`generate_invoice: true`). The buyer of a
 * checkout is whoever typed the form: the invoice joins the payment's own `client_id` when its
 * creator gave one, and otherwise a new client record, never one found by tax number or e-mail.
 */
async function invoiceForPayment(tx: Sql, account: Account, payment: PaymentData): Promise<number> {
  const person = [payment.first_name, payment.last_name].filter(Boolean).join(' ');
  const { buyer, treatment } = await saleOf(tx, account, payment);
  const data = await buildNewInvoice(tx, account, {
    kind: treatment.kind === 'intra_eu_supply' ? treatment.invoice_kind : 'vat',
    lang: payment.lang ?? undefined,
    buyer_company: payment.invoice_company ?? (buyer.tax_no ? true : undefined),
    buyer_name: (payment.invoice_name as string | null) || person || (payment.email as string | null) || 'Customer',
    buyer_tax_no: (payment.invoice_tax_no as string | null) ?? null,
    buyer_street: (payment.invoice_street as string | null) ?? (payment.street as string | null) ?? null,
    buyer_post_code: (payment.invoice_post_code as string | null) ?? (payment.post_code as string | null) ?? null,
    buyer_city: (payment.invoice_city as string | null) ?? (payment.city as string | null) ?? null,
    buyer_country: (payment.invoice_country as string | null) ?? (payment.country as string | null) ?? null,
    buyer_email: (payment.email as string | null) ?? null,
    buyer_first_name: (payment.first_name as string | null) ?? null,
    buyer_last_name: (payment.last_name as string | null) ?? null,
    client_id: (payment.client_id as number | null) ?? null,
    department_id: (payment.department_id as number | null) ?? null,
    currency: payment.currency,
    description: (payment.invoice_comment as string | null) ?? null,
    oid: (payment.oid as string | null) ?? null,
    positions: [
      {
        product_id: (payment.product_id as number | null) ?? null,
        name: payment.name,
        quantity: payment.quantity,
        total_price_gross: payment.price,
        ...(treatment.kind === 'standard' ? {} : { tax: treatment.tax }),
      },
    ],
  }, new Date(), 'new-client', { numberOnInsert: true });
  if (buyer.tax_no_kind) Object.assign(data, { buyer_tax_no_kind: buyer.tax_no_kind });
  if (treatment.kind === 'reverse_charge') Object.assign(data, { np_tax_kind: treatment.np_tax_kind, reverse_charge: true });
  settlePaid(data, data.price_gross, payment.paid_date ?? todayText());
  const row = await insertInvoice(tx, account.id, data);
  return row.id;
}

/** What a paid payment does: pays its invoice, or issues one when asked. */
export async function settle(tx: Sql, account: Account, data: PaymentData): Promise<void> {
  if (!data.paid) return;
  data.paid_date ??= todayText();
  if (data.invoice_id != null) await applyPaymentToInvoice(tx, account, data.invoice_id, data.price, data.paid_date);
  else if (data.generate_invoice) data.invoice_id = await invoiceForPayment(tx, account, data);
}

async function unsettle(tx: Sql, account: Account, data: PaymentData): Promise<void> {
  if (data.paid && data.invoice_id != null) {
    await applyPaymentToInvoice(tx, account, data.invoice_id, toPlain(sub(decimal(0), decimal(data.price))), todayText());
  }
}

export async function newPaymentData(tx: Sql, account: Account, input: Record<string, unknown>): Promise<PaymentData> {
  const problems = new Problems();
  let product: ProductData | undefined;
  if (input.product_id != null) {
    product = (await findRow<ProductData>(tx, 'products', account.id, input.product_id as number))?.data;
    if (!product) problems.add('product_id', 'does not exist');
  }
  let invoice: InvoiceData | undefined;
  if (input.invoice_id != null) {
    invoice = (await findRow<InvoiceData>(tx, 'invoices', account.id, input.invoice_id as number))?.data;
    if (!invoice) problems.add('invoice_id', 'does not exist');
  }
  const quantity = (input.quantity as string | null | undefined) ?? '1';
  const price =
    (input.price as string | null | undefined) ?? (product ? toWire(mul(decimal(product.price_gross), decimal(quantity))) : undefined);
  if (price == null) problems.add('price', "can't be blank");
  const name = (input.name as string | null | undefined)?.trim() || product?.name || (invoice ? `Invoice ${invoice.number}` : '');
  if (!name) problems.add('name', "can't be blank");
  problems.throwIfAny();
  const data = {} as PaymentData;
  for (const field of PAYMENT_FIELDS) (data as Record<string, unknown>)[field] = input[field] ?? null;
  Object.assign(data, {
    name,
    price: toWire(decimal(price!)),
    quantity: toWire(decimal(quantity)),
    currency: (input.currency as string | null | undefined) ?? invoice?.currency ?? product?.currency ?? DEFAULT_CURRENCY,
    paid: (input.paid as boolean | null | undefined) ?? false,
    kind: (input.kind as string | null | undefined) ?? 'api',
    deleted: (input.deleted as boolean | null | undefined) ?? false,
    generate_invoice: (input.generate_invoice as boolean | null | undefined) ?? false,
    token: randomToken(18),
  });
  for (const field of EXTRA_FIELDS) (data as Record<string, unknown>)[field] = input[field] ?? null;
  if (data.paid) await settle(tx, account, data);
  return data;
}

/** `include=invoices` embeds the invoices each payment paid, as `invoices`. */
async function presentPaymentsWithInvoices(rows: StoredRow<PaymentData>[], c: ServiceContext): Promise<unknown[]> {
  const payments = rows.map((row) => presentPayment(row, publicUrl(c)));
  if (!String(c.req.query('include') ?? '').split(',').includes('invoices')) return payments;
  const ids = [...new Set(rows.map((row) => row.data.invoice_id).filter((id): id is number => id != null))];
  const invoices = ids.length
    ? await c.get('db').query<StoredRow<InvoiceData>>(
        `select id, data, created_at, updated_at from invoices where account_id = $1 and id = any($2::int[])`,
        [c.get('account').id, ids],
      )
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
    presentAll: (rows, c) => presentPaymentsWithInvoices(rows, c),
    create: (tx, account, input) => newPaymentData(tx, account, input),
    async update(tx, account, current, input) {
      refuseNulls(input, ['name', 'price', 'quantity', 'currency', 'paid', 'kind', 'deleted', 'generate_invoice']);
      if (input.invoice_id != null && !(await findRow(tx, 'invoices', account.id, input.invoice_id))) {
        throw invalid({ invoice_id: ['does not exist'] });
      }
      await unsettle(tx, account, current);
      const next = merge(current, input) as PaymentData;
      if (input.price != null) next.price = toWire(decimal(input.price));
      if (!next.paid) next.paid_date = null;
      await settle(tx, account, next);
      return next;
    },
    beforeDelete: (tx, account, row) => unsettle(tx, account, row.data),
  });
}
