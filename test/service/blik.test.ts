import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createInvoicingClient, InvoicingError } from '../../src/api/index.js';
import { BLIK_RATE_LIMITS } from '../../src/service/public/blik-limits.js';
import { buyer, expectCodesKeptNowhere, expiresAt, SECRET_CODES, START, useBlikService } from './support/blik.js';

/**
 * BLIK "level 0" through the service's own entry points (the widget's checkout and its status route,
 * the API route a BFF calls, the product answer), with the test provider's codes, on a clock the
 * tests move: `777123` and any other six digits approved after 2 s, `111111` a wrong code, `222222`
 * an expired one, `333333` declined in the bank app, `444444` never answered. Every answer, log line
 * and file of the data folder is searched for the codes the buyers typed.
 */
const h = useBlikService([
  { name: 'Mug', price_gross: '123.00', tax: '23', token: 'blik-mug' },
  { name: 'Poster', price_gross: '61.50', tax: '23', token: 'blik-poster' },
  { name: 'Workshop', price_gross: '100.00', tax: '23', token: 'blik-workshop-eur', currency: 'EUR' },
  { name: 'Sticker', price_gross: '12.30', tax: '23', token: 'blik-sticker' },
]);

describe('BLIK in the widget', () => {
  it('offers BLIK for a product sold in złoty, and not for one sold in euro', async () => {
    const mug = await h.answerOf(await fetch(h.widget('/widget/products/blik-mug.json')));
    expect(mug.body.blik).toBe(true);
    const workshop = await h.answerOf(await fetch(h.widget('/widget/products/blik-workshop-eur.json')));
    expect(workshop.body.blik).toBe(false);
  });

  it('takes an approved code: pending, then paid with its invoice once the bank app approves', async () => {
    h.now = START + 1_000;
    const sentAt = h.now;
    const started = await h.blikCheckout(SECRET_CODES[0], 'approved@buyer.example');
    expect(started.status).toBe(201);
    expect(started.body).toMatchObject({
      amount: '123',
      currency: 'PLN',
      status: 'pending',
      payment: { method: 'blik', status: 'pending', reason: null, expires_at: expiresAt(sentAt) },
      test_mode: true,
    });
    const token = started.body.attempt as string;
    expect(started.body.redirectUrl).toBe(`${h.service.url}/banking/payments/pay/${token}`);

    h.now += 1_999;
    expect((await h.attempt(token)).body).toMatchObject({ status: 'pending', reason: null, invoice: null, payment: { status: 'pending' } });

    h.now += 1;
    const paid = await h.attempt(token);
    expect(paid.body).toMatchObject({
      attempt: token,
      status: 'paid',
      reason: null,
      amount: '123',
      currency: 'PLN',
      payment: { method: 'blik', status: 'paid', reason: null, expires_at: expiresAt(sentAt) },
    });
    expect((paid.body.invoice as { number: string }).number).toBe('1/11/2026');

    const [payment] = await h.paymentsFor('approved@buyer.example');
    expect(payment).toMatchObject({ paid: true, provider: 'test', provider_status: 'paid', blik: { status: 'paid', reason: null, expires_at: expiresAt(sentAt) } });
    expect(payment!.provider_title).toMatch(/^test-blik-paid-\d+-[0-9a-f]{16}$/);
  });

  it.each([
    ['111111', 'wrong_code'],
    ['222222', 'expired_code'],
  ] as const)('refuses %s at once as %s, and nothing is charged', async (code, reason) => {
    h.now = START + 10_000;
    const email = `${reason}@buyer.example`;
    const started = await h.blikCheckout(code, email);
    expect(started.status).toBe(201);
    expect(started.body).toMatchObject({ status: 'failed', payment: { method: 'blik', status: 'failed', reason, expires_at: expiresAt(h.now) } });
    const outcome = await h.attempt(started.body.attempt as string);
    expect(outcome.body).toMatchObject({ status: 'failed', reason, invoice: null, payment: { status: 'failed', reason } });
    const [payment] = await h.paymentsFor(email);
    expect(payment).toMatchObject({ paid: false, provider: 'test', provider_status: 'declined', blik: { status: 'failed', reason } });
  });

  it('reports a code declined in the bank app once the app has answered', async () => {
    h.now = START + 20_000;
    const started = await h.blikCheckout('333333', 'declined@buyer.example');
    expect(started.body).toMatchObject({ status: 'pending', payment: { status: 'pending', reason: null } });
    h.now += 2_000;
    expect((await h.attempt(started.body.attempt as string)).body).toMatchObject({ status: 'failed', reason: 'declined', invoice: null, payment: { status: 'failed', reason: 'declined' } });
  });

  it('times a code out when the bank app never answers: pending until 5 s after the code expired', async () => {
    h.now = START + 30_000;
    const sentAt = h.now;
    const started = await h.blikCheckout('444444', 'silent@buyer.example');
    const token = started.body.attempt as string;
    h.now = sentAt + 125_000;
    expect((await h.attempt(token)).body).toMatchObject({ status: 'pending', reason: null });
    h.now += 1;
    expect((await h.attempt(token)).body).toMatchObject({ status: 'failed', reason: 'timeout', payment: { status: 'failed', reason: 'timeout', expires_at: expiresAt(sentAt) } });
    // Recorded, not only reported: the API reads the same.
    const [payment] = await h.paymentsFor('silent@buyer.example');
    expect(payment).toMatchObject({ paid: false, provider_status: 'declined', blik: { status: 'failed', reason: 'timeout' } });
  });
});

describe('BLIK through the API, for a BFF', () => {
  async function createPayment(email: string, extra: Record<string, unknown> = {}): Promise<number> {
    const created = await h.apiCall('POST', '/banking/payments.json', {
      banking_payment: { name: 'Mug', price: '123.00', currency: 'PLN', generate_invoice: true, email, lang: 'pl', ...extra },
    });
    expect(created.status).toBe(201);
    return created.body.id as number;
  }
  const sendCode = (id: number, code: unknown, headers: Record<string, string> = {}) => h.apiCall('POST', `/banking/payments/${id}/blik.json`, { code }, headers);

  it('says which provider takes the payments and that it takes BLIK', async () => {
    const methods = await h.apiCall('GET', '/account/payment_methods.json');
    expect(methods.status).toBe(200);
    expect(methods.body).toEqual({ provider: 'test', test_mode: true, blik: true });
  });

  it('sends a code once for an unpaid payment, answers the payment with its blik state, and settles it when approved', async () => {
    h.now = START + 200_000;
    const sentAt = h.now;
    const id = await createPayment('api-approved@buyer.example');
    const before = await h.apiCall('GET', `/banking/payment/${id}.json`);
    expect(before.body.blik).toBeNull();

    const sent = await sendCode(id, SECRET_CODES[1]);
    expect(sent.status).toBe(201);
    expect(sent.body).toMatchObject({ id, paid: false, provider: 'test', blik: { status: 'pending', reason: null, expires_at: expiresAt(sentAt) } });

    // A code is never sent twice: not another, not the same.
    for (const code of [SECRET_CODES[1], '777123']) {
      const again = await sendCode(id, code);
      expect(again.status).toBe(409);
      expect(again.body).toEqual({ code: 'error', message: 'A BLIK code was already sent for this payment' });
    }

    h.now += 2_000;
    const read = await h.apiCall('GET', `/banking/payment/${id}.json`);
    expect(read.body).toMatchObject({ paid: true, provider_status: 'paid', blik: { status: 'paid', reason: null, expires_at: expiresAt(sentAt) } });
    expect(read.body.invoice_id).toEqual(expect.any(Number));

    const paidAgain = await sendCode(id, '777123');
    expect(paidAgain.status).toBe(409);
    expect(paidAgain.body).toEqual({ code: 'error', message: 'This payment is already paid' });
  });

  it.each([
    ['111111', 'wrong_code'],
    ['222222', 'expired_code'],
  ] as const)('records %s refused at once as %s, and takes no second code', async (code, reason) => {
    h.now = START + 300_000;
    const id = await createPayment(`api-${reason}@buyer.example`);
    const sent = await sendCode(id, code);
    expect(sent.status).toBe(201);
    expect(sent.body).toMatchObject({ paid: false, provider_status: 'declined', blik: { status: 'failed', reason, expires_at: expiresAt(h.now) } });
    expect((await sendCode(id, '777123')).status).toBe(409);
  });

  it('reports a decline in the bank app and a timeout when the payment is read', async () => {
    h.now = START + 400_000;
    const sentAt = h.now;
    const declined = await createPayment('api-declined@buyer.example');
    const silent = await createPayment('api-silent@buyer.example');
    expect((await sendCode(declined, '333333')).body).toMatchObject({ blik: { status: 'pending' } });
    expect((await sendCode(silent, '444444')).body).toMatchObject({ blik: { status: 'pending' } });
    h.now += 2_000;
    expect((await h.apiCall('GET', `/banking/payment/${declined}.json`)).body).toMatchObject({ paid: false, blik: { status: 'failed', reason: 'declined' } });
    expect((await h.apiCall('GET', `/banking/payment/${silent}.json`)).body).toMatchObject({ paid: false, blik: { status: 'pending', reason: null } });
    h.now = sentAt + 125_001;
    const list = await h.apiCall('GET', '/banking/payments.json?per_page=100');
    const timedOut = (list.body as unknown as Record<string, unknown>[]).find((payment) => payment.id === silent);
    expect(timedOut).toMatchObject({ paid: false, provider_status: 'declined', blik: { status: 'failed', reason: 'timeout', expires_at: expiresAt(sentAt) } });
  });

  it('refuses BLIK for a payment in another currency, and a malformed code naming `code`', async () => {
    const euro = await createPayment('api-euro@buyer.example', { currency: 'EUR' });
    const refused = await sendCode(euro, '777123');
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({ code: 'error', message: 'BLIK is not available for this payment' });

    const id = await createPayment('api-malformed@buyer.example');
    for (const code of ['12345', '1234567', 'abcdef', 777123]) {
      const malformed = await sendCode(id, code);
      expect(malformed.status).toBe(422);
      expect(malformed.body).toEqual({ code: 'error', message: { code: ['must be the six digits from your bank app'] } });
    }
    expect((await sendCode(id, null)).body).toEqual({ code: 'error', message: { code: ["can't be blank"] } });
    expect((await h.apiCall('GET', `/banking/payment/${id}.json`)).body.blik).toBeNull();
  });

  it('answers a retried request with the same Idempotency-Key from the first answer, without sending the code again', async () => {
    h.now = START + 500_000;
    const id = await createPayment('api-replay@buyer.example');
    const first = await sendCode(id, SECRET_CODES[2], { 'idempotency-key': 'blik-replay-1' });
    expect(first.status).toBe(201);
    const replay = await sendCode(id, SECRET_CODES[2], { 'idempotency-key': 'blik-replay-1' });
    expect(replay.status).toBe(201);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body).toEqual(first.body);
    const other = await sendCode(id, '777123', { 'idempotency-key': 'blik-replay-1' });
    expect(other.status).toBe(422);
    expect(other.body.code).toBe('idempotency_key_reused');
    // The key's fingerprint is a keyed digest: a plain hash of the request would give the code away to a million guesses.
    const kept = await h.service.db.query<{ fingerprint: string; body: string }>(`select fingerprint, body from idempotency_keys where key = 'blik-replay-1'`);
    expect(kept).toHaveLength(1);
    const plain = createHash('sha256').update(`POST /banking/payments/${id}/blik.json\n${JSON.stringify({ api_token: h.service.apiToken, code: SECRET_CODES[2] })}`).digest('hex');
    expect(kept[0]!.fingerprint).toMatch(/^[0-9a-f]{64}$/);
    expect(kept[0]!.fingerprint).not.toBe(plain);
    expect(kept[0]!.body).toMatch(/^ik1\./);
  });

  it('sends one code when two requests race for the same payment', async () => {
    h.now = START + 550_000;
    const id = await createPayment('api-race@buyer.example');
    const answers = await Promise.all([sendCode(id, '333333'), sendCode(id, '777123')]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([201, 409]);
    const sent = answers.find((answer) => answer.status === 201)!;
    h.now += 2_000;
    // The one that went decides the outcome: 333333 is declined, 777123 approved.
    const read = await h.apiCall('GET', `/banking/payment/${id}.json`);
    expect(read.body.blik).toMatchObject({ status: sent === answers[0] ? 'failed' : 'paid' });
  });
});

describe('BLIK through the typed client', () => {
  it('reads the payment methods and sends a code, and its errors are the API’s', async () => {
    h.now = START + 800_000;
    const client = createInvoicingClient({ baseUrl: h.service.url, apiToken: h.service.apiToken });
    expect(await client.account.paymentMethods()).toEqual({ provider: 'test', test_mode: true, blik: true });
    const created = await client.payments.create({ name: 'Mug', price: '123.00', currency: 'PLN', generate_invoice: true, email: 'client@buyer.example' });
    const sent = await client.payments.sendBlikCode(created.id, '333333');
    expect(sent.blik).toEqual({ status: 'pending', reason: null, expires_at: expiresAt(h.now) });
    const again = await client.payments.sendBlikCode(created.id, '777123').catch((error: unknown) => error);
    expect(again).toBeInstanceOf(InvoicingError);
    expect((again as InvoicingError).status).toBe(409);
    h.now += 2_000;
    expect((await client.payments.get(created.id)).blik).toEqual({ status: 'failed', reason: 'declined', expires_at: expiresAt(h.now - 2_000) });
  });
});

describe('refusals of the widget checkout', () => {
  const MALFORMED: [string, unknown][] = [
    ['five digits', '12345'],
    ['seven digits', '1234567'],
    ['letters', 'abcdef'],
    ['digits and letters', '12a456'],
    ['Arabic-Indic digits', '١٢٣٤٥٦'],
    ['full-width digits', '７７７１２３'],
    ['a number', 777123],
    ['an array', ['777123']],
    ['an object', { code: '777123' }],
    ['a huge string', '7'.repeat(100_000)],
    ['a code with a newline', '777\n123'],
  ];

  it.each(MALFORMED)('refuses %s as the code with a 422 naming payment.code, never repeating it', async (_name, code) => {
    const email = `malformed-${Math.random().toString(36).slice(2)}@buyer.example`;
    const refused = await h.blikCheckout(code, email);
    expect(refused.status).toBe(422);
    expect(refused.body).toEqual({ code: 'error', message: { 'payment.code': ['must be the six digits from your bank app'] } });
    expect(await h.paymentsFor(email)).toEqual([]);
  });

  it('refuses a blank code, an unknown method and BLIK for a product sold in euro', async () => {
    expect((await h.blikCheckout(null, 'blank@buyer.example')).body).toEqual({ code: 'error', message: { 'payment.code': ["can't be blank"] } });
    const card = await h.checkout({ product: 'blik-mug', buyer: buyer('card@buyer.example'), payment: { method: 'card', code: '777123' } });
    expect(card.status).toBe(422);
    expect(card.body).toEqual({ code: 'error', message: { 'payment.method': ['must be blik'] } });
    const euro = await h.blikCheckout('777123', 'euro@buyer.example', 'blik-workshop-eur');
    expect(euro.status).toBe(422);
    expect(euro.body).toEqual({ code: 'error', message: { 'payment.method': ['BLIK is not available for this product'] } });
    expect(await h.paymentsFor('euro@buyer.example')).toEqual([]);
  });

  it('takes a code as the bank app shows it, with spaces', async () => {
    h.now = START + 600_000;
    const started = await h.blikCheckout(' 777 123 ', 'spaced@buyer.example');
    expect(started.status).toBe(201);
    expect(started.body).toMatchObject({ status: 'pending', payment: { status: 'pending' } });
  });

  it('replays a retried checkout from its first answer: one payment, one code sent', async () => {
    h.now = START + 700_000;
    const body = { product: 'blik-mug', buyer: buyer('replayed@buyer.example'), payment: { method: 'blik', code: '604815' } };
    const first = await h.checkout(body, { key: 'widget-blik-1', address: '203.0.113.7' });
    const replay = await h.checkout(body, { key: 'widget-blik-1', address: '203.0.113.7' });
    expect(first.status).toBe(201);
    expect(replay.status).toBe(201);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body).toEqual(first.body);
    expect(await h.paymentsFor('replayed@buyer.example')).toHaveLength(1);
  });

  it(`limits BLIK attempts to ${BLIK_RATE_LIMITS.address.limit} per address, with 429 and Retry-After`, async () => {
    const from = '192.0.2.10';
    for (let i = 0; i < BLIK_RATE_LIMITS.address.limit; i += 1) {
      expect((await h.checkout({ product: 'blik-poster', buyer: buyer(`limit-${i}@buyer.example`), payment: { method: 'blik', code: '111111' } }, { address: from })).status).toBe(201);
    }
    const limited = await h.checkout({ product: 'blik-poster', buyer: buyer('limit-over@buyer.example'), payment: { method: 'blik', code: '111111' } }, { address: from });
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual({ code: 'error', message: 'Too many BLIK attempts. Try again later.' });
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await h.paymentsFor('limit-over@buyer.example')).toEqual([]);
    // A checkout without BLIK from the same address is still taken.
    expect((await h.checkout({ product: 'blik-poster', buyer: buyer('limit-card@buyer.example') }, { address: from })).status).toBe(201);
  });

  it(`limits BLIK attempts to ${BLIK_RATE_LIMITS.product.limit} per product from any address`, async () => {
    for (let i = 0; i < BLIK_RATE_LIMITS.product.limit; i += 1) {
      expect((await h.checkout({ product: 'blik-sticker', buyer: buyer('sticker@buyer.example'), payment: { method: 'blik', code: '111111' } })).status).toBe(201);
    }
    const limited = await h.checkout({ product: 'blik-sticker', buyer: buyer('sticker-over@buyer.example'), payment: { method: 'blik', code: '111111' } });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
  }, 60_000);
});

describe('the code, never kept', () => {
  it('appears in no answer, no log line and no file of the data folder', async () => {
    await expectCodesKeptNowhere(h, SECRET_CODES, 'approved@buyer.example');
  });
});
