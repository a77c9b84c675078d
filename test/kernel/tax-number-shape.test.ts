import { describe, expect, expectTypeOf, it } from 'vitest';
import type { ClientFieldProblem as WireFieldProblem } from '../../src/contract/sale.js';
import { buyerProblems, saleQuote } from '../../src/kernel/checkout.js';
import { buyerProblemsWith } from '../../src/kernel/checkout-buyer.js';
import { type ClientFieldProblem, taxNumberProblem } from '../../src/kernel/validation/client.js';
import { taxNumberShapeProblem, VAT_NUMBER_SHAPES } from '../../src/kernel/validation/tax-number-shape.js';
import { VAT_NUMBER_CHECKS } from '../../src/kernel/validation/vat-numbers.js';

/**
 * A tax number's shape check never refuses what the full check accepts, and what it refuses it names
 * as the full check does. The server's quote names what the full check (and every other buyer rule)
 * finds wrong, for the fields its query names: the pay button's dialog shows that and checks nothing
 * itself (docs/decisions/pay-button-weight.md).
 */

const query = (text: string) => {
  const params = new URLSearchParams(text);
  return (name: string) => params.get(name) ?? undefined;
};
const course = { price_net: '100.00', price_gross: '123.00', tax: '23', currency: 'EUR', supply_kind: 'electronic_service' };
const seller = { country: 'PL', ossRegistered: true };

/** Numbers each country's rule accepts (test/kernel/vat-numbers.test.ts has them with their wrong twins). */
const VALID = [
  'ATU13585627', 'BE0403019261', 'BE428759497', 'BG175074752', 'CY10259033P', 'CZ25123891', 'CZ7103192745', 'CZ640903926',
  'DE136695976', 'DK13585628', 'EE100931558', 'EL094259216', 'ESB58378431', 'ES54362315K', 'ESX5253868R', 'FI20774740',
  'FR40303265045', 'FRK7399859412', 'FR4Z123456782', 'HR33392005961', 'HU12892312', 'IE6433435F', 'IE6433435OA', 'IE8D79739I',
  'IT00743110157', 'LT119511515', 'LT100001919017', 'LU15027442', 'LV40003521600', 'MT11679112', 'NL004495445B01',
  'PL5252445767', 'PT501964843', 'RO18547290', 'SE556703748501', 'SI50223054', 'SK2022749619', 'XI980780684', 'GB980780684', 'GBGD123',
];

/** A small generator with a fixed seed: the same numbers on every run. */
function numbers(count: number): string[] {
  let seed = 45;
  const next = (n: number) => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed % n;
  };
  const prefixes = [...Object.keys(VAT_NUMBER_CHECKS), 'US', 'XX', '', '', ''];
  const chars = '0123456789012345678901234567890123456789ABUKLMXYZ+*-';
  return Array.from({ length: count }, () => {
    const length = 1 + next(14);
    return prefixes[next(prefixes.length)] + Array.from({ length }, () => chars[next(chars.length)]).join('');
  });
}

describe('tax numbers by their shape', () => {
  it('knows a shape for every VAT prefix that has a check-digit rule, and no other', () => {
    expect(Object.keys(VAT_NUMBER_SHAPES).sort()).toEqual(Object.keys(VAT_NUMBER_CHECKS).sort());
  });

  it('accepts every number its country’s rule accepts, with its prefix and without it', () => {
    for (const number of VALID) {
      const country = number.startsWith('EL') ? 'GR' : number.slice(0, 2);
      expect(taxNumberProblem(number, country), number).toBeUndefined();
      expect(taxNumberShapeProblem(number, country), number).toBeUndefined();
      if (country !== 'GB') expect(taxNumberShapeProblem(number.slice(2), country), number).toBeUndefined();
    }
  });

  it('refuses only what the full check refuses, with the same problem, for any country', () => {
    const countries = ['', 'PL', 'DE', 'GR', 'FR', 'IE', 'ES', 'NL', 'GB', 'US', 'UA'];
    const disagreements: string[] = [];
    let checkDigitsOnly = 0;
    for (const number of numbers(40_000)) {
      for (const country of countries) {
        const shape = taxNumberShapeProblem(number, country);
        const full = taxNumberProblem(number, country);
        if (shape !== undefined && shape !== full) disagreements.push(`${number} in ${country || 'no country'}: ${shape}, not ${full}`);
        if (shape === undefined && full !== undefined) checkDigitsOnly += 1;
      }
    }
    expect(disagreements).toEqual([]);
    // Numbers of the right shape with wrong check digits: for the server's quote to name.
    expect(checkDigitsOnly).toBe(3163);
  });

  it('names a wrong shape as the full check does, and leaves a wrong check digit to it', () => {
    expect(taxNumberShapeProblem('XX123', 'PL')).toBe('nip');
    expect(taxNumberShapeProblem('PL525244576', '')).toBe('nip');
    expect(taxNumberShapeProblem('DE13669597', 'DE')).toBe('vat');
    expect(taxNumberShapeProblem('036695976', 'DE')).toBe('vat');
    expect(taxNumberShapeProblem('A1', 'US')).toBe('taxNo');
    expect(taxNumberShapeProblem('DE136695978', 'DE')).toBeUndefined();
    expect(taxNumberProblem('DE136695978', 'DE')).toBe('vat');
    expect(taxNumberShapeProblem('5252445768', 'PL')).toBeUndefined();
    expect(taxNumberProblem('5252445768', 'PL')).toBe('nip');
  });
});

describe('the buyer rules with the tax number check given', () => {
  const german = { email: 'anna@example.de', company: true, name: 'Acme GmbH', tax_no: 'DE 136695978', street: 'Hauptstraße 1', post_code: '10115', city: 'Berlin', country: 'DE' };

  it('are buyerProblems’ rules: only the tax number’s check differs', () => {
    const byShape = buyerProblemsWith(taxNumberShapeProblem);
    expect(buyerProblems(german)).toEqual({ tax_no: 'vat' });
    expect(byShape(german)).toEqual({});
    expect(byShape({ ...german, tax_no: 'DE13669597' })).toEqual({ tax_no: 'vat' });
    expect(byShape({ ...german, tax_no: '', post_code: '1011' })).toEqual({ tax_no: 'required', post_code: 'postCode' });
    expect(byShape({ ...german, tax_no: '', tax_no_kind: 'empty' })).toEqual({});
    expect(byShape({ ...german, tax_no: 'A!', tax_no_kind: 'other' })).toEqual({ tax_no: 'taxNo' });
    expect(byShape({ email: 'x', country: 'DE' })).toEqual({ email: 'email', name: 'required' });
  });
});

describe('the quote names what is wrong with a company’s tax number', () => {
  it('says vat for a German number with a wrong check digit, and nothing for a right one', () => {
    expect(saleQuote(course, seller, query('country=DE&company=1&tax_no=DE136695978')).problems).toEqual({ tax_no: 'vat' });
    expect(saleQuote(course, seller, query('country=DE&company=1&tax_no=136695978')).problems).toEqual({ tax_no: 'vat' });
    expect('problems' in saleQuote(course, seller, query('country=DE&company=1&tax_no=DE136695976'))).toBe(false);
  });

  it('follows the checkout’s rules: a NIP, a number of another kind, none, a consumer, a blank number, one not asked about', () => {
    expect(saleQuote(course, seller, query('country=PL&company=1&tax_no=5252445768')).problems).toEqual({ tax_no: 'nip' });
    expect(saleQuote(course, seller, query('country=US&company=1&tax_no=A1')).problems).toEqual({ tax_no: 'taxNo' });
    expect(saleQuote(course, seller, query('country=DE&company=1&tax_no=A1&tax_no_kind=other')).problems).toEqual({ tax_no: 'taxNo' });
    expect('problems' in saleQuote(course, seller, query('country=DE&company=1&tax_no=DE136695978&tax_no_kind=other'))).toBe(false);
    expect('problems' in saleQuote(course, seller, query('country=DE&company=1&tax_no=DE136695978&tax_no_kind=empty'))).toBe(false);
    // A consumer's number is checked as the checkout checks it, and a company's blank one is missing: the dialog asks with every field it shows.
    expect(saleQuote(course, seller, query('country=DE&company=0&tax_no=DE136695978')).problems).toEqual({ tax_no: 'vat' });
    expect(saleQuote(course, seller, query('country=DE&company=1&tax_no=%20')).problems).toEqual({ tax_no: 'required' });
    // A field the query does not name is not asked about.
    expect('problems' in saleQuote(course, seller, query('country=DE&company=1'))).toBe(false);
  });
});

it('the contract’s field problems are the client rules’ own', () => {
  expectTypeOf<WireFieldProblem>().toEqualTypeOf<ClientFieldProblem>();
});
