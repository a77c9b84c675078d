import * as z from 'zod';
import { PORTAL_CLIENT_ID } from '../../kernel/portal-url.js';
import { optionalText, textInput } from './common.js';
import { einvoiceAddressInput } from './einvoice.js';

/** An absolute http(s) address with `{client_id}` in it; empty text is no address. */
const portalUrlInput = z.preprocess(
  (value) => (typeof value === 'string' && value.trim() === '' ? null : typeof value === 'string' ? value.trim() : value),
  z
    .string({ message: 'must be text' })
    .max(500, 'is too long (maximum is 500 characters)')
    .refine((text) => /^https?:\/\/[^/?#\s]/i.test(text) && URL.canParse(text), { message: 'must be an absolute http(s) address', abort: true })
    .refine((text) => text.includes(PORTAL_CLIENT_ID), { message: `must contain ${PORTAL_CLIENT_ID} where the customer's id goes` })
    .nullable(),
);

/** Departments (seller entities) and the integration resources of spec §4.8. */
export const department = z.looseObject({
  id: z.number(),
  name: z.string(),
  shortcut: z.string().nullable(),
  tax_no: z.string().nullable(),
  street: z.string().nullable(),
  post_code: z.string().nullable(),
  city: z.string().nullable(),
  country: z.string().nullable(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  bank: z.string().nullable(),
  bank_account: z.string().nullable(),
  main: z.boolean(),
  logo_url: z.string().nullable(),
  /** The host's customer portal with `{client_id}` (an extension of this service). */
  portal_url: z.string().nullable().optional(),
  /** E-invoices: the seller's electronic address (BT-34). */
  einvoice_address: z.string().nullish(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Department = z.infer<typeof department>;
export const departmentList = z.array(department);

export const departmentInput = z.object({
  name: optionalText(300),
  shortcut: optionalText(100),
  tax_no: optionalText(50),
  street: optionalText(300),
  post_code: optionalText(30),
  city: optionalText(200),
  country: optionalText(100),
  email: optionalText(300),
  phone: optionalText(100),
  bank: optionalText(200),
  bank_account: optionalText(100),
  /**
   * Origins of the shop pages that embed this account's product widget (`https://shop.example`): the
   * only places a widget checkout sends its buyer back to. An extension of this service.
   */
  widget_origins: z
    .array(
      z.url({ protocol: /^https?$/, message: 'must be an http(s) origin' }).max(300).refine((url) => new URL(url).origin === url.replace(/\/$/, ''), 'must be an origin only, as https://shop.example'),
      { message: 'must be a list of origins' },
    )
    .max(20, 'has too many origins (maximum is 20)')
    .nullish(),
  /**
   * Registered for the OSS Union scheme (art. 130a–130d of the VAT act): EU consumers of electronic
   * services and of goods sent to them pay their own state's VAT, declared through OSS. An extension
   * of this service.
   */
  oss_registered: z.boolean({ message: 'must be true or false' }).nullish(),
  /**
   * The host's customer portal, with `{client_id}` where the customer goes
   * (`https://shop.example/account/invoices?customer={client_id}`): the back office opens a
   * customer's portal view there. Empty or `null` removes it. An extension of this service.
   */
  portal_url: portalUrlInput.nullish(),
  /** E-invoices: the seller's electronic address (BT-34), `0208:0123456789`, which Peppol and XRechnung require. */
  einvoice_address: einvoiceAddressInput,
});
export type DepartmentInput = z.input<typeof departmentInput>;

const password = z.string({ message: 'must be text' }).min(8, 'is too short (minimum is 8 characters)').max(200);

export const addUserInput = z.object({
  integration_token: z.string().optional(),
  user: z.object({
    email: textInput(300).pipe(z.email({ message: 'is not an e-mail address' })),
    password,
    login: optionalText(100),
    role: optionalText(50),
  }),
});

export const loginInput = z.object({
  login: textInput(300),
  password: z.string({ message: 'must be text' }).max(200),
  integration_token: z.string().optional(),
});

export const companyInput = z.object({
  name: optionalText(300),
  tax_no: optionalText(50),
  post_code: optionalText(30),
  city: optionalText(200),
  street: optionalText(300),
  person: optionalText(200),
  bank: optionalText(200),
  bank_account: optionalText(100),
});

export const createAccountInput = z.object({
  api_token: z.string().optional(),
  integration_token: z.string().optional(),
  account: z.object({
    prefix: z
      .string({ message: 'must be text' })
      .trim()
      .toLowerCase()
      .regex(/^[a-z0-9][a-z0-9-]{1,40}$/, 'may hold only letters, digits and - (2 to 41)'),
  }),
  user: z
    .object({
      login: optionalText(100),
      email: textInput(300).pipe(z.email({ message: 'is not an e-mail address' })),
      password,
      from_partner: optionalText(100),
    })
    .optional(),
  company: companyInput.optional(),
});

export const loginResult = z.looseObject({
  login: z.string(),
  email: z.string(),
  prefix: z.string(),
  url: z.string(),
  first_name: z.string().nullable(),
  last_name: z.string().nullable(),
  api_token: z.string(),
});
export type LoginResult = z.infer<typeof loginResult>;

export const accountResult = z.looseObject({
  prefix: z.string(),
  api_token: z.string(),
  url: z.string(),
  login: z.string().nullable(),
  email: z.string().nullable(),
});
export type AccountResult = z.infer<typeof accountResult>;

export const accountInfo = z.looseObject({
  id: z.number(),
  prefix: z.string(),
  name: z.string().nullable(),
  url: z.string(),
  created_at: z.string(),
});
export type AccountInfo = z.infer<typeof accountInfo>;

export const userResult = z.looseObject({
  id: z.number(),
  login: z.string(),
  email: z.string(),
  created_at: z.string(),
});
export type UserResult = z.infer<typeof userResult>;
