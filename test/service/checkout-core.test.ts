import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json, SHOP_ORIGIN, startTestBff, type TestBff } from '../bff/support.js';
import { startTestService, type TestService } from '../helpers/service.js';
import { type RegistryDoubles, startRegistryDoubles } from '../../src/service/registries/doubles/index.js';

/**
 * One table of checkout cases, run through both checkouts: the service's public widget checkout and
 * the BFF's `POST /checkout`, against one real service. Each case states the buyer, the product, and
 * what the 422 names or what the paid invoice says.
 */
let service: TestService;
let bff: TestBff;
/** VIES, which the BFF asks before a sale goes without Polish VAT. */
let registries: RegistryDoubles;

const api = (path: string) => `${service.url}${path}${path.includes('?') ? '&' : '?'}api_token=${service.apiToken}`;

async function post(path: string, body: unknown, method = 'POST') {
  const response = await fetch(api(path), { method, headers: { 'content-type': 'application/json', accept: 'application/json' }, body: JSON.stringify(body) });
  expect(response.status, `${method} ${path}`).toBeLessThan(300);
  return json(response);
}

beforeAll(async () => {
  service = await startTestService();
  // VIES knows the German company, in the service's register and in the one the BFF asks: a 0 % or np
  // needs its register to say the number exists.
  service.registryDoubles!.vies.register('DE', '136695976', { name: 'Muster GmbH', address: 'Hauptstraße 1\n10115 Berlin' });
  registries = await startRegistryDoubles();
  registries.vies.register('DE', '136695976', { name: 'Muster GmbH', address: 'Hauptstraße 1\n10115 Berlin' });
  bff = await startTestBff(service, { registries: { viesApiUrl: registries.viesApiUrl } });
  await post('/products.json', { product: { name: 'Website audit', price_net: '100.00', tax: '23', service: true, token: 'core-audit' } });
  await post('/products.json', { product: { name: 'Desk lamp', price_net: '200.00', tax: '23', service: false, token: 'core-lamp' } });
  const [department] = (await (await fetch(api('/departments.json'))).json()) as { id: number }[];
  await post(`/departments/${department!.id}.json`, { department: { widget_origins: [SHOP_ORIGIN] } }, 'PUT');
}, 60_000);
afterAll(async () => {
  await bff?.close();
  await service?.stop();
  await registries?.close();
});

interface Answer {
  status: number;
  fields: Record<string, string[]>;
  body: Record<string, unknown>;
}

/** The product answers of both paths, with a query describing the buyer. */
const PRODUCT_ANSWERS = {
  widget: (token: string, query: string) => fetch(`${service.url}/a/${service.prefix}/widget/products/${token}.json?${query}`),
  bff: (token: string, query: string) => fetch(`${bff.base}/products/${token}?${query}`),
};

/** The two checkouts, each answering in its own error shape, read into one. */
const PATHS = {
  widget: async (body: Record<string, unknown>, headers: Record<string, string>): Promise<Answer> => {
    const response = await fetch(`${service.url}/a/${service.prefix}/widget/checkout.json`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: SHOP_ORIGIN, ...headers },
      body: JSON.stringify(body),
    });
    const answer = await json(response);
    return { status: response.status, fields: response.status === 422 ? answer.message : {}, body: answer };
  },
  bff: async (body: Record<string, unknown>, headers: Record<string, string>): Promise<Answer> => {
    const response = await fetch(`${bff.base}/checkout`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: SHOP_ORIGIN, ...headers },
      body: JSON.stringify(body),
    });
    const answer = await json(response);
    return { status: response.status, fields: response.status === 422 ? answer.error.fields : {}, body: answer };
  },
};

let serial = 0;
function order(product: string, buyer: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  serial += 1;
  return { product, quantity: 2, buyer: { email: `buyer-${serial}@example.com`, ...buyer }, returnUrl: `${SHOP_ORIGIN}/thanks`, ...extra };
}

const POLISH_COMPANY = { company: true, name: 'Prosta Sp. z o.o.', tax_no: '5252445767', street: 'ul. Prosta 1', post_code: '00-950', city: 'Warszawa', country: 'PL' };
const GERMAN_COMPANY = { company: true, name: 'Muster GmbH', tax_no: 'DE136695976', street: 'Hauptstraße 1', post_code: '10115', city: 'Berlin', country: 'DE' };

const REFUSED: [string, Record<string, unknown>, string[]][] = [
  ['a NIP that is no NIP', { ...POLISH_COMPANY, tax_no: 'XX123' }, ['buyer.tax_no']],
  ['a NIP with a wrong check digit', { ...POLISH_COMPANY, tax_no: '5252445768' }, ['buyer.tax_no']],
  ['a German VAT number with a wrong check digit', { ...GERMAN_COMPANY, tax_no: 'DE136695978' }, ['buyer.tax_no']],
  ['an Austrian VAT number with a wrong check digit', { ...GERMAN_COMPANY, country: 'AT', post_code: '1010', tax_no: 'ATU13585626' }, ['buyer.tax_no']],
  ['a company without a tax number', { ...POLISH_COMPANY, tax_no: null }, ['buyer.tax_no']],
  ['a company without an address', { company: true, name: 'Prosta Sp. z o.o.', tax_no: '5252445767' }, ['buyer.city', 'buyer.country', 'buyer.post_code', 'buyer.street']],
  ['a tax number without an address (a company implied)', { name: 'Prosta Sp. z o.o.', tax_no: '5252445767' }, ['buyer.city', 'buyer.country', 'buyer.post_code', 'buyer.street']],
  ['a company with a post code of another country', { ...POLISH_COMPANY, post_code: '10115' }, ['buyer.post_code']],
  ['a consumer without a name', { first_name: 'Ada' }, ['buyer.name']],
  ['an unknown tax number kind', { ...POLISH_COMPANY, tax_no_kind: 'trust-me' }, ['buyer.tax_no_kind']],
];

/** Pays the attempt on the checkout page and reads the invoice it issued. */
async function payAndReadInvoice(redirectUrl: string, email: string) {
  const paid = await fetch(redirectUrl, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'choice=pay', redirect: 'manual' });
  expect(paid.status).toBe(303);
  const payments = (await (await fetch(api('/banking/payments.json?per_page=100'))).json()) as { email: string; invoice_id: number | null }[];
  const payment = payments.find((p) => p.email === email)!;
  expect(payment.invoice_id).not.toBeNull();
  return json(await fetch(api(`/invoices/${payment.invoice_id}.json`)));
}

for (const [path, checkout] of Object.entries(PATHS)) {
  describe(`the ${path} checkout`, () => {
    for (const [name, buyer, fields] of REFUSED) {
      it(`refuses ${name} with a 422 naming ${fields.join(', ')}`, async () => {
        const answer = await checkout(order('core-audit', buyer), {});
        expect(answer.status).toBe(422);
        expect(Object.keys(answer.fields).sort()).toEqual(fields);
      });
    }

    it('quotes the price a buyer will pay in the product answer, by the same rule', async () => {
      const answer = PRODUCT_ANSWERS[path as keyof typeof PRODUCT_ANSWERS];
      const german = await json(await answer('core-audit', 'country=DE&tax_no=DE136695976&company=1&quantity=2'));
      expect(german).toMatchObject({ service: true, seller_country: 'PL', quote: { vat_treatment: 'reverse_charge', quantity: 2, amount: '200', unit_price: '100', tax: 'np' } });
      const goods = await json(await answer('core-lamp', 'country=DE&tax_no=DE136695976&company=1'));
      expect(goods.quote).toMatchObject({ vat_treatment: 'intra_eu_supply', quantity: 1, amount: '200', unit_price: '200', tax: '0', case: 'intra_eu_supply', rate: '0' });
      const consumer = await json(await answer('core-audit', 'country=DE'));
      expect(consumer.quote).toMatchObject({ vat_treatment: 'standard', quantity: 1, amount: '123', unit_price: '123', tax: '23', case: 'domestic', rate: '23', notes: [] });
      const wrongNumber = await json(await answer('core-audit', 'country=DE&tax_no=DE136695978&company=1'));
      expect(wrongNumber.quote.vat_treatment).toBe('standard');
    });

    it('invoices a valid Polish company with its NIP, address and country at the product’s rate', async () => {
      const body = order('core-audit', POLISH_COMPANY);
      const answer = await checkout(body, {});
      expect(answer.status).toBe(201);
      expect(answer.body).toMatchObject({ amount: '246', tax: '23', vat_treatment: 'standard' });
      const invoice = await payAndReadInvoice(answer.body.redirectUrl as string, (body.buyer as { email: string }).email);
      expect(invoice).toMatchObject({
        kind: 'vat',
        buyer_name: 'Prosta Sp. z o.o.',
        buyer_tax_no: '5252445767',
        buyer_street: 'ul. Prosta 1',
        buyer_post_code: '00-950',
        buyer_city: 'Warszawa',
        buyer_country: 'PL',
        buyer_company: true,
        price_gross: '246.0',
      });
      expect(invoice.positions[0]).toMatchObject({ tax: '23', total_price_gross: '246.0' });
    });

    it('charges a German company the net price of a service, invoiced at np as an EU service (reverse charge)', async () => {
      const body = order('core-audit', GERMAN_COMPANY);
      const answer = await checkout(body, {});
      expect(answer.status).toBe(201);
      expect(answer.body).toMatchObject({ amount: '200', tax: 'np', vat_treatment: 'reverse_charge' });
      const page = await (await fetch(answer.body.redirectUrl as string, { headers: { 'accept-language': 'en' } })).text();
      expect(page).toContain('Reverse charge');
      const invoice = await payAndReadInvoice(answer.body.redirectUrl as string, (body.buyer as { email: string }).email);
      expect(invoice).toMatchObject({ kind: 'vat', np_tax_kind: 'export_service_eu', reverse_charge: true, price_net: '200.0', price_gross: '200.0', buyer_tax_no: 'DE136695976', buyer_country: 'DE' });
      expect(invoice.positions[0]).toMatchObject({ tax: 'np', total_price_gross: '200.0' });
    });

    it('invoices goods to a German company as an intra-community supply at 0% (wdt), at the net price', async () => {
      const body = order('core-lamp', GERMAN_COMPANY);
      const answer = await checkout(body, {});
      expect(answer.body).toMatchObject({ amount: '400', tax: '0', vat_treatment: 'intra_eu_supply' });
      const invoice = await payAndReadInvoice(answer.body.redirectUrl as string, (body.buyer as { email: string }).email);
      expect(invoice).toMatchObject({ kind: 'wdt', price_gross: '400.0' });
      expect(invoice.positions[0]).toMatchObject({ tax: '0' });
    });

    it('keeps the product’s rate for a German consumer and for a German company without a tax number', async () => {
      const consumer = await checkout(order('core-audit', { first_name: 'Max', last_name: 'Muster', country: 'DE' }), {});
      expect(consumer.body).toMatchObject({ amount: '246', tax: '23', vat_treatment: 'standard' });
      const noNumber = await checkout(order('core-audit', { ...GERMAN_COMPANY, tax_no: null, tax_no_kind: 'empty' }), {});
      expect(noNumber.status).toBe(201);
      expect(noNumber.body).toMatchObject({ amount: '246', vat_treatment: 'standard' });
    });

    it('speaks the language the shop chose through the checkout page, the invoice and its public page', async () => {
      const body = order('core-audit', { first_name: 'Ada', last_name: 'Lovelace' }, { lang: 'en' });
      const english = await checkout(body, { 'accept-language': 'pl-PL,pl;q=0.9' });
      expect(english.status).toBe(201);
      const page = await (await fetch(english.body.redirectUrl as string, { headers: { 'accept-language': 'pl-PL,pl;q=0.9' } })).text();
      expect(page).toContain('<html lang="en">');
      expect(page).toContain('Checkout');
      const invoice = await payAndReadInvoice(english.body.redirectUrl as string, (body.buyer as { email: string }).email);
      expect(invoice.lang).toBe('en');
      const publicPage = await (await fetch(invoice.view_url, { headers: { 'accept-language': 'pl' } })).text();
      expect(publicPage).toContain('<html lang="en">');
      // The invoice goes out by e-mail in the same language.
      const outbox = (await (await fetch(api('/outbox.json'))).json()) as { subject: string; to: string[] }[];
      const mail = outbox.find((m) => m.to.includes((body.buyer as { email: string }).email));
      expect(mail?.subject).toBe(`VAT invoice ${invoice.number} from Demo Studio Sp. z o.o.`);

      const polish = await checkout(order('core-audit', { first_name: 'Jan', last_name: 'Kowalski' }, { lang: 'pl' }), { 'accept-language': 'en-GB,en;q=0.9' });
      const polishPage = await (await fetch(polish.body.redirectUrl as string, { headers: { 'accept-language': 'en-GB' } })).text();
      expect(polishPage).toContain('<html lang="pl">');
      expect(polishPage).toContain('Płatność');
      // Nothing chosen: the browser decides, once, at checkout.
      const unchosen = await checkout(order('core-audit', { first_name: 'Jan', last_name: 'Nowak' }), { 'accept-language': 'en-US,en;q=0.9,pl;q=0.5' });
      const unchosenPage = await (await fetch(unchosen.body.redirectUrl as string)).text();
      expect(unchosenPage).toContain('<html lang="en">');
    });

    it('never lets a checkout buyer capture a client the account’s own writes match (issue: capture through a checkout)', async () => {
      const victim = { company: true, name: `Victim ${path} S.A.`, tax_no: '7740001454', street: 'ul. Ofiary 5', post_code: '00-001', city: 'Warszawa', country: 'PL' };
      const body = order('core-audit', victim);
      const answer = await checkout(body, {});
      expect(answer.status).toBe(201);
      const stranger = await payAndReadInvoice(answer.body.redirectUrl as string, (body.buyer as { email: string }).email);
      // The account's own invoice for the real company, by name and tax number, makes its own client.
      const own = await post('/invoices.json', { invoice: { buyer_name: victim.name, buyer_tax_no: victim.tax_no, positions: [{ name: 'Big deal', tax: '23', total_price_gross: '50000' }] } });
      expect(own.client_id).not.toBe(stranger.client_id);
      // And the next own invoice finds that one, never the checkout's.
      const again = await post('/invoices.json', { invoice: { buyer_name: victim.name, buyer_tax_no: victim.tax_no, positions: [{ name: 'Follow-up', tax: '23', total_price_gross: '100' }] } });
      expect(again.client_id).toBe(own.client_id);
    });
  });
}

describe('the widget behind a proxy', () => {
  it('counts each buyer’s own address from X-Forwarded-For only behind configured proxies', async () => {
    const proxied = await startTestService({ trustProxy: 1 });
    try {
      const remaining = async (target: TestService, forwardedFor: string) => {
        const response = await fetch(`${target.url}/a/${target.prefix}/widget/products/none.json`, { headers: { 'x-forwarded-for': forwardedFor } });
        return Number(response.headers.get('ratelimit-remaining'));
      };
      const first = await remaining(proxied, '198.51.100.7, 203.0.113.1');
      expect(await remaining(proxied, '198.51.100.7, 203.0.113.1')).toBe(first - 1);
      // Another buyer behind the same proxy has a budget of their own.
      expect(await remaining(proxied, '203.0.113.2')).toBe(first);
      // Without a configured proxy the header is the client's to forge, so it is ignored.
      const direct = await remaining(service, '203.0.113.50');
      expect(await remaining(service, '203.0.113.51')).toBe(direct - 1);
    } finally {
      await proxied.stop();
    }
  });
});
