import { z } from 'zod';
import { clientProblems, type ClientFormField } from '../kernel/validation/client.js';
import { CLIENT_PROBLEM_TEXT } from '../kernel/validation/problem-text.js';

/**
 * What a customer may send about their own client record (`PUT /bff/client`) or a new one
 * (`POST /bff/clients`): exactly the fields below, nothing else (`kind`, `external_id`, `note`, `token`
 * and ids stay the account's business). Each is checked for invoicing with the rules `<client-form>`
 * applies in the browser; lengths are the service's own limits, whose 422 reaches the page field by field.
 */

/** The field errors the BFF answers with, in the service's style. */
export { CLIENT_PROBLEM_TEXT };

const text = z.string({ message: 'must be text' }).trim();
const optionalText = text.nullish();

const customerFields = {
  name: optionalText,
  first_name: optionalText,
  last_name: optionalText,
  person: optionalText,
  tax_no: optionalText,
  email: optionalText,
  phone: optionalText,
  street: optionalText,
  post_code: optionalText,
  city: optionalText,
  country: optionalText.transform((code) => (code ? code.toUpperCase() : code)),
  bank: optionalText,
  bank_account: optionalText,
  /** A company (true) or a private person (false). */
  company: z.boolean({ message: 'must be true or false' }).optional(),
};

/** Adds an issue per field that fails the invoicing checks; a field not sent is not checked. */
function checkFormats(value: Record<string, unknown>, ctx: z.RefinementCtx, emailRequired: boolean): void {
  const problems = clientProblems(value as Partial<Record<ClientFormField, string>>, { company: false, emailRequired });
  for (const [field, problem] of Object.entries(problems)) {
    // The name rule of each route is its own: sign-up also takes first and last names.
    if (field === 'name' && problem === 'required') continue;
    ctx.addIssue({ code: 'custom', message: CLIENT_PROBLEM_TEXT[problem], path: [field] });
  }
}

/** `PUT /bff/client`: any of the customer's fields; blank clears an optional one. */
export const customerClientInput = z.strictObject(customerFields).superRefine((value, ctx) => checkFormats(value, ctx, false));

/** `POST /bff/clients`: an e-mail and a name (or first and last names) are required. */
export const signupInput = z
  .strictObject(customerFields)
  .superRefine((value, ctx) => {
    checkFormats(value, ctx, true);
    if (!(value.name || value.first_name || value.last_name)) ctx.addIssue({ code: 'custom', message: CLIENT_PROBLEM_TEXT.required, path: ['name'] });
  });
