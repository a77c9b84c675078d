import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildFa3, fa3InvoiceOf, fa3Problems, type Fa3Context } from '../../../src/service/ksef/fa3/build.js';
import { startTestService, type TestService } from '../../helpers/service.js';
import { api, type Api } from '../../helpers/http.js';
import { readFa3, xmllint } from './support.js';

/**
 * FA(3) documents of invoices the real service issued, every kind that goes to KSeF, in PLN and in
 * EUR: each validates against the Ministry's schema, and its amounts, parties, dates and rates are
 * the invoice's own.
 */

let service: TestService;
let http: Api;
const createdAt = new Date('2026-02-02T10:00:00Z');

beforeAll(async () => {
  service = await startTestService();
  http = api(service);
});
afterAll(() => service.stop());

const seller = {
  seller_name: 'Moja Firma Sp. z o.o.',
  seller_tax_no: '5252445767',
  seller_street: 'ul. Przykładowa 10',
  seller_post_code: '00-001',
  seller_city: 'Warszawa',
  seller_country: 'PL',
};
const polishCompany = {
  buyer_name: 'Klient ABC Sp. z o.o.',
  buyer_tax_no: 'PL 987-654-32-10',
  buyer_company: true,
  buyer_street: 'ul. Testowa 5',
  buyer_post_code: '00-002',
  buyer_city: 'Kraków',
  buyer_country: 'PL',
};
const eur = { currency: 'EUR', exchange_currency: 'PLN', exchange_kind: 'nbp', exchange_currency_rate: '4.2631' };

async function issue(invoice: Record<string, unknown>): Promise<Record<string, unknown>> {
  const reply = await http.post('/invoices.json', { invoice: { issue_date: '2026-02-02', sell_date: '2026-02-01', ...seller, ...invoice } });
  expect(reply.status, reply.text).toBe(201);
  return (await http.get(`/invoices/${String(reply.body.id)}.json`)).body;
}

async function document(invoice: Record<string, unknown>, context: Partial<Fa3Context> = {}) {
  const xml = buildFa3(fa3InvoiceOf(invoice), { createdAt, ...context });
  const validation = await xmllint(xml);
  expect(validation.errors).toBe('');
  return readFa3(xml).Fa;
}

for (const money of [{ name: 'PLN', fields: {} }, { name: 'EUR', fields: eur }]) {
  describe(`FA(3) in ${money.name}`, () => {
    const foreign = money.name === 'EUR';

    it('a VAT invoice to a Polish company: every rate in its own P_13_x, P_15 the invoice gross', async () => {
      const invoice = await issue({
        ...money.fields,
        ...polishCompany,
        place: 'Warszawa',
        exempt_tax_kind: 'Zwolnienie ze względu na rodzaj prowadzonej działalności (art. 43 ust 1 ustawy o VAT)',
        positions: [
          { name: 'Usługa programistyczna', quantity: 10, quantity_unit: 'godz.', total_price_gross: 1845, tax: 23 },
          { name: 'Książka', quantity: 3, total_price_gross: '31.50', tax: 5 },
          { name: 'Catering', quantity: 1, total_price_gross: '108', tax: 8 },
          { name: 'Konsultacja', quantity: 2, total_price_gross: 400, tax: 'zw' },
          { name: 'Eksport usługi', quantity: 1, total_price_gross: 10, tax: 0 },
        ],
      });
      const fa = await document(invoice);
      expect(fa).toMatchObject({
        KodWaluty: money.name,
        P_1: '2026-02-02',
        P_1M: 'Warszawa',
        P_2: invoice.number,
        P_6: '2026-02-01',
        P_13_1: '1500.00',
        P_14_1: '345.00',
        P_13_2: '100.00',
        P_14_2: '8.00',
        P_13_3: '30.00',
        P_14_3: '1.50',
        P_13_6_1: '10.00',
        P_13_7: '400.00',
        P_15: '2394.50',
        RodzajFaktury: 'VAT',
        Adnotacje: { P_16: '2', P_18: '2', Zwolnienie: { P_19: '1', P_19A: 'Zwolnienie ze względu na rodzaj prowadzonej działalności (art. 43 ust 1 ustawy o VAT)' }, PMarzy: { P_PMarzyN: '1' } },
      });
      expect(invoice.price_gross).toBe('2394.5');
      if (foreign) {
        // VAT in PLN at the invoice's rate: 345.00 × 4.2631 = 1470.7695, 8.00 × 4.2631 = 34.1048, 1.50 × 4.2631 = 6.39465.
        expect(fa).toMatchObject({ P_14_1W: '1470.77', P_14_2W: '34.10', P_14_3W: '6.39' });
        expect(fa.FaWiersz[0].KursWaluty).toBe('4.2631');
      } else {
        expect(fa.P_14_1W).toBeUndefined();
      }
      expect(fa.FaWiersz.map((line: Record<string, string>) => [line.P_7, line.P_8B, line.P_11, line.P_12])).toEqual([
        ['Usługa programistyczna', '10', '1500.00', '23'],
        ['Książka', '3', '30.00', '5'],
        ['Catering', '1', '100.00', '8'],
        ['Konsultacja', '2', '400.00', 'zw'],
        ['Eksport usługi', '1', '10.00', '0 KR'],
      ]);
      const whole = readFa3(buildFa3(fa3InvoiceOf(invoice), { createdAt }));
      expect(whole.Podmiot1).toMatchObject({ DaneIdentyfikacyjne: { NIP: '5252445767', Nazwa: 'Moja Firma Sp. z o.o.' }, Adres: { KodKraju: 'PL', AdresL1: 'ul. Przykładowa 10', AdresL2: '00-001 Warszawa' } });
      expect(whole.Podmiot2).toMatchObject({ DaneIdentyfikacyjne: { NIP: '9876543210', Nazwa: 'Klient ABC Sp. z o.o.' }, JST: '2', GV: '2' });
      expect(whole.Naglowek).toMatchObject({ KodFormularza: 'FA', WariantFormularza: '3', DataWytworzeniaFa: '2026-02-02T10:00:00Z' });
    });

    it('a consumer has no identifier (BrakID) and is named by first and last name', async () => {
      const invoice = await issue({
        ...money.fields,
        buyer_company: false,
        buyer_first_name: 'Jan',
        buyer_last_name: 'Kowalski',
        buyer_street: 'ul. Prywatna 5',
        buyer_post_code: '00-100',
        buyer_city: 'Warszawa',
        positions: [{ name: 'Kurs', quantity: 1, total_price_gross: '99.99', tax: 23 }],
      });
      const xml = buildFa3(fa3InvoiceOf(invoice), { createdAt });
      expect((await xmllint(xml)).errors).toBe('');
      const doc = readFa3(xml);
      expect(doc.Podmiot2.DaneIdentyfikacyjne).toEqual({ BrakID: '1', Nazwa: 'Jan Kowalski' });
      expect(doc.Fa).toMatchObject({ P_13_1: '81.29', P_14_1: '18.70', P_15: '99.99' });
    });

    it('an intra-EU supply (wdt) to an EU company: KodUE and NrVatUE, 0 WDT in P_13_6_2', async () => {
      const invoice = await issue({
        ...money.fields,
        kind: 'wdt',
        buyer_name: 'German Company GmbH',
        buyer_tax_no: 'DE123456789',
        buyer_tax_no_kind: 'nip_ue',
        buyer_company: true,
        buyer_street: 'Hauptstraße 1',
        buyer_post_code: '10115',
        buyer_city: 'Berlin',
        buyer_country: 'DE',
        positions: [{ name: 'Stal', quantity: '2.5', quantity_unit: 't', total_price_net: '10000.10', tax: 0 }],
      });
      const xml = buildFa3(fa3InvoiceOf(invoice), { createdAt });
      expect((await xmllint(xml)).errors).toBe('');
      const doc = readFa3(xml);
      expect(doc.Podmiot2.DaneIdentyfikacyjne).toEqual({ KodUE: 'DE', NrVatUE: '123456789', Nazwa: 'German Company GmbH' });
      expect(doc.Podmiot2.Adres).toEqual({ KodKraju: 'DE', AdresL1: 'Hauptstraße 1', AdresL2: '10115 Berlin' });
      expect(doc.Fa).toMatchObject({ P_13_6_2: '10000.10', P_15: '10000.10', RodzajFaktury: 'VAT' });
      expect(doc.Fa.FaWiersz[0]).toMatchObject({ P_8B: '2.5', P_8A: 't', P_12: '0 WDT' });
    });

    it('an export of goods to a company outside the EU: KodKraju and NrID, 0 EX in P_13_6_3', async () => {
      const invoice = await issue({
        ...money.fields,
        kind: 'export_products',
        buyer_name: 'Swiss Company AG',
        buyer_tax_no: 'CHE123456789',
        buyer_tax_no_kind: 'other',
        buyer_company: true,
        buyer_city: 'Zürich',
        buyer_country: 'CH',
        positions: [{ name: 'Maszyna', quantity: 1, total_price_gross: '5000', tax: 0 }],
      });
      const fa = readFa3(buildFa3(fa3InvoiceOf(invoice), { createdAt }));
      expect((await xmllint(buildFa3(fa3InvoiceOf(invoice), { createdAt }))).errors).toBe('');
      expect(fa.Podmiot2.DaneIdentyfikacyjne).toEqual({ KodKraju: 'CH', NrID: 'CHE123456789', Nazwa: 'Swiss Company AG' });
      expect(fa.Fa).toMatchObject({ P_13_6_3: '5000.00', P_15: '5000.00' });
      expect(fa.Fa.FaWiersz[0].P_12).toBe('0 EX');
    });

    it('np: services outside Poland in P_13_8 (np I), EU services of art. 100 in P_13_9 (np II)', async () => {
      const base = { ...money.fields, buyer_name: 'Foreign Company Ltd', buyer_tax_no: 'DE123456789', buyer_country: 'DE', buyer_company: true };
      const line = { name: 'Usługa IT dla klienta zagranicznego', quantity: 1, total_price_gross: '5000.00', tax: 'np' };
      const outside = await document(await issue({ ...base, np_tax_kind: 'export_service', positions: [line] }));
      expect(outside).toMatchObject({ P_13_8: '5000.00', P_15: '5000.00' });
      expect(outside.FaWiersz[0].P_12).toBe('np I');
      const eu = await document(await issue({ ...base, np_tax_kind: 'export_service_eu', positions: [line] }));
      expect(eu).toMatchObject({ P_13_9: '5000.00', P_15: '5000.00' });
      expect(eu.FaWiersz[0].P_12).toBe('np II');
    });

    it('the margin procedure (vat_margin, vat_mp): the gross in P_13_11 and the PMarzy annotation', async () => {
      for (const kind of ['vat_margin', 'vat_mp']) {
        const invoice = await issue({ ...money.fields, kind, ...polishCompany, positions: [{ name: 'Wycieczka', quantity: 2, total_price_gross: '2460.00', tax: 23 }] });
        const fa = await document(invoice);
        expect(fa).toMatchObject({ P_13_11: '2460.00', P_15: '2460.00', Adnotacje: { PMarzy: { P_PMarzy: '1', P_PMarzy_3_1: '1' } } });
        expect(fa.P_13_1).toBeUndefined();
        expect(fa.FaWiersz[0]).toMatchObject({ P_9B: '1230', P_11A: '2460.00' });
      }
    });

    it('an advance (ZAL) describes its order; the final invoice (ROZ) names the advances', async () => {
      const order = await issue({
        ...money.fields,
        kind: 'proforma',
        ...polishCompany,
        positions: [
          { name: 'Meble', quantity: 1, total_price_gross: '1230', tax: 23 },
          { name: 'Montaż', quantity: 1, total_price_gross: '108', tax: 8 },
        ],
      });
      const advanceReply = await http.post('/invoices.json', { invoice: { ...money.fields, copy_invoice_from: order.id, kind: 'advance', advance_creation_mode: 'percent', advance_value: 30 } });
      expect(advanceReply.status, advanceReply.text).toBe(201);
      const advance = (await http.get(`/invoices/${String(advanceReply.body.id)}.json`)).body;
      const zal = await document(advance, { order: fa3InvoiceOf(order) });
      expect(zal).toMatchObject({ RodzajFaktury: 'ZAL', P_15: '401.40', Zamowienie: { WartoscZamowienia: '1338.00' } });
      expect(zal.P_13_1).toBe(advance.positions.filter((p: { tax: string }) => p.tax === '23').map((p: { total_price_net: string }) => Number(p.total_price_net).toFixed(2))[0]);
      expect(zal.Zamowienie.ZamowienieWiersz.map((line: Record<string, string>) => [line.P_7Z, line.P_11NettoZ, line.P_12Z])).toEqual([['Meble', '1000.00', '23'], ['Montaż', '100.00', '8']]);
      expect(zal.FaWiersz).toBeUndefined();
      if (foreign) expect(zal.KursWalutyZ).toBe('4.2631');

      const finalReply = await http.post('/invoices.json', { invoice: { ...money.fields, copy_invoice_from: order.id, kind: 'final', invoice_ids: [advance.id] } });
      expect(finalReply.status, finalReply.text).toBe(201);
      const final = (await http.get(`/invoices/${String(finalReply.body.id)}.json`)).body;
      const ksefNumber = '5252445767-20260202-0100001AF629-7B';
      const roz = await document(final, { advances: [{ number: advance.number, issue_date: advance.issue_date, ksefNumber }] });
      expect(roz).toMatchObject({ RodzajFaktury: 'ROZ', P_15: '936.60', FakturaZaliczkowa: [{ NrKSeFFaZaliczkowej: ksefNumber }] });
      const unsent = await document(final, { advances: [{ number: advance.number, issue_date: advance.issue_date, ksefNumber: null }] });
      expect(unsent.FakturaZaliczkowa).toEqual([{ NrKSeFZN: '1', NrFaZaliczkowej: advance.number }]);
    });

    it('a correction (KOR) names the corrected invoice and its KSeF number; its amounts are the difference', async () => {
      const corrected = await issue({ ...money.fields, ...polishCompany, positions: [{ name: 'Product A1', tax: 23, total_price_gross: 20, quantity: 2 }] });
      const reply = await http.post('/invoices.json', {
        invoice: {
          ...money.fields,
          kind: 'correction',
          correction_reason: 'Zła ilość',
          invoice_id: corrected.id,
          from_invoice_id: corrected.id,
          issue_date: '2026-02-03',
          gov_corrected_invoice_number: '5252445767-20260202-0100001AF629-7B',
          positions: [{
            name: 'Product A1',
            quantity: -1,
            total_price_gross: -10,
            tax: 23,
            kind: 'correction',
            correction_before_attributes: { name: 'Product A1', quantity: 2, total_price_gross: 20, tax: 23, kind: 'correction_before' },
            correction_after_attributes: { name: 'Product A1', quantity: 1, total_price_gross: 10, tax: 23, kind: 'correction_after' },
          }],
        },
      });
      expect(reply.status, reply.text).toBe(201);
      const correction = (await http.get(`/invoices/${String(reply.body.id)}.json`)).body;
      const reference = { number: String(corrected.number), issue_date: String(corrected.issue_date), ksefNumber: String(correction.gov_corrected_invoice_number), kind: 'vat' };
      const kor = await document(correction, { corrected: reference });
      expect(kor).toMatchObject({
        RodzajFaktury: 'KOR',
        PrzyczynaKorekty: 'Zła ilość',
        DaneFaKorygowanej: { DataWystFaKorygowanej: '2026-02-02', NrFaKorygowanej: corrected.number, NrKSeF: '1', NrKSeFFaKorygowanej: '5252445767-20260202-0100001AF629-7B' },
        P_13_1: '-8.13',
        P_14_1: '-1.87',
        P_15: '-10.00',
      });
      expect(kor.FaWiersz.map((line: Record<string, string>) => [line.P_8B, line.P_11, line.StanPrzed])).toEqual([['2', '16.26', '1'], ['1', '8.13', undefined]]);
    });
  });
}

describe('what stops an invoice from going to KSeF', () => {
  it('names each missing or too long field in the hosted service words', async () => {
    const invoice = await issue({
      seller_tax_no: '',
      buyer_company: true,
      buyer_name: 'Firma',
      buyer_phone: '+48 123 456 789 000',
      positions: [{ name: 'x'.repeat(257), quantity: 1, total_price_gross: 10, tax: 'zw' }],
    });
    expect(fa3Problems(fa3InvoiceOf(invoice))).toEqual({
      seller_tax_no: ["can't be blank"],
      buyer_tax_no: ["can't be blank"],
      buyer_phone: ['is too long (maximum is 16 characters)'],
      'positions.0.name': ['is too long (maximum is 256 characters)'],
      exempt_tax_kind: ["can't be blank"],
    });
    expect(() => buildFa3(fa3InvoiceOf(invoice), { createdAt })).toThrow(/seller_tax_no/);
  });

  it('a foreign currency needs its rate to PLN', () => {
    const problems = fa3Problems(fa3InvoiceOf({ kind: 'vat', number: '1', issue_date: '2026-02-02', currency: 'EUR', price_gross: '1', ...seller, ...polishCompany, positions: [{ name: 'a', quantity: '1', tax: '23', price_net: '1', price_gross: '1', total_price_net: '0.81', total_price_tax: '0.19', total_price_gross: '1' }] }));
    expect(problems).toEqual({ exchange_currency_rate: ["can't be blank when the currency is not PLN"] });
  });
});
