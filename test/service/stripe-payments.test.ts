import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, type Api, secondAccount } from '../helpers/http.js';
import { startTestService, type TestService } from '../helpers/service.js';
import { startTestBff } from '../bff/support.js';
import { StripeStandIn, stripeSignature } from './support/stripe-standin.js';

/**
 * Stripe Checkout end to end: the account's settings through `/account/payments`, the widget's
 * checkout, the official `stripe` package talking to a stand-in of Stripe's API over HTTP, and events
 * signed as Stripe signs them. One service and one stand-in for the file.
 */
const SHOP = 'https://shop.example';
const TEST_KEY = 'sk_test_51StandInKey000000000000';
const LIVE_KEY = 'sk_live_51StandInKey000000000000';
const WEBHOOK_SECRET = 'whsec_standinSigningSecret0000000000';

let stripe: StripeStandIn;
let service: TestService;
let shop: Api;
/** The service's time, when a test sets it (milliseconds); otherwise the real one. */
let clockAt: number | undefined;

beforeAll(async () => {
  stripe = new StripeStandIn([TEST_KEY, LIVE_KEY]);
  await stripe.server.start();
  process.env.INVOICEKIT_STRIPE_API_URL = stripe.url;
  service = await startTestService({ clock: () => new Date(clockAt ?? Date.now()) });
  shop = api(service);
  // The shop registers the origin its pages run on: the only place a widget checkout sends buyers back to.
  const [department] = (await shop.get('/departments.json')).body as { id: number }[];
  expect((await shop.put(`/departments/${department!.id}.json`, { department: { widget_origins: [SHOP] } })).status).toBe(200);
  for (const product of [
    { name: 'Logo design', price_gross: '1845.00', tax: '23', token: 'logo-design' },
    { name: 'Tea set', price_gross: '1500', tax: '10', currency: 'JPY', token: 'tea-set' },
  ]) {
    expect((await shop.post('/products.json', { product })).status).toBe(201);
  }
});
afterAll(async () => {
  await service.stop();
  await stripe.server.stop();
  delete process.env.INVOICEKIT_STRIPE_API_URL;
});

const widget = (path: string) => `${service.url}/a/${service.prefix}${path}`;
const webhookUrl = () => `${service.url}/payments/stripe/${service.prefix}/webhook`;

async function useStripe(secretKey = TEST_KEY) {
  const reply = await shop.put('/account/payments.json', { payments: { provider: 'stripe', stripe: { secret_key: secretKey, webhook_secret: WEBHOOK_SECRET } } });
  expect(reply.status).toBe(200);
}

function checkout(email: string, product = 'logo-design', quantity = 1) {
  return fetch(widget('/widget/checkout.json'), {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: SHOP },
    body: JSON.stringify({ product, quantity, buyer: { email, name: 'Ada Lovelace' }, returnUrl: `${SHOP}/thanks` }),
  });
}

/** A buyer's purchase through the widget: answers the payment's token and the Checkout Session the buyer is sent to. */
async function buy(product = 'logo-design', quantity = 2, email = 'ada@example.com') {
  const created = await checkout(email, product, quantity);
  expect(created.status).toBe(201);
  const { attempt, redirectUrl } = (await created.json()) as { attempt: string; redirectUrl: string };
  const session = [...stripe.sessions.values()].find((s) => s.client_reference_id === attempt)!;
  expect(redirectUrl).toBe(session.url);
  return { token: attempt, session };
}

const press = (checkoutPage: string) =>
  fetch(checkoutPage, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', 'accept-language': 'en' }, body: 'choice=pay', redirect: 'manual' });

async function paymentOf(token: string) {
  const list = (await shop.get('/banking/payments.json', { per_page: 100 })).body as { id: number; paid: boolean; invoice_id: number | null; provider: string | null; provider_status: string | null; payment_url: string }[];
  return list.find((p) => p.payment_url.endsWith(`/${token}`))!;
}

async function mailsFor(invoiceId: number): Promise<number> {
  const rows = await service.db.query<{ count: number }>('select count(*)::int as count from outbox_messages where invoice_id = $1', [invoiceId]);
  return rows[0]!.count;
}

function deliver(payload: string, signature: string | null) {
  return fetch(webhookUrl(), { method: 'POST', headers: { 'content-type': 'application/json; charset=utf-8', ...(signature ? { 'stripe-signature': signature } : {}) }, body: payload });
}

describe('payment settings of an account', () => {
  it('starts on the service default and says so', async () => {
    const reply = await shop.get('/account/payments.json');
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({
      payments: {
        provider: 'test',
        default: true,
        test_mode: true,
        stripe: { secret_key_set: false, webhook_secret_set: false, key_mode: null, webhook_url: `${service.url}/payments/stripe/${service.prefix}/webhook` },
        przelewy24: { merchant_id: null, pos_id: null, crc_set: false, api_key_set: false, sandbox: false, notify_url: `${service.url}/payments/przelewy24/${service.prefix}/notify` },
      },
    });
  });

  it('refuses a provider without its keys, and keys that are not keys, naming each field', async () => {
    const missing = await shop.put('/account/payments.json', { payments: { provider: 'stripe' } });
    expect(missing.status).toBe(422);
    expect(missing.body).toEqual({ code: 'error', message: { 'stripe.secret_key': ["can't be blank"], 'stripe.webhook_secret': ["can't be blank"] } });
    const wrong = await shop.put('/account/payments.json', { payments: { provider: 'paypal', stripe: { secret_key: 'pk_test_123456789', extra: 1 } } });
    expect(wrong.status).toBe(422);
    expect(Object.keys(wrong.body.message as object).sort()).toEqual(['provider', 'stripe', 'stripe.secret_key']);
    expect((await shop.put('/account/payments.json', { payments: 'stripe' })).status).toBe(422);
    expect((await shop.get('/account/payments.json')).body.payments.default).toBe(true);
  });

  it('keeps secrets write-only, and only for the account that owns them', async () => {
    const reply = await shop.put('/account/payments.json', { payments: { provider: 'stripe', stripe: { secret_key: TEST_KEY, webhook_secret: WEBHOOK_SECRET } } });
    expect(reply.status).toBe(200);
    expect(reply.body.payments).toMatchObject({ provider: 'stripe', default: false, test_mode: true, stripe: { secret_key_set: true, webhook_secret_set: true, key_mode: 'test' } });
    expect(reply.headers.get('cache-control')).toBe('no-store');
    const read = await shop.get('/account/payments.json');
    for (const text of [reply.text, read.text]) {
      expect(text).not.toContain(TEST_KEY.slice(8));
      expect(text).not.toContain(WEBHOOK_SECRET.slice(6));
    }
    // A change that leaves the secrets out keeps them.
    expect((await shop.put('/account/payments.json', { payments: { provider: 'stripe' } })).body.payments.stripe.secret_key_set).toBe(true);

    const other = await secondAccount(service, 'stripe-other');
    expect((await other.get('/account/payments.json')).body.payments).toMatchObject({ provider: 'test', default: true, stripe: { secret_key_set: false } });
    expect((await shop.get('/account/payments.json', {}, { token: null })).status).toBe(401);
    expect((await shop.get('/account/payments.json', {}, { token: 'not-a-token' })).status).toBe(401);
    const page = await (await fetch(widget('/widget/products/logo-design.json'))).text();
    expect(page).not.toContain('sk_test');
  });

  it('is described in the OpenAPI document', async () => {
    const document = (await (await fetch(`${service.url}/openapi`)).json()) as { paths: Record<string, Record<string, unknown>> };
    expect(Object.keys(document.paths['/account/payments.json']!).sort()).toEqual(['get', 'patch', 'put']);
    expect(document.paths['/payments/stripe/{prefix}/webhook']).toHaveProperty('post');
    expect(document.paths['/payments/przelewy24/{prefix}/notify']).toHaveProperty('post');
  });
});

describe('Stripe Checkout', () => {
  beforeAll(() => useStripe());

  it('sends a widget purchase to a Checkout Session priced in minor units, and shows test mode for test keys', async () => {
    const product = await (await fetch(widget('/widget/products/logo-design.json'))).json();
    expect(product).toMatchObject({ available: true, test_mode: true });
    const { token, session } = await buy('logo-design', 2, 'ada@example.com');
    expect(session).toMatchObject({ amount_total: 369000, currency: 'pln', client_reference_id: token, customer_email: 'ada@example.com', mode: 'payment' });
    expect(session.success_url).toBe(`${service.url}/banking/payments/pay/${token}/return`);
    expect(session.cancel_url).toBe(`${service.url}/banking/payments/pay/${token}`);
    expect(session.line_items_sent).toEqual([{ quantity: '1', price_data: { currency: 'pln', unit_amount: '369000', product_data: { name: '2 × Logo design' } } }]);
    expect(await paymentOf(token)).toMatchObject({ paid: false, provider: 'stripe', invoice_id: null });
  });

  it('prices zero-decimal currencies in whole units', async () => {
    const { session } = await buy('tea-set', 3, 'tea@example.com');
    expect(session).toMatchObject({ amount_total: 4500, currency: 'jpy' });
  });

  it('settles on a signed completed event once, however often it is delivered', async () => {
    const { token, session } = await buy('logo-design', 1, 'once@example.com');
    const payload = stripe.event('checkout.session.completed', stripe.complete(session.id));
    const first = await deliver(payload, stripeSignature(payload, WEBHOOK_SECRET));
    expect(first.status).toBe(200);
    const paid = await paymentOf(token);
    expect(paid).toMatchObject({ paid: true, provider: 'stripe', provider_status: 'paid' });
    expect(paid.invoice_id).not.toBeNull();
    expect(await mailsFor(paid.invoice_id!)).toBe(1);
    for (const signature of [stripeSignature(payload, WEBHOOK_SECRET), stripeSignature(payload, WEBHOOK_SECRET, Math.floor(Date.now() / 1000) - 60)]) {
      expect((await deliver(payload, signature)).status).toBe(200);
    }
    expect(await paymentOf(token)).toEqual(paid);
    expect(await mailsFor(paid.invoice_id!)).toBe(1);
    const invoices = (await shop.get('/invoices.json', { per_page: 100 })).body as { id: number; buyer_email: string }[];
    expect(invoices.filter((invoice) => invoice.buyer_email === 'once@example.com')).toHaveLength(1);
  });

  it('refuses forged, wrongly keyed, stale and altered events with 400 and changes nothing', async () => {
    const { token, session } = await buy('logo-design', 1, 'forged@example.com');
    const payload = stripe.event('checkout.session.completed', stripe.complete(session.id));
    const now = Math.floor(Date.now() / 1000);
    const attempts: [string, string, string | null][] = [
      ['no signature', payload, null],
      ['nonsense', payload, 'nonsense'],
      ['wrong key', payload, stripeSignature(payload, 'whsec_someoneElsesSecret000000')],
      ['stale', payload, stripeSignature(payload, WEBHOOK_SECRET, now - 3600)],
      ['from the future', payload, stripeSignature(payload, WEBHOOK_SECRET, now + 3600)],
      ['altered', payload.replace('"amount_total": 184500', '"amount_total": 100'), stripeSignature(payload, WEBHOOK_SECRET)],
      ['re-signed for another payload', payload.replace(token, 'x'.repeat(24)), stripeSignature(payload, WEBHOOK_SECRET)],
    ];
    for (const [name, body, signature] of attempts) {
      const response = await deliver(body, signature);
      expect(response.status, name).toBe(400);
      expect(((await response.json()) as { code: string }).code, name).toBe('error');
    }
    // Stripe's tolerance is five minutes: the same signature is good 299 s later and stale after 301 s.
    const signedAt = Math.floor(Date.now() / 1000);
    const signed = stripeSignature(payload, WEBHOOK_SECRET, signedAt);
    clockAt = (signedAt + 301) * 1000;
    try {
      expect((await deliver(payload, signed)).status).toBe(400);
    } finally {
      clockAt = undefined;
    }
    expect(await paymentOf(token)).toMatchObject({ paid: false, invoice_id: null });
    // A well-signed event whose amount differs from the payment's is refused as well.
    const cheap = stripe.event('checkout.session.completed', { ...stripe.complete(session.id), amount_total: 100 });
    expect((await deliver(cheap, stripeSignature(cheap, WEBHOOK_SECRET))).status).toBe(400);
    expect(await paymentOf(token)).toMatchObject({ paid: false, invoice_id: null });
    // The genuine event still settles it afterwards, within the tolerance.
    clockAt = (signedAt + 299) * 1000;
    try {
      expect((await deliver(payload, signed)).status).toBe(200);
    } finally {
      clockAt = undefined;
    }
    expect(await paymentOf(token)).toMatchObject({ paid: true });
  });

  it('takes delayed payments in any order: unpaid completion, success, late duplicates and failures', async () => {
    const { token, session } = await buy('logo-design', 1, 'delayed@example.com');
    const processing = stripe.event('checkout.session.completed', stripe.complete(session.id, 'unpaid'));
    const succeeded = stripe.event('checkout.session.async_payment_succeeded', stripe.complete(session.id, 'paid'));
    const failed = stripe.event('checkout.session.async_payment_failed', { ...stripe.complete(session.id, 'unpaid') });
    // The success arrives before the completion that announced the wait.
    expect((await deliver(succeeded, stripeSignature(succeeded, WEBHOOK_SECRET))).status).toBe(200);
    const paid = await paymentOf(token);
    expect(paid).toMatchObject({ paid: true });
    for (const late of [processing, failed, succeeded]) expect((await deliver(late, stripeSignature(late, WEBHOOK_SECRET))).status).toBe(200);
    expect(await paymentOf(token)).toEqual(paid);

    const other = await buy('logo-design', 1, 'declined@example.com');
    const waiting = stripe.event('checkout.session.completed', stripe.complete(other.session.id, 'unpaid'));
    expect((await deliver(waiting, stripeSignature(waiting, WEBHOOK_SECRET))).status).toBe(200);
    expect(await paymentOf(other.token)).toMatchObject({ paid: false, provider_status: null });
    const refused = stripe.event('checkout.session.async_payment_failed', stripe.complete(other.session.id, 'unpaid'));
    expect((await deliver(refused, stripeSignature(refused, WEBHOOK_SECRET))).status).toBe(200);
    expect(await paymentOf(other.token)).toMatchObject({ paid: false, provider_status: 'declined' });
  });

  it('ignores a signed event of a payment of another account', async () => {
    const { token, session } = await buy('logo-design', 1, 'mine@example.com');
    const payload = stripe.event('checkout.session.completed', stripe.complete(session.id));
    const other = await secondAccount(service, 'stripe-thief');
    expect((await other.put('/account/payments.json', { payments: { provider: 'stripe', stripe: { secret_key: TEST_KEY, webhook_secret: 'whsec_thiefSecret00000000000' } } })).status).toBe(200);
    const response = await fetch(`${service.url}/payments/stripe/stripe-thief/webhook`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'stripe-signature': stripeSignature(payload, 'whsec_thiefSecret00000000000') },
      body: payload,
    });
    expect(response.status).toBe(200);
    expect(await paymentOf(token)).toMatchObject({ paid: false });
  });

  it('asks Stripe on the return, never the query', async () => {
    const { token, session } = await buy('logo-design', 1, 'return@example.com');
    const returnUrl = `${service.url}/banking/payments/pay/${token}/return`;
    const before = stripe.apiRequests.length;
    const forged = await fetch(`${returnUrl}?session_id=${session.id}&payment_status=paid&paid=1`, { redirect: 'manual' });
    expect(forged.status).toBe(200);
    expect(stripe.apiRequests.slice(before).map((r) => `${r.method} ${r.path}`)).toEqual([`GET /v1/checkout/sessions/${session.id}`]);
    expect(await paymentOf(token)).toMatchObject({ paid: false });

    stripe.complete(session.id);
    const back = await fetch(returnUrl, { redirect: 'manual' });
    expect(back.status).toBe(303);
    expect(back.headers.get('location')).toBe(`${SHOP}/thanks`);
    const paid = await paymentOf(token);
    expect(paid).toMatchObject({ paid: true });
    // The webhook arriving after the return settles nothing more.
    const payload = stripe.event('checkout.session.completed', stripe.sessions.get(session.id)!);
    expect((await deliver(payload, stripeSignature(payload, WEBHOOK_SECRET))).status).toBe(200);
    expect(await mailsFor(paid.invoice_id!)).toBe(1);
  });

  it('leaves the payment pending while Stripe is slow, and retryable while it is down', async () => {
    const release = stripe.server.hold();
    const arrived = stripe.server.nextRequest();
    const starting = checkout('slow@example.com');
    expect((await arrived).path).toBe('/v1/checkout/sessions');
    const waiting = ((await shop.get('/banking/payments.json', { per_page: 100 })).body as { email: string; paid: boolean; provider: string | null }[]).filter((p) => p.email === 'slow@example.com');
    expect(waiting).toMatchObject([{ paid: false, provider: null }]);
    release();
    const started = (await (await starting).json()) as { attempt: string; redirectUrl: string };
    expect(started.redirectUrl).toBe([...stripe.sessions.values()].find((s) => s.client_reference_id === started.attempt)!.url);

    await stripe.server.stop();
    let down: { attempt: string; redirectUrl: string };
    try {
      const created = await checkout('down@example.com');
      expect(created.status).toBe(201);
      // Stripe cannot be reached: the buyer lands on the checkout page, which offers Pay again.
      down = (await created.json()) as typeof down;
      expect(down.redirectUrl).toBe(`${service.url}/banking/payments/pay/${down.attempt}`);
      const refused = await press(down.redirectUrl);
      expect(refused.status).toBe(502);
      expect(await refused.text()).toContain('The payment provider could not be reached. Please try again.');
      expect(await paymentOf(down.attempt)).toMatchObject({ paid: false, provider: null, provider_status: null });
    } finally {
      await stripe.server.start();
    }
    const again = await press(down.redirectUrl);
    expect(again.status).toBe(303);
    expect(again.headers.get('location')).toBe([...stripe.sessions.values()].find((s) => s.client_reference_id === down.attempt)!.url);
  });

  it("takes the portal's Pay of an invoice through Stripe and pays the invoice on the signed event", async () => {
    const created = await shop.post('/invoices.json', {
      invoice: { kind: 'vat', buyer_name: 'Acme Sp. z o.o.', buyer_email: 'portal@example.com', positions: [{ name: 'Audit', quantity: '1', total_price_gross: '615.00', tax: '23' }] },
    });
    expect(created.status).toBe(201);
    const { id, token } = created.body as { id: number; token: string };
    const view = await (await fetch(`${service.url}/invoice/payment/${token}`)).text();
    expect(view).not.toContain('Test payment provider');
    const pay = await fetch(`${service.url}/invoice/payment/${token}`, { method: 'POST', redirect: 'manual' });
    expect(pay.status).toBe(303);
    const session = [...stripe.sessions.values()].find((s) => s.customer_email === 'portal@example.com')!;
    expect(pay.headers.get('location')).toBe(session.url);
    const paymentToken = session.client_reference_id!;
    expect(session).toMatchObject({ amount_total: 61500, currency: 'pln', customer_email: 'portal@example.com' });
    const payload = stripe.event('checkout.session.completed', stripe.complete(session.id));
    expect((await deliver(payload, stripeSignature(payload, WEBHOOK_SECRET))).status).toBe(200);
    expect((await shop.get(`/invoices/${id}.json`)).body).toMatchObject({ status: 'paid', paid: '615.0' });
    const back = await fetch(`${service.url}/banking/payments/pay/${paymentToken}/return`, { redirect: 'manual' });
    expect(back.headers.get('location')).toBe(`${service.url}/invoice/${token}?paid`);
  });

  it("lets a BFF show test mode as the service says for the account's provider", async () => {
    const bff = await startTestBff(service, { productCacheMs: 0 });
    try {
      const productOf = async () => (await (await fetch(`${bff.base}/products/logo-design`)).json()) as { test_mode?: boolean };
      expect((await productOf()).test_mode).toBe(true);
      await useStripe(LIVE_KEY);
      expect((await productOf()).test_mode).toBeUndefined();
      expect(JSON.stringify(bff.logs)).not.toContain('sk_live');
    } finally {
      await useStripe(TEST_KEY);
      await bff.close();
    }
  });

  it('shows no test mode with live keys', async () => {
    await useStripe(LIVE_KEY);
    try {
      expect(await (await fetch(widget('/widget/products/logo-design.json'))).json()).toMatchObject({ test_mode: false });
      const { token } = await buy('logo-design', 1, 'live@example.com');
      const page = await (await fetch(`${service.url}/banking/payments/pay/${token}`)).text();
      expect(page).not.toContain('class="test-badge"');
    } finally {
      await useStripe(TEST_KEY);
    }
    const { token } = await buy('logo-design', 1, 'test-again@example.com');
    const page = await (await fetch(`${service.url}/banking/payments/pay/${token}`)).text();
    expect(page).toContain('class="test-badge"');
    expect(page).toContain('The payment provider is in test mode: no real money moves.');
    // Decline belongs to the test provider alone: Stripe's own page decides.
    expect(page).not.toContain('value="decline"');
  });
});
