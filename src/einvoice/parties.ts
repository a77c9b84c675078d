import { ELECTRONIC_ADDRESS } from '../contract/einvoice.js';
import type { ElectronicAddress } from './model.js';

export { ELECTRONIC_ADDRESS };

/** Country names the service's records carry instead of a code, by their lower-cased text. */
const COUNTRY_NAMES: Readonly<Record<string, string>> = {
  polska: 'PL', poland: 'PL', niemcy: 'DE', germany: 'DE', deutschland: 'DE', belgia: 'BE', belgium: 'BE',
  francja: 'FR', france: 'FR', holandia: 'NL', netherlands: 'NL', austria: 'AT', czechy: 'CZ', 'czech republic': 'CZ',
};

/** An ISO 3166-1 alpha-2 code (`de` → `DE`, `EL` → `GR`, `Polska` → `PL`), or null. */
export function countryCodeOf(text: string | null | undefined): string | null {
  const value = (text ?? '').trim();
  if (/^[A-Za-z]{2}$/.test(value)) return value.toUpperCase() === 'EL' ? 'GR' : value.toUpperCase();
  return COUNTRY_NAMES[value.toLowerCase()] ?? null;
}

/**
 * A VAT identifier with its country prefix (BR-CO-09): `525-224-84-81` of a Polish party →
 * `PL5252248481`; a number that starts with letters keeps them (Greece's prefix is `EL`).
 */
export function vatIdOf(taxNo: string | null | undefined, country: string | null): string | null {
  const compact = (taxNo ?? '').replace(/[^0-9A-Za-z]/g, '').toUpperCase();
  if (!compact) return null;
  if (/^[A-Z]{2}/.test(compact)) return compact;
  if (!country) return null;
  return `${country === 'GR' ? 'EL' : country}${compact}`;
}

/** The tax number as registered, without a country prefix. */
export function registrationIdOf(taxNo: string | null | undefined): string | null {
  const compact = (taxNo ?? '').replace(/[^0-9A-Za-z]/g, '').toUpperCase();
  return compact ? compact.replace(/^[A-Z]{2}(?=\d)/, '') : null;
}

/** An electronic address as the API takes it (`0208:0123456789`), or null. */
export function electronicAddressOf(text: string | null | undefined): ElectronicAddress | null {
  const found = ELECTRONIC_ADDRESS.exec((text ?? '').trim());
  return found ? { scheme: found[1]!, id: found[2]! } : null;
}

/** UN/ECE Recommendation 20 codes of the units invoices name most, by the unit's lower-cased text. */
const UNIT_CODES: Readonly<Record<string, string>> = {
  'szt': 'H87', 'szt.': 'H87', 'pcs': 'H87', 'pc': 'H87', 'piece': 'H87', 'stk': 'H87', 'stk.': 'H87',
  'h': 'HUR', 'godz': 'HUR', 'godz.': 'HUR', 'hour': 'HUR', 'hours': 'HUR',
  'kg': 'KGM', 'g': 'GRM', 't': 'TNE', 'm': 'MTR', 'km': 'KMT', 'm2': 'MTK', 'm²': 'MTK', 'm3': 'MTQ', 'm³': 'MTQ',
  'l': 'LTR', 'litr': 'LTR', 'day': 'DAY', 'days': 'DAY', 'dzień': 'DAY', 'dni': 'DAY', 'doba': 'DAY',
  'month': 'MON', 'mies': 'MON', 'mies.': 'MON', 'miesiąc': 'MON', 'year': 'ANN', 'rok': 'ANN',
  'kpl': 'SET', 'kpl.': 'SET', 'set': 'SET', 'opak': 'PK', 'opak.': 'PK',
};

/** The unit's code (BT-130); anything unknown is counted as "one" (`C62`). */
export function unitCodeOf(unit: string | null | undefined): string {
  return UNIT_CODES[(unit ?? '').trim().toLowerCase()] ?? 'C62';
}
