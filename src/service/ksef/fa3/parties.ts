/**
 * Who the parties of an FA(3) invoice are: the seller's NIP and the buyer's identifier as the hosted
 * service's `buyer_tax_no_kind` names it (`""` a Polish NIP, `nip_ue`, `other`, `empty`,
 * `nip_with_id`), in the shapes of `Podmiot1` and `Podmiot2`.
 */

export const TAX_NO_KINDS = ['', 'nip_ue', 'other', 'empty', 'nip_with_id'] as const;
export type TaxNoKind = (typeof TAX_NO_KINDS)[number];

/** The EU's VAT prefixes (Greece is `EL`, Northern Ireland `XI`), as FA(3)'s `KodUE` lists them. */
export const EU_VAT_PREFIXES = new Set([
  'AT', 'BE', 'BG', 'CY', 'CZ', 'DK', 'EE', 'FI', 'FR', 'DE', 'EL', 'HR', 'HU', 'IE', 'IT', 'LV', 'LT', 'LU', 'MT',
  'NL', 'PL', 'PT', 'RO', 'SK', 'SI', 'ES', 'SE', 'XI',
]);

const NIP = /^[1-9]((\d[1-9])|([1-9]\d))\d{7}$/;
const NIP_WITH_ID = /^[1-9]((\d[1-9])|([1-9]\d))\d{7}-\d{5}$/;
const NR_VAT_UE = /^(\d|[A-Z]|\+|\*){1,12}$/;
const OTHER_ID = /^[a-zA-Z0-9]{1,50}$/;

/** A tax number without spaces and dashes (`PL 525-244-57-67` → `PL5252445767`); `nip_with_id` keeps its dash. */
function compact(taxNo: string, keepDash = false): string {
  return taxNo.replace(keepDash ? /[\s.]/g : /[\s.-]/g, '').toUpperCase();
}

/** Splits a two-letter country prefix off a tax number, when it has one. */
export function countryPrefix(taxNo: string): { prefix: string | null; rest: string } {
  const match = /^([A-Z]{2})(.+)$/.exec(taxNo);
  return match ? { prefix: match[1]!, rest: match[2]! } : { prefix: null, rest: taxNo };
}

/** The NIP of a Polish tax number (`PL5252445767` → `5252445767`), or null when it is not one. */
export function polishNip(taxNo: string | null | undefined): string | null {
  if (!taxNo) return null;
  const { prefix, rest } = countryPrefix(compact(taxNo));
  if (prefix && prefix !== 'PL') return null;
  return NIP.test(rest) ? rest : null;
}

/**
 * The kind the hosted service infers when none is given: a prefix of another EU country makes
 * `nip_ue`, a prefix outside the EU `other`, no prefix (or `PL`) the Polish NIP.
 */
export function inferTaxNoKind(kind: string | null | undefined, taxNo: string | null | undefined): string {
  if (kind) return kind;
  if (!taxNo) return '';
  const { prefix } = countryPrefix(compact(taxNo));
  if (!prefix || prefix === 'PL') return '';
  return EU_VAT_PREFIXES.has(prefix) || prefix === 'GR' ? 'nip_ue' : 'other';
}

/** A two-letter country code from `buyer_country` (`"DE"`, `"de"`), else null. */
export function countryCode(country: string | null | undefined): string | null {
  const code = (country ?? '').trim().toUpperCase();
  if (code === 'GR') return 'GR';
  return /^[A-Z]{2}$/.test(code) ? code : null;
}

export type BuyerIdentity =
  | { readonly kind: 'NIP'; readonly nip: string }
  | { readonly kind: 'UE'; readonly code: string; readonly number: string }
  | { readonly kind: 'ID'; readonly country: string | null; readonly number: string }
  | { readonly kind: 'none' };

export interface BuyerFields {
  readonly buyer_company?: boolean | null;
  readonly buyer_tax_no?: string | null;
  readonly buyer_tax_no_kind?: string | null;
  readonly buyer_country?: string | null;
}

/**
 * The buyer's `DaneIdentyfikacyjne`, or a problem naming what is wrong with the tax number. A
 * consumer (`buyer_company: false`) and `empty` have no identifier (`BrakID`).
 */
export function buyerIdentity(fields: BuyerFields): { identity: BuyerIdentity } | { problem: string } {
  const taxNo = (fields.buyer_tax_no ?? '').trim();
  const kind = inferTaxNoKind(fields.buyer_tax_no_kind, taxNo);
  if (!(TAX_NO_KINDS as readonly string[]).includes(kind)) return { problem: `must be one of: "", nip_ue, other, empty, nip_with_id` };
  if (kind === 'empty') return taxNo ? { problem: 'must be empty when buyer_tax_no_kind is empty' } : { identity: { kind: 'none' } };
  if (!taxNo) return fields.buyer_company === false ? { identity: { kind: 'none' } } : { problem: "can't be blank" };
  if (kind === '') {
    const nip = polishNip(taxNo);
    return nip ? { identity: { kind: 'NIP', nip } } : { problem: 'is not a valid NIP (10 digits, optionally prefixed PL)' };
  }
  if (kind === 'nip_with_id') {
    const { prefix, rest } = countryPrefix(compact(taxNo, true));
    if ((prefix && prefix !== 'PL') || !NIP_WITH_ID.test(rest)) return { problem: 'is not a NIP with an internal id (NIP-12345)' };
    return { identity: { kind: 'NIP', nip: rest.slice(0, 10) } };
  }
  const { prefix, rest } = countryPrefix(compact(taxNo));
  if (kind === 'nip_ue') {
    const code = prefix === 'GR' ? 'EL' : (prefix ?? euCode(fields.buyer_country));
    if (!code || !EU_VAT_PREFIXES.has(code)) return { problem: 'needs an EU country prefix (DE123456789) or an EU buyer_country' };
    if (!NR_VAT_UE.test(rest)) return { problem: 'is not a valid EU VAT number' };
    return { identity: { kind: 'UE', code, number: rest } };
  }
  // Outside the EU a number is kept whole (`CHE123456789`); the country comes from `buyer_country`.
  const country = countryCode(fields.buyer_country);
  const number = compact(taxNo);
  if (!OTHER_ID.test(number)) return { problem: 'must be 1 to 50 letters and digits' };
  return { identity: { kind: 'ID', country, number } };
}

function euCode(country: string | null | undefined): string | null {
  const code = countryCode(country);
  if (code === 'GR') return 'EL';
  return code && EU_VAT_PREFIXES.has(code) ? code : null;
}
