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

/** One side of a correction line: the line before or after the correction. */
export const correctionSide = z.object({
  name: optionalText(500),
  product_id: optionalId,
  tax: taxInput.nullish(),
  quantity: decimalInput.nullish(),
  quantity_unit: optionalText(30),
  total_price_gross: decimalInput.nullish(),
  total_price_net: decimalInput.nullish(),
  price_net: decimalInput.nullish(),
  price_gross: decimalInput.nullish(),
  kind: optionalText(50),
});

/**
 * The names, codes and descriptions of one invoice's positions, together, at most: a real invoice
 * never comes near, and one that does would take the PDF renderer's time from everyone else.
 */
export const MAX_POSITIONS_TEXT = 200_000;

function positionsText(positions: readonly { name?: string | null | undefined; code?: string | null | undefined; description?: string | null | undefined }[]): number {
  return positions.reduce((sum, p) => sum + (p.name?.length ?? 0) + (p.code?.length ?? 0) + (p.description?.length ?? 0), 0);
}

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
  /** `correction` on a correction's line; the hosted service also sends `correction_before` / `_after`. */
  kind: optionalText(50),
  additional_info: optionalText(500),
  /** A correction's line as it was and as it is now; the line's amounts are the exact difference. */
  correction_before_attributes: correctionSide.nullish(),
  correction_after_attributes: correctionSide.nullish(),
});
export type PositionInput = z.input<typeof positionInput>;

/** `[1, 2]`, `["1", "2"]` or `"1,2"`. */
export const idList = z.preprocess(
  (value) => (typeof value === 'string' ? value.split(',').map((part) => part.trim()).filter(Boolean) : value),
  z.array(idInput).max(1000, 'has too many ids (maximum is 1000)'),
);

/**
 * Fields of the hosted service's invoice that are kept as given and answered back: they change no
 * amount here. Names are the hosted service's own.
 */
export const invoiceExtraFields = {
  seller_fax: optionalText(100),
  seller_www: optionalText(300),
  seller_person: optionalText(200),
  seller_tax_no_kind: optionalText(50),
  seller_bank_account_id: optionalId,
  buyer_fax: optionalText(100),
  buyer_www: optionalText(300),
  buyer_person: optionalText(200),
  buyer_note: optionalText(5000),
  buyer_tax_no_kind: optionalText(50),
  buyer_bank: optionalText(200),
  buyer_bank_account: optionalText(100),
  buyer_mass_payment_code: optionalText(100),
  description_footer: optionalText(10000),
  description_long: optionalText(20000),
  internal_note: optionalText(10000),
  additional_info: booleanInput.nullish(),
  additional_info_desc: optionalText(200),
  accounting_kind: optionalText(50),
  accounting_vat_tax_date: optionalDate,
  accounting_income_tax_date: optionalDate,
  delivery_date: optionalDate,
  transaction_date: optionalDate,
  delivery_address: optionalText(1000),
  use_delivery_address: booleanInput.nullish(),
  category_id: optionalId,
  recipient_id: optionalId,
  recipient_name: optionalText(300),
  issuer: optionalText(300),
  use_issuer: booleanInput.nullish(),
  invoice_template_id: optionalId,
  warehouse_document_id: optionalId,
  exchange_currency: optionalText(3),
  exchange_kind: optionalText(20),
  exchange_currency_rate: decimalInput.nullish(),
  exchange_note: optionalText(1000),
  reverse_charge: booleanInput.nullish(),
  use_moss: booleanInput.nullish(),
  use_oss: booleanInput.nullish(),
  exclude_from_stock_level: booleanInput.nullish(),
  exclude_from_accounting: booleanInput.nullish(),
  show_attachments: booleanInput.nullish(),
  not_cost: booleanInput.nullish(),
  tax2_visible: booleanInput.nullish(),
  sales_code: optionalText(100),
  sell_date_kind: optionalText(50),
  correction_reason: optionalText(2000),
  corrected_content_before: optionalText(10000),
  corrected_content_after: optionalText(10000),
  /** KSeF: the legal basis of a `zw` rate (one of the hosted service's texts, or the seller's own). */
  exempt_tax_kind: optionalText(1000),
  /** KSeF: where an `np` line is taxed: `export_service` or `export_service_eu`. */
  np_tax_kind: optionalText(50),
  /** KSeF: the KSeF number of the invoice a correction corrects (defaults to that invoice's `gov_id`). */
  gov_corrected_invoice_number: optionalText(100),
};

/** A note of an invoice (`descriptions`): created with it, changed by `id`, removed with `_destroy: 1`. */
export const descriptionInput = z.object({
  id: optionalId,
  _destroy: booleanInput.optional(),
  title: optionalText(300),
  content: optionalText(10000),
});

/** A settlement line shown under the positions (a charge or a deduction); it changes no total. */
export const settlementPositionInput = z.object({
  id: optionalId,
  _destroy: booleanInput.optional(),
  kind: z.enum(['charge', 'deduction'], { message: 'must be charge or deduction' }).nullish(),
  description: optionalText(1000),
  amount: decimalInput.nullish(),
});

/** A recipient of an invoice (a party beside the buyer). */
export const recipientInput = z.object({
  id: optionalId,
  _destroy: booleanInput.optional(),
  name: optionalText(300),
  first_name: optionalText(200),
  last_name: optionalText(200),
  tax_no: optionalText(50),
  company: booleanInput.nullish(),
  country: optionalText(100),
  city: optionalText(200),
  post_code: optionalText(30),
  street: optionalText(300),
  phone: optionalText(100),
  email: optionalText(300),
  note: optionalText(2000),
  role: optionalText(100),
  participation: decimalInput.nullish(),
  /** KSeF: the kind of `tax_no`, as `buyer_tax_no_kind`; and the role's own words for `Rola inna`. */
  tax_no_kind: optionalText(50),
  role_description: optionalText(100),
});

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
  positions: z
    .array(positionInput)
    .max(1000, 'has too many positions (maximum is 1000)')
    .refine((positions) => positionsText(positions) <= MAX_POSITIONS_TEXT, {
      message: `have too much text together (maximum is ${MAX_POSITIONS_TEXT} characters)`,
    })
    .nullish(),
  ...invoiceExtraFields,
  descriptions: z.array(descriptionInput).max(100, 'has too many descriptions (maximum is 100)').nullish(),
  settlement_positions: z.array(settlementPositionInput).max(100, 'has too many settlement positions (maximum is 100)').nullish(),
  recipients: z.array(recipientInput).max(100, 'has too many recipients (maximum is 100)').nullish(),
  /** KSeF: who issues the invoice for the seller (an accounting office, a factor…), each with its `role`. */
  issuers: z.array(recipientInput).max(100, 'has too many issuers (maximum is 100)').nullish(),
  /** Makes the new document from this one: a copy of another kind, an advance, a final invoice, a VAT invoice from a proforma. */
  copy_invoice_from: optionalId,
  advance_creation_mode: z.enum(['percent', 'amount'], { message: 'must be percent or amount' }).nullish(),
  advance_value: decimalInput.refine((v) => !v.startsWith('-'), { message: 'must not be negative' }).nullish(),
  position_name: optionalText(500),
  /** The advance invoices a final invoice settles (`[1, 2]` or `"1,2"`). */
  invoice_ids: idList.nullish(),
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

export const INVOICE_ORDER_FIELDS = [
  'number', 'issue_date', 'payment_to', 'price_gross', 'price_net', 'price_tax', 'buyer_name', 'buyer_tax_no', 'seller_name',
  'updated_at', 'paid_date', 'transaction_date', 'oid',
] as const;

/** The date a list's `period` applies to (`search_date_type`). */
export const SEARCH_DATE_TYPES = ['issue_date', 'paid_date', 'transaction_date', 'sell_date', 'payment_to'] as const;

const kindEnum = z.enum(INVOICE_KINDS, { message: `must be one of ${INVOICE_KINDS.join(', ')}` });
const kindList = z.union([
  z.array(kindEnum).max(30),
  z
    .string()
    .transform((text) => text.split(',').map((part) => part.trim()).filter(Boolean))
    .pipe(z.array(kindEnum).max(30)),
]);

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
  /** Part of the number, any case (an extension of our service: the hosted `number` is exact). */
  number_contains: z.string().max(100).optional(),
  kind: z.enum(INVOICE_KINDS).optional(),
  status: z.enum([...INVOICE_STATUSES, ...INVOICE_PAYMENT_FILTERS]).optional(),
  /** The day `overdue` is judged by (an extension); default the service's date in UTC. */
  today: optionalDate,
  /** Several kinds: `kinds[]=vat&kinds[]=proforma` (or `kinds=vat,proforma`). */
  kinds: kindList.optional(),
  /** `invoice_ids=123,456,789`. */
  invoice_ids: idList.optional(),
  /** `income=no` lists cost invoices (expenses); `yes` income only. */
  income: booleanInput.optional(),
  search_date_type: z.enum(SEARCH_DATE_TYPES).optional(),
  include_positions: booleanInput.optional(),
  /** `fields=number,price_gross`: each listed invoice with only these keys, and `id` (an extension of our service). */
  fields: z.string().max(4000).optional(),
  /** `summary=true`: the list answers its query's summary too, in the `X-Invoicekit-Summary` header (an extension of our service). */
  summary: booleanInput.optional().describe('Extension of this service: also answer the summary of the same query (GET /invoices/summary) in the X-Invoicekit-Summary header.'),
  order: z
    .string()
    .regex(new RegExp(`^(${INVOICE_ORDER_FIELDS.join('|')})(\\.(asc|desc))?$`), 'is not a sortable field')
    .optional(),
});
/** A list query as the client takes it; `fields` is asked for through `invoices.listFields`, whose answer is typed by them. */
export type InvoiceListQuery = Omit<z.input<typeof invoiceListQuery>, 'fields'>;

const s = z.string().nullable();
const n = z.number().nullable();
const d = decimalString.nullable();
/** A key the hosted service answers with `null` unless it was set; kept as given. */
const given = z.union([z.string(), z.number(), z.boolean()]).nullable();

/** One side of a correction line as answered. */
export const correctionLine = z.looseObject({
  name: z.string(),
  quantity: decimalString,
  tax: z.string(),
  price_net: decimalString,
  price_gross: decimalString,
  total_price_net: decimalString,
  total_price_tax: decimalString,
  total_price_gross: decimalString,
});

/**
 * A position as the service answers it: the reference's fields and every key of the hosted
 * service's position (28), `null` where unset.
 */
export const position = z.looseObject({
  id: z.number(),
  invoice_id: z.number(),
  product_id: n,
  name: z.string(),
  code: s,
  description: s,
  quantity: decimalString,
  quantity_unit: s,
  tax: z.string(),
  price_net: decimalString,
  price_gross: decimalString,
  price_tax: decimalString,
  total_price_net: decimalString,
  total_price_gross: decimalString,
  total_price_tax: decimalString,
  discount: d,
  discount_percent: d,
  account_id: z.number(),
  created_at: z.string(),
  updated_at: z.string(),
  additional_info: s,
  kind: s,
  invoice_position_id: n,
  deleted: z.boolean(),
  tax2: decimalString,
  exchange_rate: decimalString,
  accounting_tax_kind: s,
  additional_fields: z.record(z.string(), z.unknown()).nullable(),
  correction_before_attributes: correctionLine.optional(),
  correction_after_attributes: correctionLine.optional(),
});
export type Position = z.infer<typeof position>;

export const description = z.looseObject({ id: z.number(), title: s, content: s });
export const settlementPosition = z.looseObject({ id: z.number(), kind: z.string(), description: s, amount: decimalString });
export const recipient = z.looseObject({
  id: z.number(),
  name: s,
  first_name: s,
  last_name: s,
  tax_no: s,
  company: z.boolean(),
  country: s,
  city: s,
  post_code: s,
  street: s,
  phone: s,
  email: s,
  note: s,
  role: s,
  participation: d,
  tax_no_kind: s.optional(),
  role_description: s.optional(),
});

/** A payment connected to an invoice (`additional_fields[invoice]=connected_payments`). */
export const connectedPayment = z.looseObject({ id: z.number(), name: z.string(), price: decimalString, paid: z.boolean(), paid_date: s });

/**
 * An invoice as the service answers it: the reference's fields, then every other key of the hosted
 * service's invoice (132 in all), `null` where unset. Unknown fields are kept.
 */
export const invoice = z.looseObject({
  id: z.number(),
  number: z.string(),
  kind: z.string(),
  status: z.string(),
  income: z.boolean(),
  issue_date: z.string(),
  sell_date: z.string(),
  payment_to: s,
  /** Days as text (`"5"`), `"other_date"` or `"off"`. */
  payment_to_kind: s,
  payment_type: s,
  place: s,
  price_net: decimalString,
  price_tax: decimalString,
  price_gross: decimalString,
  paid: decimalString,
  paid_date: s,
  currency: z.string(),
  lang: z.string(),
  client_id: n,
  department_id: n,
  seller_name: s,
  seller_tax_no: s,
  seller_street: s,
  seller_post_code: s,
  seller_city: s,
  seller_country: s,
  seller_email: s,
  seller_phone: s,
  seller_bank: s,
  seller_bank_account: s,
  buyer_name: s,
  buyer_tax_no: s,
  buyer_street: s,
  buyer_post_code: s,
  buyer_city: s,
  buyer_country: s,
  buyer_email: s,
  buyer_phone: s,
  buyer_first_name: s,
  buyer_last_name: s,
  buyer_company: z.boolean(),
  show_discount: z.boolean(),
  discount_kind: z.string(),
  oid: s,
  from_invoice_id: n,
  invoice_id: n,
  product_id: n,
  warehouse_id: n,
  description: s,
  token: z.string(),
  view_url: z.string(),
  payment_url: z.string(),
  sent_time: s,
  from_api: z.boolean(),
  test: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
  user_id: n,
  accounting_income_tax_date: s,
  accounting_kind: s,
  accounting_other_tax_date: s,
  accounting_scheme: s,
  accounting_status: s,
  accounting_vat_tax_date: s,
  additional_info: z.boolean(),
  additional_info_desc: s,
  adjust_invoice_price: decimalString,
  app: s,
  approval_status: s,
  attachments_count: z.number(),
  buyer_bank: s,
  buyer_bank_account: s,
  buyer_fax: s,
  buyer_mass_payment_code: s,
  buyer_note: s,
  buyer_person: s,
  buyer_tax_no_kind: s,
  buyer_www: s,
  cancelled: z.boolean(),
  category_id: n,
  check_fiscal_print: z.boolean(),
  client_company: z.boolean(),
  correction: given,
  delivery_address: s,
  delivery_date: s,
  description_footer: s,
  description_long: s,
  discount: decimalString,
  discount_net: d,
  email_status: s,
  exchange_currency: s,
  exchange_currency_rate: d,
  exchange_currency_rate_den: decimalString,
  exchange_date: s,
  exchange_difference: decimalString,
  exchange_kind: s,
  exchange_note: s,
  exchange_rate: decimalString,
  exchange_rate_den: decimalString,
  exclude_from_accounting: z.boolean(),
  exclude_from_stock_level: z.boolean(),
  fiscal_status: s,
  has_attachments: z.boolean(),
  internal_note: s,
  invoice_template_id: n,
  issue_year: z.number(),
  issuer: s,
  not_cost: z.boolean(),
  pattern: s,
  pattern_nr: n,
  pattern_nr_d: n,
  pattern_nr_m: n,
  print_time: s,
  product_cache: s,
  recipient_id: n,
  recipient_name: s,
  recurring_id: n,
  reverse_charge: z.boolean(),
  sales_code: s,
  sell_date_kind: s,
  seller_bank_account_id: n,
  seller_fax: s,
  seller_person: s,
  seller_tax_no_kind: s,
  seller_www: s,
  show_attachments: z.boolean(),
  tax2_visible: z.boolean(),
  transaction_date: s,
  use_delivery_address: z.boolean(),
  use_issuer: z.boolean(),
  use_moss: z.boolean(),
  warehouse_document_id: n,
  exempt_tax_kind: s,
  np_tax_kind: s,
  /** KSeF: the sending state (`ok`, `processing`, `send_error`…, `demo_` outside production), null if never sent. */
  gov_status: s,
  /** KSeF: the invoice's KSeF number. */
  gov_id: s,
  gov_send_date: s,
  gov_sell_date: s,
  gov_error_messages: z.array(z.string()).nullable(),
  /** KSeF: KOD I, the link the invoice's QR code carries. */
  gov_verification_link: s,
  gov_link: s,
  gov_corrected_invoice_number: s,
  positions: z.array(position).optional(),
  descriptions: z.array(description).optional(),
  settlement_positions: z.array(settlementPosition).optional(),
  recipients: z.array(recipient).optional(),
  /** KSeF: who issues the invoice for the seller. */
  issuers: z.array(recipient).optional(),
  /** On corrections: why the invoice was corrected. */
  correction_reason: s.optional(),
  /** With `additional_fields[invoice]=cancel_reason`. */
  cancel_reason: s.optional(),
  /** With `additional_fields[invoice]=connected_payments`. */
  connected_payments: z.array(connectedPayment).optional(),
  /** With `additional_fields[invoice]=corrected_content_before,corrected_content_after`. */
  corrected_content_before: s.optional(),
  corrected_content_after: s.optional(),
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
/** `status: "error"` when KSeF holds the invoice back: in production, a company's invoice without its KSeF number. */
export const sendByEmailResult = z.looseObject({ status: z.enum(['ok', 'error']), message: z.string() });
export type SendByEmailResult = z.infer<typeof sendByEmailResult>;

/** `change_status`: the status (from the query, the body or the `invoice` wrapper) and, for `paid`, the date. */
export const changeStatusInput = z.object({
  status: z.enum(INVOICE_STATUSES, { message: `must be one of ${INVOICE_STATUSES.join(', ')}` }),
  paid_date: optionalDate,
});

/** `POST /invoices/cancel`: the invoice to cancel and why. */
export const cancelInvoiceInput = z.object({
  cancel_invoice_id: idInput,
  cancel_reason: optionalText(2000),
});
export type CancelInvoiceInput = z.input<typeof cancelInvoiceInput>;

/** Keys that `additional_fields[invoice]=…` adds to an invoice read. */
export const INVOICE_ADDITIONAL_FIELDS = ['cancel_reason', 'connected_payments', 'corrected_content_before', 'corrected_content_after'] as const;
export type InvoiceAdditionalField = (typeof INVOICE_ADDITIONAL_FIELDS)[number];

export const invoiceIdParam = idInput;
