import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildFa3, fa3InvoiceOf } from '../../../src/service/ksef/fa3/build.js';
import { decideTax, type SupplyKind, type TaxSale } from '../../../src/kernel/tax/index.js';
import { startTestService, type TestService } from '../../helpers/service.js';
import { api, type Api } from '../../helpers/http.js';
import { readFa3, xmllint } from './support.js';

/**
 * Every case of the tax engine as FA(3) writes it: an invoice made through the real service from the
 * engine's decision, its document valid against the Ministry's schema, with the rate code, the
 * per-rate sums, the annotations and the words the FA(3) guide gives each case.
 */

let service: TestService;
let http: Api;
const createdAt = new Date('2026-02-02T10:00:00Z');

beforeAll(async () => {
  service = await startTestService();
  http = api(service);
});
afterAll(() => service.stop());

const seller = { seller_name: 'Moja Firma Sp. z o.o.', seller_tax_no: '5252445767', seller_street: 'ul. Przykładowa 10', seller_post_code: '00-001', seller_city: 'Warszawa', seller_country: 'PL' };
const buyers = {
  pl: { buyer_name: 'Klient ABC Sp. z o.o.', buyer_tax_no: '9876543210', buyer_company: true, buyer_street: 'ul. Testowa 5', buyer_post_code: '00-002', buyer_city: 'Kraków', buyer_country: 'PL' },
  de: { buyer_name: 'German Company GmbH', buyer_tax_no: 'DE136695976', buyer_tax_no_kind: 'nip_ue', buyer_company: true, buyer_street: 'Hauptstraße 1', buyer_post_code: '10115', buyer_city: 'Berlin', buyer_country: 'DE' },
  us: { buyer_name: 'American Corp', buyer_tax_no: '12-3456789', buyer_tax_no_kind: 'other', buyer_company: true, buyer_street: '1 Main St', buyer_post_code: '10001', buyer_city: 'New York', buyer_country: 'US' },
  usConsumer: { buyer_first_name: 'John', buyer_last_name: 'Smith', buyer_company: false, buyer_street: '2 Main St', buyer_post_code: '10001', buyer_city: 'New York', buyer_country: 'US' },
  deConsumer: { buyer_first_name: 'Hans', buyer_last_name: 'Müller', buyer_company: false, buyer_street: 'Hauptstraße 2', buyer_post_code: '10115', buyer_city: 'Berlin', buyer_country: 'DE' },
} as const;
const eur = { currency: 'EUR', exchange_currency: 'PLN', exchange_kind: 'nbp', exchange_currency_rate: '4.2631' };

/** An invoice for 2 × a product at 100.00 net, 23% in Poland, made from the engine's decision as the issuing path makes it. */
async function invoiceFor(supply: SupplyKind, buyer: keyof typeof buyers, options: { ossRegistered?: boolean } = {}) {
  const fields = buyers[buyer];
  const sale: TaxSale = {
    sellerCountry: 'PL', ossRegistered: options.ossRegistered ?? false, supply, domesticRate: '23',
    buyer: { country: fields.buyer_country, company: fields.buyer_company, vatNumber: 'buyer_tax_no' in fields ? fields.buyer_tax_no : null, vies: 'valid' },
  };
  const decision = decideTax(sale);
  const reply = await http.post('/invoices.json', {
    invoice: {
      ...seller, ...fields, ...eur, issue_date: '2026-02-02', sell_date: '2026-02-01', kind: decision.invoiceKind,
      np_tax_kind: decision.npTaxKind, reverse_charge: decision.reverseCharge, use_oss: decision.oss,
      positions: [{ name: 'Pozycja', quantity: 2, price_net: '100.00', tax: decision.rate }],
    },
  });
  expect(reply.status, reply.text).toBe(201);
  const invoice = (await http.get(`/invoices/${String(reply.body.id)}.json`)).body;
  const xml = buildFa3(fa3InvoiceOf(invoice), { createdAt });
  expect((await xmllint(xml)).errors).toBe('');
  return { decision, fa: readFa3(xml).Fa, invoice };
}

const annotations = (p18: '1' | '2') => ({ P_16: '2', P_17: '2', P_18: p18, P_18A: '2', Zwolnienie: { P_19N: '1' }, NoweSrodkiTransportu: { P_22N: '1' }, P_23: '2', PMarzy: { P_PMarzyN: '1' } });

describe('FA(3) of each tax case', () => {
  it('domestic: the Polish rate in P_13_1 and P_14_1, no words', async () => {
    const { decision, fa } = await invoiceFor('service', 'pl');
    expect(decision.case).toBe('domestic');
    expect(fa).toMatchObject({ P_13_1: '200.00', P_14_1: '46.00', P_14_1W: '196.10', P_15: '246.00', RodzajFaktury: 'VAT', Adnotacje: annotations('2') });
    expect(fa.FaWiersz[0]).toMatchObject({ P_11: '200.00', P_12: '23', KursWaluty: '4.2631' });
    expect(fa.DodatkowyOpis).toBeUndefined();
  });

  it('intra_eu_supply: 0 WDT in P_13_6_2 and the basis of the 0% rate', async () => {
    const { fa } = await invoiceFor('goods', 'de');
    expect(fa).toMatchObject({ P_13_6_2: '200.00', P_15: '200.00', Adnotacje: annotations('2') });
    expect(fa.P_13_1).toBeUndefined();
    expect(fa.FaWiersz[0].P_12).toBe('0 WDT');
    expect(fa.DodatkowyOpis).toEqual([
      { Klucz: 'Podstawa prawna', Wartosc: 'Wewnątrzwspólnotowa dostawa towarów, stawka 0% (art. 42 ust. 1 ustawy o VAT; art. 138 ust. 1 dyrektywy 2006/112/WE)' },
    ]);
  });

  it('eu_reverse_charge: np II in P_13_9, P_18 marks the reverse charge, the basis in the notes', async () => {
    const { fa, invoice } = await invoiceFor('electronic_service', 'de', { ossRegistered: true });
    expect(invoice).toMatchObject({ reverse_charge: true, np_tax_kind: 'export_service_eu' });
    expect(fa).toMatchObject({ P_13_9: '200.00', P_15: '200.00', Adnotacje: annotations('1') });
    expect(fa.P_13_10).toBeUndefined();
    expect(fa.FaWiersz[0].P_12).toBe('np II');
    expect(fa.DodatkowyOpis).toEqual([
      { Klucz: 'Podstawa prawna', Wartosc: 'Usługa niepodlegająca opodatkowaniu w Polsce, miejsce świadczenia w kraju nabywcy (art. 28b ust. 1 ustawy o VAT; art. 44 i art. 196 dyrektywy 2006/112/WE)' },
    ]);
  });

  it('non_eu_service: np I in P_13_8 under art. 28b', async () => {
    const { fa } = await invoiceFor('service', 'us');
    expect(fa).toMatchObject({ P_13_8: '200.00', P_15: '200.00', Adnotacje: annotations('2') });
    expect(fa.FaWiersz[0].P_12).toBe('np I');
    expect(fa.DodatkowyOpis).toEqual([
      { Klucz: 'Podstawa prawna', Wartosc: 'Usługa niepodlegająca opodatkowaniu w Polsce, miejsce świadczenia w kraju nabywcy poza Unią Europejską (art. 28b ust. 1 ustawy o VAT; art. 44 dyrektywy 2006/112/WE)' },
    ]);
  });

  it('non_eu_consumer_electronic: np I in P_13_8 under art. 28k', async () => {
    const { fa } = await invoiceFor('electronic_service', 'usConsumer');
    expect(fa).toMatchObject({ P_13_8: '200.00', P_15: '200.00' });
    expect(fa.FaWiersz[0].P_12).toBe('np I');
    expect(fa.DodatkowyOpis).toEqual([
      { Klucz: 'Podstawa prawna', Wartosc: 'Usługa elektroniczna niepodlegająca opodatkowaniu w Polsce, miejsce świadczenia w kraju konsumenta (art. 28k ust. 1 ustawy o VAT; art. 58 ust. 1 dyrektywy 2006/112/WE)' },
    ]);
  });

  it('export: 0 EX in P_13_6_3', async () => {
    const { fa } = await invoiceFor('goods', 'usConsumer');
    expect(fa).toMatchObject({ P_13_6_3: '200.00', P_15: '200.00' });
    expect(fa.FaWiersz[0].P_12).toBe('0 EX');
    expect(fa.DodatkowyOpis).toEqual([{ Klucz: 'Podstawa prawna', Wartosc: 'Eksport towarów, stawka 0% (art. 41 ust. 4 ustawy o VAT; art. 146 ust. 1 dyrektywy 2006/112/WE)' }]);
  });

  it('oss: the state’s rate in P_12_XII, the sums in P_13_5 and P_14_5, the OSS words with the state', async () => {
    const { fa, invoice } = await invoiceFor('electronic_service', 'deConsumer', { ossRegistered: true });
    expect(invoice).toMatchObject({ use_moss: true });
    expect(fa).toMatchObject({ P_13_5: '200.00', P_14_5: '38.00', P_15: '238.00', Adnotacje: annotations('2') });
    expect(fa.P_13_1).toBeUndefined();
    expect(fa.FaWiersz[0]).toMatchObject({ P_11: '200.00', P_12_XII: '19' });
    expect(fa.FaWiersz[0].P_12).toBeUndefined();
    expect(fa.DodatkowyOpis).toEqual([
      { Klucz: 'Procedura OSS', Wartosc: 'Procedura OSS (procedura unijna, art. 130a–130d ustawy o VAT; art. 369a–369k dyrektywy 2006/112/WE)' },
      { Klucz: 'Procedura OSS', Wartosc: 'VAT państwa członkowskiego konsumpcji: DE' },
    ]);
  });

  it('oss at a rate that is also Polish (Portugal, 23%): still P_12_XII, not P_13_1', async () => {
    const { fa } = await invoiceFor('goods', 'deConsumer', { ossRegistered: true });
    expect(fa.FaWiersz[0].P_12_XII).toBe('19');
    const reply = await http.post('/invoices.json', {
      invoice: { ...seller, ...buyers.deConsumer, buyer_country: 'PT', issue_date: '2026-02-02', use_oss: true, positions: [{ name: 'Kurs', quantity: 1, price_net: '100.00', tax: '23' }] },
    });
    expect(reply.status, reply.text).toBe(201);
    const portugal = readFa3(buildFa3(fa3InvoiceOf((await http.get(`/invoices/${String(reply.body.id)}.json`)).body), { createdAt })).Fa;
    expect(portugal).toMatchObject({ P_13_5: '100.00', P_14_5: '23.00', P_15: '123.00' });
    expect(portugal.P_13_1).toBeUndefined();
    expect(portugal.FaWiersz[0].P_12_XII).toBe('23');
  });

  it('eu_consumer_domestic: Polish VAT as at home when the account is not in OSS', async () => {
    const { decision, fa } = await invoiceFor('electronic_service', 'deConsumer');
    expect(decision.case).toBe('eu_consumer_domestic');
    expect(fa).toMatchObject({ P_13_1: '200.00', P_14_1: '46.00', P_15: '246.00' });
    expect(fa.DodatkowyOpis).toBeUndefined();
  });

  it('exempt: P_19 with the basis in P_19A, and no words repeated in the notes', async () => {
    const reply = await http.post('/invoices.json', {
      invoice: {
        ...seller, ...buyers.pl, issue_date: '2026-02-02', exempt_tax_kind: 'art. 43 ust. 1 pkt 29 lit. a ustawy o VAT',
        positions: [{ name: 'Szkolenie', quantity: 1, price_net: '500.00', tax: 'zw' }],
      },
    });
    expect(reply.status, reply.text).toBe(201);
    const xml = buildFa3(fa3InvoiceOf((await http.get(`/invoices/${String(reply.body.id)}.json`)).body), { createdAt });
    expect((await xmllint(xml)).errors).toBe('');
    const fa = readFa3(xml).Fa;
    expect(fa).toMatchObject({ P_13_7: '500.00', P_15: '500.00', Adnotacje: { Zwolnienie: { P_19: '1', P_19A: 'art. 43 ust. 1 pkt 29 lit. a ustawy o VAT' } } });
    expect(fa.FaWiersz[0].P_12).toBe('zw');
    expect(fa.DodatkowyOpis).toBeUndefined();
  });
});
