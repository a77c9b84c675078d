import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../helpers/service.js';

/**
 * The product widget's public routes, called as a shop page on another origin calls them: no
 * api_token, an `Origin` header, JSON bodies. One service for the file; the rate limit test runs
 * last because it spends this address's checkout budget.
 */
let service: TestService;
let product: { id: number; token: string };
const SHOP = 'https://shop.example';

beforeAll(async () => {
  service = await startTestService();
  const response = await fetch(`${service.url}/products.json`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify({ api_token: service.apiToken, product: { name: 'Logo design', price_gross: '1845.00', tax: '23', token: 'logo-design' } }),
  });
  product = (await response.json()) as typeof product;
  // The shop registers the origin its pages run on: the only place a widget checkout sends buyers back to.
  const departments = (await (await fetch(`${service.url}/departments.json?api_token=${service.apiToken}`)).json()) as { id: number }[];
  const registered = await fetch(`${service.url}/departments/${departments[0]!.id}.json`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify({ api_token: service.apiToken, department: { widget_origins: [SHOP] } }),
  });
  expect(registered.status).toBe(200);
});
afterAll(() => service.stop());

const widget = (path: string) => `${service.url}/a/${service.prefix}${path}`;

function checkout(body: unknown, headers: Record<string, string> = {}) {
  return fetch(widget('/widget/checkout.json'), {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: SHOP, ...headers },
    body: JSON.stringify(body),
  });
}

async function paymentsFor(email: string) {
  const list = (await (await fetch(`${service.url}/banking/payments.json?per_page=100&api_token=${service.apiToken}`)).json()) as Record<string, unknown>[];
  return list.filter((p) => p.email === email);
}

describe('the product widget endpoints', () => {
  it('shows what a buyer may see of a product, to any origin', async () => {
    const response = await fetch(widget('/widget/products/logo-design.json'), { headers: { origin: 'https://anywhere.example' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(await response.json()).toEqual({
      token: 'logo-design',
      name: 'Logo design',
      description: null,
      price_net: '1500.0',
      price_gross: '1845.0',
      tax: '23',
      currency: 'PLN',
      quantity_unit: null,
      seller: 'Demo Studio Sp. z o.o.',
      seller_country: 'PL',
      service: false,
      supply_kind: 'goods',
      quote: { vat_treatment: 'standard', quantity: 1, amount: '1845', unit_price: '1845', tax: '23', case: 'domestic', rate: '23', notes: [], oss_country: null, fallback: null },
      available: true,
      test_mode: true,
      // Sold in złoty through the test provider, which takes BLIK codes.
      blik: true,
    });
  });

  it('names what is wrong with a company’s tax number in the quote, by its check digits, and nothing for a right one', async () => {
    const quoteOf = async (query: string) => {
      const response = await fetch(widget(`/widget/products/logo-design.json?${query}`), { headers: { origin: SHOP } });
      expect(response.status).toBe(200);
      return ((await response.json()) as { quote: Record<string, unknown> }).quote;
    };
    expect(await quoteOf('country=DE&company=1&tax_no=DE136695978')).toEqual({
      vat_treatment: 'standard', quantity: 1, amount: '1845', unit_price: '1845', tax: '23', case: 'eu_consumer_domestic', rate: '23', notes: [], oss_country: null, fallback: null,
      problems: { tax_no: 'vat' },
    });
    expect(await quoteOf('country=DE&company=1&tax_no=DE136695976')).toEqual({
      vat_treatment: 'intra_eu_supply', quantity: 1, amount: '1500', unit_price: '1500', tax: '0', case: 'intra_eu_supply', rate: '0',
      notes: ['Intra-Community supply of goods, VAT 0% (Art. 42(1) of the Polish VAT Act; Art. 138(1) of Directive 2006/112/EC)'], oss_country: null, fallback: null,
    });
    expect((await quoteOf('country=PL&company=1&tax_no=5252445768')).problems).toEqual({ tax_no: 'nip' });
    expect((await quoteOf('country=DE&company=1&tax_no=DE136695978&tax_no_kind=empty')).problems).toBeUndefined();
  });

  it('names the problems of the buyer’s country, tax number and post code by the checkout’s rules, and never reads a name or e-mail from the URL', async () => {
    const answerOf = (query: string) => fetch(widget(`/widget/products/logo-design.json?${query}`), { headers: { origin: SHOP } });
    const problemsOf = async (query: string) => ((await (await answerOf(query)).json()) as { quote: { problems?: unknown } }).quote.problems;
    // A company's blank tax number and post code, as the dialog sends them; its name, e-mail and street are not the quote's to judge.
    expect(await problemsOf('quantity=1&lang=en&country=PL&company=1&tax_no=&post_code=')).toEqual({ tax_no: 'required', post_code: 'required' });
    expect(await problemsOf('quantity=1&lang=en&country=PL&company=1&tax_no=&post_code=&email=&name=&street=&city=')).toEqual({ tax_no: 'required', post_code: 'required' });
    expect(await problemsOf('quantity=1&lang=en&country=PL&company=1&tax_no=5252445768&post_code=00838')).toEqual({ tax_no: 'nip', post_code: 'postCode' });
    // A consumer's blank name and e-mail in a query are ignored: the dialog checks them itself.
    expect(await problemsOf('quantity=1&lang=en&email=&name=&country=PL')).toBeUndefined();
    const valid = await answerOf('quantity=1&lang=en&country=PL&company=1&tax_no=5252445767&post_code=00-838');
    expect(((await valid.json()) as { quote: Record<string, unknown> }).quote).not.toHaveProperty('problems');
    // The answer is for this buyer alone; a product's own answer is for anyone.
    expect(valid.headers.get('cache-control')).toBe('private, no-store');
    expect((await answerOf('country=DE&company=1&tax_no=DE136695976')).headers.get('cache-control')).toBe('public, max-age=30');
  });

  it("names the product's unit in the buyer's language, as the invoice will print it", async () => {
    const created = await fetch(`${service.url}/products.json`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ api_token: service.apiToken, product: { name: 'Website audit', price_gross: '615.00', tax: '23', token: 'audit-unit', quantity_unit: 'usł.' } }),
    });
    expect(created.status).toBe(201);
    const unitFor = async (headers: Record<string, string>) => {
      const response = await fetch(widget('/widget/products/audit-unit.json'), { headers });
      expect(response.status).toBe(200);
      expect(response.headers.get('vary')).toMatch(/accept-language/i);
      return ((await response.json()) as { quantity_unit: string }).quantity_unit;
    };
    expect(await unitFor({ 'accept-language': 'en-GB,en;q=0.9' })).toBe('service');
    expect(await unitFor({ 'accept-language': 'de' })).toBe('Leistung');
    // Polish, languages with no words for it, nonsense and no header at all: as the seller stored it.
    for (const language of ['pl-PL', 'fr', '*', 'en_GB<script>', '']) expect(await unitFor({ 'accept-language': language }), language).toBe('usł.');
    expect(await unitFor({})).toBe('usł.');
  });

  it('answers 404 for unknown tokens, prefixes and guessed attempts', async () => {
    for (const path of ['/widget/products/nope.json', '/widget/products/..%2F..json', '/widget/checkout/aaaaaaaaaaaaaaaaaaaaaaaa.json', '/p/nope.js']) {
      const response = await fetch(widget(path));
      expect(response.status, path).toBe(404);
      expect(await response.json()).toEqual({ code: 'error', message: 'Not found' });
    }
    expect((await fetch(`${service.url}/a/nobody/widget/products/logo-design.json`)).status).toBe(404);
  });

  it('prices a checkout itself: a price, product id or discount in the body is ignored', async () => {
    const response = await checkout(
      {
        product: 'logo-design',
        quantity: 2,
        price: '0.01',
        product_id: 999,
        amount: '1',
        buyer: { email: 'ada@example.com', name: 'Ada Lovelace' },
        returnUrl: `${SHOP}/cart?x=1`,
      },
      { 'idempotency-key': 'priced-1' },
    );
    expect(response.status).toBe(201);
    const body = (await response.json()) as Record<string, unknown>;
    expect(body).toMatchObject({ amount: '3690', currency: 'PLN', quantity: 2, product: { token: 'logo-design', name: 'Logo design' }, test_mode: true });
    expect(body.redirectUrl).toBe(`${service.url}/banking/payments/pay/${body.attempt}`);
    const [created] = await paymentsFor('ada@example.com');
    expect(created).toMatchObject({
      price: '3690.0',
      quantity: '2.0',
      kind: 'api',
      paid: false,
      generate_invoice: true,
      product_id: product.id,
      first_name: 'Ada',
      last_name: 'Lovelace',
      invoice_name: 'Ada Lovelace',
      return_url: `${SHOP}/cart?x=1`,
    });
    const outcome = await (await fetch(widget(`/widget/checkout/${body.attempt}.json`))).json();
    expect(outcome).toEqual({
      attempt: body.attempt,
      status: 'pending',
      amount: '3690',
      currency: 'PLN',
      quantity: 2,
      product: { token: 'logo-design', name: 'Logo design' },
      invoice: null,
    });
  });

  it('replays a retried Idempotency-Key instead of making a second payment, and refuses it for another body', async () => {
    const body = { product: 'logo-design', buyer: { email: 'retry@example.com', name: 'Ada Lovelace' }, returnUrl: `${SHOP}/` };
    const [first, second] = await Promise.all([checkout(body, { 'idempotency-key': 'k-retry' }), checkout(body, { 'idempotency-key': 'k-retry' })]);
    const statuses = [first.status, second.status].sort();
    // Concurrent duplicates: one runs, the other waits its turn (409, retry) or gets the replay.
    expect(statuses[0]).toBe(201);
    const third = await checkout(body, { 'idempotency-key': 'k-retry' });
    expect(third.status).toBe(201);
    expect(third.headers.get('idempotent-replayed')).toBe('true');
    expect((await third.json()).attempt).toBe((await first.json()).attempt ?? (await second.json()).attempt);
    expect(await paymentsFor('retry@example.com')).toHaveLength(1);
    const other = await checkout({ ...body, quantity: 3 }, { 'idempotency-key': 'k-retry' });
    expect(other.status).toBe(422);
  });

  it('refuses bad input with the reference error body, never a 500', async () => {
    const cases: [unknown, Record<string, string[]>][] = [
      [{ product: 'logo-design', buyer: { email: 'not-an-email', name: 'Ada Lovelace' } }, { 'buyer.email': ['is not an e-mail address'] }],
      [{ product: 'logo-design', quantity: 0, buyer: { email: 'a@example.com', name: 'Ada Lovelace' } }, { quantity: ['must be at least 1'] }],
      [{ product: 'logo-design', quantity: 1.5, buyer: { email: 'a@example.com', name: 'Ada Lovelace' } }, { quantity: ['must be a whole number'] }],
      [{ product: 'logo-design', quantity: 100000, buyer: { email: 'a@example.com', name: 'Ada Lovelace' } }, { quantity: ['must be at most 1000'] }],
      [{ product: 'no-such', buyer: { email: 'a@example.com', name: 'Ada Lovelace' } }, { product: ['is not for sale'] }],
      [{ product: 'logo-design' }, { buyer: ["can't be blank"] }],
      [{ product: 'logo-design', buyer: { email: 'a@example.com', name: 'Ada Lovelace' }, returnUrl: 'javascript:alert(1)' }, { returnUrl: ['must be an http(s) URL'] }],
      [{ product: 'logo-design', buyer: { email: 'a@example.com' } }, { 'buyer.name': ["can't be blank"] }],
    ];
    for (const [body, fields] of cases) {
      const response = await checkout(body);
      expect(response.status, JSON.stringify(body)).toBe(422);
      expect(await response.json()).toEqual({ code: 'error', message: fields });
    }
    const notJson = await fetch(widget('/widget/checkout.json'), { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"product":' });
    expect(notJson.status).toBe(400);
    const form = await fetch(widget('/widget/checkout.json'), { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'product=logo-design' });
    expect(form.status).toBe(415);
  });

  it('keeps a return address only on an origin the account registered, whatever Origin and Host say', async () => {
    for (const [email, headers] of [
      ['noorigin@example.com', {}],
      ['forged@example.com', { origin: 'https://evil.example' }],
      ['forgedhost@example.com', { origin: 'https://evil.example', 'x-forwarded-host': 'evil.example' }],
    ] as const) {
      const response = await checkout(
        { product: 'logo-design', buyer: { email, name: 'Ada Lovelace' }, returnUrl: 'https://evil.example/phish', cancelUrl: 'https://evil.example/phish' },
        headers,
      );
      expect(response.status, email).toBe(201);
      const { redirectUrl } = (await response.json()) as { redirectUrl: string };
      const [created] = await paymentsFor(email);
      expect(created, email).toMatchObject({ return_url: null, cancel_url: null });
      // Cancel keeps the buyer on the checkout's own result page.
      const cancelled = await fetch(redirectUrl, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'choice=cancel', redirect: 'manual' });
      expect(cancelled.status).toBe(303);
      expect(new URL(cancelled.headers.get('location')!, redirectUrl).origin).toBe(service.url);
    }
  });

  it('answers the CORS preflight of a checkout from any origin', async () => {
    const response = await fetch(widget('/widget/checkout.json'), {
      method: 'OPTIONS',
      headers: { origin: 'https://any.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type, idempotency-key' },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.headers.get('access-control-allow-headers')).toMatch(/Idempotency-Key/);
    expect(response.headers.get('access-control-allow-credentials')).toBeNull();
  });

  it('pays on the checkout page, reports the outcome with the invoice and returns the buyer to the shop', async () => {
    const created = (await (await checkout({ product: 'logo-design', buyer: { email: 'buyer@example.com', name: 'Acme Sp. z o.o.', tax_no: '5252248481', first_name: 'Jan', last_name: 'Kowalski', street: 'ul. Prosta 1', post_code: '00-950', city: 'Warszawa', country: 'PL' }, returnUrl: `${SHOP}/p/1` })).json()) as { attempt: string; redirectUrl: string };
    const page = await (await fetch(created.redirectUrl)).text();
    expect(page).toContain('Acme Sp. z o.o.');
    expect(page).toContain('5252248481');
    const paid = await fetch(created.redirectUrl, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'choice=pay', redirect: 'manual' });
    expect(paid.status).toBe(303);
    expect(paid.headers.get('location')).toBe(`${SHOP}/p/1`);
    const outcome = (await (await fetch(widget(`/widget/checkout/${created.attempt}.json`))).json()) as { status: string; invoice: { number: string; view_url: string } };
    expect(outcome.status).toBe('paid');
    expect(outcome.invoice.number).toMatch(/^\d+\/\d{2}\/\d{4}$/);
    const invoice = await (await fetch(outcome.invoice.view_url)).text();
    expect(invoice).toContain('Acme Sp. z o.o.');
  });

  it('records a declined payment as declined and sends the buyer back', async () => {
    const created = (await (await checkout({ product: 'logo-design', buyer: { email: 'decline@example.com', name: 'Ada Lovelace' }, returnUrl: `${SHOP}/p/2` })).json()) as { attempt: string; redirectUrl: string };
    const declined = await fetch(created.redirectUrl, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'choice=decline', redirect: 'manual' });
    expect(declined.headers.get('location')).toBe(`${SHOP}/p/2`);
    const outcome = (await (await fetch(widget(`/widget/checkout/${created.attempt}.json`))).json()) as { status: string; invoice: unknown };
    expect(outcome).toMatchObject({ status: 'declined', invoice: null });
    // A later Pay on the same attempt changes nothing.
    await fetch(created.redirectUrl, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'choice=pay', redirect: 'manual' });
    const [record] = await paymentsFor('decline@example.com');
    expect(record).toMatchObject({ paid: false, provider_status: 'declined' });
  });

  it('serves the widget script as JavaScript with an ETag, and the bundle it loads', async () => {
    const response = await fetch(widget('/p/logo-design.js'));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/javascript; charset=utf-8');
    expect(response.headers.get('cache-control')).toMatch(/max-age=\d+/);
    const etag = response.headers.get('etag')!;
    expect(etag).toMatch(/^"[\w-]+"$/);
    const script = await response.text();
    expect(script).toContain('product-pay-button');
    expect(script).toContain('"token":"logo-design"');
    const again = await fetch(widget('/p/logo-design.js'), { headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
    const bundleUrl = /"bundleUrl":"([^"]+)"/.exec(script)![1]!;
    const bundle = await fetch(bundleUrl);
    expect(bundle.status).toBe(200);
    expect(bundle.headers.get('content-type')).toBe('application/javascript; charset=utf-8');
    expect(bundle.headers.get('cache-control')).toContain('immutable');
    expect(await bundle.text()).toContain('product-pay-button');
  });

  it('has an order page that works without JavaScript', async () => {
    const form = await fetch(widget('/p/logo-design'));
    expect(form.status).toBe(200);
    expect(await form.text()).toContain('<form method="post">');
    const bad = await fetch(widget('/p/logo-design'), { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'email=nope&quantity=1' });
    expect(bad.status).toBe(422);
    const ordered = await fetch(widget('/p/logo-design'), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'email=nojs%40example.com&name=No+Script&quantity=3&price=1',
      redirect: 'manual',
    });
    expect(ordered.status).toBe(303);
    expect(ordered.headers.get('location')).toMatch(new RegExp(`^${service.url}/banking/payments/pay/`));
    const [record] = await paymentsFor('nojs@example.com');
    expect(record).toMatchObject({ price: '5535.0', quantity: '3.0' });
  });

  it('speaks the buyer’s language on the order page, and carries it to the checkout page', async () => {
    const polish = await fetch(widget('/p/logo-design'), { headers: { 'accept-language': 'pl-PL,pl;q=0.9' } });
    const polishPage = await polish.text();
    expect(polishPage).toContain('<html lang="pl">');
    expect(polishPage).toContain('Przejdź do płatności');
    expect(polishPage).toContain('<input type="hidden" name="lang" value="pl">');
    expect(polish.headers.get('vary')).toMatch(/accept-language/i);
    // A language the page chose wins over the browser's.
    const english = await (await fetch(widget('/p/logo-design?lang=en'), { headers: { 'accept-language': 'pl' } })).text();
    expect(english).toContain('<html lang="en">');
    expect(english).toContain('Continue to payment');
    const ordered = await fetch(widget('/p/logo-design'), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'accept-language': 'en' },
      body: 'lang=pl&email=nojs-pl%40example.com&name=Jan+Kowalski&quantity=1',
      redirect: 'manual',
    });
    expect(ordered.status).toBe(303);
    const checkoutPage = await (await fetch(ordered.headers.get('location')!, { headers: { 'accept-language': 'en' } })).text();
    expect(checkoutPage).toContain('<html lang="pl">');
  });

  it('limits new checkouts per address with 429 and Retry-After (last: it spends the budget)', async () => {
    let limited: Response | undefined;
    for (let i = 0; i < 25 && !limited; i += 1) {
      const response = await checkout({ product: 'logo-design', buyer: { email: 'flood@example.com', name: 'Ada Lovelace' } }, { 'idempotency-key': `flood-${i}` });
      if (response.status === 429) limited = response;
      else expect(response.status).toBe(201);
    }
    expect(limited?.status).toBe(429);
    expect(Number(limited!.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await limited!.json()).toEqual({ code: 'error', message: 'Too many requests. Try again later.' });
    // A replay of an earlier key still answers: it creates nothing.
    const replay = await checkout({ product: 'logo-design', buyer: { email: 'flood@example.com', name: 'Ada Lovelace' } }, { 'idempotency-key': 'flood-0' });
    expect(replay.status).toBe(201);
  });
});
