import type { CompanyDetails } from '../../contract/company.js';
import { EU_COUNTRIES } from '../../kernel/checkout.js';
import { compactCode, isNip, POST_CODE_PATTERNS, vatPrefixOf } from '../../kernel/validation/client.js';
import { isValidVatNumber } from '../../kernel/validation/vat-numbers.js';
import { RegistryUnavailableError } from './errors.js';
import type { ViesClient } from './vies.js';
import type { WhitelistClient } from './whitelist.js';

export type { CompanyDetails };

/**
 * A tax number in its normal form, or `undefined` when it is not one of `country`: a Polish NIP as
 * its ten digits (`PL 526-025-02-74` → `5260250274`), another member state's VAT number with its VAT
 * prefix and without separators (`de 129 273 398` → `DE129273398`), each checked by its country's
 * check-digit rule. Other countries' numbers lose only their separators.
 */
export function normalTaxNumber(country: string, raw: string): string | undefined {
  const code = compactCode(raw);
  const state = country.trim().toUpperCase();
  if (state === 'PL') {
    const nip = code.replace(/^PL/, '');
    return isNip(nip) ? nip : undefined;
  }
  if (!EU_COUNTRIES.includes(state)) return /^[A-Z0-9]{4,30}$/.test(code) ? code : undefined;
  const prefix = vatPrefixOf(state);
  const number = code.startsWith(prefix) ? code.slice(prefix.length) : code;
  return isValidVatNumber(prefix, number) ? `${prefix}${number}` : undefined;
}

/** Whether company details can be looked up for this country: the member states (PL through the white list). */
export const isLookupCountry = (country: string): boolean => EU_COUNTRIES.includes(country.trim().toUpperCase());

export interface CompanyRegisters {
  whitelist: WhitelistClient;
  vies: ViesClient;
}

/**
 * The company with this tax number, `null` when its register does not know it (or calls it invalid).
 * Throws `RegistryUnavailableError` when the register cannot answer, and `TypeError` for a country or
 * number `normalTaxNumber` and `isLookupCountry` refuse: check those first.
 */
export async function lookupCompany(registers: CompanyRegisters, country: string, taxNo: string): Promise<CompanyDetails | null> {
  const state = country.trim().toUpperCase();
  const normal = normalTaxNumber(state, taxNo);
  if (!isLookupCountry(state) || !normal) throw new TypeError(`Not a tax number of ${state}: ${taxNo}`);
  if (state === 'PL') {
    const { subject } = await registers.whitelist.searchNip(normal);
    if (!subject) return null;
    const address = subject.workingAddress ?? subject.residenceAddress;
    return {
      name: subject.name,
      ...(address ? splitAddress('PL', address) : { street: null, post_code: null, city: null }),
      country: 'PL',
      tax_no: normal,
      vat_active: subject.statusVat === 'Czynny',
    };
  }
  const prefix = vatPrefixOf(state);
  const consultation = await registers.vies.check({ countryCode: prefix, vatNumber: normal.slice(prefix.length) });
  if (consultation.status === 'unavailable') {
    throw new RegistryUnavailableError('vies', consultation.reason ?? 'unavailable', { retryAfterSeconds: consultation.retryAfterSeconds });
  }
  if (consultation.status === 'invalid') return null;
  return {
    name: consultation.name,
    ...(consultation.address ? splitAddress(state, consultation.address) : { street: null, post_code: null, city: null }),
    country: state,
    tax_no: normal,
    vat_active: true,
  };
}

/**
 * An address as the registers write it, split into street, post code and city as well as it can be:
 * the white list's one line (`UL. PROSTA 51, 00-838 WARSZAWA`), VIES's lines as each member state keeps
 * them (`12 RUE DE LA PAIX\n75002 PARIS`, `AT-1010 Wien`, `1051 BUDAPEST, FŐ UTCA 1.`). The line with
 * the country's post code holds the city; the lines before it (else after it) are the street.
 */
export function splitAddress(country: string, address: string): { street: string | null; post_code: string | null; city: string | null } {
  let lines = address.split(/\r?\n/).map((line) => line.trim().replace(/\s+/g, ' ')).filter(Boolean);
  if (lines.length === 1) lines = lines[0]!.split(/\s*,\s*/).filter(Boolean);
  const code = `(?<code>${POST_CODE_PATTERNS[country] ?? '\\d{4,6}'})`;
  const codeFirst = new RegExp(`^(?:[A-Z]{1,2}-)?${code}\\s+(?<city>.+)$`, 'i');
  const codeLast = new RegExp(`^(?<city>.+?)\\s+(?:[A-Z]{1,2}-)?${code}$`, 'i');
  const codeAlone = new RegExp(`^(?:[A-Z]{1,2}-)?${code}$`, 'i');
  for (let i = lines.length - 1; i >= 0; i -= 1) {
    // A line of the post code alone (Ireland's Eircode): the city is the line before it.
    const alone = i > 0 ? codeAlone.exec(lines[i]!) : null;
    if (alone?.groups) {
      return { street: lines.slice(0, i - 1).join(', ') || null, post_code: alone.groups['code']!.toUpperCase(), city: lines[i - 1]! };
    }
    const match = codeFirst.exec(lines[i]!) ?? codeLast.exec(lines[i]!);
    if (!match?.groups) continue;
    const street = (i > 0 ? lines.slice(0, i) : lines.slice(i + 1)).join(', ');
    return { street: street || null, post_code: match.groups['code']!.toUpperCase(), city: match.groups['city']!.trim() };
  }
  return { street: lines[0] ?? null, post_code: null, city: lines.length > 1 ? lines.at(-1)! : null };
}
