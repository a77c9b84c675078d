/**
 * The table the engine reads: for each case, what the invoice carries and the law that says so. The
 * seller is taxable in Poland; articles are of the Polish VAT Act (ustawa z 11 marca 2004 r. o
 * podatku od towarów i usług) and of Council Directive 2006/112/EC (docs/decisions/tax-engine.md).
 */

export const SUPPLY_KINDS = ['goods', 'service', 'electronic_service'] as const;
export type SupplyKind = (typeof SUPPLY_KINDS)[number];

export type TaxCase =
  | 'domestic'
  | 'intra_eu_supply'
  | 'eu_reverse_charge'
  | 'non_eu_service'
  | 'export'
  | 'oss'
  | 'eu_consumer_domestic'
  | 'non_eu_consumer_electronic'
  /** Exempt lines (`zw`): the engine never decides it, an invoice made through the API may be it. */
  | 'exempt';

export interface TaxRule {
  /** `domestic`: the product's Polish rate; `oss`: the buyer's state's standard rate; else the fixed code. */
  readonly rate: 'domestic' | 'oss' | '0' | 'np';
  readonly invoiceKind: 'vat' | 'wdt' | 'export_products';
  readonly npTaxKind: 'export_service' | 'export_service_eu' | null;
  readonly reverseCharge: boolean;
  readonly legalBasis: string | null;
}

export const TAX_RULES: Readonly<Record<TaxCase, TaxRule>> = {
  // Place of supply in Poland: goods art. 22 ust. 1, services art. 28b/28c (directive art. 31, 32, 44, 45).
  domestic: { rate: 'domestic', invoiceKind: 'vat', npTaxKind: null, reverseCharge: false, legalBasis: null },
  intra_eu_supply: {
    rate: '0', invoiceKind: 'wdt', npTaxKind: null, reverseCharge: false,
    legalBasis: 'art. 42 ust. 1 ustawy o VAT; art. 138 ust. 1 dyrektywy 2006/112/WE',
  },
  eu_reverse_charge: {
    rate: 'np', invoiceKind: 'vat', npTaxKind: 'export_service_eu', reverseCharge: true,
    legalBasis: 'art. 28b ust. 1 ustawy o VAT; art. 44 i art. 196 dyrektywy 2006/112/WE',
  },
  non_eu_service: {
    rate: 'np', invoiceKind: 'vat', npTaxKind: 'export_service', reverseCharge: false,
    legalBasis: 'art. 28b ust. 1 ustawy o VAT; art. 44 dyrektywy 2006/112/WE',
  },
  export: {
    rate: '0', invoiceKind: 'export_products', npTaxKind: null, reverseCharge: false,
    legalBasis: 'art. 41 ust. 4 w zw. z art. 2 pkt 8 ustawy o VAT; art. 146 ust. 1 dyrektywy 2006/112/WE',
  },
  oss: {
    rate: 'oss', invoiceKind: 'vat', npTaxKind: null, reverseCharge: false,
    legalBasis: 'art. 22a ust. 1 i art. 28k ust. 1 oraz art. 130a–130d ustawy o VAT; art. 33 lit. a, art. 58 i art. 369a–369k dyrektywy 2006/112/WE',
  },
  eu_consumer_domestic: {
    rate: 'domestic', invoiceKind: 'vat', npTaxKind: null, reverseCharge: false,
    legalBasis: 'art. 22a ust. 3 i art. 28k ust. 3 ustawy o VAT; art. 59c dyrektywy 2006/112/WE',
  },
  non_eu_consumer_electronic: {
    rate: 'np', invoiceKind: 'vat', npTaxKind: 'export_service', reverseCharge: false,
    legalBasis: 'art. 28k ust. 1 ustawy o VAT; art. 58 ust. 1 dyrektywy 2006/112/WE',
  },
  exempt: {
    rate: 'domestic', invoiceKind: 'vat', npTaxKind: null, reverseCharge: false,
    legalBasis: 'art. 43 ust. 1 lub art. 113 ustawy o VAT; art. 132–137 dyrektywy 2006/112/WE',
  },
};
