import { randomUUID } from 'node:crypto';
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BlikState, CheckoutAnswer, CheckoutOutcome } from '../../src/contract/sale.js';
import { startTestService } from '../helpers/service.js';
import { createInvoicingClient } from '../../src/api/client.js';
import { compare, decimal } from '../../src/kernel/money.js';
import { json, SHOP_ORIGIN, startTestBff, type Api, type Service, type TestBff } from './support.js';

/**
 * BLIK on the page through the BFF (issue 47), against the real service and its test provider, whose
 * codes are documented in docs/payment-providers.md: 777123 approved in the bank app, 111111 a wrong
 * code, 222222 an expired one, 333333 declined in the app, 444444 never answered.
 */
const CODE_LIFETIME_MS = 4_000;
/** The service's grace after a code's expiry before an unanswered payment is `timeout`. */
const GRACE_MS = 5_000;
const PLN_TOKEN = 'blik-ebook-2026';
const EUR_TOKEN = 'blik-ebook-eur';

let service: Service;
let api: Api;
let bff: TestBff;

// The service's BLIK option (issue 47): codes live 4 s here, and the test provider's bank app answers after 300 ms.
const serviceOptions: Parameters<typeof startTestService>[0] = { seed: false, blik: { codeLifetimeMs: CODE_LIFETIME_MS, testApprovalMs: 300 } };

beforeAll(async () => {
  service = await startTestService(serviceOptions);
  api = createInvoicingClient({ baseUrl: service.url, apiToken: service.apiToken, retry: 0 });
  await api.products.create({ name: 'E-book: BLIK explained', price_net: '40.65', tax: '23', currency: 'PLN', token: PLN_TOKEN });
  await api.products.create({ name: 'E-book: BLIK explained (EUR)', price_net: '10.00', tax: '23', currency: 'EUR', token: EUR_TOKEN });
  bff = await startTestBff(service, { rateLimit: false, productCacheMs: 0 });
}, 60_000);

afterAll(async () => {
  await bff?.close();
  await service?.stop();
});

let buyers = 0;
/** A checkout paying with `code`, by a buyer of their own (whose e-mail says nothing of the code). */
const checkoutBody = (code: string, overrides: Record<string, unknown> = {}) => ({
  product: PLN_TOKEN,
  quantity: 1,
  buyer: { email: `blik-buyer-${(buyers += 1)}@example.com`, name: 'Ada Lovelace', country: 'PL' },
  returnUrl: `${SHOP_ORIGIN}/thanks`,
  payment: { method: 'blik', code },
  ...overrides,
});

function postCheckout(body: unknown, base = bff.base, key: string = randomUUID()) {
  return fetch(`${base}/checkout`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: SHOP_ORIGIN, 'idempotency-key': key },
    body: JSON.stringify(body),
  });
}

const outcomeOf = async (attempt: string, base = bff.base) => {
  const response = await fetch(`${base}/checkout/${attempt}`, { headers: { origin: SHOP_ORIGIN } });
  expect(response.status).toBe(200);
  return (await json(response)) as CheckoutOutcome;
};

/** Asks the attempt's status as the pay button does, every 200 ms, until it is no longer pending. */
async function settled(attempt: string, withinMs: number): Promise<CheckoutOutcome> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    const outcome = await outcomeOf(attempt);
    if (outcome.status !== 'pending' || Date.now() > deadline) return outcome;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** The expiry a code sent at `sentAt` carries: two minutes in production, `CODE_LIFETIME_MS` here. */
function expectExpiry(state: BlikState, sentAt: number): void {
  const expires = Date.parse(state.expires_at);
  expect(expires).toBeGreaterThanOrEqual(sentAt + CODE_LIFETIME_MS - 1_000);
  expect(expires).toBeLessThanOrEqual(Date.now() + CODE_LIFETIME_MS + 1_000);
}

describe('GET /bff/products/:token says whether the dialog offers BLIK', () => {
  it('says blik: true for a product in PLN on the test provider, and nothing for one in EUR', async () => {
    const pln = (await json(await fetch(`${bff.base}/products/${PLN_TOKEN}`, { headers: { origin: SHOP_ORIGIN } }))) as { blik?: boolean; currency: string };
    const eur = (await json(await fetch(`${bff.base}/products/${EUR_TOKEN}`, { headers: { origin: SHOP_ORIGIN } }))) as { blik?: boolean; currency: string };
    expect([pln.currency, pln.blik]).toEqual(['PLN', true]);
    expect([eur.currency, eur.blik]).toEqual(['EUR', undefined]);
  });

  it('offers no BLIK when told so, and none against a service without /account/payment_methods (the hosted one)', async () => {
    const off = await startTestBff(service, { checkout: { blik: false } });
    const hosted = createServer((req, res) => {
      if (req.url?.startsWith('/account/payment_methods')) {
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
    const following = await startTestBff(service, { serviceUrl: `http://127.0.0.1:${(hosted.address() as AddressInfo).port}` });
    try {
      for (const base of [off.base, following.base]) {
        const product = (await json(await fetch(`${base}/products/${PLN_TOKEN}`, { headers: { origin: SHOP_ORIGIN } }))) as { blik?: boolean };
        expect(product.blik).toBeUndefined();
        const refused = await postCheckout(checkoutBody('777123'), base);
        expect(refused.status).toBe(422);
        expect(await json(refused)).toEqual({ error: { code: 'validation_failed', message: 'Some fields are not valid.', fields: { 'payment.method': ['is not available for this product'] } } });
      }
    } finally {
      await Promise.all([off.close(), following.close()]);
      await new Promise((resolve) => hosted.close(resolve));
    }
  });
});

describe('POST /bff/checkout with payment: { method: "blik", code }', () => {
  it('refuses a malformed code with a 422 naming payment.code, never repeating it, and creates no payment', async () => {
    for (const code of ['12345', '1234567', '12a456', '123 456', '']) {
      const response = await postCheckout(checkoutBody(code, { buyer: { email: 'malformed@example.com', name: 'Ada Lovelace', country: 'PL' } }));
      expect(response.status).toBe(422);
      const text = await response.text();
      expect(JSON.parse(text)).toEqual({ error: { code: 'validation_failed', message: 'Some fields are not valid.', fields: { 'payment.code': ['must be the six digits from your bank app'] } } });
      if (code) expect(text).not.toContain(code);
    }
    const refused = await postCheckout(checkoutBody('777123', { payment: { method: 'card', code: '777123' } }));
    expect(refused.status).toBe(422);
    expect(((await json(refused)) as { error: { fields: Record<string, string[]> } }).error.fields).toEqual({ 'payment.method': ['must be blik'] });
    expect((await api.payments.list({ per_page: 100 })).filter((p) => p.email === 'malformed@example.com')).toEqual([]);
  });

  it('refuses BLIK for a product not sold in PLN with a 422 naming payment.method', async () => {
    const response = await postCheckout(checkoutBody('777123', { product: EUR_TOKEN }));
    expect(response.status).toBe(422);
    expect(await json(response)).toEqual({ error: { code: 'validation_failed', message: 'Some fields are not valid.', fields: { 'payment.method': ['is not available for this product'] } } });
  });

  it('answers pending with the code’s expiry, then paid with the invoice once the buyer approves in the bank app', async () => {
    const sentAt = Date.now();
    const body = checkoutBody('777123');
    const response = await postCheckout(body);
    expect(response.status).toBe(201);
    const text = await response.text();
    expect(text).not.toContain('777123');
    const answer = JSON.parse(text) as CheckoutAnswer;
    expect([answer.status, answer.currency, answer.payment?.method, answer.payment?.status, answer.payment?.reason]).toEqual(['pending', 'PLN', 'blik', 'pending', null]);
    expect(compare(decimal(answer.amount), decimal('50.00'))).toBe(0);
    expectExpiry(answer.payment!, sentAt);

    const outcome = await settled(answer.attempt, 10_000);
    expect([outcome.status, outcome.reason]).toEqual(['paid', null]);
    expect(outcome.invoice?.number).toMatch(/\S/);
    expect(outcome.payment).toEqual({ method: 'blik', status: 'paid', reason: null, expires_at: answer.payment!.expires_at });
    const [payment] = (await api.payments.list({ per_page: 100 })).filter((p) => p.email === body.buyer.email);
    expect([payment!.paid, payment!.blik]).toEqual([true, { status: 'paid', reason: null, expires_at: answer.payment!.expires_at }]);
    expect(compare(decimal(payment!.price), decimal('50.00'))).toBe(0);
    expect(JSON.stringify(payment)).not.toContain('777123');
  });

  it.each([
    ['111111', 'wrong_code'],
    ['222222', 'expired_code'],
  ] as const)('answers failed at once for %s: %s, and the attempt reports it', async (code, reason) => {
    const response = await postCheckout(checkoutBody(code));
    expect(response.status).toBe(201);
    const answer = (await json(response)) as CheckoutAnswer;
    expect([answer.status, answer.payment?.status, answer.payment?.reason]).toEqual(['failed', 'failed', reason]);
    const outcome = await outcomeOf(answer.attempt);
    expect([outcome.status, outcome.reason, outcome.invoice, outcome.payment?.reason]).toEqual(['failed', reason, null, reason]);
  });

  it('answers pending for a code the buyer declines in the bank app, then failed: declined', async () => {
    const answer = (await json(await postCheckout(checkoutBody('333333')))) as CheckoutAnswer;
    expect([answer.status, answer.payment?.status]).toEqual(['pending', 'pending']);
    const outcome = await settled(answer.attempt, 10_000);
    expect([outcome.status, outcome.reason, outcome.invoice]).toEqual(['failed', 'declined', null]);
  });

  it('answers failed: timeout once a code nobody answered has expired, a few seconds past its expiry', async () => {
    const answer = (await json(await postCheckout(checkoutBody('444444')))) as CheckoutAnswer;
    expect(answer.status).toBe('pending');
    const expires = Date.parse(answer.payment!.expires_at);
    const outcome = await settled(answer.attempt, CODE_LIFETIME_MS + GRACE_MS + 5_000);
    expect([outcome.status, outcome.reason, outcome.payment?.status]).toEqual(['failed', 'timeout', 'failed']);
    expect(Date.now()).toBeGreaterThanOrEqual(expires);
  }, 30_000);

  it('sends a code once: a retry with the same Idempotency-Key replays the answer and makes one payment', async () => {
    const key = randomUUID();
    const body = checkoutBody('777123', { buyer: { email: 'blik-retry@example.com', name: 'Ada Lovelace', country: 'PL' } });
    const first = await postCheckout(body, bff.base, key);
    const again = await postCheckout(body, bff.base, key);
    expect([first.status, again.status, again.headers.get('idempotent-replayed')]).toEqual([201, 201, 'true']);
    const [a, b] = [(await json(first)) as CheckoutAnswer, (await json(again)) as CheckoutAnswer];
    expect(b).toEqual(a);
    expect((await api.payments.list({ per_page: 100 })).filter((p) => p.email === 'blik-retry@example.com')).toHaveLength(1);
  });

  it('never logs a code', () => {
    const logs = JSON.stringify(bff.logs);
    for (const code of ['777123', '111111', '222222', '333333', '444444', '12a456']) expect(logs).not.toContain(code);
  });

  it('limits BLIK attempts per client address', async () => {
    const limited = await startTestBff(service, { rateLimit: { ip: false, create: false, blik: { limit: 2, windowMs: 60_000 } } });
    try {
      const statuses = [];
      for (let i = 0; i < 3; i += 1) statuses.push((await postCheckout(checkoutBody('111111'), limited.base)).status);
      expect(statuses).toEqual([201, 201, 429]);
      // A checkout without BLIK is not a BLIK attempt.
      const plain = checkoutBody('111111');
      delete (plain as { payment?: unknown }).payment;
      expect((await postCheckout(plain, limited.base)).status).toBe(201);
    } finally {
      await limited.close();
    }
  });
});
