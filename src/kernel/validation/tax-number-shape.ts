import { type ClientFieldProblem, compactCode, vatPrefixOf } from './fields.js';

/**
 * Tax numbers checked by their shape alone: each VAT prefix's characters and length, as its country's
 * check-digit rule in `vat-numbers.ts` first requires them, without the check digits. What the pay
 * button's dialog checks as the buyer types; the server's quote adds the check digits' verdict
 * (docs/decisions/lighter-elements.md). Every number this finds wrong, `taxNumberProblem` finds wrong
 * with the same problem (test/kernel/tax-number-shape.test.ts).
 */

/** The shape of the number after each VAT prefix (Greece is EL), for the prefixes `VAT_NUMBER_CHECKS` knows. */
export const VAT_NUMBER_SHAPES: Record<string, string> = {
  AT: 'U\\d{8}',
  BE: '[01]?\\d{9}',
  BG: '\\d{9,10}',
  CY: '\\d{8}[A-Z]',
  CZ: '\\d{8,10}',
  DE: '[1-9]\\d{8}',
  DK: '[1-9]\\d{7}',
  EE: '\\d{9}',
  EL: '\\d{8,9}',
  ES: '[A-Z\\d]\\d{7}[A-Z\\d]',
  FI: '\\d{8}',
  FR: '[\\dA-HJ-NP-Z]{2}\\d{9}',
  HR: '\\d{11}',
  HU: '\\d{8}',
  IE: '\\d{7}[A-W][A-I]?|\\d[A-Z+*]\\d{5}[A-W]',
  IT: '\\d{11}',
  LT: '\\d{9}|\\d{12}',
  LU: '\\d{8}',
  LV: '\\d{11}',
  MT: '[1-9]\\d{7}',
  NL: '\\d{9}B\\d{2}',
  PL: '\\d{10}',
  PT: '[1-9]\\d{8}',
  RO: '[1-9]\\d{1,9}',
  SE: '\\d{10}01',
  SI: '[1-9]\\d{7}',
  SK: '\\d{10}',
  XI: '\\d{9}|\\d{12}|GD\\d{3}|HA\\d{3}',
  GB: '\\d{9}|\\d{12}|GD\\d{3}|HA\\d{3}',
};

const fits = (prefix: string, number: string): boolean => new RegExp(`^(${VAT_NUMBER_SHAPES[prefix]})$`).test(number);

/**
 * `taxNumberProblem`'s rules with shapes for check digits: a number with a VAT prefix must have that
 * prefix's shape; without one, a Polish company's must be ten digits and an EU company's must have its
 * country's shape. Other countries' numbers are checked by their characters, as there.
 */
export function taxNumberShapeProblem(value: string, country: string): ClientFieldProblem | undefined {
  const code = compactCode(value);
  if (!code) return undefined;
  const prefix = code.slice(0, 2);
  if (/^[A-Z]{2}/.test(prefix) && VAT_NUMBER_SHAPES[prefix]) return fits(prefix, code.slice(2)) ? undefined : prefix === 'PL' ? 'nip' : 'vat';
  if (country === 'PL' || (!country && /^\d{10}$/.test(code))) return fits('PL', code) ? undefined : 'nip';
  const own = vatPrefixOf(country);
  if (VAT_NUMBER_SHAPES[own] && country !== 'GB') return fits(own, code) ? undefined : 'vat';
  return /^[A-Z0-9]{4,30}$/.test(code) ? undefined : 'taxNo';
}
