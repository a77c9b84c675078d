import { describe, expect, it } from 'vitest';
import { checkoutTaxSale, productQuote, saleQuote, vatTreatment } from '../../src/kernel/checkout.js';

/** The checkout core on the tax engine: the old treatment for its callers, the full decision for the new ones. */

const query = (text: string) => {
  const params = new URLSearchParams(text);
  return (name: string) => params.get(name) ?? undefined;
};
const course = { price_net: '100.00', price_gross: '123.00', tax: '23', currency: 'EUR', supply_kind: 'electronic_service' };
const lamp = { price_net: '200.00', price_gross: '246.00', tax: '23', currency: 'PLN', service: false };

describe('vatTreatment, kept for its callers', () => {
  it('answers as before for EU companies, consumers and buyers elsewhere', () => {
    const german = { email: 'a@b.de', company: true, country: 'DE', tax_no: 'DE 136695976' };
    expect(vatTreatment({ sellerCountry: 'PL', service: true, buyer: german })).toEqual({ kind: 'reverse_charge', tax: 'np', np_tax_kind: 'export_service_eu' });
    expect(vatTreatment({ sellerCountry: 'PL', service: false, buyer: german })).toEqual({ kind: 'intra_eu_supply', tax: '0', invoice_kind: 'wdt' });
    expect(vatTreatment({ sellerCountry: 'PL', service: true, buyer: { ...german, tax_no: 'DE136695978' } })).toEqual({ kind: 'standard' });
    expect(vatTreatment({ sellerCountry: 'PL', service: true, buyer: { email: 'a@b.de', country: 'DE' } })).toEqual({ kind: 'standard' });
    expect(vatTreatment({ sellerCountry: 'US', service: true, buyer: german })).toEqual({ kind: 'standard' });
    expect(vatTreatment({ sellerCountry: 'PL', service: false, buyer: { ...german, country: 'PL', tax_no: '5260250274' } })).toEqual({ kind: 'standard' });
  });

  it('prices the product quote as before', () => {
    expect(productQuote({ ...lamp, service: true }, 'PL', query('country=DE&tax_no=DE136695976&company=1&quantity=2'))).toEqual({
      vat_treatment: 'reverse_charge', quantity: 2, amount: '400', unit_price: '200', tax: 'np',
    });
  });
});

describe('checkoutTaxSale', () => {
  it('gives the engine the buyer’s prefixed EU number and the VIES status, or what a buyer elsewhere typed', () => {
    expect(checkoutTaxSale({ sellerCountry: null, ossRegistered: true, product: course, buyer: { email: 'a@b.de', company: true, country: 'de', tax_no: '136 695 976' }, vies: 'unavailable' })).toEqual({
      sellerCountry: 'PL', ossRegistered: true, supply: 'electronic_service', domesticRate: '23',
      buyer: { country: 'DE', company: true, vatNumber: 'DE136695976', vies: 'unavailable' },
    });
    expect(checkoutTaxSale({ sellerCountry: 'PL', ossRegistered: false, product: { tax: '8', service: true }, buyer: { email: 'a@b.us', company: true, country: 'US', tax_no: '12-3456789' }, vies: 'not_checked' }).buyer).toEqual({
      country: 'US', company: true, vatNumber: '123456789', vies: 'not_checked',
    });
    expect(checkoutTaxSale({ sellerCountry: 'PL', ossRegistered: false, product: lamp, buyer: { email: 'a@b.fr', country: 'FR', tax_no: 'FR40303265045' }, vies: 'valid' }).buyer).toEqual({
      country: 'FR', company: true, vatNumber: 'FR40303265045', vies: 'valid',
    });
    expect(checkoutTaxSale({ sellerCountry: 'PL', ossRegistered: false, product: lamp, buyer: { email: 'a@b.fr', country: 'FR', company: false }, vies: 'valid' }).buyer).toEqual({
      country: 'FR', company: false, vatNumber: null, vies: 'not_checked',
    });
  });
});

describe('saleQuote', () => {
  const oss = { country: 'PL', ossRegistered: true };
  it('quotes every case with its rate and the invoice’s words in the buyer’s language', () => {
    expect(saleQuote(course, oss, query('country=DE&quantity=3&lang=pl'))).toEqual({
      vat_treatment: 'standard', quantity: 3, amount: '357', unit_price: '119', tax: '19', case: 'oss', rate: '19', oss_country: 'DE', fallback: null,
      notes: ['Procedura OSS (procedura unijna, art. 130a–130d ustawy o VAT; art. 369a–369k dyrektywy 2006/112/WE)', 'VAT państwa członkowskiego konsumpcji: DE'],
    });
    expect(saleQuote(lamp, oss, query('country=US'))).toEqual({
      vat_treatment: 'standard', quantity: 1, amount: '200', unit_price: '200', tax: '0', case: 'export', rate: '0', oss_country: null, fallback: null,
      notes: ['Export of goods, VAT 0% (Art. 41(4) of the Polish VAT Act; Art. 146(1) of Directive 2006/112/EC)'],
    });
    expect(saleQuote(course, { country: 'PL', ossRegistered: false }, query('country=DE&tax_no=DE136695976&company=1&lang=en'))).toMatchObject({
      vat_treatment: 'reverse_charge', amount: '100', tax: 'np', case: 'eu_reverse_charge', notes: ['Reverse charge', expect.stringContaining('Art. 28b(1)')],
    });
    expect(saleQuote(course, oss, query('country=DE&tax_no=DE136695976&company=1'), 'unavailable')).toEqual({
      vat_treatment: 'standard', quantity: 1, amount: '123', unit_price: '123', tax: '23', case: 'domestic', rate: '23', oss_country: null, fallback: 'vies_unavailable', notes: [],
    });
  });
});
