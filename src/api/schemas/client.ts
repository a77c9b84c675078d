import * as z from 'zod';
import { CLIENT_TEXT_LIMITS as max } from '../../kernel/validation/client.js';
import { booleanInput, decimalInput, decimalString, optionalId, optionalText, pageQuery, textInput } from './common.js';
import { buyerReferenceInput, EINVOICE_FORMATS, einvoiceAddressInput, einvoiceFormatInput } from './einvoice.js';

export const CLIENT_KINDS = ['buyer', 'seller', 'both'] as const;

const clientFields = {
  name: optionalText(max.name),
  tax_no: optionalText(max.tax_no),
  bank: optionalText(max.bank),
  bank_account: optionalText(max.bank_account),
  city: optionalText(max.city),
  country: optionalText(max.country),
  email: optionalText(max.email),
  person: optionalText(max.person),
  post_code: optionalText(max.post_code),
  phone: optionalText(max.phone),
  street: optionalText(max.street),
  first_name: optionalText(200),
  last_name: optionalText(200),
  company: z.unknown().optional(),
  kind: z.enum(CLIENT_KINDS).nullish(),
  external_id: optionalText(200),
  note: optionalText(10000),
  /**
   * The change is the customer's own, made through a portal: the record is then never found by
   * name, tax number or e-mail when an invoice names no client_id. Sent by the BFF; the hosted
   * service ignores it.
   */
  self_service: booleanInput.optional(),
  shortcut: optionalText(300),
  www: optionalText(300),
  fax: optionalText(100),
  mobile_phone: optionalText(100),
  register_number: optionalText(50),
  accounting_id: optionalText(100),
  tax_no_kind: optionalText(50),
  title: optionalText(100),
  street_no: optionalText(50),
  delivery_address: optionalText(1000),
  use_delivery_address: booleanInput.nullish(),
  mass_payment_code: optionalText(100),
  use_mass_payment: booleanInput.nullish(),
  default_payment_type: optionalText(100),
  /** Default payment term: days as a number or text, `off`, or a date. */
  payment_to_kind: z.union([z.number().int().min(0).max(3650), textInput(20)]).nullish(),
  discount: decimalInput.nullish(),
  disable_auto_reminders: booleanInput.nullish(),
  category_id: optionalId,
  department_id: optionalId,
  buyer_id: optionalId,
  bank_account_id: optionalId,
  /** E-invoices: the client's electronic address (BT-49), `0208:0123456789`. */
  einvoice_address: einvoiceAddressInput,
  /** E-invoices: the buyer reference (BT-10), the Leitweg-ID for XRechnung. */
  buyer_reference: buyerReferenceInput,
  /** E-invoices: the document `send_by_email` sends this client (`ubl`, `cii`, `xrechnung`, `facturx`), or none. */
  einvoice_format: einvoiceFormatInput,
};

export const clientCreateInput = z.object(clientFields);
export type ClientCreateInput = z.input<typeof clientCreateInput>;
export const clientUpdateInput = z.object(clientFields).partial();
export type ClientUpdateInput = z.input<typeof clientUpdateInput>;

export const clientListQuery = pageQuery.extend({
  external_id: z.string().optional(),
  name: z.string().optional(),
  email: z.string().optional(),
  tax_no: z.string().optional(),
  shortcut: z.string().optional(),
});
export type ClientListQuery = z.input<typeof clientListQuery>;

const s = z.string().nullable();
const n = z.number().nullable();

/**
 * A client as the service answers it: the reference's fields, then every other key of the hosted
 * service's client (54 in all), `null` where unset. Unknown fields are kept.
 */
export const client = z.looseObject({
  id: z.number(),
  name: z.string(),
  tax_no: s,
  bank: s,
  bank_account: s,
  city: s,
  country: s,
  email: s,
  person: s,
  post_code: s,
  phone: s,
  street: s,
  first_name: s,
  last_name: s,
  company: z.boolean(),
  kind: z.string(),
  external_id: s,
  note: s,
  token: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
  accounting_id: s,
  attachments_count: z.number(),
  /** What the client has paid less what its invoices ask, over income invoices that are not cancelled. */
  balance: decimalString,
  bank_account_id: n,
  buyer_id: n,
  category_id: n,
  default_payment_type: s,
  deleted: z.boolean(),
  delivery_address: s,
  department_id: n,
  disable_auto_reminders: z.boolean(),
  discount: decimalString.nullable(),
  dynamic_fields: z.record(z.string(), z.unknown()),
  fax: s,
  femail: s,
  fname: s,
  fuid: s,
  import: s,
  mass_payment_code: s,
  mobile_phone: s,
  panel_user_id: n,
  password_hash: s,
  password_salt: s,
  payment_to_kind: s,
  referrer: s,
  register_number: s,
  shortcut: z.string(),
  street_no: s,
  tax_no_check: s,
  tax_no_kind: s,
  title: s,
  use_delivery_address: z.boolean(),
  use_mass_payment: z.boolean(),
  www: s,
  /** E-invoices: the client's electronic address (BT-49) and buyer reference (BT-10); an extension of this service. */
  einvoice_address: z.string().nullish(),
  buyer_reference: z.string().nullish(),
  einvoice_format: z.enum(EINVOICE_FORMATS).nullish(),
});
export type Client = z.infer<typeof client>;
export const clientList = z.array(client);
