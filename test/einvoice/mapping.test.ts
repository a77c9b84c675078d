import { describe, expect, it } from 'vitest';
import {
  accountOf, countryCodeOf, einvoiceOf, einvoiceProblems, electronicAddressOf, type EInvoiceContext, type EInvoiceSource, unitCodeOf, vatCategoryOf, vatIdOf,
} from '../../src/einvoice/index.js';

/** The pure mapping, by example: categories, identifiers, units, lines and the profiles' needs. */

const context: EInvoiceContext = { sellerEinvoiceAddress: '9945:PL5252248481', clientEinvoiceAddress: null, clientBuyerReference: null, preceding: [], prepaid: null };

const invoice = (fields: Partial<EInvoiceSource> = {}): EInvoiceSource => ({
  kind: 'vat',
  number: 'FV/1/2026',
  issue_date: '2026-03-02',
  currency: 'PLN',
  seller_name: 'Fabryka Okien Sp. z o.o.',
  seller_tax_no: '525-224-84-81',
  buyer_name: 'Budimex Dom S.A.',
  buyer_tax_no: '6272616681',
  positions: [{ name: 'Okno', quantity: '7', tax: '23', price_net: '16.25', total_price_net: '113.77', total_price_gross: '139.93' }],
  ...fields,
});

describe('VAT categories', () => {
  it.each([
    ['23', {}, { category: 'S', rate: '23' }],
    ['19.00', {}, { category: 'S', rate: '19' }],
    ['0', {}, { category: 'Z', rate: '0' }],
    ['0', { kind: 'wdt' }, { category: 'K', rate: '0' }],
    ['0', { kind: 'export_products' }, { category: 'G', rate: '0' }],
    ['zw', {}, { category: 'E', rate: '0' }],
    ['np', { reverse_charge: true }, { category: 'AE', rate: '0' }],
    ['np', { np_tax_kind: 'export_service_eu' }, { category: 'AE', rate: '0' }],
    ['np', { np_tax_kind: 'export_service' }, { category: 'O', rate: null }],
    ['oo', {}, { category: 'AE', rate: '0' }],
  ] as const)('tax %s with %j is %j', (tax, fields, expected) => {
    expect(vatCategoryOf(tax, { kind: 'vat', ...fields })).toEqual(expected);
  });
});

describe('identifiers', () => {
  it('prefixes VAT numbers with their country, Greece as EL', () => {
    expect([vatIdOf('525-224-84-81', 'PL'), vatIdOf('de 123456789', 'DE'), vatIdOf('094259216', 'GR'), vatIdOf('', 'PL')]).toEqual(['PL5252248481', 'DE123456789', 'EL094259216', null]);
  });

  it('reads country codes and names', () => {
    expect([countryCodeOf('de'), countryCodeOf('EL'), countryCodeOf('Polska'), countryCodeOf('Atlantis')]).toEqual(['DE', 'GR', 'PL', null]);
  });

  it('writes a Polish account number as its IBAN', () => {
    expect([accountOf('61 1090 1014 0000 0712 1981 2874'), accountOf('DE89 3704 0044 0532 0130 00'), accountOf(' ')]).toEqual(['PL61109010140000071219812874', 'DE89370400440532013000', null]);
  });

  it('takes an electronic address as scheme:identifier', () => {
    expect([electronicAddressOf('0208:0123456789'), electronicAddressOf('EM:a@b.example'), electronicAddressOf('0208 0123456789')]).toEqual([
      { scheme: '0208', id: '0123456789' }, { scheme: 'EM', id: 'a@b.example' }, null,
    ]);
  });

  it('codes units by UN/ECE Recommendation 20', () => {
    expect(['szt.', 'h', 'kg', 'mies.', 'paleta'].map(unitCodeOf)).toEqual(['H87', 'HUR', 'KGM', 'MON', 'C62']);
  });
});

describe('lines and totals', () => {
  it('derives the unit price again where the rounded one misses the line net (PEPPOL-EN16931-R120)', () => {
    // 7 × 16.25 = 113.75, but the line from gross prices is 113.77 net.
    const model = einvoiceOf(invoice(), context, 'en16931');
    expect(model.lines[0]).toMatchObject({ quantity: '7', netAmount: '113.77', netPrice: '16.252857', vatCategory: 'S', vatRate: '23', unitCode: 'C62' });
    expect(model.totals).toEqual({ lineNet: '113.77', taxExclusive: '113.77', vat: '26.16', vatInAccountingCurrency: null, taxInclusive: '139.93', prepaid: '0.00', payable: '139.93' });
  });

  it('turns a crediting correction into a credit note with positive amounts', () => {
    const model = einvoiceOf(invoice({ kind: 'correction', positions: [{ name: 'Okno', quantity: '-1', tax: '23', price_net: '100', total_price_net: '-100.00', total_price_gross: '-123.00' }] }), context, 'peppol');
    expect(model).toMatchObject({ typeCode: '381', creditNote: true });
    expect(model.lines[0]).toMatchObject({ quantity: '1', netAmount: '100.00', netPrice: '100.00' });
    expect(model.totals.payable).toBe('123.00');
  });
});

describe('what each profile needs', () => {
  it('needs nothing more for EN 16931, electronic addresses and a reference for Peppol, and contacts for XRechnung', () => {
    const bare = invoice({ seller_city: 'Warszawa', seller_post_code: '00-838' });
    expect(einvoiceProblems(bare, context, 'en16931')).toEqual({});
    expect(einvoiceProblems(bare, { ...context, sellerEinvoiceAddress: null }, 'peppol')).toEqual({
      buyer_einvoice_address: ['is required for Peppol'],
      seller_einvoice_address: ["is required for Peppol: set the department's einvoice_address"],
      buyer_reference: ['is required for Peppol when the invoice has no order number (oid)'],
    });
    expect(einvoiceProblems({ ...bare, buyer_einvoice_address: 'EM:x@y.example', oid: 'ORDER-1' }, context, 'peppol')).toEqual({
      buyer_einvoice_address: ['must be a Peppol participant identifier, not an e-mail address'],
    });
    expect(einvoiceProblems(bare, { ...context, clientEinvoiceAddress: '0204:991-01234-56', clientBuyerReference: '991-01234-56' }, 'xrechnung')).toEqual({
      seller_email: ['is required for XRechnung'],
      seller_phone: ['is required for XRechnung'],
      buyer_city: ['is required for XRechnung'],
      buyer_post_code: ['is required for XRechnung'],
      seller_bank_account: ['is required for XRechnung when the invoice is paid by transfer'],
    });
  });

  it('writes sales invoices only', () => {
    expect(einvoiceProblems(invoice({ kind: 'estimate' }), context, 'en16931')).toEqual({
      kind: ['has no e-invoice: only vat, advance, final, correction, wdt, export_products, vat_mp, bill, invoice_other invoices (and proformas, under en16931) have one'],
    });
    expect(einvoiceProblems(invoice({ kind: 'proforma' }), context, 'en16931')).toEqual({});
    expect(einvoiceProblems(invoice({ kind: 'proforma' }), context, 'peppol').kind).toEqual([
      'is proforma: Peppol carries invoices only; a proforma has an EN 16931 document (profile en16931, type 325)',
    ]);
    expect(einvoiceProblems(invoice({ income: false }), context, 'en16931')).toEqual({
      income: ['is false: e-invoices are written for the invoices you issue, not for costs'],
    });
  });

  it('refuses np positions not subject to VAT beside other rates (BR-O-11)', () => {
    const mixed = invoice({ positions: [
      { name: 'A', quantity: '1', tax: '23', price_net: '1', total_price_net: '1.00', total_price_gross: '1.23' },
      { name: 'B', quantity: '1', tax: 'np', price_net: '1', total_price_net: '1.00', total_price_gross: '1.00' },
    ] });
    expect(einvoiceProblems(mixed, context, 'en16931')).toEqual({ positions: ["can't mix np positions not subject to VAT with other rates in an EN 16931 invoice (BR-O-11)"] });
  });
});
