import * as z from 'zod';
import { booleanInput, optionalText, textInput } from './common.js';

/** Issuers: the people or entities named as issuing an invoice on the seller's behalf. */
const issuerFields = {
  name: textInput(300),
  tax_no: optionalText(50),
  first_name: optionalText(200),
  last_name: optionalText(200),
  company: booleanInput.nullish(),
  email: optionalText(300),
  phone: optionalText(100),
  street: optionalText(300),
  post_code: optionalText(30),
  city: optionalText(200),
  country: optionalText(100),
  note: optionalText(5000),
};

export const issuerCreateInput = z.object(issuerFields);
export type IssuerCreateInput = z.input<typeof issuerCreateInput>;
export const issuerUpdateInput = z.object(issuerFields).partial();
export type IssuerUpdateInput = z.input<typeof issuerUpdateInput>;

const s = z.string().nullable();
export const issuer = z.looseObject({
  id: z.number(),
  name: z.string(),
  tax_no: s,
  first_name: s,
  last_name: s,
  company: z.boolean(),
  email: s,
  phone: s,
  street: s,
  post_code: s,
  city: s,
  country: s,
  note: s,
  created_at: z.string(),
  updated_at: z.string(),
});
export type Issuer = z.infer<typeof issuer>;
export const issuerList = z.array(issuer);
