import { type ClientFieldProblem, compactCode, isCountryCode, isEmail, isPhone, POST_CODE_PATTERNS, postCodeProblem, vatPrefixOf } from './fields.js';
import { isValidVatNumber, VAT_NUMBER_CHECKS } from './vat-numbers.js';

export { type ClientFieldProblem, COUNTRY_CODES, compactCode, isCountryCode, isEmail, isPhone, POST_CODE_PATTERNS, postCodeProblem, vatPrefixOf } from './fields.js';

/**
 * How a client's details are checked for invoicing: tax numbers (the Polish NIP checksum, EU VAT
 * numbers by each country's check-digit rule), IBANs (mod 97), post codes by country, e-mail, phone and
 * country codes. Plain functions without zod or the DOM, so `<client-form>` checks before it
 * sends and the BFF checks what arrives with the same rules, and neither pays for the other's tools.
 */

/** The longest text the service keeps in each field of a client; its zod schema reads these too. */
export const CLIENT_TEXT_LIMITS = {
  name: 300,
  tax_no: 50,
  bank: 200,
  bank_account: 100,
  city: 200,
  country: 100,
  email: 300,
  person: 200,
  post_code: 30,
  phone: 100,
  street: 300,
} as const;

/** The fields a customer keeps in `<client-form>`, in the order the form shows them. */
export const CLIENT_FORM_FIELDS = [
  'name', 'tax_no', 'person', 'email', 'phone', 'street', 'post_code', 'city', 'country', 'bank', 'bank_account',
] as const;
export type ClientFormField = (typeof CLIENT_FORM_FIELDS)[number];
export type ClientFormValues = Record<ClientFormField, string>;

/** The Polish NIP: ten digits whose weighted sum modulo 11 is the last digit. */
export function isNip(value: string): boolean {
  const digits = compactCode(value).replace(/^PL/, '');
  if (!/^\d{10}$/.test(digits)) return false;
  const sum = [6, 5, 7, 2, 3, 4, 5, 6, 7].reduce((total, weight, i) => total + weight * Number(digits[i]), 0);
  return sum % 11 === Number(digits[9]);
}

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
export function taxNumberProblem(value: string, country: string): ClientFieldProblem | undefined {
  const code = compactCode(value);
  if (!code) return undefined;
  const prefix = code.slice(0, 2);
  if (/^[A-Z]{2}/.test(prefix) && VAT_NUMBER_CHECKS[prefix]) {
    if (prefix === 'PL') return isNip(code) ? undefined : 'nip';
    return isEuVatNumber(code) ? undefined : 'vat';
  }
  if (country === 'PL' || (!country && /^\d{10}$/.test(code))) return isNip(code) ? undefined : 'nip';
  const own = vatPrefixOf(country);
  if (VAT_NUMBER_CHECKS[own] && country !== 'GB') return isEuVatNumber(own + code) ? undefined : 'vat';
  return /^[A-Z0-9]{4,30}$/.test(code) ? undefined : 'taxNo';
}

/** An IBAN: 15 to 34 characters, country letters, check digits, and the ISO 13616 check (mod 97 = 1). */
export function isIban(value: string): boolean {
  const iban = compactCode(value);
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/.test(iban)) return false;
  let rest = 0;
  for (const char of iban.slice(4) + iban.slice(0, 4)) {
    const n = parseInt(char, 36);
    rest = (n > 9 ? rest * 100 + n : rest * 10 + n) % 97;
  }
  return rest === 1;
}

/** Countries beyond the EU's whose bank accounts are IBANs. */
const IBAN_COUNTRIES = 'CH GB IS LI NO UA TR';

/**
 * A bank account as an invoice needs it. In the EU and the countries above it must be an IBAN; a Polish
 * account of 26 digits (NRB) is an IBAN without its `PL`. Elsewhere any 5 to 34 letters and digits.
 */
export function bankAccountProblem(value: string, country: string): ClientFieldProblem | undefined {
  const account = compactCode(value);
  if (!account) return undefined;
  if (/^[A-Z]{2}\d\d/.test(account) || VAT_NUMBER_CHECKS[vatPrefixOf(country)] || IBAN_COUNTRIES.includes(country || '-')) {
    const iban = /^\d{26}$/.test(account) && (country === 'PL' || !country) ? `PL${account}` : account;
    return isIban(iban) ? undefined : 'iban';
  }
  return /^[A-Z0-9]{5,34}$/.test(account) ? undefined : 'iban';
}

/** An example post code of each country above, in their order; apart, so a check alone ships none. */
const POST_CODE_EXAMPLES = '1010|2000|1000|1000|K1A 0B1|8001|1010|110 00|10115|1050|10111|28001|00100|75001|SW1A 1AA|105 57|10000|1051|D02 X285|00184|100-0001|LT-01100|1009|LV-1050|VLT 1117|1012 AB|0150|00-950|1000-001|010011|111 22|1000|811 01|01001|20500';

/** An example post code of `country` for a message to show (`"00-950"`), if its format is known. */
export const postCodeExample = (country: string): string | undefined =>
  POST_CODE_EXAMPLES.split('|')[Object.keys(POST_CODE_PATTERNS).indexOf(country)];

/**
 * Every problem with a client's details, by field. A company needs its name and tax number, a private
 * person a name; an e-mail is needed where `emailRequired` says so (sign-up). Blank optional fields pass.
 */
export function clientProblems(
  values: Partial<ClientFormValues>,
  options: { company: boolean; emailRequired?: boolean },
): Partial<Record<ClientFormField, ClientFieldProblem>> {
  const get = (field: ClientFormField) => (values[field] ?? '').trim();
  // A country that is no code checks the rest as if none were given.
  const country = isCountryCode(get('country')) ? get('country') : '';
  const problems: Partial<Record<ClientFormField, ClientFieldProblem>> = {};
  const check = (field: ClientFormField, problem: ClientFieldProblem | false | undefined) => {
    if (problem) problems[field] ??= problem;
  };
  if (!get('name')) check('name', 'required');
  if (options.company && !get('tax_no')) check('tax_no', 'required');
  if (options.emailRequired && !get('email')) check('email', 'required');
  check('tax_no', taxNumberProblem(get('tax_no'), country));
  check('email', !!get('email') && !isEmail(get('email')) && 'email');
  check('phone', !!get('phone') && !isPhone(get('phone')) && 'phone');
  check('country', !!get('country') && !country && 'country');
  check('post_code', postCodeProblem(get('post_code'), country));
  check('bank_account', bankAccountProblem(get('bank_account'), country));
  return problems;
}
