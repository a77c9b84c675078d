import * as z from 'zod';
import { booleanInput, currencyInput, decimalInput, decimalString, idInput, optionalDate, optionalId, optionalText } from './common.js';
import { DISCOUNT_KINDS, INVOICE_KINDS, INVOICE_STATUSES } from './invoice-kinds.js';
import { description, descriptionInput, settlementPosition, settlementPositionInput } from './invoice-notes.js';
import { recipient, recipientInput } from './invoice-parties.js';
import { MAX_POSITIONS_TEXT, nonNegativeDecimal, position, positionInput, positionsText } from './invoice-positions.js';
import { idList } from './invoice-query.js';
import { buyerReferenceInput, einvoiceAddressInput } from './einvoice.js';

// The invoice's parts live in modules of their own; this one exports them too, so every import of it keeps working.
export { DISCOUNT_KINDS, INVOICE_KINDS, INVOICE_STATUSES, type DiscountKind, type InvoiceKind, type InvoiceStatus } from './invoice-kinds.js';
export { description, descriptionInput, settlementPosition, settlementPositionInput } from './invoice-notes.js';
export { recipient, recipientInput } from './invoice-parties.js';
export {
  MAX_POSITIONS_TEXT, TAX_CODES, correctionLine, correctionSide, position, positionInput, taxInput, type Position, type PositionInput,
} from './invoice-positions.js';
export {
  INVOICE_ORDER_FIELDS, INVOICE_PAYMENT_FILTERS, PERIODS, SEARCH_DATE_TYPES, idList, invoiceListQuery, invoiceSummary,
  type InvoiceListQuery, type InvoicePaymentFilter, type InvoiceSummary, type Period,
} from './invoice-query.js';
export {
  cancelInvoiceInput, changeStatusInput, sendByEmailInput, sendByEmailResult,
  type CancelInvoiceInput, type SendByEmailInput, type SendByEmailResult,
} from './invoice-actions.js';

export const paymentToKindInput = z.preprocess(
  (value) => (typeof value === 'string' && /^\s*-?\d+\s*$/.test(value) ? Number(value) : value),
  z.union([z.number().int().min(0).max(3650), z.enum(['other_date', 'off'])], {
    message: 'must be a number of days, other_date or off',
  }),
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
  /** E-invoices: the buyer's electronic address (BT-49), `0208:0123456789`; the client's when unset. */
  buyer_einvoice_address: einvoiceAddressInput,
  /** E-invoices: the buyer reference (BT-10), the Leitweg-ID for XRechnung; the client's when unset. */
  buyer_reference: buyerReferenceInput,
};

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

const s = z.string().nullable();
const n = z.number().nullable();
const d = decimalString.nullable();
/** A key the hosted service answers with `null` unless it was set; kept as given. */
const given = z.union([z.string(), z.number(), z.boolean()]).nullable();

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
  /** E-invoices (an extension of this service, so optional in answers of the hosted service). */
  buyer_einvoice_address: z.string().nullish(),
  buyer_reference: z.string().nullish(),
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

/** Keys that `additional_fields[invoice]=…` adds to an invoice read. */
export const INVOICE_ADDITIONAL_FIELDS = ['cancel_reason', 'connected_payments', 'corrected_content_before', 'corrected_content_after'] as const;
export type InvoiceAdditionalField = (typeof INVOICE_ADDITIONAL_FIELDS)[number];

export const invoiceIdParam = idInput;
