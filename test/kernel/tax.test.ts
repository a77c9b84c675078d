import { describe, expect, it } from 'vitest';
import {
  decideTax, invoiceTaxCase, invoiceTaxFields, isPolishInvoiceRate, ossStandardRate, quoteFor, supplyKindOf, taxNotes,
  type SupplyKind, type TaxDecision, type TaxSale, type ViesStatus,
} from '../../src/kernel/tax/index.js';

/** Every case of the engine's table, for a Polish seller, with the rate, kind, wording and price. */

const sale = (supply: SupplyKind, buyer: { country: string | null; company?: boolean; vatNumber?: string | null; vies?: ViesStatus }, ossRegistered = false): TaxSale => ({
  sellerCountry: 'PL',
  ossRegistered,
  supply,
  domesticRate: '23',
  buyer: { company: false, vatNumber: null, vies: 'not_checked', ...buyer },
});

const polish: Omit<TaxDecision, 'rate'> = {
  case: 'domestic', invoiceKind: 'vat', npTaxKind: null, reverseCharge: false, oss: false, ossCountry: null, fallback: null, legalBasis: null,
};
const WDT = 'art. 42 ust. 1 ustawy o VAT; art. 138 ust. 1 dyrektywy 2006/112/WE';
const RC = 'art. 28b ust. 1 ustawy o VAT; art. 44 i art. 196 dyrektywy 2006/112/WE';
const NON_EU = 'art. 28b ust. 1 ustawy o VAT; art. 44 dyrektywy 2006/112/WE';
const EXPORT = 'art. 41 ust. 4 w zw. z art. 2 pkt 8 ustawy o VAT; art. 146 ust. 1 dyrektywy 2006/112/WE';
const OSS = 'art. 22a ust. 1 i art. 28k ust. 1 oraz art. 130a–130d ustawy o VAT; art. 33 lit. a, art. 58 i art. 369a–369k dyrektywy 2006/112/WE';
const BELOW_THRESHOLD = 'art. 22a ust. 3 i art. 28k ust. 3 ustawy o VAT; art. 59c dyrektywy 2006/112/WE';
const ELECTRONIC = 'art. 28k ust. 1 ustawy o VAT; art. 58 ust. 1 dyrektywy 2006/112/WE';

const germanCompany = { country: 'DE', company: true, vatNumber: 'DE136695976', vies: 'valid' as const };

describe('decideTax', () => {
  it('keeps the product’s Polish rate for Polish consumers and companies, whatever is sold', () => {
    for (const supply of ['goods', 'service', 'electronic_service'] as const) {
      expect(decideTax(sale(supply, { country: 'PL' }))).toEqual({ ...polish, rate: '23' });
      expect(decideTax(sale(supply, { country: 'PL', company: true, vatNumber: '5260250274', vies: 'valid' }))).toEqual({ ...polish, rate: '23' });
      expect(decideTax({ ...sale(supply, { country: null }), domesticRate: '8.00' })).toEqual({ ...polish, rate: '8' });
    }
  });

  it('keeps Polish VAT where the buyer’s country is not a country code, and reads Greece’s VAT prefix as Greece', () => {
    for (const country of ['Polska', 'Poland', 'P', '', '  ', 'D1']) expect(decideTax(sale('goods', { country }))).toEqual({ ...polish, rate: '23' });
    expect(decideTax(sale('electronic_service', { country: 'el' }, true))).toEqual({ ...polish, case: 'oss', rate: '24', oss: true, ossCountry: 'GR', legalBasis: OSS });
  });

  it('makes an exempt product sold at home an exemption, whose basis the invoice names', () => {
    expect(decideTax({ ...sale('service', { country: 'PL' }), domesticRate: 'ZW' })).toEqual({
      ...polish, case: 'exempt', rate: 'zw', legalBasis: 'art. 43 ust. 1 lub art. 113 ustawy o VAT; art. 132–137 dyrektywy 2006/112/WE',
    });
    expect(decideTax({ ...sale('service', germanCompany), domesticRate: 'zw' })).toMatchObject({ case: 'eu_reverse_charge', rate: 'np' });
  });

  it('makes goods to an EU company with a VIES-valid number an intra-community supply at 0%', () => {
    expect(decideTax(sale('goods', germanCompany))).toEqual({ ...polish, case: 'intra_eu_supply', rate: '0', invoiceKind: 'wdt', legalBasis: WDT });
  });

  it('makes services, electronic ones too, to an EU company reverse charge, np', () => {
    const expected = { ...polish, case: 'eu_reverse_charge', rate: 'np', npTaxKind: 'export_service_eu', reverseCharge: true, legalBasis: RC };
    expect(decideTax(sale('service', germanCompany))).toEqual(expected);
    expect(decideTax(sale('electronic_service', germanCompany, true))).toEqual(expected);
  });

  it('keeps Polish VAT for an EU company whose number VIES refused, could not check or was not asked about, and says why', () => {
    expect(decideTax(sale('goods', { ...germanCompany, vies: 'invalid' }))).toEqual({ ...polish, rate: '23', fallback: 'vies_invalid' });
    expect(decideTax(sale('service', { ...germanCompany, vies: 'unavailable' }))).toEqual({ ...polish, rate: '23', fallback: 'vies_unavailable' });
    expect(decideTax(sale('electronic_service', { ...germanCompany, vies: 'not_checked' }, true))).toEqual({ ...polish, rate: '23', fallback: 'vies_not_checked' });
  });

  it('makes services to a business outside the EU np under art. 28b, with or without a tax number', () => {
    const expected = { ...polish, case: 'non_eu_service', rate: 'np', npTaxKind: 'export_service', legalBasis: NON_EU };
    expect(decideTax(sale('service', { country: 'US', company: true, vatNumber: '12-3456789' }))).toEqual(expected);
    expect(decideTax(sale('electronic_service', { country: 'CH', company: true }))).toEqual(expected);
    expect(decideTax(sale('service', { country: 'GB', company: true, vatNumber: 'GB123456789', vies: 'unavailable' }))).toEqual(expected);
  });

  it('makes goods to any buyer outside the EU an export at 0%', () => {
    const expected = { ...polish, case: 'export', rate: '0', invoiceKind: 'export_products', legalBasis: EXPORT };
    expect(decideTax(sale('goods', { country: 'US', company: true }))).toEqual(expected);
    expect(decideTax(sale('goods', { country: 'NO' }))).toEqual(expected);
  });

  it('taxes electronic services to consumers outside the EU where they live (art. 28k): np', () => {
    expect(decideTax(sale('electronic_service', { country: 'US' }))).toEqual({
      ...polish, case: 'non_eu_consumer_electronic', rate: 'np', npTaxKind: 'export_service', legalBasis: ELECTRONIC,
    });
    // Other services to consumers are taxed where the seller is (art. 28c).
    expect(decideTax(sale('service', { country: 'US' }))).toEqual({ ...polish, rate: '23' });
  });

  it('charges an EU consumer their state’s standard rate under OSS for electronic services and goods sent there', () => {
    expect(decideTax(sale('electronic_service', { country: 'DE' }, true))).toEqual({ ...polish, case: 'oss', rate: '19', oss: true, ossCountry: 'DE', legalBasis: OSS });
    expect(decideTax(sale('goods', { country: 'fi' }, true))).toEqual({ ...polish, case: 'oss', rate: '25.5', oss: true, ossCountry: 'FI', legalBasis: OSS });
    // A company without a VAT number is a consumer for VAT.
    expect(decideTax(sale('goods', { country: 'HU', company: true }, true))).toEqual({ ...polish, case: 'oss', rate: '27', oss: true, ossCountry: 'HU', legalBasis: OSS });
  });

  it('keeps Polish VAT for EU consumers when the account is not registered for OSS, and for other services', () => {
    expect(decideTax(sale('electronic_service', { country: 'DE' }))).toEqual({ ...polish, case: 'eu_consumer_domestic', rate: '23', legalBasis: BELOW_THRESHOLD });
    expect(decideTax(sale('goods', { country: 'FR' }))).toEqual({ ...polish, case: 'eu_consumer_domestic', rate: '23', legalBasis: BELOW_THRESHOLD });
    expect(decideTax(sale('service', { country: 'FR' }, true))).toEqual({ ...polish, rate: '23' });
  });
});

describe('quoteFor', () => {
  const pln = { price_net: '100.00', price_gross: '123.00', tax: '23', currency: 'PLN' };
  const eur = { price_net: '49.99', price_gross: '61.49', tax: '23', currency: 'EUR' };

  it('charges the gross price at the product’s rate and the net price where no Polish VAT is due', () => {
    expect(quoteFor(pln, 2, decideTax(sale('goods', { country: 'PL' })))).toEqual({ amount: '246', unit_price: '123', tax: '23' });
    expect(quoteFor(pln, 3, decideTax(sale('goods', germanCompany)))).toEqual({ amount: '300', unit_price: '100', tax: '0' });
    expect(quoteFor(eur, 3, decideTax(sale('service', germanCompany)))).toEqual({ amount: '149.97', unit_price: '49.99', tax: 'np' });
    expect(quoteFor(eur, 1, decideTax(sale('goods', { country: 'US' })))).toEqual({ amount: '49.99', unit_price: '49.99', tax: '0' });
    expect(quoteFor(eur, 2, decideTax(sale('electronic_service', { country: 'US' })))).toEqual({ amount: '99.98', unit_price: '49.99', tax: 'np' });
  });

  it('prices OSS sales at the state’s rate on the net price, rounded to the minor unit per unit', () => {
    // 49.99 × 1.19 = 59.4881 → 59.49; 49.99 × 1.255 = 62.73745 → 62.74
    expect(quoteFor(eur, 3, decideTax(sale('electronic_service', { country: 'DE' }, true)))).toEqual({ amount: '178.47', unit_price: '59.49', tax: '19' });
    expect(quoteFor(eur, 1, decideTax(sale('goods', { country: 'FI' }, true)))).toEqual({ amount: '62.74', unit_price: '62.74', tax: '25.5' });
    expect(quoteFor(pln, 1, decideTax(sale('electronic_service', { country: 'HU' }, true)))).toEqual({ amount: '127', unit_price: '127', tax: '27' });
  });

  it('rounds to whole yen', () => {
    const jpy = { price_net: '1000', price_gross: '1080', tax: '8', currency: 'JPY' };
    // 1000 × 1.19 = 1190; 1000 × 1.255 = 1255
    expect(quoteFor(jpy, 2, decideTax({ ...sale('electronic_service', { country: 'DE' }, true), domesticRate: '8' }))).toEqual({ amount: '2380', unit_price: '1190', tax: '19' });
    expect(quoteFor({ ...jpy, price_net: '999' }, 1, decideTax(sale('goods', { country: 'FI' }, true)))).toEqual({ amount: '1254', unit_price: '1254', tax: '25.5' });
  });
});

describe('the wording', () => {
  it('names reverse charge and the basis of each case in both languages', () => {
    expect(taxNotes('eu_reverse_charge', 'pl')).toEqual([
      'Odwrotne obciążenie',
      'Usługa niepodlegająca opodatkowaniu w Polsce, miejsce świadczenia w kraju nabywcy (art. 28b ust. 1 ustawy o VAT; art. 44 i art. 196 dyrektywy 2006/112/WE)',
    ]);
    expect(taxNotes('eu_reverse_charge', 'en')[0]).toBe('Reverse charge');
    expect(taxNotes('intra_eu_supply', 'en')).toEqual(['Intra-Community supply of goods, VAT 0% (Art. 42(1) of the Polish VAT Act; Art. 138(1) of Directive 2006/112/EC)']);
    expect(taxNotes('export', 'pl')).toEqual(['Eksport towarów, stawka 0% (art. 41 ust. 4 ustawy o VAT; art. 146 ust. 1 dyrektywy 2006/112/WE)']);
    expect(taxNotes('non_eu_consumer_electronic', 'pl')).toEqual([
      'Usługa elektroniczna niepodlegająca opodatkowaniu w Polsce, miejsce świadczenia w kraju konsumenta (art. 28k ust. 1 ustawy o VAT; art. 58 ust. 1 dyrektywy 2006/112/WE)',
    ]);
    expect(taxNotes('domestic', 'pl')).toEqual([]);
  });

  it('marks OSS with the member state and an exemption with its basis', () => {
    expect(taxNotes('oss', 'pl', { ossCountry: 'de' })).toEqual([
      'Procedura OSS (procedura unijna, art. 130a–130d ustawy o VAT; art. 369a–369k dyrektywy 2006/112/WE)',
      'VAT państwa członkowskiego konsumpcji: DE',
    ]);
    expect(taxNotes('oss', 'en', { ossCountry: 'FI' })[1]).toBe('VAT of the member state of consumption: FI');
    expect(taxNotes('exempt', 'pl', { exemptBasis: 'art. 43 ust. 1 pkt 29 ustawy o VAT' })).toEqual(['Zwolnienie z VAT: art. 43 ust. 1 pkt 29 ustawy o VAT']);
  });
});

describe('invoiceTaxCase', () => {
  it('reads the case from the hosted service’s fields', () => {
    expect(invoiceTaxCase({ kind: 'wdt', positions: [{ tax: '0' }] })).toBe('intra_eu_supply');
    expect(invoiceTaxCase({ kind: 'export_products', positions: [{ tax: 0 }] })).toBe('export');
    expect(invoiceTaxCase({ kind: 'vat', use_moss: true, positions: [{ tax: '19' }] })).toBe('oss');
    expect(invoiceTaxCase({ kind: 'vat', use_oss: true, positions: [{ tax: '19' }] })).toBe('oss');
    expect(invoiceTaxCase({ kind: 'vat', reverse_charge: true, positions: [{ tax: 'np' }] })).toBe('eu_reverse_charge');
    expect(invoiceTaxCase({ kind: 'vat', np_tax_kind: 'export_service_eu', positions: [{ tax: 'np' }] })).toBe('eu_reverse_charge');
    expect(invoiceTaxCase({ kind: 'vat', np_tax_kind: 'export_service', buyer_country: 'US', buyer_company: true, positions: [{ tax: 'np' }] })).toBe('non_eu_service');
    expect(invoiceTaxCase({ kind: 'vat', np_tax_kind: 'export_service', buyer_country: 'US', buyer_company: false, positions: [{ tax: 'np' }] })).toBe('non_eu_consumer_electronic');
    expect(invoiceTaxCase({ kind: 'vat', buyer_country: 'DE', seller_country: 'PL', positions: [{ tax: 'np' }] })).toBe('eu_reverse_charge');
    expect(invoiceTaxCase({ kind: 'vat', positions: [{ tax: '23' }, { tax: 'zw' }] })).toBe('exempt');
    expect(invoiceTaxCase({ kind: 'vat', positions: [{ tax: 23 }] })).toBe('domestic');
    expect(invoiceTaxCase({})).toBe('domestic');
  });

  it('gives the invoice fields of a decision', () => {
    expect(invoiceTaxFields(decideTax(sale('service', germanCompany)))).toEqual({ kind: 'vat', np_tax_kind: 'export_service_eu', reverse_charge: true, use_oss: false });
    expect(invoiceTaxFields(decideTax(sale('goods', germanCompany)))).toEqual({ kind: 'wdt', np_tax_kind: null, reverse_charge: false, use_oss: false });
    expect(invoiceTaxFields(decideTax(sale('goods', { country: 'US' })))).toEqual({ kind: 'export_products', np_tax_kind: null, reverse_charge: false, use_oss: false });
    expect(invoiceTaxFields(decideTax(sale('electronic_service', { country: 'AT' }, true)))).toEqual({ kind: 'vat', np_tax_kind: null, reverse_charge: false, use_oss: true });
  });

  it('gives the decision’s own case back for every invoice the engine decides', () => {
    const cases: [TaxSale, boolean][] = [
      [sale('goods', germanCompany), true], [sale('service', germanCompany), true], [sale('service', { country: 'US', company: true }), true],
      [sale('goods', { country: 'US' }), false], [sale('electronic_service', { country: 'US' }), false], [sale('goods', { country: 'DE' }, true), false],
      [sale('goods', { country: 'PL' }), false], [{ ...sale('service', { country: 'PL' }), domesticRate: 'zw' }, false],
    ];
    for (const [s, company] of cases) {
      const d = decideTax(s);
      expect(invoiceTaxCase({
        kind: d.invoiceKind, np_tax_kind: d.npTaxKind, reverse_charge: d.reverseCharge, use_moss: d.oss, buyer_country: s.buyer.country, seller_country: 'PL',
        buyer_company: company, positions: [{ tax: d.rate }],
      })).toBe(d.case);
    }
  });
});

describe('rates', () => {
  it('knows what a Polish invoice may carry', () => {
    for (const rate of ['23', '22', '8', '7', '5', '4', '3', '0', '23.00', '0.0', 'zw', 'np', 'NP', 'oo']) expect(isPolishInvoiceRate(rate)).toBe(true);
    for (const rate of ['10', '19', '25.5', '6', '', 'disabled', '-23', '230', '8.5']) expect(isPolishInvoiceRate(rate)).toBe(false);
  });

  it('knows each member state’s standard rate and none outside the EU', () => {
    expect(['AT', 'DE', 'DK', 'EE', 'FI', 'GR', 'HU', 'LU', 'MT', 'RO', 'SK', 'pl'].map(ossStandardRate)).toEqual(['20', '19', '25', '24', '25.5', '24', '27', '17', '18', '21', '23', '23']);
    expect(ossStandardRate('US')).toBeUndefined();
    expect(ossStandardRate('EL')).toBeUndefined();
    expect(ossStandardRate('constructor')).toBeUndefined();
  });

  it('reads a product’s supply kind, falling back on the hosted service’s `service` flag', () => {
    expect(supplyKindOf({ supply_kind: 'electronic_service', service: true })).toBe('electronic_service');
    expect(supplyKindOf({ service: true })).toBe('service');
    expect(supplyKindOf({ supply_kind: null, service: false })).toBe('goods');
    expect(supplyKindOf({ supply_kind: 'nonsense' })).toBe('goods');
  });
});
