import * as z from 'zod';
import { booleanInput, decimalString, idInput, optionalDate, optionalId, pageQuery } from './common.js';
import { INVOICE_KINDS, INVOICE_STATUSES } from './invoice-kinds.js';

/** `[1, 2]`, `["1", "2"]` or `"1,2"`. */
export const idList = z.preprocess(
  (value) => (typeof value === 'string' ? value.split(',').map((part) => part.trim()).filter(Boolean) : value),
  z.array(idInput).max(1000, 'has too many ids (maximum is 1000)'),
);

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
