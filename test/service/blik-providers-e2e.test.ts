import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, type Api } from '../helpers/http.js';
import { startTestService, type TestService } from '../helpers/service.js';
import { Przelewy24StandIn } from './support/przelewy24-standin.js';
import { StripeStandIn } from './support/stripe-standin.js';
import { blikProviderCases } from './support/blik-providers.js';

/**
 * BLIK on the page, end to end, through each real provider's stand-in: the widget checkout with
 * `payment: { method: 'blik', code }` and its status route, and the API route a BFF calls
 * (`POST /banking/payments/{id}/blik.json`). Each case ends exact: `pending`, then `paid` with the
 * invoice's number, or `failed` with the reason; a late approval settles once; the code reaches the
 * provider once and appears in no answer and no table. The service's clock is the test's, so that a
 * code's two minutes pass without waiting.
 */
const SHOP = 'https://shop.example';
const MERCHANT = { merchantId: 135791, posId: 135791, crc: '0badc0de12345678', apiKey: 'fedcba98765432100123456789abcdef' };
const STRIPE_KEY = 'sk_test_51BlikEndToEndKey00000000000';
const WEBHOOK_SECRET = 'whsec_blikEndToEndSecret0000000000';
const CODE_LIFETIME_MS = 120_000;
/** The few seconds past `expires_at` after which a pending code is read as timed out. */
const GRACE_MS = 5_000;

let p24: Przelewy24StandIn;
let stripe: StripeStandIn;
let service: TestService;
let shop: Api;
/** The service's time (milliseconds). */
let clockAt = Math.floor(Date.now() / 1000) * 1000;

beforeAll(async () => {
  p24 = new Przelewy24StandIn(MERCHANT);
  stripe = new StripeStandIn([STRIPE_KEY]);
  await Promise.all([p24.server.start(), stripe.server.start()]);
  process.env.INVOICEKIT_P24_API_URL = p24.url;
  process.env.INVOICEKIT_STRIPE_API_URL = stripe.url;
  // Behind a trusted proxy, so that each checkout comes from a buyer's own address: the BLIK limits per address stay out of the way.
  service = await startTestService({ clock: () => new Date(clockAt), trustProxy: 1 });
  shop = api(service);
  stripe.webhook = { url: `${service.url}/payments/stripe/${service.prefix}/webhook`, secret: WEBHOOK_SECRET };
  const [department] = (await shop.get('/departments.json')).body as { id: number }[];
  expect((await shop.put(`/departments/${department!.id}.json`, { department: { widget_origins: [SHOP] } })).status).toBe(200);
  expect((await shop.post('/products.json', { product: { name: 'Logo design', price_gross: '1845.00', tax: '23', currency: 'PLN', token: 'logo-design' } })).status).toBe(201);
  expect((await shop.post('/products.json', { product: { name: 'Tea set', price_gross: '120.00', tax: '23', currency: 'EUR', token: 'tea-set' } })).status).toBe(201);
});
afterAll(async () => {
  await service.stop();
  await Promise.all([p24.server.stop(), stripe.server.stop()]);
  delete process.env.INVOICEKIT_P24_API_URL;
  delete process.env.INVOICEKIT_STRIPE_API_URL;
});

const { przelewy24, stripe: stripeCase } = blikProviderCases(() => ({ p24, stripe }), { merchant: MERCHANT, stripeKey: STRIPE_KEY, webhookSecret: WEBHOOK_SECRET });

const widget = (path: string) => `${service.url}/a/${service.prefix}${path}`;
const expiresAt = (sentAt: number) => new Date(sentAt + CODE_LIFETIME_MS).toISOString();

let buyers = 0;

/** A product of its own for one checkout, in PLN, so that the BLIK limits per product stay out of the way. */
async function newProduct(): Promise<string> {
  const token = `blik-product-${(buyers += 1)}`;
  expect((await shop.post('/products.json', { product: { name: 'Logo design', price_gross: '1845.00', tax: '23', currency: 'PLN', token } })).status).toBe(201);
  return token;
}

/** A widget checkout paying by BLIK, from a buyer's own address: the status and the parsed answer, and its raw text. */
async function checkout(email: string, code: string, product?: string) {
  const token = product ?? (await newProduct());
  const response = await fetch(widget('/widget/checkout.json'), {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: SHOP, 'x-forwarded-for': `198.51.100.${(buyers += 1) % 250}` },
    body: JSON.stringify({ product: token, quantity: 1, buyer: { email, name: 'Jan Kowalski' }, returnUrl: `${SHOP}/dziekujemy`, lang: 'pl', payment: { method: 'blik', code } }),
  });
  const text = await response.text();
  return { status: response.status, text, body: JSON.parse(text) as Record<string, unknown> & { attempt: string } };
}

async function attemptStatus(attempt: string) {
  const response = await fetch(widget(`/widget/checkout/${attempt}.json`));
  expect(response.status).toBe(200);
  const text = await response.text();
  return { text, body: JSON.parse(text) as Record<string, unknown> };
}

interface PaymentJson {
  id: number;
  paid: boolean;
  invoice_id: number | null;
  payment_url: string;
  blik: { status: string; reason: string | null; expires_at: string } | null;
}

async function paymentByToken(token: string): Promise<PaymentJson> {
  const list = (await shop.get('/banking/payments.json', { per_page: 100 })).body as PaymentJson[];
  return list.find((payment) => payment.payment_url.endsWith(`/${token}`))!;
}

async function invoiceNumber(id: number): Promise<string> {
  return ((await shop.get(`/invoices/${id}.json`)).body as { number: string }).number;
}

/** How many rows of any table of the service's database hold `text`. */
async function rowsHolding(text: string): Promise<number> {
  const tables = await service.db.query<{ name: string }>("select table_name as name from information_schema.tables where table_schema = current_schema() and table_type = 'BASE TABLE'");
  let count = 0;
  for (const { name } of tables) {
    const rows = await service.db.query<{ count: number }>(`select count(*)::int as count from "${name}" t where t::text like $1`, [`%${text}%`]);
    count += rows[0]!.count;
  }
  return count;
}

describe.each([przelewy24, stripeCase])('BLIK on the page with $name', (provider) => {
  beforeAll(async () => {
    expect((await shop.put('/account/payments.json', { payments: provider.settings })).status).toBe(200);
  });

  it('offers BLIK for a product in PLN, and not for one in another currency', async () => {
    expect(await (await fetch(widget('/widget/products/logo-design.json'))).json()).toMatchObject({ available: true, blik: true });
    const euroProduct = (await (await fetch(widget('/widget/products/tea-set.json'))).json()) as { available: boolean; blik?: boolean };
    expect(euroProduct.available).toBe(true);
    // Not offered: `false`, or left out as the shared type allows.
    expect([false, undefined]).toContain(euroProduct.blik);
    const euro = await checkout('euro@example.com', '580417', 'tea-set');
    expect(euro.status).toBe(422);
    expect(Object.keys(euro.body.message as object)).toEqual(['payment.method']);
  });

  it('takes a code in the widget checkout: pending, then paid with the invoice once the bank app approves', async () => {
    const code = provider === przelewy24 ? '580417' : '581427';
    const sentAt = clockAt;
    const created = await checkout('blik@example.com', code);
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ status: 'pending', amount: '1845', currency: 'PLN', payment: { method: 'blik', status: 'pending', reason: null, expires_at: expiresAt(sentAt) } });
    expect(created.text).not.toContain(code);
    const attempt = created.body.attempt;
    const waiting = await attemptStatus(attempt);
    expect(waiting.body).toMatchObject({ attempt, status: 'pending', reason: null, invoice: null, payment: { method: 'blik', status: 'pending', reason: null, expires_at: expiresAt(sentAt) } });

    expect((await provider.approve(attempt)).status).toBe(200);
    const payment = await paymentByToken(attempt);
    expect(payment).toMatchObject({ paid: true, blik: { status: 'paid', reason: null, expires_at: expiresAt(sentAt) } });
    const paid = await attemptStatus(attempt);
    expect(paid.body).toMatchObject({ attempt, status: 'paid', reason: null, invoice: { number: await invoiceNumber(payment.invoice_id!) }, payment: { method: 'blik', status: 'paid', reason: null } });
    for (const text of [waiting.text, paid.text, JSON.stringify(payment)]) expect(text).not.toContain(code);
    expect(provider.requestsWith(code)).toBe(1);
    expect(await rowsHolding(code)).toBe(0);
  });

  it('refuses a malformed code naming payment.code, without repeating it, and sends nothing', async () => {
    const before = provider.requestsWith('12345x');
    const malformed = await checkout('malformed@example.com', '12345x');
    expect(malformed.status).toBe(422);
    expect(malformed.body.code).toBe('error');
    expect(Object.keys(malformed.body.message as object)).toEqual(['payment.code']);
    expect(malformed.text).not.toContain('12345x');
    expect(provider.requestsWith('12345x')).toBe(before);
  });

  it.each([
    ['111111', 'wrong_code'],
    ['222222', 'expired_code'],
  ])('answers failed at once for code %s: %s', async (code, reason) => {
    const created = await checkout(`${reason}@example.com`, code);
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ status: 'failed', payment: { method: 'blik', status: 'failed', reason } });
    const read = await attemptStatus(created.body.attempt);
    expect(read.body).toMatchObject({ status: 'failed', reason, invoice: null, payment: { status: 'failed', reason } });
    expect(await paymentByToken(created.body.attempt)).toMatchObject({ paid: false, blik: { status: 'failed', reason } });
  });

  it('reports a refusal in the bank app as failed: declined', async () => {
    const created = await checkout('declined@example.com', '333333');
    expect(created.body).toMatchObject({ status: 'pending', payment: { status: 'pending', reason: null } });
    expect((await provider.decline(created.body.attempt)).status).toBe(200);
    const read = await attemptStatus(created.body.attempt);
    expect(read.body).toMatchObject({ status: 'failed', reason: 'declined', invoice: null, payment: { status: 'failed', reason: 'declined' } });
  });

  it('times a code out when nobody answers, and still settles it once when the approval comes late', async () => {
    const sentAt = clockAt;
    const email = provider === przelewy24 ? 'late-p24@example.com' : 'late-stripe@example.com';
    const created = await checkout(email, '444444');
    const attempt = created.body.attempt;
    expect(created.body).toMatchObject({ status: 'pending', payment: { status: 'pending', expires_at: expiresAt(sentAt) } });
    clockAt = sentAt + CODE_LIFETIME_MS + GRACE_MS - 1_000;
    expect((await attemptStatus(attempt)).body).toMatchObject({ status: 'pending', payment: { status: 'pending' } });
    clockAt = sentAt + CODE_LIFETIME_MS + GRACE_MS + 1_000;
    expect((await attemptStatus(attempt)).body).toMatchObject({ status: 'failed', reason: 'timeout', invoice: null, payment: { status: 'failed', reason: 'timeout' } });
    expect(await paymentByToken(attempt)).toMatchObject({ paid: false, blik: { status: 'failed', reason: 'timeout' } });

    expect((await provider.approve(attempt)).status).toBe(200);
    expect((await provider.approve(attempt)).status).toBe(200);
    const payment = await paymentByToken(attempt);
    expect(payment).toMatchObject({ paid: true, blik: { status: 'paid' } });
    expect((await attemptStatus(attempt)).body).toMatchObject({ status: 'paid', invoice: { number: await invoiceNumber(payment.invoice_id!) } });
    const invoices = (await shop.get('/invoices.json', { per_page: 100 })).body as { buyer_email: string }[];
    expect(invoices.filter((invoice) => invoice.buyer_email === email)).toHaveLength(1);
  });

  it('sends a code for a payment of the API once (POST /banking/payments/{id}/blik.json), and never twice', async () => {
    const code = provider === przelewy24 ? '590311' : '590322';
    const created = await shop.post('/banking/payments.json', { banking_payment: { name: 'Logo design', price: '1845.00', currency: 'PLN', email: 'api@example.com', generate_invoice: true } });
    expect(created.status).toBe(201);
    const id = (created.body as PaymentJson).id;
    const malformed = await shop.post(`/banking/payments/${id}/blik.json`, { code: '12 345' });
    expect(malformed.status).toBe(422);
    expect(Object.keys(malformed.body.message as object)).toEqual(['code']);
    expect(malformed.text).not.toContain('12 345');

    const sentAt = clockAt;
    const sent = await shop.post(`/banking/payments/${id}/blik.json`, { code });
    expect(sent.status).toBe(201);
    expect(sent.body).toMatchObject({ id, paid: false, blik: { status: 'pending', reason: null, expires_at: expiresAt(sentAt) } });
    expect(sent.text).not.toContain(code);
    const again = await shop.post(`/banking/payments/${id}/blik.json`, { code });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('error');
    expect(typeof again.body.message).toBe('string');
    expect(again.text).not.toContain(code);
    expect(provider.requestsWith(code)).toBe(1);

    const token = (created.body as PaymentJson).payment_url.split('/').at(-1)!;
    expect((await provider.approve(token)).status).toBe(200);
    const read = await shop.get(`/banking/payments/${id}.json`);
    expect(read.body).toMatchObject({ paid: true, blik: { status: 'paid', reason: null, expires_at: expiresAt(sentAt) } });
    expect(read.text).not.toContain(code);
    expect((await shop.post(`/banking/payments/${id}/blik.json`, { code: '777123' })).status).toBe(409);
    expect(await rowsHolding(code)).toBe(0);
  });

  it('says which provider takes payments and that it does BLIK', async () => {
    const methods = await shop.get('/account/payment_methods.json');
    expect(methods.status).toBe(200);
    expect(methods.body).toEqual({ provider: provider === przelewy24 ? 'przelewy24' : 'stripe', test_mode: true, blik: true });
  });
});
