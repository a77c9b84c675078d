import { type ClientFieldProblem, compactCode } from './fields.js';
import { clientProblemsWith, type ClientFormField, type ClientFormValues, taxNumberProblemWith } from './client-rules.js';
import { isValidVatNumber } from './vat-numbers.js';

export { type ClientFieldProblem, COUNTRY_CODES, compactCode, isCountryCode, isEmail, isPhone, POST_CODE_PATTERNS, postCodeProblem, vatPrefixOf } from './fields.js';
export {
  bankAccountProblem,
  CLIENT_FORM_FIELDS,
  CLIENT_TEXT_LIMITS,
  type ClientFormField,
  type ClientFormValues,
  isIban,
  isNip,
  postCodeExample,
} from './client-rules.js';

/**
 * How a client's details are checked for invoicing: tax numbers (the Polish NIP checksum, EU VAT
 * numbers by each country's check-digit rule), IBANs (mod 97), post codes by country, e-mail, phone and
 * country codes. Plain functions without zod or the DOM, so `<client-form>` checks before it
 * sends and the BFF checks what arrives with the same rules, and neither pays for the other's tools.
 * The rules themselves are in `client-rules.ts`; here they check EU VAT numbers by their check digits.
 */

/** An EU VAT number with its prefix whose check digits are right by its country's own rule. */
export function isEuVatNumber(value: string): boolean {
  const code = compactCode(value);
  return isValidVatNumber(code.slice(0, 2), code.slice(2));
}

/**
 * Checks a tax number against the client's country. A number with a VAT prefix must fit that
 * prefix's format; without one, a Polish company's must be a valid NIP and an EU company's must fit its
 * country's format. Other countries' tax numbers have too many forms to check beyond their characters.
 */
export const taxNumberProblem = (value: string, country: string): ClientFieldProblem | undefined => taxNumberProblemWith(value, country, isValidVatNumber);

/**
 * Every problem with a client's details, by field. A company needs its name and tax number, a private
 * person a name; an e-mail is needed where `emailRequired` says so (sign-up). Blank optional fields pass.
 */
export const clientProblems = (
  values: Partial<ClientFormValues>,
  options: { company: boolean; emailRequired?: boolean },
): Partial<Record<ClientFormField, ClientFieldProblem>> => clientProblemsWith(values, options, taxNumberProblem);
