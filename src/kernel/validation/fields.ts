/**
 * The checks of a client's or buyer's fields that need no check-digit rules: country codes, post codes
 * by country, e-mail and phone, and the forms tax numbers are read in. Apart from `client.ts`, which
 * re-exports them, so that the pay button's dialog imports them without the EU VAT check digits
 * (docs/decisions/lighter-elements.md).
 */

/** What is wrong with a field; the element and the BFF each turn it into their own sentence. */
export type ClientFieldProblem = 'required' | 'email' | 'phone' | 'country' | 'nip' | 'vat' | 'taxNo' | 'iban' | 'postCode';

/**
 * ISO 3166-1 alpha-2, with XK (Kosovo), which banks and tax offices use. Names come from `Intl.DisplayNames`.
 * Written by first letter, each followed by the second letters it takes (`ADEF…` is AD, AE, AF…):
 * 300 letters instead of 500, in every page that shows a country list.
 */
export const COUNTRY_CODES: readonly string[] = (
  'ADEFGILMOQRSTUWXZ BABDEFGHIJLMNOQRSTVWYZ CACDFGHIKLMNORUVWXYZ DEJKMOZ ECEGHRST FIJKMOR ' +
  'GABDEFGHILMNPQRSTUWY HKMNRTU IDELMNOQRST JEMOP KEGHIMNPRWYZ LABCIKRSTUVY ' +
  'MACDEFGHKLMNOPQRSTUVWXYZ NACEFGILOPRUZ OM PAEFGHKLMNRSTWY QA REOSUW SABCDEGHIJKLMNORSTVXYZ ' +
  'TCDFGHJKLMNORTVWZ UAGMSYZ VACEGINU WFS XK YET ZAMW'
)
  .split(' ')
  .flatMap(([first, ...seconds]) => seconds.map((second) => first! + second));

export const isCountryCode = (code: string): boolean => COUNTRY_CODES.includes(code);

/** The VAT prefix of a country: Greece is EL in VAT numbers. */
export const vatPrefixOf = (country: string): string => (country === 'GR' ? 'EL' : country);

/** `"PL 525-244-57-67"` → `"PL5252445767"`: what is left when separators are taken out. */
export const compactCode = (value: string): string => value.toUpperCase().replace(/[\s.\-/]/g, '');

/** Post code patterns by country: how forms, the checkout and the registers' addresses read them. */
export const POST_CODE_PATTERNS: Record<string, string> = {
  AT: '\\d{4}',
  AU: '\\d{4}',
  BE: '\\d{4}',
  BG: '\\d{4}',
  CA: '[A-Z]\\d[A-Z] ?\\d[A-Z]\\d',
  CH: '\\d{4}',
  CY: '\\d{4}',
  CZ: '\\d{3} ?\\d{2}',
  DE: '\\d{5}',
  DK: '\\d{4}',
  EE: '\\d{5}',
  ES: '\\d{5}',
  FI: '\\d{5}',
  FR: '\\d{5}',
  GB: '[A-Z]{1,2}\\d[A-Z\\d]? ?\\d[A-Z]{2}',
  GR: '\\d{3} ?\\d{2}',
  HR: '\\d{5}',
  HU: '\\d{4}',
  IE: '[A-Z]\\d[\\dW] ?[A-Z\\d]{4}',
  IT: '\\d{5}',
  JP: '\\d{3}-?\\d{4}',
  LT: '(LT-)?\\d{5}',
  LU: '(L-)?\\d{4}',
  LV: '(LV-)?\\d{4}',
  MT: '[A-Z]{3} ?\\d{4}',
  NL: '\\d{4} ?[A-Z]{2}',
  NO: '\\d{4}',
  PL: '\\d{2}-\\d{3}',
  PT: '\\d{4}-\\d{3}',
  RO: '\\d{6}',
  SE: '\\d{3} ?\\d{2}',
  SI: '(SI-)?\\d{4}',
  SK: '\\d{3} ?\\d{2}',
  UA: '\\d{5}',
  US: '\\d{5}(-\\d{4})?',
};

export function postCodeProblem(value: string, country: string): ClientFieldProblem | undefined {
  const code = value.trim().toUpperCase();
  if (!code) return undefined;
  const pattern = POST_CODE_PATTERNS[country];
  if (pattern) return new RegExp(`^(${pattern})$`).test(code) ? undefined : 'postCode';
  return /^[A-Z0-9][A-Z0-9 -]{1,11}$/.test(code) ? undefined : 'postCode';
}

/** One address, a domain with a dot, nothing a mail server would refuse on sight. */
export const isEmail = (value: string): boolean => /^[^\s@"<>(),;:]+@[^\s@"<>(),;:_]+\.[A-Za-z]{2,}$/.test(value.trim()) && !/\.\./.test(value);

/** Digits with the usual separators and an optional leading `+`: 6 to 20 digits in all. */
export const isPhone = (value: string): boolean =>
  /^\+?[\d\s()./-]+$/.test(value.trim()) && /^(\D*\d){6,20}\D*$/.test(value);
