import * as z from 'zod';
import { CLIENT_TEXT_LIMITS as max } from '../validation/client.js';
import { optionalText, pageQuery } from './common.js';

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
