import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decimal, mul, round, toPlain } from '../../src/kernel/money.js';
import { taxNotes, type TaxCase } from '../../src/kernel/tax/index.js';
import { createNbpClient } from '../../src/server-kit/registries/index.js';
import { buildFa3, fa3InvoiceOf } from '../../src/service/ksef/fa3/build.js';
import { json, SHOP_ORIGIN, startTestBff, type TestBff } from '../bff/support.js';
import { startTestService, type TestService } from '../helpers/service.js';
import { pdfText, xmllint } from './ksef/support.js';

/**
 * Every sale a valid invoice: one table of sales, each run through the widget checkout (paid on the
 * checkout page) and through the API (a paid payment that generates its invoice), in PLN and in EUR.
 * For each, the price quoted, the amount paid and the invoice agree, the invoice has the kind, rate,
 * totals and notes its case needs, a foreign-currency one its NBP rate and VAT in PLN, the PDF prints
 * the words the law requires, and its FA(3) is valid against the Ministry's schema.
 */

let service: TestService;
let department: number;
/** The BFF of a seller registered for OSS, and of one that is not. */
let bffs: { oss: TestBff; plain: TestBff };
const api = (path: string) => `${service.url}${path}${path.includes('?') ? '&' : '?'}api_token=${service.apiToken}`;

async function call(path: string, body?: unknown, method = body === undefined ? 'GET' : 'POST') {
  const response = await fetch(api(path), {
    method,
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, body: await json(response) };
}

const SELLER = { name: 'Demo Studio Sp. z o.o.', tax_no: '5252248481', street: 'ul. Prosta 51', post_code: '00-838', city: 'Warszawa', country: 'PL' };
const BUYERS = {
  plCompany: { company: true, name: 'Prosta Sp. z o.o.', tax_no: '5252445767', street: 'ul. Prosta 1', post_code: '00-950', city: 'Warszawa', country: 'PL' },
  plConsumer: { name: 'Jan Kowalski', country: 'PL' },
  deCompany: { company: true, name: 'Nordlicht Software GmbH', tax_no: 'DE812345673', street: 'Speicherstraße 12', post_code: '20457', city: 'Hamburg', country: 'DE' },
  usCompany: { company: true, tax_no_kind: 'other', name: 'American Corp', tax_no: '123456789', street: '1 Main St', post_code: '10001', city: 'New York', country: 'US' },
  usConsumer: { name: 'John Smith', street: '2 Main St', post_code: '10001', city: 'New York', country: 'US' },
  frConsumer: { name: 'Marie Dupont', street: '3 rue de la Paix', post_code: '75002', city: 'Paris', country: 'FR' },
} as const;

type Supply = 'goods' | 'service' | 'electronic_service';
interface Sale {
  name: string;
  supply: Supply;
  buyer: keyof typeof BUYERS;
  oss?: boolean;
  expected: { case: TaxCase; kind: string; tax: string; amount: string; net: string; vat: string; np_tax_kind?: string; reverse_charge?: boolean; use_oss?: boolean };
}

/** Two units at 100.00 net, 23 % in Poland. */
const SALES: Sale[] = [
  { name: 'goods to a Polish consumer', supply: 'goods', buyer: 'plConsumer', expected: { case: 'domestic', kind: 'vat', tax: '23', amount: '246', net: '200.0', vat: '46.0' } },
  { name: 'a service to a Polish company', supply: 'service', buyer: 'plCompany', expected: { case: 'domestic', kind: 'vat', tax: '23', amount: '246', net: '200.0', vat: '46.0' } },
  { name: 'goods to an EU company VIES confirms', supply: 'goods', buyer: 'deCompany', expected: { case: 'intra_eu_supply', kind: 'wdt', tax: '0', amount: '200', net: '200.0', vat: '0.0' } },
  {
    name: 'a service to an EU company VIES confirms', supply: 'service', buyer: 'deCompany',
    expected: { case: 'eu_reverse_charge', kind: 'vat', tax: 'np', amount: '200', net: '200.0', vat: '0.0', np_tax_kind: 'export_service_eu', reverse_charge: true },
  },
  { name: 'a service to a business outside the EU', supply: 'service', buyer: 'usCompany', expected: { case: 'non_eu_service', kind: 'vat', tax: 'np', amount: '200', net: '200.0', vat: '0.0', np_tax_kind: 'export_service' } },
  { name: 'goods to a buyer outside the EU', supply: 'goods', buyer: 'usConsumer', expected: { case: 'export', kind: 'export_products', tax: '0', amount: '200', net: '200.0', vat: '0.0' } },
  { name: 'an e-service to an EU consumer, under OSS', supply: 'electronic_service', buyer: 'frConsumer', oss: true, expected: { case: 'oss', kind: 'vat', tax: '20', amount: '240', net: '200.0', vat: '40.0', use_oss: true } },
  { name: 'an e-service to an EU consumer, without OSS', supply: 'electronic_service', buyer: 'frConsumer', expected: { case: 'eu_consumer_domestic', kind: 'vat', tax: '23', amount: '246', net: '200.0', vat: '46.0' } },
];

const CURRENCIES = [
  { currency: 'PLN', lang: 'pl' as const },
  { currency: 'EUR', lang: 'en' as const },
];

const productToken = (supply: Supply, currency: string) => `sale-${supply.replace('_', '-')}-${currency.toLowerCase()}`;

beforeAll(async () => {
  service = await startTestService();
  const [main] = (await call('/departments.json')).body as { id: number }[];
  department = main!.id;
  expect((await call(`/departments/${department}.json`, { department: { ...SELLER, widget_origins: [SHOP_ORIGIN] } }, 'PUT')).status).toBe(200);
  for (const supply of ['goods', 'service', 'electronic_service'] as const) {
    for (const { currency } of CURRENCIES) {
      const created = await call('/products.json', { product: { name: `${supply} ${currency}`, price_net: '100.00', tax: '23', currency, supply_kind: supply, token: productToken(supply, currency) } });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
    }
  }
  const doubles = service.registryDoubles!;
  const registries = { nbpApiUrl: doubles.nbpApiUrl, viesApiUrl: doubles.viesApiUrl, mfWhitelistUrl: doubles.mfWhitelistUrl };
  bffs = {
    oss: await startTestBff(service, { registries, checkout: { ossRegistered: true } }),
    plain: await startTestBff(service, { registries, checkout: { ossRegistered: false } }),
  };
}, 90_000);
afterAll(async () => {
  await bffs?.oss.close();
  await bffs?.plain.close();
  await service?.stop();
});

async function setOss(registered: boolean) {
  expect((await call(`/departments/${department}.json`, { department: { oss_registered: registered } }, 'PUT')).status).toBe(200);
}

let serial = 0;
const emailOf = () => `sale-${(serial += 1)}@buyer.example`;

/**
 * A checkout as the pay button makes it: the quote for the buyer (`productUrl`), the checkout
 * (`checkoutUrl`), the payment on the service's checkout page, and the invoice it issued.
 */
async function checkoutAndPay(urls: { product: (token: string, query: URLSearchParams) => string; checkout: string }, sale: Sale, currency: string, lang: 'pl' | 'en') {
  const token = productToken(sale.supply, currency);
  const buyer = { ...BUYERS[sale.buyer], email: emailOf() };
  const query = new URLSearchParams({ quantity: '2', lang, country: buyer.country, ...('tax_no' in buyer ? { tax_no: buyer.tax_no } : {}), ...('company' in buyer ? { company: '1' } : {}) });
  const product = await json(await fetch(urls.product(token, query)));
  const checkout = await fetch(urls.checkout, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: SHOP_ORIGIN },
    body: JSON.stringify({ product: token, quantity: 2, buyer, lang, returnUrl: `${SHOP_ORIGIN}/thanks` }),
  });
  const started = await json(checkout);
  expect(checkout.status, JSON.stringify(started)).toBe(201);
  const paid = await fetch(started.redirectUrl, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'choice=pay', redirect: 'manual' });
  expect(paid.status).toBe(303);
  const payments = (await call('/banking/payments.json?per_page=100')).body as { email: string; invoice_id: number | null; price: string }[];
  const payment = payments.find((p) => p.email === buyer.email)!;
  return { quoted: product.quote.amount as string, charged: started.amount as string, payment, invoiceId: payment.invoice_id! };
}

/** Through the service's own widget routes. */
const throughWidget = (sale: Sale, currency: string, lang: 'pl' | 'en') =>
  checkoutAndPay(
    { product: (token, query) => `${service.url}/a/${service.prefix}/widget/products/${token}.json?${query}`, checkout: `${service.url}/a/${service.prefix}/widget/checkout.json` },
    sale, currency, lang,
  );

/** Through the BFF of a seller registered for OSS or not, as the sale needs. */
const throughBff = (sale: Sale, currency: string, lang: 'pl' | 'en') => {
  const bff = sale.oss ? bffs.oss : bffs.plain;
  return checkoutAndPay({ product: (token, query) => `${bff.base}/products/${token}?${query}`, checkout: `${bff.base}/checkout` }, sale, currency, lang);
};

/** A paid payment made through the API, which generates its invoice. */
async function throughApi(sale: Sale, currency: string, lang: 'pl' | 'en') {
  const buyer = BUYERS[sale.buyer];
  const [product] = (await call(`/products.json?per_page=100`)).body.filter((p: { token: string }) => p.token === productToken(sale.supply, currency));
  const email = emailOf();
  const created = await call('/banking/payments.json', {
    banking_payment: {
      product_id: product.id, quantity: '2', price: sale.expected.amount, currency, paid: true, generate_invoice: true, kind: 'api', lang, email,
      invoice_name: buyer.name, invoice_tax_no: 'tax_no' in buyer ? buyer.tax_no : null, invoice_company: 'company' in buyer,
      invoice_tax_no_kind: 'tax_no_kind' in buyer ? buyer.tax_no_kind : null,
      invoice_street: 'street' in buyer ? buyer.street : null, invoice_post_code: 'post_code' in buyer ? buyer.post_code : null,
      invoice_city: 'city' in buyer ? buyer.city : null, invoice_country: buyer.country,
    },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return { quoted: sale.expected.amount, charged: created.body.price as string, payment: created.body, invoiceId: created.body.invoice_id as number };
}

const PATHS = { widget: throughWidget, bff: throughBff, api: throughApi };

const money = (value: string) => toPlain(decimal(value));

for (const [path, sell] of Object.entries(PATHS)) {
  for (const { currency, lang } of CURRENCIES) {
    describe(`sales through the ${path} in ${currency}`, () => {
      for (const sale of SALES) {
        it(`${sale.name}: ${sale.expected.case}, ${sale.expected.kind} at ${sale.expected.tax}`, async () => {
          await setOss(sale.oss === true);
          const { quoted, charged, invoiceId } = await sell(sale, currency, lang);
          const { expected } = sale;
          // The dialog's price, the payment and the invoice agree.
          expect(money(quoted)).toBe(expected.amount);
          expect(money(charged)).toBe(expected.amount);
          const invoice = (await call(`/invoices/${invoiceId}.json`)).body;
          expect(invoice).toMatchObject({
            kind: expected.kind,
            currency,
            lang,
            status: 'paid',
            price_net: expected.net,
            price_tax: expected.vat,
            ...(expected.np_tax_kind ? { np_tax_kind: expected.np_tax_kind } : {}),
            ...(expected.reverse_charge ? { reverse_charge: true } : {}),
            ...(expected.use_oss ? { use_oss: true } : {}),
          });
          expect(money(invoice.price_gross)).toBe(expected.amount);
          expect(invoice.positions.map((p: { tax: string }) => p.tax)).toEqual([expected.tax]);

          let rate: { mid: string; tableNo: string; effectiveDate: string } | undefined;
          if (currency !== 'PLN') {
            // The NBP table A mid rate of the last working day before the sale, and the VAT in PLN at it.
            rate = (await createNbpClient({ baseUrl: service.registryDoubles!.nbpApiUrl }).rateBefore(currency, invoice.sell_date))!;
            expect(invoice).toMatchObject({ exchange_currency: 'PLN', exchange_currency_rate: rate.mid, exchange_kind: 'nbp', exchange_date: rate.effectiveDate });
            expect(invoice.exchange_note).toContain(rate.tableNo);
            expect(invoice.price_tax_pln).toBe(toPlain(round(mul(decimal(invoice.price_tax), decimal(rate.mid)), 2)));
          }

          // The words the law requires, on the PDF in the invoice's language.
          const pdf = new Uint8Array(await (await fetch(api(`/invoices/${invoiceId}.pdf`))).arrayBuffer());
          const text = await pdfText(pdf);
          for (const note of taxNotes(expected.case, lang, { ossCountry: expected.use_oss ? 'FR' : null })) {
            expect(text.replace(/\s+/g, ' ')).toContain(note.replace(/\s+/g, ' '));
          }
          // A foreign-currency invoice prints its NBP table, its day and the VAT in PLN.
          if (rate) expect(text).toContain(lang === 'pl' ? `tabeli nr ${rate.tableNo} z dnia ${rate.effectiveDate}` : `table no. ${rate.tableNo} of ${rate.effectiveDate}`);
          if (rate) expect(text).toContain(lang === 'pl' ? 'VAT w PLN:' : 'VAT in PLN:');

          // Every one of these kinds goes to KSeF: its FA(3) is valid against the Ministry's schema.
          const xml = buildFa3(fa3InvoiceOf(invoice), { createdAt: new Date() });
          expect((await xmllint(xml)).errors).toBe('');
        });
      }
    });
  }
}

describe('a sale VIES cannot confirm', () => {
  it('refuses a number VIES calls invalid with a 422 naming buyer.tax_no', async () => {
    const buyer = { ...BUYERS.deCompany, tax_no: 'DE136695976', email: emailOf() };
    const response = await fetch(`${service.url}/a/${service.prefix}/widget/checkout.json`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: SHOP_ORIGIN },
      body: JSON.stringify({ product: productToken('service', 'PLN'), quantity: 1, buyer, returnUrl: `${SHOP_ORIGIN}/thanks` }),
    });
    expect(response.status).toBe(422);
    expect(Object.keys((await json(response)).message)).toEqual(['buyer.tax_no']);
  });

  it('charges Polish VAT when VIES cannot answer, says why, keeps the evidence and tells the seller', async () => {
    service.registryDoubles!.vies.makeUnavailable('DE');
    try {
      const sale: Sale = { name: 'unconfirmed', supply: 'service', buyer: 'deCompany', expected: { case: 'domestic', kind: 'vat', tax: '23', amount: '246', net: '200.0', vat: '46.0' } };
      const token = productToken('service', 'PLN');
      const buyer = { ...BUYERS.deCompany, email: emailOf() };
      const checkout = await fetch(`${service.url}/a/${service.prefix}/widget/checkout.json`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: SHOP_ORIGIN },
        body: JSON.stringify({ product: token, quantity: 2, buyer, lang: 'en', returnUrl: `${SHOP_ORIGIN}/thanks` }),
      });
      const started = await json(checkout);
      expect(checkout.status).toBe(201);
      expect(started).toMatchObject({ amount: sale.expected.amount, tax: '23', case: 'domestic', fallback: 'vies_unavailable' });
      const page = await (await fetch(started.redirectUrl)).text();
      expect(page).toContain('could not confirm your VAT number');
      await fetch(started.redirectUrl, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'choice=pay', redirect: 'manual' });
      const payments = (await call('/banking/payments.json?per_page=100')).body as { email: string; invoice_id: number }[];
      const invoice = (await call(`/invoices/${payments.find((p) => p.email === buyer.email)!.invoice_id}.json`)).body;
      expect(invoice).toMatchObject({ kind: 'vat', price_gross: '246.0', attention: 'vies_unavailable', vies_status: 'unavailable' });
    } finally {
      service.registryDoubles!.vies.restore('DE');
    }
  });
});
