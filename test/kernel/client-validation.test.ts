import { describe, expect, it } from 'vitest';
import {
  bankAccountProblem,
  clientProblems,
  COUNTRY_CODES,
  isEmail,
  isEuVatNumber,
  isIban,
  isNip,
  isPhone,
  postCodeExample,
  POST_CODE_PATTERNS,
  postCodeProblem,
  taxNumberProblem,
} from '../../src/kernel/validation/client.js';

describe('client validation', () => {
  it('accepts real NIPs in every usual spelling and refuses wrong check digits', () => {
    // PKN Orlen, ZUS, the example of the interface's documentation.
    for (const nip of ['7740001454', '774-000-14-54', '774 000 14 54', 'PL7740001454', '5260250274', '5252445767']) {
      expect(isNip(nip), nip).toBe(true);
    }
    for (const nip of ['7740001455', '5252445768', '123456789', '12345678901', 'ABCDEFGHIJ', '0000000001']) {
      expect(isNip(nip), nip).toBe(false);
    }
    // A weighted sum of 10 modulo 11 can never match one digit.
    expect(isNip('1234567890')).toBe(false);
  });

  it('checks EU VAT numbers by their country prefix', () => {
    for (const vat of ['DE136695976', 'ATU13585627', 'NL004495445B01', 'FR40303265045', 'IE6388047V', 'ESA28015865', 'BE0403170701', 'IT00743110157', 'SE556703748501', 'CZ00177041', 'EL094014201', 'PL5252445767', 'CY10259033P', 'XI980780684']) {
      expect(isEuVatNumber(vat), vat).toBe(true);
    }
    for (const vat of ['DE13669597', 'ATU1358562', 'AT13585627', 'NL004495445A01', 'FRI0303265045', 'BE2403170701', 'IT0074311015', 'SE556703748502', 'PL5252445768', 'GR094014201', 'ZZ123456789']) {
      expect(isEuVatNumber(vat), vat).toBe(false);
    }
  });

  it('reads a tax number against the client’s country', () => {
    expect(taxNumberProblem('525-244-57-67', 'PL')).toBeUndefined();
    expect(taxNumberProblem('525-244-57-68', 'PL')).toBe('nip');
    expect(taxNumberProblem('PL5252445768', 'DE')).toBe('nip');
    expect(taxNumberProblem('DE136695976', 'PL')).toBeUndefined();
    // The prefix left off: the country's own format.
    expect(taxNumberProblem('136695976', 'DE')).toBeUndefined();
    expect(taxNumberProblem('13669597', 'DE')).toBe('vat');
    expect(taxNumberProblem('094014201', 'GR')).toBeUndefined();
    // Outside the EU the forms are too many to check beyond their characters.
    expect(taxNumberProblem('12-3456789', 'US')).toBeUndefined();
    expect(taxNumberProblem('CHE-116.281.710 MWST', 'CH')).toBeUndefined();
    expect(taxNumberProblem('#!', 'US')).toBe('taxNo');
    expect(taxNumberProblem('', 'PL')).toBeUndefined();
  });

  it('checks IBANs by length and mod 97, and Polish 26-digit account numbers as PL IBANs', () => {
    for (const iban of ['GB82WEST12345698765432', 'GB82 WEST 1234 5698 7654 32', 'DE89370400440532013000', 'PL61109010140000071219812874', 'FR1420041010050500013M02606', 'NL91ABNA0417164300', 'BE68539007547034', 'CH9300762011623852957', 'NO9386011117947']) {
      expect(isIban(iban), iban).toBe(true);
    }
    for (const iban of ['GB82WEST12345698765431', 'DE89370400440532013001', 'PL61109010140000071219812875', 'NL91ABNA041716430', 'DE8937040044053201300', 'XX82WEST12345698765432', '']) {
      expect(isIban(iban), iban).toBe(false);
    }
    expect(bankAccountProblem('61 1090 1014 0000 0712 1981 2874', 'PL')).toBeUndefined();
    expect(bankAccountProblem('61 1090 1014 0000 0712 1981 2875', 'PL')).toBe('iban');
    expect(bankAccountProblem('0532013000', 'DE')).toBe('iban');
    // Countries without IBANs keep their own account numbers.
    expect(bankAccountProblem('000123456789', 'US')).toBeUndefined();
  });

  it('checks post codes by country', () => {
    const good: [string, string][] = [['00-950', 'PL'], ['10115', 'DE'], ['SW1A 1AA', 'GB'], ['EC1A1BB', 'GB'], ['1012 AB', 'NL'], ['110 00', 'CZ'], ['1000-001', 'PT'], ['D02 X285', 'IE'], ['20500-0003', 'US'], ['K1A 0B1', 'CA'], ['LT-01100', 'LT'], ['12345', 'BR']];
    for (const [code, country] of good) expect(postCodeProblem(code, country), `${country} ${code}`).toBeUndefined();
    const bad: [string, string][] = [['00950', 'PL'], ['1011', 'DE'], ['SW1A', 'GB'], ['1012', 'NL'], ['1000', 'PT'], ['!', 'BR']];
    for (const [code, country] of bad) expect(postCodeProblem(code, country), `${country} ${code}`).toBe('postCode');
  });

  it('gives an example of each known post code format, one that passes its own check', () => {
    expect([postCodeExample('PL'), postCodeExample('GB'), postCodeExample('US'), postCodeExample('BR')]).toEqual(['00-950', 'SW1A 1AA', '20500', undefined]);
    for (const country of Object.keys(POST_CODE_PATTERNS)) expect(postCodeProblem(postCodeExample(country)!, country), country).toBeUndefined();
  });

  it('checks e-mail addresses and phone numbers', () => {
    for (const email of ['anna.kowalska@example.com', 'billing+invoices@firma.com.pl', 'a@b.io']) expect(isEmail(email), email).toBe(true);
    for (const email of ['anna', 'anna@', '@example.com', 'anna@example', 'anna kowalska@example.com', 'anna@@example.com', 'anna@example..com']) {
      expect(isEmail(email), email).toBe(false);
    }
    for (const phone of ['+48 600 700 800', '(22) 555-01-02', '+1 202 456 1111']) expect(isPhone(phone), phone).toBe(true);
    for (const phone of ['call me', '12345', '+48 600 700 800 ext 5']) expect(isPhone(phone), phone).toBe(false);
  });

  it('knows every ISO 3166-1 country code once', () => {
    expect(COUNTRY_CODES).toHaveLength(250);
    expect(new Set(COUNTRY_CODES).size).toBe(250);
    const names = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' });
    for (const code of COUNTRY_CODES) expect(names.of(code), code).toBeTruthy();
    expect(COUNTRY_CODES).toEqual(expect.arrayContaining(['PL', 'DE', 'GB', 'US', 'XK']));
  });

  it('asks a company for its name and tax number, a private person for a name', () => {
    expect(clientProblems({}, { company: true })).toEqual({ name: 'required', tax_no: 'required' });
    expect(clientProblems({ name: 'Anna Kowalska' }, { company: false })).toEqual({});
    expect(clientProblems({ name: 'Anna Kowalska' }, { company: false, emailRequired: true })).toEqual({ email: 'required' });
    expect(
      clientProblems(
        { name: 'Acme', tax_no: 'PL5252445768', email: 'x@', country: 'XX', post_code: '1', bank_account: 'PL00', phone: 'abc' },
        { company: true },
      ),
    ).toEqual({ tax_no: 'nip', email: 'email', country: 'country', post_code: 'postCode', bank_account: 'iban', phone: 'phone' });
    expect(
      clientProblems(
        { name: 'Firma Sp. z o.o.', tax_no: '525-244-57-67', email: 'biuro@firma.pl', country: 'PL', post_code: '00-950', city: 'Warszawa', bank_account: 'PL61109010140000071219812874', phone: '+48 22 555 01 02' },
        { company: true },
      ),
    ).toEqual({});
  });
});
