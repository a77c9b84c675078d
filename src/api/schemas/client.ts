import * as z from 'zod';
import { booleanInput, optionalText, pageQuery } from './common.js';

export const CLIENT_KINDS = ['buyer', 'seller', 'both'] as const;

const clientFields = {
  name: optionalText(300),
  tax_no: optionalText(50),
  bank: optionalText(200),
  bank_account: optionalText(100),
  city: optionalText(200),
  country: optionalText(100),
  email: optionalText(300),
  person: optionalText(200),
  post_code: optionalText(30),
  phone: optionalText(100),
  street: optionalText(300),
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
});
export type ClientListQuery = z.input<typeof clientListQuery>;

const s = z.string().nullable();
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
});
export type Client = z.infer<typeof client>;
export const clientList = z.array(client);
