import { add, decimal, div, HUNDRED, mul, ONE, roundMoney, toPlain } from '../money.js';
import { isEuCountry, isPercentage, normalRate, ossStandardRate } from './rates.js';
import { SUPPLY_KINDS, type SupplyKind, TAX_RULES, type TaxCase } from './rules.js';
import { taxNotes } from './notes.js';

/**
 * The tax engine: for a sale by a seller taxable in Poland, the rate, the invoice's kind and the law
 * it rests on, from one table (./rules.ts). The quote, the checkout, the invoice and its FA(3) all ask
 * it, so they never disagree. Plain TypeScript: the elements import it too
 * (docs/decisions/tax-engine.md).
 */

export { EU_COUNTRIES, isEuCountry, isPercentage, isPolishInvoiceRate, normalRate, ossStandardRate } from './rates.js';
export { SUPPLY_KINDS, TAX_RULES, type SupplyKind, type TaxCase, type TaxRule } from './rules.js';
export { taxNotes };
export type { TaxNoteDetails } from './notes.js';

export type ViesStatus = 'valid' | 'invalid' | 'unavailable' | 'not_checked';

export interface TaxSale {
  sellerCountry: string;
  /** Registered for the OSS Union scheme (art. 130a–130d): EU consumers then pay their own state's VAT. */
  ossRegistered: boolean;
  supply: SupplyKind;
  /** The product's Polish rate (`'23'`, `'8'`, `'zw'`). */
  domesticRate: string;
  buyer: { country: string | null; company: boolean; vatNumber: string | null; vies: ViesStatus };
}

export interface TaxDecision {
  case: TaxCase;
  /** Each position's `tax`: `'23'` … `'0'`, `'zw'`, `'np'`, or an OSS state's standard rate such as `'19'`. */
  rate: string;
  invoiceKind: 'vat' | 'wdt' | 'export_products';
  /** The hosted service's `np_tax_kind`. */
  npTaxKind: 'export_service' | 'export_service_eu' | null;
  reverseCharge: boolean;
  oss: boolean;
  ossCountry: string | null;
  /** Why Polish VAT was kept for an EU business. */
  fallback: 'vies_invalid' | 'vies_unavailable' | 'vies_not_checked' | null;
  legalBasis: string | null;
}

const FALLBACKS = { invalid: 'vies_invalid', unavailable: 'vies_unavailable', not_checked: 'vies_not_checked' } as const;

/** An ISO 3166-1 code (`de` → `DE`, Greece's VAT prefix `EL` → `GR`), or null for anything else. */
function countryOf(text: string | null | undefined): string | null {
  const code = (text ?? '').trim().toUpperCase();
  if (!/^[A-Z]{2}$/.test(code)) return null;
  return code === 'EL' ? 'GR' : code;
}

/** The case of a sale, by where the buyer is, who they are and what is sold. */
function caseOf(sale: TaxSale): { taxCase: TaxCase; fallback: TaxDecision['fallback'] } {
  const seller = (sale.sellerCountry || 'PL').trim().toUpperCase();
  const country = countryOf(sale.buyer.country);
  const at = (taxCase: TaxCase, fallback: TaxDecision['fallback'] = null) => ({ taxCase, fallback });
  // Only a country code known to be another country takes Polish VAT off: "Polska" or a typo keeps it.
  if (!country || country === seller) return at('domestic');
  const vatNumber = (sale.buyer.vatNumber ?? '').trim();
  // A company without a VAT number is not identified for VAT: taxed as a consumer (art. 28a ustawy o VAT).
  const business = sale.buyer.company && vatNumber !== '';
  if (!isEuCountry(country)) {
    if (sale.supply === 'goods') return at('export');
    // Outside the EU a business need not have a VAT number: being one decides (art. 28b, art. 28a).
    if (sale.buyer.company) return at('non_eu_service');
    // Services to consumers are taxed where the seller is (art. 28c), electronic ones where the consumer is (art. 28k).
    return at(sale.supply === 'electronic_service' ? 'non_eu_consumer_electronic' : 'domestic');
  }
  if (business) {
    if (sale.buyer.vies === 'valid') return at(sale.supply === 'goods' ? 'intra_eu_supply' : 'eu_reverse_charge');
    return at('domestic', FALLBACKS[sale.buyer.vies]);
  }
  if (sale.supply === 'service') return at('domestic');
  return at(sale.ossRegistered && ossStandardRate(country) ? 'oss' : 'eu_consumer_domestic');
}

/** The rate, invoice kind and wording of a sale (the table in ./rules.ts). */
export function decideTax(sale: TaxSale): TaxDecision {
  const found = caseOf(sale);
  const fallback = found.fallback;
  // An exempt product sold at home is exempt: its invoice names the exemption's basis (art. 106e ust. 1 pkt 19).
  const taxCase = found.taxCase === 'domestic' && normalRate(sale.domesticRate) === 'zw' ? 'exempt' : found.taxCase;
  const rule = TAX_RULES[taxCase];
  const country = countryOf(sale.buyer.country) ?? '';
  const oss = taxCase === 'oss';
  const rate = rule.rate === 'domestic' ? normalRate(sale.domesticRate) : rule.rate === 'oss' ? ossStandardRate(country)! : rule.rate;
  return {
    case: taxCase,
    rate,
    invoiceKind: rule.invoiceKind,
    npTaxKind: rule.npTaxKind,
    reverseCharge: rule.reverseCharge,
    oss,
    ossCountry: oss ? country : null,
    fallback,
    legalBasis: rule.legalBasis,
  };
}

/** The hosted service's invoice fields a decision sets; each position's `tax` is the decision's `rate`. */
export function invoiceTaxFields(decision: TaxDecision): {
  kind: TaxDecision['invoiceKind'];
  np_tax_kind: TaxDecision['npTaxKind'];
  reverse_charge: boolean;
  use_oss: boolean;
} {
  return { kind: decision.invoiceKind, np_tax_kind: decision.npTaxKind, reverse_charge: decision.reverseCharge, use_oss: decision.oss };
}

/** A product's supply kind: its own `supply_kind`, else the hosted service's `service` flag. */
export function supplyKindOf(product: { supply_kind?: string | null; service?: boolean | null }): SupplyKind {
  const kind = SUPPLY_KINDS.find((k) => k === product.supply_kind);
  return kind ?? (product.service === true ? 'service' : 'goods');
}

type InvoiceTaxFields = {
  kind?: string | null;
  np_tax_kind?: string | null;
  reverse_charge?: boolean | null;
  use_oss?: boolean | null;
  use_moss?: boolean | null;
  buyer_country?: string | null;
  seller_country?: string | null;
  buyer_company?: boolean | null;
  positions?: readonly { tax?: string | number | null }[];
};

/** The case an existing invoice is in, from the hosted service's fields, so invoices made through the API print the right words too. */
export function invoiceTaxCase(invoice: InvoiceTaxFields): TaxCase {
  const taxes = (invoice.positions ?? []).map((p) => normalRate(String(p.tax ?? '')));
  if (invoice.kind === 'wdt') return 'intra_eu_supply';
  if (invoice.kind === 'export_products') return 'export';
  if (invoice.use_oss === true || invoice.use_moss === true) return 'oss';
  if (invoice.reverse_charge === true || invoice.np_tax_kind === 'export_service_eu') return 'eu_reverse_charge';
  if (taxes.includes('np')) {
    const eu = isEuCountry(invoice.buyer_country) && (invoice.buyer_country ?? '').toUpperCase() !== (invoice.seller_country || 'PL').toUpperCase();
    if (eu && invoice.buyer_company !== false) return 'eu_reverse_charge';
    return invoice.buyer_company === false ? 'non_eu_consumer_electronic' : 'non_eu_service';
  }
  if (taxes.includes('zw')) return 'exempt';
  return 'domestic';
}

/**
 * What the buyer pays for `quantity` of a product under a decision, exactly: at the product's own
 * rate its gross price, at another percentage (OSS) the net price with that rate, rounded to the
 * currency's minor unit, and where no VAT is charged (0%, `np`, `zw`) the net price.
 */
export function quoteFor(
  product: { price_net: string; price_gross: string; tax: string; currency: string },
  quantity: number,
  decision: TaxDecision,
): { amount: string; unit_price: string; tax: string } {
  const rate = decision.rate;
  let unit = decimal(product.price_net);
  if (normalRate(rate) === normalRate(product.tax)) unit = decimal(product.price_gross);
  else if (isPercentage(rate)) unit = roundMoney(mul(unit, add(ONE, div(decimal(rate), HUNDRED, 6))), product.currency);
  const amount = roundMoney(mul(unit, decimal(quantity)), product.currency);
  return { amount: toPlain(amount), unit_price: toPlain(unit), tax: rate };
}

/**
 * The words an existing invoice carries: its case's notes, with the OSS member state (the buyer's
 * country) and the invoice's own exemption basis (`exempt_tax_kind`).
 */
export function invoiceTaxNotes(invoice: InvoiceTaxFields & { exempt_tax_kind?: string | null }, lang: 'pl' | 'en'): string[] {
  return taxNotes(invoiceTaxCase(invoice), lang, { ossCountry: invoice.buyer_country ?? null, exemptBasis: invoice.exempt_tax_kind ?? null });
}
