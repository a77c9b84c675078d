import * as z from 'zod';
import { booleanInput, currencyInput, decimalInput, decimalString, optionalDate, optionalId, optionalText, pageQuery } from './common.js';

/** A checkout's tax decision as the BFF sends it (src/server-kit/sale.ts `SaleTerms`). */
const saleTermsInput = z.object(
  {
    case: z.enum(['domestic', 'exempt', 'intra_eu_supply', 'eu_reverse_charge', 'non_eu_service', 'export', 'oss', 'eu_consumer_domestic', 'non_eu_consumer_electronic'], { message: 'is not a tax case' }),
    tax: z.string().max(10).regex(/^(\d{1,2}(\.\d{1,2})?|np|zw|oo)$/, 'is not a rate').nullable(),
    invoice_kind: z.enum(['vat', 'wdt', 'export_products'], { message: 'is not an invoice kind of a sale' }),
    np_tax_kind: z.enum(['export_service', 'export_service_eu'], { message: 'is not an np kind' }).nullable(),
    reverse_charge: z.boolean(),
    use_oss: z.boolean(),
    oss_country: z.string().regex(/^[A-Z]{2}$/, 'must be a country code').nullable(),
    vies: z
      .object({ status: z.string().max(20), request_identifier: z.string().max(100).nullable(), request_date: z.string().max(100).nullable(), vat_number: z.string().max(20).nullable() })
      .nullish(),
    fallback: z.enum(['vies_invalid', 'vies_unavailable', 'vies_not_checked']).nullish(),
  },
  { message: 'must be an object' },
);

const paymentFields = {
  name: optionalText(500),
  price: decimalInput.nullish(),
  invoice_id: optionalId,
  paid: booleanInput.nullish(),
  kind: optionalText(50),
  city: optionalText(200),
  country: optionalText(100),
  post_code: optionalText(30),
  street: optionalText(300),
  phone: optionalText(100),
  client_id: optionalId,
  department_id: optionalId,
  comment: optionalText(5000),
  currency: currencyInput.nullish(),
  deleted: booleanInput.nullish(),
  description: optionalText(5000),
  email: optionalText(300),
  first_name: optionalText(200),
  last_name: optionalText(200),
  generate_invoice: booleanInput.nullish(),
  invoice_city: optionalText(200),
  invoice_comment: optionalText(5000),
  invoice_country: optionalText(100),
  invoice_name: optionalText(300),
  invoice_post_code: optionalText(30),
  invoice_street: optionalText(300),
  invoice_tax_no: optionalText(50),
  oid: optionalText(200),
  paid_date: optionalDate,
  product_id: optionalId,
  promocode: optionalText(100),
  provider: optionalText(100),
  provider_response: optionalText(10000),
  provider_status: optionalText(100),
  provider_title: optionalText(300),
  quantity: decimalInput.nullish(),
  /** Where the service's own payment page sends the buyer afterwards (an extension of this service). */
  return_url: z.url({ protocol: /^https?$/, message: 'must be an http(s) URL' }).max(2000).nullish(),
  cancel_url: z.url({ protocol: /^https?$/, message: 'must be an http(s) URL' }).max(2000).nullish(),
  /** The checkout's language: its page, the invoice, its PDF and e-mail speak it (an extension of this service). */
  lang: z.enum(['pl', 'en'], { message: 'must be pl or en' }).nullish(),
  /** The invoice's `buyer_company` and `buyer_tax_no_kind` (extensions of this service). */
  invoice_company: booleanInput.nullish(),
  invoice_tax_no_kind: optionalText(50),
  /** The VIES consultation behind a 0 % or np to an EU business, kept as evidence (an extension of this service). */
  vies_status: z.enum(['valid', 'invalid', 'unavailable'], { message: 'must be valid, invalid or unavailable' }).nullish(),
  vies_request_identifier: optionalText(100),
  vies_request_date: optionalText(100),
  /** How a checkout taxed the sale, which its invoice follows (an extension of this service). */
  sale_terms: saleTermsInput.nullish(),
};

/** Body of `POST /banking/payments` (inside the `banking_payment` wrapper). */
export const paymentCreateInput = z.object(paymentFields);
export type PaymentCreateInput = z.input<typeof paymentCreateInput>;
export const paymentUpdateInput = z.object(paymentFields).partial();
export type PaymentUpdateInput = z.input<typeof paymentUpdateInput>;
export const paymentListQuery = pageQuery.extend({ invoice_id: optionalId, oid: z.string().optional() });
export type PaymentListQuery = z.input<typeof paymentListQuery>;

/** Where a BLIK payment stands (an extension of this service): never its code. */
export const paymentBlik = z.object({
  status: z.enum(['pending', 'paid', 'failed']),
  reason: z.enum(['wrong_code', 'expired_code', 'declined', 'timeout', 'provider_error']).nullable(),
  /** When the code stops being good: two minutes after it was sent. */
  expires_at: z.string(),
});
export type PaymentBlik = z.infer<typeof paymentBlik>;

/** Body of `POST /banking/payments/{id}/blik`: the six digits from the buyer's bank app. */
export const blikCodeInput = z.object({ code: z.string().describe('Six digits; spaces are ignored. Sent once to the provider, never stored or echoed.') });
export type BlikCodeInput = z.input<typeof blikCodeInput>;

/** `GET /account/payment_methods`: who takes the account's payments, and whether its checkouts take BLIK codes. */
export const paymentMethods = z.object({
  provider: z.enum(['test', 'stripe', 'przelewy24']).nullable(),
  test_mode: z.boolean(),
  /** True when the provider takes a BLIK code on the page (for payments in PLN). */
  blik: z.boolean(),
});
export type PaymentMethods = z.infer<typeof paymentMethods>;

const s = z.string().nullable();
const n = z.number().nullable();
export const payment = z.looseObject({
  id: z.number(),
  name: z.string(),
  price: decimalString,
  quantity: decimalString,
  currency: z.string(),
  paid: z.boolean(),
  paid_date: s,
  kind: z.string(),
  invoice_id: n,
  client_id: n,
  department_id: n,
  product_id: n,
  description: s,
  email: s,
  first_name: s,
  last_name: s,
  oid: s,
  provider: s,
  deleted: z.boolean(),
  generate_invoice: z.boolean(),
  comment: s,
  phone: s,
  street: s,
  post_code: s,
  city: s,
  country: s,
  invoice_name: s,
  invoice_tax_no: s,
  invoice_street: s,
  invoice_post_code: s,
  invoice_city: s,
  invoice_country: s,
  invoice_comment: s,
  promocode: s,
  provider_response: s,
  provider_status: s,
  provider_title: s,
  /** A BLIK payment's state; null for any other (absent from the hosted service). */
  blik: paymentBlik.nullish(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Payment = z.infer<typeof payment>;
export const paymentList = z.array(payment);
