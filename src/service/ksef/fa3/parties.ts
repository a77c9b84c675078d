/**
 * Who the parties of an FA(3) invoice are: the seller's NIP and the buyer's (or a third party's)
 * identifier as the hosted service's `seller_tax_no_kind`, `buyer_tax_no_kind` and `tax_no_kind`
 * name it (`""` a Polish NIP, `nip_ue`, `other`, `empty`, `nip_with_id`), in the shapes of
 * `Podmiot1`, `Podmiot2` and `Podmiot3`.
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

export type PartyIdentity =
  /** A Polish NIP; `internalId` is the whole `NIP-12345` of `nip_with_id` (FA(3)'s `IDWew`). */
  | { readonly kind: 'NIP'; readonly nip: string; readonly internalId?: string }
  | { readonly kind: 'UE'; readonly code: string; readonly number: string }
  | { readonly kind: 'ID'; readonly country: string | null; readonly number: string }
  | { readonly kind: 'none' };

/** A party of an invoice as the hosted service describes it: the buyer, an issuer, a recipient. */
export interface PartyFields {
  readonly company?: boolean | null;
  readonly tax_no?: string | null;
  readonly tax_no_kind?: string | null;
  readonly country?: string | null;
}

export interface BuyerFields {
  readonly buyer_company?: boolean | null;
  readonly buyer_tax_no?: string | null;
  readonly buyer_tax_no_kind?: string | null;
  readonly buyer_country?: string | null;
}

/** Which field of a party a problem is about: its kind or its number. */
export type PartyProblem = { readonly field: 'tax_no_kind' | 'tax_no'; readonly message: string };

const KIND_LIST = 'must be one of: "", nip_ue, other, empty, nip_with_id';

/**
 * A party's identifier (`DaneIdentyfikacyjne`) by its `tax_no_kind`, or a problem naming what is
 * wrong. A consumer (`company: false`) without a number and `empty` have none (`BrakID`).
 */
export function partyIdentity(fields: PartyFields): { identity: PartyIdentity } | { problem: PartyProblem } {
  const taxNo = (fields.tax_no ?? '').trim();
  const kind = fields.tax_no_kind === 'nip' ? checkedByCountry(taxNo, fields.country) : inferTaxNoKind(fields.tax_no_kind, taxNo);
  const problem = (field: PartyProblem['field'], message: string) => ({ problem: { field, message } });
  if (!(TAX_NO_KINDS as readonly string[]).includes(kind)) return problem('tax_no_kind', KIND_LIST);
  if (kind === 'empty') return taxNo ? problem('tax_no', 'must be empty when tax_no_kind is empty') : { identity: { kind: 'none' } };
  if (!taxNo) return fields.company === false ? { identity: { kind: 'none' } } : problem('tax_no', "can't be blank");
  if (kind === '') {
    const nip = polishNip(taxNo);
    return nip ? { identity: { kind: 'NIP', nip } } : problem('tax_no', 'is not a valid NIP (10 digits, optionally prefixed PL)');
  }
  if (kind === 'nip_with_id') {
    const internalId = nipWithId(taxNo);
    return internalId ? { identity: { kind: 'NIP', nip: internalId.slice(0, 10), internalId } } : problem('tax_no', 'is not a NIP with an internal id (NIP-12345)');
  }
  const { prefix, rest } = countryPrefix(compact(taxNo));
  if (kind === 'nip_ue') {
    const code = prefix === 'GR' ? 'EL' : (prefix ?? euCode(fields.country));
    if (!code || !EU_VAT_PREFIXES.has(code)) return problem('tax_no', 'needs an EU country prefix (DE123456789) or an EU country');
    if (!NR_VAT_UE.test(rest)) return problem('tax_no', 'is not a valid EU VAT number');
    return { identity: { kind: 'UE', code, number: rest } };
  }
  // Outside the EU a number is kept whole (`CHE123456789`); the country comes from the party's country.
  const country = countryCode(fields.country);
  const number = compact(taxNo);
  if (!OTHER_ID.test(number)) return problem('tax_no', 'must be 1 to 50 letters and digits');
  return { identity: { kind: 'ID', country, number } };
}

/**
 * `nip`, as this service's checkout names a tax number checked by its country's rule: the kind its
 * prefix says, else its country's (`""` in Poland, `nip_ue` elsewhere in the EU, `other` outside).
 */
function checkedByCountry(taxNo: string, country: string | null | undefined): string {
  const inferred = inferTaxNoKind(null, taxNo);
  if (inferred) return inferred;
  const code = countryCode(country);
  if (!code || code === 'PL') return '';
  return euCode(code) ? 'nip_ue' : 'other';
}

/** `5252445767-12345` (optionally prefixed `PL`) as FA(3)'s `IDWew`, or null when it is not one. */
export function nipWithId(taxNo: string | null | undefined): string | null {
  const { prefix, rest } = countryPrefix(compact(taxNo ?? '', true));
  return (prefix && prefix !== 'PL') || !NIP_WITH_ID.test(rest) ? null : rest;
}

/** The buyer's `DaneIdentyfikacyjne` (`Podmiot2`), or a problem naming the buyer's field. */
export function buyerIdentity(fields: BuyerFields): { identity: PartyIdentity } | { problem: string; field: string } {
  const result = partyIdentity({ company: fields.buyer_company, tax_no: fields.buyer_tax_no, tax_no_kind: fields.buyer_tax_no_kind, country: fields.buyer_country });
  if ('identity' in result) return result;
  return { problem: result.problem.message.replace('when tax_no_kind', 'when buyer_tax_no_kind').replace('an EU country', 'an EU buyer_country'), field: `buyer_${result.problem.field}` };
}

export interface SellerFields {
  readonly seller_tax_no?: string | null;
  readonly seller_tax_no_kind?: string | null;
}

/**
 * The seller's NIP (`Podmiot1` takes nothing else) and, for `nip_with_id`, the seller's internal
 * id; or a problem naming `seller_tax_no_kind` or `seller_tax_no`. Only `""` (a NIP) and
 * `nip_with_id` name a Polish VAT payer, who alone issues invoices through KSeF.
 */
export function sellerIdentity(fields: SellerFields): { nip: string; internalId: string | null } | { problem: string; field: string } {
  const kind = (fields.seller_tax_no_kind ?? '').trim();
  const taxNo = (fields.seller_tax_no ?? '').trim();
  if (!(TAX_NO_KINDS as readonly string[]).includes(kind)) return { field: 'seller_tax_no_kind', problem: KIND_LIST };
  if (kind !== '' && kind !== 'nip_with_id') return { field: 'seller_tax_no_kind', problem: 'must be "" or nip_with_id: KSeF takes invoices of a seller with a Polish NIP' };
  if (!taxNo) return { field: 'seller_tax_no', problem: "can't be blank" };
  if (kind === 'nip_with_id') {
    const internalId = nipWithId(taxNo);
    return internalId ? { nip: internalId.slice(0, 10), internalId } : { field: 'seller_tax_no', problem: 'is not a NIP with an internal id (NIP-12345)' };
  }
  const nip = polishNip(taxNo);
  return nip ? { nip, internalId: null } : { field: 'seller_tax_no', problem: 'is not a valid NIP (10 digits, optionally prefixed PL)' };
}

/** The seller's NIP, as KSeF logs in and numbers the invoice, or null when there is none. */
export function sellerNip(fields: SellerFields): string | null {
  const seller = sellerIdentity(fields);
  return 'nip' in seller ? seller.nip : null;
}

function euCode(country: string | null | undefined): string | null {
  const code = countryCode(country);
  if (code === 'GR') return 'EL';
  return code && EU_VAT_PREFIXES.has(code) ? code : null;
}
