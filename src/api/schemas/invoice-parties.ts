import * as z from 'zod';
import { booleanInput, decimalInput, decimalString, optionalId, optionalText } from './common.js';

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

const s = z.string().nullable();
const d = decimalString.nullable();

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
