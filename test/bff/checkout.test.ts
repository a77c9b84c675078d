import { randomUUID } from 'node:crypto';
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compare, decimal, mul, roundMoney, toPlain } from '../../src/kernel/money.js';
import type { Product } from '../../src/api/schemas/product.js';
import { issuePortalToken } from '../../src/bff/index.js';
import { bearer, json, PORTAL_SECRET, PRODUCT_TOKEN, SHOP_ORIGIN, startService, startTestBff, type Api, type Service, type TestBff } from './support.js';

let service: Service;
let api: Api;
let bff: TestBff;
let product: Product;

beforeAll(async () => {
  ({ service, api } = await startService());
  product = await api.products.create({ name: 'E-book: Invoicing done right', price_net: '40.65', tax: '23', currency: 'PLN', token: PRODUCT_TOKEN });
  // Enough products that the one asked for is not on the first page of the service's list.
  for (let i = 0; i < 3; i += 1) await api.products.create({ name: `Filler ${i}`, price_net: '1', tax: '23', currency: 'PLN' });
  bff = await startTestBff(service);
}, 60_000);

afterAll(async () => {
  await bff?.close();
  await service?.stop();
});

const checkoutBody = (overrides: Record<string, unknown> = {}) => ({
  product: PRODUCT_TOKEN,
  quantity: 3,
  buyer: { email: 'buyer@example.com', first_name: 'Ada', last_name: 'Lovelace', city: 'London' },
  returnUrl: `${SHOP_ORIGIN}/thanks`,
  cancelUrl: `${SHOP_ORIGIN}/cart`,
  ...overrides,
});

function postCheckout(body: unknown, headers: Record<string, string> = {}, base = bff.base) {
  return fetch(`${base}/checkout`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: SHOP_ORIGIN, ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

async function paymentsFor(email: string) {
  const all = [];
  for await (const payment of api.payments.iterate({ per_page: 100 })) if (payment.email === email) all.push(payment);
  return all;
}

describe('GET /bff/products/:token', () => {
  it('answers the public product data and nothing else', async () => {
    const response = await fetch(`${bff.base}/products/${PRODUCT_TOKEN}`, { headers: { origin: SHOP_ORIGIN } });
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBe(SHOP_ORIGIN);
    expect(await json(response)).toEqual({
      token: PRODUCT_TOKEN,
      name: 'E-book: Invoicing done right',
      description: null,
      price_net: product.price_net,
      price_gross: product.price_gross,
      tax: product.tax,
      currency: 'PLN',
      quantity_unit: product.quantity_unit,
      service: false,
      supply_kind: 'goods',
      seller_country: 'PL',
      quote: {
        vat_treatment: 'standard', quantity: 1, amount: toPlain(decimal(product.price_gross)), unit_price: toPlain(decimal(product.price_gross)), tax: product.tax,
        case: 'domestic', rate: product.tax, notes: [], oss_country: null, fallback: null,
      },
      // The account takes payments through the test provider: no real money moves.
      test_mode: true,
      // Its test provider takes BLIK codes on the page, and the product is sold in PLN.
      blik: true,
    });
  });

  it('names what is wrong with a company’s tax number in the quote, by its check digits, and nothing for a right one', async () => {
    const quoteOf = async (query: string) => {
      const response = await fetch(`${bff.base}/products/${PRODUCT_TOKEN}?${query}`, { headers: { origin: SHOP_ORIGIN } });
      expect(response.status).toBe(200);
      return ((await json(response)) as { quote: Record<string, unknown> }).quote;
    };
    const gross = toPlain(decimal(product.price_gross));
    expect(await quoteOf('country=DE&company=1&tax_no=DE136695978')).toEqual({
      vat_treatment: 'standard', quantity: 1, amount: gross, unit_price: gross, tax: product.tax, case: 'eu_consumer_domestic', rate: product.tax, notes: [], oss_country: null, fallback: null,
      problems: { tax_no: 'vat' },
    });
    const right = await quoteOf('country=DE&company=1&tax_no=DE136695976');
    expect(right).toMatchObject({ vat_treatment: 'intra_eu_supply', amount: toPlain(decimal(product.price_net)), case: 'intra_eu_supply' });
    expect('problems' in right).toBe(false);
    expect((await quoteOf('country=PL&company=1&tax_no=5252445768')).problems).toEqual({ tax_no: 'nip' });
    expect((await quoteOf('country=DE&company=1&tax_no=DE136695978&tax_no_kind=empty')).problems).toBeUndefined();
  });

  it('names the problems of the buyer’s country, tax number and post code by the checkout’s rules, and never reads a name or e-mail from the URL', async () => {
    const answerOf = (query: string) => fetch(`${bff.base}/products/${PRODUCT_TOKEN}?${query}`, { headers: { origin: SHOP_ORIGIN } });
    const problemsOf = async (query: string) => ((await json(await answerOf(query))) as { quote: { problems?: unknown } }).quote.problems;
    // A company's blank tax number and post code, as the dialog sends them; its name, e-mail and street are not the quote's to judge.
    expect(await problemsOf('quantity=1&lang=en&country=PL&company=1&tax_no=&post_code=')).toEqual({ tax_no: 'required', post_code: 'required' });
    expect(await problemsOf('quantity=1&lang=en&country=PL&company=1&tax_no=&post_code=&email=&name=&street=&city=')).toEqual({ tax_no: 'required', post_code: 'required' });
    expect(await problemsOf('quantity=1&lang=en&country=DE&company=1&tax_no=DE136695978&post_code=1011')).toEqual({ tax_no: 'vat', post_code: 'postCode' });
    // A consumer's blank name and e-mail in a query are ignored: the dialog checks them itself.
    expect(await problemsOf('quantity=1&lang=en&email=&name=&country=PL')).toBeUndefined();
    const valid = await answerOf('quantity=1&lang=en&country=PL&company=1&tax_no=5252445767&post_code=00-838');
    expect(((await json(valid)) as { quote: Record<string, unknown> }).quote).not.toHaveProperty('problems');
    // The answer is for this buyer alone; a product's own answer is for anyone.
    expect(valid.headers.get('cache-control')).toBe('private, no-store');
    expect((await answerOf('country=DE&company=1&tax_no=DE136695976')).headers.get('cache-control')).toBe('public, max-age=30');
  });

  describe("test mode follows the account's provider", () => {
    const providerIs = async (payments: Record<string, unknown>) => {
      const reply = await fetch(`${service.url}/account/payments.json`, {
        method: 'PUT',
        headers: { ...bearer(service.apiToken), 'content-type': 'application/json' },
        body: JSON.stringify({ payments }),
      });
      expect(reply.status).toBe(200);
    };
    const stripeLive = { provider: 'stripe', stripe: { secret_key: 'sk_live_51CheckoutTestKey00000000', webhook_secret: 'whsec_checkoutTestSigningSecret0000' } };
    const testModeOf = async (base: string) => {
      const response = await fetch(`${base}/products/${PRODUCT_TOKEN}`, { headers: { origin: SHOP_ORIGIN } });
      expect(response.status).toBe(200);
      return ((await json(response)) as { test_mode?: unknown }).test_mode;
    };

    it('says test_mode on the test provider and nothing with Stripe live keys; true and false override it', async () => {
      const following = await startTestBff(service, { productCacheMs: 0 });
      const live = await startTestBff(service, { checkout: { testMode: false } });
      const test = await startTestBff(service, { checkout: { testMode: true } });
      try {
        expect(await testModeOf(following.base)).toBe(true);
        expect(await testModeOf(live.base)).toBeUndefined();
        await providerIs(stripeLive);
        expect(await testModeOf(following.base)).toBeUndefined();
        expect(await testModeOf(test.base)).toBe(true);
        await providerIs({ provider: 'stripe', stripe: { secret_key: 'sk_test_51CheckoutTestKey00000000' } });
        expect(await testModeOf(following.base)).toBe(true);
        const logs = JSON.stringify([...following.logs, ...live.logs, ...test.logs]);
        expect(logs).not.toContain('sk_live');
        expect(logs).not.toContain('whsec_');
      } finally {
        await providerIs({ provider: 'test' });
        await Promise.all([following.close(), live.close(), test.close()]);
      }
    });

    it('remembers the answer for the product cache time, as it remembers products', async () => {
      const remembering = await startTestBff(service, { productCacheMs: 60_000 });
      try {
        expect(await testModeOf(remembering.base)).toBe(true);
        await providerIs(stripeLive);
        expect(await testModeOf(remembering.base)).toBe(true);
      } finally {
        await providerIs({ provider: 'test' });
        await remembering.close();
      }
    });

    it('takes a service without /account/payments (the hosted service) as live, unless told otherwise', async () => {
      const hosted = createServer((req, res) => {
        if (req.url?.startsWith('/account/payments')) {
          res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ code: 'error', message: 'Not found' }));
          return;
        }
        const forwarded = request(`${service.url}${req.url}`, { method: req.method, headers: req.headers }, (upstream) => {
          res.writeHead(upstream.statusCode ?? 502, upstream.headers);
          upstream.pipe(res);
        });
        req.pipe(forwarded);
      });
      await new Promise<void>((resolve) => hosted.listen(0, '127.0.0.1', resolve));
      const { port } = hosted.address() as AddressInfo;
      const following = await startTestBff(service, { serviceUrl: `http://127.0.0.1:${port}` });
      const told = await startTestBff(service, { serviceUrl: `http://127.0.0.1:${port}`, checkout: { testMode: true } });
      try {
        expect(await testModeOf(following.base)).toBeUndefined();
        expect(await testModeOf(told.base)).toBe(true);
        expect(following.logs.filter((line) => line.level === 'error')).toEqual([]);
      } finally {
        await Promise.all([following.close(), told.close()]);
        await new Promise((resolve) => hosted.close(resolve));
      }
    });
  });

  it("names the product's unit in the buyer's language, and says the answer varies with it", async () => {
    const token = `unit-${randomUUID().slice(0, 8)}`;
    await api.products.create({ name: 'Consulting hour', price_net: '100', tax: '23', currency: 'PLN', token, quantity_unit: 'godz.' });
    const unitFor = async (language?: string) => {
      const response = await fetch(`${bff.base}/products/${token}`, { headers: { origin: SHOP_ORIGIN, ...(language !== undefined && { 'accept-language': language }) } });
      expect(response.status).toBe(200);
      expect(response.headers.get('vary')).toMatch(/accept-language/i);
      return ((await json(response)) as { quantity_unit: string }).quantity_unit;
    };
    expect(await unitFor('en')).toBe('h');
    expect(await unitFor('de-AT,de;q=0.8')).toBe('Std.');
    expect(await unitFor('pl')).toBe('godz.');
    expect(await unitFor('x'.repeat(500))).toBe('godz.');
    expect(await unitFor()).toBe('godz.');
  });

  it('answers 404 for unknown and malformed tokens', async () => {
    for (const token of ['no-such-product', 'x', '..%2F..%2Fclients', 'a'.repeat(65)]) {
      const response = await fetch(`${bff.base}/products/${token}`);
      expect(response.status, token).toBe(404);
      expect((await json(response)).error.code).toBe('not_found');
    }
  });
});

describe('POST /bff/checkout', () => {
  it('creates one payment at the service’s price and answers where to send the buyer', async () => {
    const response = await postCheckout(checkoutBody({ buyer: { email: 'single@example.com', name: 'Ada Sp. z o.o.', tax_no: '5252445767', street: 'ul. Prosta 1', post_code: '00-950', city: 'Warszawa', country: 'PL' } }));
    expect(response.status).toBe(201);
    const body = await json(response);
    const expected = toPlain(roundMoney(mul(decimal(product.price_gross), decimal(3)), 'PLN'));
    expect(body).toMatchObject({ amount: expected, currency: 'PLN', quantity: 3, product: { token: PRODUCT_TOKEN, name: product.name } });
    const redirect = new URL(body.redirectUrl);
    expect(redirect.origin).toBe(service.url);
    expect(redirect.pathname).toMatch(/^\/banking\/payments\/pay\/[A-Za-z0-9_-]{16,}$/);

    const [payment, ...more] = await paymentsFor('single@example.com');
    expect(more).toHaveLength(0);
    expect(payment).toMatchObject({ product_id: product.id, currency: 'PLN', paid: false });
    expect(compare(decimal(payment!.price), decimal(expected))).toBe(0);
    expect((payment as Record<string, unknown>)['payment_url']).toBe(body.redirectUrl);
    // The service's payment page sends the buyer back to where the shop asked.
    expect(payment).toMatchObject({ return_url: `${SHOP_ORIGIN}/thanks`, cancel_url: `${SHOP_ORIGIN}/cart` });
  });

  it('never takes a price or product id from the browser', async () => {
    const response = await postCheckout({ ...checkoutBody(), price: '0.01', product_id: 1 });
    expect(response.status).toBe(422);
    expect(Object.keys((await json(response)).error.fields).sort()).toEqual(['price', 'product_id']);
  });

  it('never takes a return address from a forged Host header', async () => {
    const url = new URL(`${bff.base}/checkout`);
    // fetch() cannot forge Host; a raw request can, as an attacker's script does.
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const body = JSON.stringify(checkoutBody({ returnUrl: 'http://evil.example/phish', cancelUrl: 'http://evil.example/phish' }));
      const req = request(
        { host: url.hostname, port: url.port, path: url.pathname, method: 'POST', headers: { host: 'evil.example', origin: 'http://evil.example', 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } },
        (res) => {
          let text = '';
          res.on('data', (chunk: Buffer) => (text += chunk.toString()));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
        },
      );
      req.on('error', reject);
      req.end(body);
    });
    expect(answer.status).toBe(422);
    expect(Object.keys(JSON.parse(answer.body).error.fields).sort()).toEqual(['cancelUrl', 'returnUrl']);
  });

  it('refuses bad input with a clear 4xx', async () => {
    const cases: [unknown, number, string, string[]?][] = [
      [checkoutBody({ buyer: { email: 'nope', name: 'Ada Lovelace' } }), 422, 'validation_failed', ['buyer.email']],
      [checkoutBody({ quantity: 0 }), 422, 'validation_failed', ['quantity']],
      [checkoutBody({ quantity: 1.5 }), 422, 'validation_failed', ['quantity']],
      [checkoutBody({ product: 'no-such-product' }), 422, 'validation_failed', ['product']],
      [checkoutBody({ returnUrl: 'https://evil.example/phish' }), 422, 'validation_failed', ['returnUrl']],
      [checkoutBody({ cancelUrl: 'javascript:alert(1)' }), 422, 'validation_failed', ['cancelUrl']],
      [{}, 422, 'validation_failed', ['buyer', 'product', 'returnUrl']],
      ['{"product":', 400, 'bad_request'],
      [[1, 2], 422, 'validation_failed', ['base']],
    ];
    for (const [body, status, code, fields] of cases) {
      const response = await postCheckout(body);
      expect(response.status, JSON.stringify(body)).toBe(status);
      const answer = await json(response);
      expect(answer.error.code).toBe(code);
      if (fields) expect(Object.keys(answer.error.fields).sort()).toEqual(fields);
    }
    const wrongType = await fetch(`${bff.base}/checkout`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: JSON.stringify(checkoutBody()) });
    expect(wrongType.status).toBe(415);
    const huge = await postCheckout(checkoutBody({ buyer: { email: 'big@example.com', name: 'x'.repeat(20_000) } }));
    expect(huge.status).toBe(413);
    expect((await json(huge)).error.code).toBe('payload_too_large');
    expect((await postCheckout(checkoutBody(), { 'idempotency-key': 'ü'.repeat(3) })).status).toBe(400);
    expect(await paymentsFor('nope')).toHaveLength(0);
  });

  it('makes 20 concurrent checkouts with one Idempotency-Key exactly one payment', async () => {
    const key = randomUUID();
    const body = checkoutBody({ buyer: { email: 'twenty@example.com', first_name: 'Grace', last_name: 'Hopper' } });
    const responses = await Promise.all(Array.from({ length: 20 }, () => postCheckout(body, { 'idempotency-key': key })));
    expect(responses.map((r) => r.status)).toEqual(Array(20).fill(201));
    const bodies = await Promise.all(responses.map((r) => r.text()));
    expect(new Set(bodies).size).toBe(1);
    expect(responses.filter((r) => r.headers.get('idempotent-replayed') === 'true')).toHaveLength(19);
    expect(await paymentsFor('twenty@example.com')).toHaveLength(1);

    const later = await postCheckout(body, { 'idempotency-key': key });
    expect(later.status).toBe(201);
    expect(await later.text()).toBe(bodies[0]);
    expect(later.headers.get('idempotent-replayed')).toBe('true');

    const changed = await postCheckout({ ...body, quantity: 4 }, { 'idempotency-key': key });
    expect(changed.status).toBe(422);
    expect((await json(changed)).error.code).toBe('idempotency_key_reused');
    expect(await paymentsFor('twenty@example.com')).toHaveLength(1);

    const other = await postCheckout(body, { 'idempotency-key': randomUUID() });
    expect(other.status).toBe(201);
    expect(await paymentsFor('twenty@example.com')).toHaveLength(2);
  });

  it('limits checkouts per IP with 429 and Retry-After', async () => {
    const limited = await startTestBff(service, { rateLimit: { create: { limit: 2, windowMs: 60_000 } } });
    try {
      const statuses = [];
      for (let i = 0; i < 3; i += 1) {
        const response = await postCheckout(checkoutBody({ buyer: { email: 'limited@example.com', name: 'Ada Lovelace' } }), {}, limited.base);
        statuses.push(response.status);
        if (response.status === 429) {
          expect(Number(response.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
          expect(Number(response.headers.get('retry-after'))).toBeLessThanOrEqual(60);
          expect(response.headers.get('access-control-allow-origin')).toBe(SHOP_ORIGIN);
          expect((await json(response)).error.code).toBe('rate_limited');
        }
      }
      expect(statuses).toEqual([201, 201, 429]);
      expect(await paymentsFor('limited@example.com')).toHaveLength(2);
    } finally {
      await limited.close();
    }
  });

  describe('signed in with a portal token', () => {
    it('invoices the purchase to the customer’s own record, so it lands in their portal', async () => {
      const customer = await api.clients.create({ name: 'Signed-in Buyer Sp. z o.o.', tax_no: '7010000000', email: 'signed-in@buyer.example', city: 'Kraków', country: 'PL' });
      const token = await issuePortalToken({ clientId: customer.id, ttlSeconds: 600 }, PORTAL_SECRET);
      const response = await postCheckout({ product: PRODUCT_TOKEN, quantity: 2, returnUrl: `${SHOP_ORIGIN}/thanks` }, { ...bearer(token), 'idempotency-key': randomUUID() });
      expect(response.status, await response.clone().text()).toBe(201);
      const { redirectUrl } = await json(response);
      expect((await fetch(redirectUrl, { method: 'POST', redirect: 'manual' })).status).toBe(303);

      const [payment] = await paymentsFor('signed-in@buyer.example');
      expect(payment).toMatchObject({ client_id: customer.id, paid: true, invoice_name: 'Signed-in Buyer Sp. z o.o.', invoice_tax_no: '7010000000' });
      const invoice = await api.invoices.get(payment!.invoice_id!);
      expect(invoice).toMatchObject({ client_id: customer.id, buyer_name: 'Signed-in Buyer Sp. z o.o.', buyer_tax_no: '7010000000', buyer_city: 'Kraków' });
      const portal = await json(await fetch(`${bff.base}/invoices`, { headers: { origin: SHOP_ORIGIN, ...bearer(token) } }));
      expect(portal.data.map((row: { number: string; status: string }) => [row.number, row.status])).toEqual([[invoice.number, 'paid']]);
    });

    it('takes only an e-mail from the browser, and refuses bad tokens and missing scopes', async () => {
      const customer = await api.clients.create({ name: 'No Mail Ltd' });
      const token = await issuePortalToken({ clientId: customer.id, ttlSeconds: 600 }, PORTAL_SECRET);
      const body = { product: PRODUCT_TOKEN, returnUrl: `${SHOP_ORIGIN}/thanks` };

      const noMail = await postCheckout(body, bearer(token));
      expect(noMail.status).toBe(422);
      expect(Object.keys((await json(noMail)).error.fields)).toEqual(['buyer.email']);
      const claimed = await postCheckout({ ...body, buyer: { email: 'me@buyer.example', name: 'Someone Else', tax_no: '5252445767' } }, bearer(token));
      expect(claimed.status).toBe(422);
      expect(Object.keys((await json(claimed)).error.fields).sort()).toEqual(['buyer.name', 'buyer.tax_no']);
      const ok = await postCheckout({ ...body, buyer: { email: 'me@buyer.example' } }, bearer(token));
      expect(ok.status).toBe(201);
      expect((await paymentsFor('me@buyer.example'))[0]).toMatchObject({ client_id: customer.id, invoice_name: 'No Mail Ltd' });

      expect((await postCheckout({ ...body, buyer: { email: 'x@buyer.example' } }, bearer('not.a.token'))).status).toBe(401);
      const readOnly = await issuePortalToken({ clientId: customer.id, scopes: ['invoices:read'], ttlSeconds: 600 }, PORTAL_SECRET);
      const forbidden = await postCheckout({ ...body, buyer: { email: 'x@buyer.example' } }, bearer(readOnly));
      expect(forbidden.status).toBe(403);
      expect((await json(forbidden)).error.code).toBe('insufficient_scope');
      expect(await paymentsFor('x@buyer.example')).toHaveLength(0);
    });

    it('never replays one customer’s checkout to another with the same Idempotency-Key', async () => {
      const [a, b] = await Promise.all(['a', 'b'].map((n) => api.clients.create({ name: `Replay ${n}`, email: `replay-${n}@buyer.example` })));
      const key = randomUUID();
      const body = { product: PRODUCT_TOKEN, returnUrl: `${SHOP_ORIGIN}/thanks` };
      const first = await postCheckout(body, { ...bearer(await issuePortalToken({ clientId: a!.id }, PORTAL_SECRET)), 'idempotency-key': key });
      expect(first.status).toBe(201);
      const second = await postCheckout(body, { ...bearer(await issuePortalToken({ clientId: b!.id }, PORTAL_SECRET)), 'idempotency-key': key });
      expect(second.status).toBe(422);
      expect((await json(second)).error.code).toBe('idempotency_key_reused');
      expect(await paymentsFor('replay-b@buyer.example')).toHaveLength(0);
    });
  });
});
