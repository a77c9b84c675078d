import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, type Api } from '../helpers/http.js';
import { startTestService, type TestService } from '../helpers/service.js';
import { type P24Transaction, Przelewy24StandIn, sha384 } from './support/przelewy24-standin.js';

/**
 * Przelewy24 end to end: the account's keys through `/account/payments`, the widget's checkout, the
 * registration with its SHA-384 sign, and notifications that settle only once Przelewy24 verified
 * them, against a stand-in of its REST API v1. One service and one stand-in for the file.
 */
const SHOP = 'https://shop.example';
const MERCHANT = { merchantId: 123456, posId: 123456, crc: 'a1b2c3d4e5f60718', apiKey: 'f0e1d2c3b4a5968778695a4b3c2d1e0f' };

let p24: Przelewy24StandIn;
let service: TestService;
let shop: Api;

beforeAll(async () => {
  p24 = new Przelewy24StandIn(MERCHANT);
  await p24.server.start();
  // Given as the API's base, as Przelewy24 documents it; the host alone works as well.
  process.env.INVOICEKIT_P24_API_URL = `${p24.url}/api/v1`;
  service = await startTestService();
  shop = api(service);
  // The shop registers the origin its pages run on: the only place a widget checkout sends buyers back to.
  const [department] = (await shop.get('/departments.json')).body as { id: number }[];
  expect((await shop.put(`/departments/${department!.id}.json`, { department: { widget_origins: [SHOP] } })).status).toBe(200);
  expect((await shop.post('/products.json', { product: { name: 'Logo design', price_gross: '1845.00', tax: '23', token: 'logo-design' } })).status).toBe(201);
  const settings = await shop.put('/account/payments.json', {
    payments: { provider: 'przelewy24', przelewy24: { merchant_id: MERCHANT.merchantId, pos_id: String(MERCHANT.posId), crc: MERCHANT.crc, api_key: MERCHANT.apiKey, sandbox: true } },
  });
  expect(settings.status).toBe(200);
  expect(settings.body.payments).toMatchObject({ provider: 'przelewy24', test_mode: true, przelewy24: { merchant_id: 123456, pos_id: 123456, crc_set: true, api_key_set: true, sandbox: true } });
  expect(settings.text).not.toContain(MERCHANT.crc);
  expect(settings.text).not.toContain(MERCHANT.apiKey);
});
afterAll(async () => {
  await service.stop();
  await p24.server.stop();
  delete process.env.INVOICEKIT_P24_API_URL;
});

const widget = (path: string) => `${service.url}/a/${service.prefix}${path}`;
const notifyUrl = () => `${service.url}/payments/przelewy24/${service.prefix}/notify`;

async function checkout(email: string, quantity = 1) {
  const created = await fetch(widget('/widget/checkout.json'), {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: SHOP },
    body: JSON.stringify({ product: 'logo-design', quantity, buyer: { email, name: 'Jan Kowalski' }, returnUrl: `${SHOP}/dziekujemy`, lang: 'pl' }),
  });
  expect(created.status).toBe(201);
  return (await created.json()) as { attempt: string; redirectUrl: string; test_mode: boolean };
}

const press = (redirectUrl: string) =>
  fetch(redirectUrl, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', 'accept-language': 'pl-PL' }, body: 'choice=pay', redirect: 'manual' });

/** A buyer's purchase through the widget, sent on to Przelewy24's transaction page: the payment's token and its transaction there. */
async function buy(email: string, quantity = 1): Promise<{ token: string; transaction: P24Transaction }> {
  const { attempt, redirectUrl } = await checkout(email, quantity);
  const transaction = [...p24.transactions.values()].find((t) => t.sessionId === attempt)!;
  expect(redirectUrl).toBe(`${p24.url}/trnRequest/${transaction.token}`);
  return { token: attempt, transaction };
}

async function paymentOf(token: string) {
  const list = (await shop.get('/banking/payments.json', { per_page: 100 })).body as { paid: boolean; invoice_id: number | null; provider: string | null; provider_status: string | null; provider_title: string | null; payment_url: string }[];
  return list.find((p) => p.payment_url.endsWith(`/${token}`))!;
}

function notify(body: unknown) {
  return fetch(notifyUrl(), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
}

describe('Przelewy24', () => {
  it('registers a widget purchase with a valid sign and Basic auth, and sends the buyer to the transaction page', async () => {
    expect(await (await fetch(widget('/widget/products/logo-design.json'))).json()).toMatchObject({ available: true, test_mode: true });
    const { token, transaction } = await buy('jan@example.com', 2);
    const registration = p24.registrations.at(-1)!;
    expect(registration.headers.authorization).toBe(`Basic ${Buffer.from(`${MERCHANT.posId}:${MERCHANT.apiKey}`).toString('base64')}`);
    const sent = JSON.parse(registration.body) as Record<string, unknown>;
    expect(sent).toMatchObject({
      merchantId: 123456,
      posId: 123456,
      sessionId: token,
      amount: 369000,
      currency: 'PLN',
      description: '2 × Logo design',
      email: 'jan@example.com',
      country: 'PL',
      language: 'pl',
      urlReturn: `${service.url}/banking/payments/pay/${token}/return`,
      urlStatus: notifyUrl(),
    });
    expect(sent.sign).toBe(sha384({ sessionId: token, merchantId: 123456, amount: 369000, currency: 'PLN', crc: MERCHANT.crc }));
    expect(transaction.amount).toBe(369000);
    expect(await paymentOf(token)).toMatchObject({ paid: false, provider: 'przelewy24', provider_title: transaction.token });
  });

  it('settles only after a notification Przelewy24 verified, and once however often it comes', async () => {
    const { token, transaction } = await buy('verified@example.com');
    const note = p24.pay(transaction.token);
    // Back from the transaction page before the notification: not settled by the return.
    const back = await fetch(`${service.url}/banking/payments/pay/${token}/return?status=success`, { redirect: 'manual' });
    expect(back.status).toBe(200);
    expect(back.headers.get('refresh')).toBe(`5; url=/banking/payments/pay/${token}/return`);
    const waiting = await back.text();
    expect(waiting).toContain('Czekamy, aż operator płatności potwierdzi płatność.');
    expect(waiting).not.toContain('name="choice" value="pay"');
    expect(await paymentOf(token)).toMatchObject({ paid: false });

    const verificationsBefore = p24.verifications.length;
    const first = await notify(note);
    expect(first.status).toBe(200);
    const verify = p24.verifications.slice(verificationsBefore);
    expect(verify).toHaveLength(1);
    expect(verify[0]!.method).toBe('PUT');
    expect(JSON.parse(verify[0]!.body)).toEqual({
      merchantId: 123456, posId: 123456, sessionId: token, amount: 184500, currency: 'PLN', orderId: transaction.orderId,
      sign: sha384({ sessionId: token, orderId: transaction.orderId!, amount: 184500, currency: 'PLN', crc: MERCHANT.crc }),
    });
    const paid = await paymentOf(token);
    expect(paid).toMatchObject({ paid: true, provider: 'przelewy24', provider_status: 'paid', provider_title: String(transaction.orderId) });
    expect(paid.invoice_id).not.toBeNull();

    expect((await notify(note)).status).toBe(200);
    expect(await paymentOf(token)).toEqual(paid);
    const mails = await service.db.query<{ count: number }>('select count(*)::int as count from outbox_messages where invoice_id = $1', [paid.invoice_id]);
    expect(mails[0]!.count).toBe(1);
    // Returning now sends the buyer back to the shop.
    const later = await fetch(`${service.url}/banking/payments/pay/${token}/return`, { redirect: 'manual' });
    expect(later.headers.get('location')).toBe(`${SHOP}/dziekujemy`);
  });

  it('refuses forged and altered notifications without asking Przelewy24, and changes nothing', async () => {
    const { token, transaction } = await buy('forged@example.com');
    const note = p24.pay(transaction.token);
    const before = p24.verifications.length;
    const attempts: [string, unknown][] = [
      ['signed with another CRC', p24.notification(transaction, 154, 'ffffffffffffffff')],
      ['amount raised after signing', { ...note, amount: 1 }],
      ['another merchant', (() => {
        const fields = { ...note, merchantId: 999, posId: 999 };
        delete (fields as { sign?: string }).sign;
        return { ...fields, sign: sha384({ ...fields, crc: MERCHANT.crc }) };
      })()],
      ['no sign', { ...note, sign: undefined }],
      ['not an object', ['x']],
      ['strings for numbers', { ...note, amount: '184500' }],
    ];
    for (const [name, body] of attempts) {
      const response = await notify(body);
      expect(response.status, name).toBe(400);
      expect(((await response.json()) as { code: string }).code, name).toBe('error');
    }
    // Signed right, but for less than the payment: refused before verification.
    const fields = { ...note, amount: 100, originAmount: 100 };
    delete (fields as { sign?: string }).sign;
    expect((await notify({ ...fields, sign: sha384({ ...fields, crc: MERCHANT.crc }) })).status).toBe(400);
    expect(p24.verifications.length).toBe(before);
    expect(await paymentOf(token)).toMatchObject({ paid: false, invoice_id: null });
    expect((await notify(note)).status).toBe(200);
    expect(await paymentOf(token)).toMatchObject({ paid: true });
  });

  it('leaves a notification Przelewy24 does not verify pending, for its next delivery', async () => {
    const { token, transaction } = await buy('early@example.com');
    // A correctly signed notification for a transaction Przelewy24 has no payment for: the verification fails.
    const early = p24.notification({ ...transaction, orderId: 42 });
    const response = await notify(early);
    expect(response.status).toBe(503);
    expect(await paymentOf(token)).toMatchObject({ paid: false, provider_status: null });
    const note = p24.pay(transaction.token);
    expect((await notify(note)).status).toBe(200);
    expect(await paymentOf(token)).toMatchObject({ paid: true });
  });

  it('stays pending while Przelewy24 is slow or down, and settles when it answers again', async () => {
    const { token, transaction } = await buy('slow@example.com');
    const note = p24.pay(transaction.token);
    const release = p24.server.hold();
    const arrived = p24.server.nextRequest();
    const notifying = notify(note);
    expect((await arrived).path).toBe('/api/v1/transaction/verify');
    expect(await paymentOf(token)).toMatchObject({ paid: false });
    release();
    expect((await notifying).status).toBe(200);
    expect(await paymentOf(token)).toMatchObject({ paid: true });

    const second = await buy('down@example.com');
    const secondNote = p24.pay(second.transaction.token);
    await p24.server.stop();
    let third: Awaited<ReturnType<typeof checkout>>;
    try {
      expect((await notify(secondNote)).status).toBe(503);
      expect(await paymentOf(second.token)).toMatchObject({ paid: false });
      // Przelewy24 cannot be reached: the buyer lands on the checkout page, which offers Pay again.
      third = await checkout('down-too@example.com');
      expect(third.redirectUrl).toBe(`${service.url}/banking/payments/pay/${third.attempt}`);
      const refused = await press(third.redirectUrl);
      expect(refused.status).toBe(502);
      expect(await refused.text()).toContain('Nie udało się połączyć z operatorem płatności. Spróbuj ponownie.');
      expect(await paymentOf(third.attempt)).toMatchObject({ paid: false, provider: null });
    } finally {
      await p24.server.start();
    }
    expect((await notify(secondNote)).status).toBe(200);
    expect(await paymentOf(second.token)).toMatchObject({ paid: true });
    const again = await press(third.redirectUrl);
    expect(again.status).toBe(303);
    expect(again.headers.get('location')).toMatch(new RegExp(`^${p24.url}/trnRequest/[A-Z0-9-]+$`));
  });

  it('answers 400 for a body that is no notification and 404 for an unknown account', async () => {
    expect((await notify({})).status).toBe(400);
    const unknown = await fetch(`${service.url}/payments/przelewy24/nobody-here/notify`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(unknown.status).toBe(404);
  });

  it('moves real money off the sandbox: no test mode', async () => {
    expect((await shop.put('/account/payments.json', { payments: { przelewy24: { sandbox: false } } })).body.payments.test_mode).toBe(false);
    try {
      expect(await (await fetch(widget('/widget/products/logo-design.json'))).json()).toMatchObject({ test_mode: false });
      expect((await checkout('live@example.com')).test_mode).toBe(false);
    } finally {
      await shop.put('/account/payments.json', { payments: { przelewy24: { sandbox: true } } });
    }
  });
});
