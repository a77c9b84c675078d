import * as z from 'zod';
import {
  booleanInput,
  currencyInput,
  decimalInput,
  decimalString,
  idInput,
  optionalDate,
  optionalId,
  optionalText,
  pageQuery,
} from './common.js';

export const INVOICE_KINDS = [
  'vat', 'proforma', 'bill', 'receipt', 'advance', 'final', 'correction', 'invoice_other', 'vat_margin',
  'kp', 'kw', 'estimate', 'vat_mp', 'vat_rr', 'correction_note', 'accounting_note', 'client_order', 'dw',
  'wnt', 'wdt', 'import_service', 'import_service_eu', 'import_products', 'export_products',
] as const;
export type InvoiceKind = (typeof INVOICE_KINDS)[number];

export const INVOICE_STATUSES = ['issued', 'sent', 'paid', 'partial', 'rejected'] as const;
export type InvoiceStatus = (typeof INVOICE_STATUSES)[number];

export const DISCOUNT_KINDS = ['percent_unit', 'percent_unit_gross', 'percent_total', 'amount'] as const;
export type DiscountKind = (typeof DISCOUNT_KINDS)[number];

export const TAX_CODES = ['zw', 'np', 'disabled'] as const;

/** A position's tax: a rate in percent (`23`, `"8"`, `"5,5"`) or a code (`zw`, `np`, `disabled`). */
export const taxInput = z.union([
  z.enum(TAX_CODES),
  decimalInput.refine((rate) => Number(rate) >= 0 && Number(rate) <= 100, {
    message: 'must be a rate from 0 to 100 or zw, np, disabled',
  }),
], { message: 'must be a rate from 0 to 100 or zw, np, disabled' });

const nonNegativeDecimal = decimalInput.refine((v) => !v.startsWith('-'), { message: 'must not be negative' });

export const paymentToKindInput = z.preprocess(
  (value) => (typeof value === 'string' && /^\s*-?\d+\s*$/.test(value) ? Number(value) : value),
  z.union([z.number().int().min(0).max(3650), z.enum(['other_date', 'off'])], {
    message: 'must be a number of days, other_date or off',
  }),
);

export const positionInput = z.object({
  id: optionalId,
  _destroy: booleanInput.optional(),
  product_id: optionalId,
  name: optionalText(500),
  code: optionalText(100),
  description: optionalText(5000),
  tax: taxInput.nullish(),
  quantity: decimalInput.refine((q) => Number(q) !== 0, { message: 'must not be zero' }).nullish(),
  quantity_unit: optionalText(30),
  total_price_gross: decimalInput.nullish(),
  total_price_net: decimalInput.nullish(),
  price_net: decimalInput.nullish(),
  price_gross: decimalInput.nullish(),
  discount_percent: nonNegativeDecimal.refine((v) => Number(v) <= 100, { message: 'must be at most 100' }).nullish(),
  discount: nonNegativeDecimal.nullish(),
});
export type PositionInput = z.input<typeof positionInput>;

const invoiceFields = {
  kind: z.enum(INVOICE_KINDS, { message: `must be one of ${INVOICE_KINDS.join(', ')}` }).nullish(),
  number: optionalText(100),
  sell_date: optionalDate,
  issue_date: optionalDate,
  payment_to: optionalDate,
  payment_to_kind: paymentToKindInput.nullish(),
  payment_type: optionalText(100),
  place: optionalText(200),
  currency: currencyInput.nullish(),
  lang: optionalText(10),
  status: z.enum(INVOICE_STATUSES).nullish(),
  income: booleanInput.nullish(),
  paid: nonNegativeDecimal.nullish(),
  paid_date: optionalDate,
  department_id: optionalId,
  client_id: optionalId,
  product_id: optionalId,
  warehouse_id: optionalId,
  from_invoice_id: optionalId,
  invoice_id: optionalId,
  seller_name: optionalText(300),
  seller_tax_no: optionalText(50),
  seller_street: optionalText(300),
  seller_post_code: optionalText(30),
  seller_city: optionalText(200),
  seller_country: optionalText(100),
  seller_email: optionalText(300),
  seller_phone: optionalText(100),
  seller_bank: optionalText(200),
  seller_bank_account: optionalText(100),
  buyer_name: optionalText(300),
  buyer_tax_no: optionalText(50),
  buyer_street: optionalText(300),
  buyer_post_code: optionalText(30),
  buyer_city: optionalText(200),
  buyer_country: optionalText(100),
  buyer_email: optionalText(300),
  buyer_phone: optionalText(100),
  buyer_first_name: optionalText(200),
  buyer_last_name: optionalText(200),
  buyer_company: booleanInput.nullish(),
  show_discount: booleanInput.nullish(),
  discount_kind: z.enum(DISCOUNT_KINDS, { message: `must be one of ${DISCOUNT_KINDS.join(', ')}` }).nullish(),
  oid: optionalText(200),
  oid_unique: booleanInput.nullish(),
  description: optionalText(10000),
  test: booleanInput.nullish(),
  positions: z.array(positionInput).max(1000, 'has too many positions (maximum is 1000)').nullish(),
};

/** Body of `POST /invoices` (inside the `invoice` wrapper). */
export const invoiceCreateInput = z.object(invoiceFields);
export type InvoiceCreateInput = z.input<typeof invoiceCreateInput>;

/** Body of `PUT /invoices/<id>`: any subset of the fields; positions by `id`, `_destroy` or new. */
export const invoiceUpdateInput = z.object(invoiceFields).partial();
export type InvoiceUpdateInput = z.input<typeof invoiceUpdateInput>;

export const PERIODS = [
  'this_month', 'last_month', 'last_30_days', 'this_year', 'last_year', 'last_12_months', 'all', 'more',
] as const;
export type Period = (typeof PERIODS)[number];

/**
 * Extensions of the list's `status` filter (our service; the hosted one knows only the stored
 * statuses): `outstanding` is every invoice with money still due (issued, sent or partly paid, not
 * rejected or cancelled), `overdue` those of them due before `today`, `unpaid` those with nothing
 * paid yet, `active` every invoice that is not rejected or cancelled.
 */
export const INVOICE_PAYMENT_FILTERS = ['outstanding', 'overdue', 'unpaid', 'active'] as const;
export type InvoicePaymentFilter = (typeof INVOICE_PAYMENT_FILTERS)[number];

export const INVOICE_ORDER_FIELDS = ['number', 'issue_date', 'payment_to', 'price_gross', 'buyer_name', 'updated_at'] as const;

/** Query of `GET /invoices`. */
export const invoiceListQuery = pageQuery.extend({
  period: z.enum(PERIODS).optional(),
  date_from: optionalDate,
  date_to: optionalDate,
  client_id: optionalId,
  oid: z.string().optional(),
  invoice_id: optionalId,
  from_invoice_id: optionalId,
  number: z.string().optional(),
  kind: z.enum(INVOICE_KINDS).optional(),
  status: z.enum([...INVOICE_STATUSES, ...INVOICE_PAYMENT_FILTERS]).optional(),
  /** The day `overdue` is judged by (an extension); default the service's date in UTC. */
  today: optionalDate,
  include_positions: booleanInput.optional(),
  order: z
    .string()
    .regex(new RegExp(`^(${INVOICE_ORDER_FIELDS.join('|')})(\\.(asc|desc))?$`), 'is not a sortable field')
    .optional(),
});
export type InvoiceListQuery = z.input<typeof invoiceListQuery>;

export const position = z.looseObject({
  id: z.number(),
  invoice_id: z.number(),
  product_id: z.number().nullable(),
  name: z.string(),
  code: z.string().nullable(),
  description: z.string().nullable(),
  quantity: decimalString,
  quantity_unit: z.string().nullable(),
  tax: z.string(),
  price_net: decimalString,
  price_gross: decimalString,
  price_tax: decimalString,
  total_price_net: decimalString,
  total_price_gross: decimalString,
  total_price_tax: decimalString,
  discount: decimalString.nullable(),
  discount_percent: decimalString.nullable(),
});
export type Position = z.infer<typeof position>;

const s = z.string().nullable();

/** An invoice as the service answers it; unknown fields are kept. */
export const invoice = z.looseObject({
  id: z.number(),
  number: z.string(),
  kind: z.string(),
  status: z.string(),
  income: z.boolean(),
  issue_date: z.string(),
  sell_date: z.string(),
  payment_to: s,
  payment_to_kind: z.union([z.number(), z.string()]).nullable(),
  payment_type: s,
  place: s,
  price_net: decimalString,
  price_tax: decimalString,
  price_gross: decimalString,
  paid: decimalString,
  paid_date: s,
  currency: z.string(),
  lang: z.string(),
  client_id: z.number().nullable(),
  department_id: z.number().nullable(),
  seller_name: s,
  seller_tax_no: s,
  buyer_name: s,
  buyer_tax_no: s,
  buyer_email: s,
  show_discount: z.boolean(),
  discount_kind: s,
  oid: s,
  from_invoice_id: z.number().nullable(),
  invoice_id: z.number().nullable(),
  token: z.string(),
  view_url: z.string(),
  payment_url: z.string(),
  sent_time: s,
  created_at: z.string(),
  updated_at: z.string(),
  positions: z.array(position).optional(),
});
export type Invoice = z.infer<typeof invoice>;

export const invoiceList = z.array(invoice);

/** `GET /invoices/summary` (an extension of our service): what the list's filters select, per currency. */
export const invoiceSummary = z.object({
  /** Invoices matching the filters. */
  count: z.number().int(),
  /** The day `overdue` was judged by. */
  today: z.string(),
  currencies: z.array(
    z.object({
      currency: z.string(),
      count: z.number().int(),
      /** Still to pay on the matching invoices, exact, in the currency's minor unit. */
      outstanding: decimalString,
      outstanding_count: z.number().int(),
      /** The part of `outstanding` due before `today`. */
      overdue: decimalString,
      overdue_count: z.number().int(),
    }),
  ),
});
export type InvoiceSummary = z.infer<typeof invoiceSummary>;

/** Query of `POST /invoices/<id>/send_by_email`. */
export const sendByEmailInput = z.object({
  email_to: optionalText(1000),
  email_cc: optionalText(1000),
  email_pdf: booleanInput.optional(),
  print_option: z.enum(['original', 'copy']).optional(),
});
export type SendByEmailInput = z.input<typeof sendByEmailInput>;

/** Answer of `POST /invoices/<id>/send_by_email`. */
export const sendByEmailResult = z.looseObject({ status: z.literal('ok'), message: z.string() });
export type SendByEmailResult = z.infer<typeof sendByEmailResult>;

export const changeStatusInput = z.object({ status: z.enum(INVOICE_STATUSES) });

export const invoiceIdParam = idInput;
