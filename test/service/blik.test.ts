import { readdir, readFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createInvoicingClient, InvoicingError } from '../../src/api/index.js';
import { mailTransportUrl } from '../../src/service/documents/mailer.js';
import { BLIK_RATE_LIMITS } from '../../src/service/public/blik-limits.js';
import { startTestService, type TestService } from '../helpers/service.js';

/**
 * BLIK "level 0" through the service's own entry points (the widget's checkout and its status route,
 * the API route a BFF calls, the product answer), with the test provider's codes, on a clock the
 * tests move: `777123` and any other six digits approved after 2 s, `111111` a wrong code, `222222`
 * an expired one, `333333` declined in the bank app, `444444` never answered. Every answer, log line
 * and file of the data folder is searched for the codes the buyers typed.
 */
const START = Date.parse('2026-11-27T10:00:00.000Z');
let now = START;
const clock = () => new Date(now);

let smtp: SMTPServer;
const mails: { to: string[]; data: string }[] = [];
let service: TestService;
const logLines: string[] = [];
/** Every answer's body, searched at the end for the codes. */
const answers: string[] = [];
let address = 0;
/** A new client address per call site: the per-address BLIK limit is tested on its own. */
const nextAddress = () => `198.51.100.${(address += 1)}`;

/** Codes that behave as `777123` and appear nowhere else: neither in the clock's digits nor in any fixed text. */
const SECRET_CODES = ['582914', '693027', '604815'];

beforeAll(async () => {
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      let data = '';
      stream.on('data', (chunk: Buffer) => (data += chunk.toString('utf8')));
      stream.on('end', () => {
        mails.push({ to: session.envelope.rcptTo.map((r) => r.address), data });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  const port = (smtp.server.address() as AddressInfo).port;
  service = await startTestService({
    smtpUrl: mailTransportUrl(`smtp://127.0.0.1:${port}`, { from: 'Invoicing <invoices@operator.example>' }),
    clock,
    trustProxy: 1,
    log: (entry) => logLines.push(JSON.stringify(entry)),
    logRequests: true,
  });
  for (const product of [
    { name: 'Mug', price_gross: '123.00', tax: '23', token: 'blik-mug' },
    { name: 'Poster', price_gross: '61.50', tax: '23', token: 'blik-poster' },
    { name: 'Workshop', price_gross: '100.00', tax: '23', token: 'blik-workshop-eur', currency: 'EUR' },
    { name: 'Sticker', price_gross: '12.30', tax: '23', token: 'blik-sticker' },
  ]) {
    const created = await apiCall('POST', '/products.json', { product });
    expect(created.status).toBe(201);
  }
}, 60_000);

afterAll(async () => {
  await service?.stop();
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
});

interface Answer {
  status: number;
  headers: Headers;
  body: Record<string, unknown>;
  text: string;
}

async function answerOf(response: Response): Promise<Answer> {
  const text = await response.text();
  answers.push(text);
  let body: Record<string, unknown> = {};
  try {
    body = JSON.parse(text) as Record<string, unknown>;
  } catch {
    body = {};
  }
  return { status: response.status, headers: response.headers, body, text };
}

async function apiCall(method: string, path: string, body?: Record<string, unknown>, headers: Record<string, string> = {}): Promise<Answer> {
  const url = new URL(path, service.url);
  if (!body) url.searchParams.set('api_token', service.apiToken);
  return answerOf(
    await fetch(url, {
      method,
      headers: { 'content-type': 'application/json', accept: 'application/json', ...headers },
      ...(body ? { body: JSON.stringify({ api_token: service.apiToken, ...body }) } : {}),
    }),
  );
}

const widget = (path: string) => `${service.url}/a/${service.prefix}${path}`;

function buyer(email: string) {
  return { email, name: 'Jan Kowalski', country: 'PL' };
}

async function checkout(body: Record<string, unknown>, options: { address?: string; key?: string } = {}): Promise<Answer> {
  return answerOf(
    await fetch(widget('/widget/checkout.json'), {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        origin: 'https://shop.example',
        'x-forwarded-for': options.address ?? nextAddress(),
        ...(options.key ? { 'idempotency-key': options.key } : {}),
      },
      body: JSON.stringify(body),
    }),
  );
}

const blikCheckout = (code: unknown, email: string, product = 'blik-mug') => checkout({ product, quantity: 1, buyer: buyer(email), payment: { method: 'blik', code } });

async function attempt(token: string): Promise<Answer> {
  return answerOf(await fetch(widget(`/widget/checkout/${token}.json`), { headers: { 'x-forwarded-for': nextAddress() } }));
}

async function paymentsFor(email: string): Promise<Record<string, unknown>[]> {
  const list = await apiCall('GET', '/banking/payments.json?per_page=100');
  return (list.body as unknown as Record<string, unknown>[]).filter((payment) => payment.email === email);
}

const expiresAt = (sentAt: number, lifetime = 120_000) => new Date(sentAt + lifetime).toISOString();

describe('BLIK in the widget', () => {
  it('offers BLIK for a product sold in złoty, and not for one sold in euro', async () => {
    const mug = await answerOf(await fetch(widget('/widget/products/blik-mug.json')));
    expect(mug.body.blik).toBe(true);
    const workshop = await answerOf(await fetch(widget('/widget/products/blik-workshop-eur.json')));
    expect(workshop.body.blik).toBe(false);
  });

  it('takes an approved code: pending, then paid with its invoice once the bank app approves', async () => {
    now = START + 1_000;
    const sentAt = now;
    const started = await blikCheckout(SECRET_CODES[0], 'approved@buyer.example');
    expect(started.status).toBe(201);
    expect(started.body).toMatchObject({
      amount: '123',
      currency: 'PLN',
      status: 'pending',
      payment: { method: 'blik', status: 'pending', reason: null, expires_at: expiresAt(sentAt) },
      test_mode: true,
    });
    const token = started.body.attempt as string;
    expect(started.body.redirectUrl).toBe(`${service.url}/banking/payments/pay/${token}`);

    now += 1_999;
    expect((await attempt(token)).body).toMatchObject({ status: 'pending', reason: null, invoice: null, payment: { status: 'pending' } });

    now += 1;
    const paid = await attempt(token);
    expect(paid.body).toMatchObject({
      attempt: token,
      status: 'paid',
      reason: null,
      amount: '123',
      currency: 'PLN',
      payment: { method: 'blik', status: 'paid', reason: null, expires_at: expiresAt(sentAt) },
    });
    expect((paid.body.invoice as { number: string }).number).toBe('1/11/2026');

    const [payment] = await paymentsFor('approved@buyer.example');
    expect(payment).toMatchObject({ paid: true, provider: 'test', provider_status: 'paid', blik: { status: 'paid', reason: null, expires_at: expiresAt(sentAt) } });
    expect(payment!.provider_title).toMatch(/^test-blik-paid-\d+-[0-9a-f]{16}$/);
  });

  it.each([
    ['111111', 'wrong_code'],
    ['222222', 'expired_code'],
  ] as const)('refuses %s at once as %s, and nothing is charged', async (code, reason) => {
    now = START + 10_000;
    const email = `${reason}@buyer.example`;
    const started = await blikCheckout(code, email);
    expect(started.status).toBe(201);
    expect(started.body).toMatchObject({ status: 'failed', payment: { method: 'blik', status: 'failed', reason, expires_at: expiresAt(now) } });
    const outcome = await attempt(started.body.attempt as string);
    expect(outcome.body).toMatchObject({ status: 'failed', reason, invoice: null, payment: { status: 'failed', reason } });
    const [payment] = await paymentsFor(email);
    expect(payment).toMatchObject({ paid: false, provider: 'test', provider_status: 'declined', blik: { status: 'failed', reason } });
  });

  it('reports a code declined in the bank app once the app has answered', async () => {
    now = START + 20_000;
    const started = await blikCheckout('333333', 'declined@buyer.example');
    expect(started.body).toMatchObject({ status: 'pending', payment: { status: 'pending', reason: null } });
    now += 2_000;
    expect((await attempt(started.body.attempt as string)).body).toMatchObject({ status: 'failed', reason: 'declined', invoice: null, payment: { status: 'failed', reason: 'declined' } });
  });

  it('times a code out when the bank app never answers: pending until 5 s after the code expired', async () => {
    now = START + 30_000;
    const sentAt = now;
    const started = await blikCheckout('444444', 'silent@buyer.example');
    const token = started.body.attempt as string;
    now = sentAt + 125_000;
    expect((await attempt(token)).body).toMatchObject({ status: 'pending', reason: null });
    now += 1;
    expect((await attempt(token)).body).toMatchObject({ status: 'failed', reason: 'timeout', payment: { status: 'failed', reason: 'timeout', expires_at: expiresAt(sentAt) } });
    // Recorded, not only reported: the API reads the same.
    const [payment] = await paymentsFor('silent@buyer.example');
    expect(payment).toMatchObject({ paid: false, provider_status: 'declined', blik: { status: 'failed', reason: 'timeout' } });
  });
});

describe('BLIK through the API, for a BFF', () => {
  async function createPayment(email: string, extra: Record<string, unknown> = {}): Promise<number> {
    const created = await apiCall('POST', '/banking/payments.json', {
      banking_payment: { name: 'Mug', price: '123.00', currency: 'PLN', generate_invoice: true, email, lang: 'pl', ...extra },
    });
    expect(created.status).toBe(201);
    return created.body.id as number;
  }
  const sendCode = (id: number, code: unknown, headers: Record<string, string> = {}) => apiCall('POST', `/banking/payments/${id}/blik.json`, { code }, headers);

  it('says which provider takes the payments and that it takes BLIK', async () => {
    const methods = await apiCall('GET', '/account/payment_methods.json');
    expect(methods.status).toBe(200);
    expect(methods.body).toEqual({ provider: 'test', test_mode: true, blik: true });
  });

  it('sends a code once for an unpaid payment, answers the payment with its blik state, and settles it when approved', async () => {
    now = START + 200_000;
    const sentAt = now;
    const id = await createPayment('api-approved@buyer.example');
    const before = await apiCall('GET', `/banking/payment/${id}.json`);
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

    now += 2_000;
    const read = await apiCall('GET', `/banking/payment/${id}.json`);
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
    now = START + 300_000;
    const id = await createPayment(`api-${reason}@buyer.example`);
    const sent = await sendCode(id, code);
    expect(sent.status).toBe(201);
    expect(sent.body).toMatchObject({ paid: false, provider_status: 'declined', blik: { status: 'failed', reason, expires_at: expiresAt(now) } });
    expect((await sendCode(id, '777123')).status).toBe(409);
  });

  it('reports a decline in the bank app and a timeout when the payment is read', async () => {
    now = START + 400_000;
    const sentAt = now;
    const declined = await createPayment('api-declined@buyer.example');
    const silent = await createPayment('api-silent@buyer.example');
    expect((await sendCode(declined, '333333')).body).toMatchObject({ blik: { status: 'pending' } });
    expect((await sendCode(silent, '444444')).body).toMatchObject({ blik: { status: 'pending' } });
    now += 2_000;
    expect((await apiCall('GET', `/banking/payment/${declined}.json`)).body).toMatchObject({ paid: false, blik: { status: 'failed', reason: 'declined' } });
    expect((await apiCall('GET', `/banking/payment/${silent}.json`)).body).toMatchObject({ paid: false, blik: { status: 'pending', reason: null } });
    now = sentAt + 125_001;
    const list = await apiCall('GET', '/banking/payments.json?per_page=100');
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
    expect((await apiCall('GET', `/banking/payment/${id}.json`)).body.blik).toBeNull();
  });

  it('answers a retried request with the same Idempotency-Key from the first answer, without sending the code again', async () => {
    now = START + 500_000;
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
  });
});

describe('BLIK through the typed client', () => {
  it('reads the payment methods and sends a code, and its errors are the API’s', async () => {
    now = START + 800_000;
    const client = createInvoicingClient({ baseUrl: service.url, apiToken: service.apiToken });
    expect(await client.account.paymentMethods()).toEqual({ provider: 'test', test_mode: true, blik: true });
    const created = await client.payments.create({ name: 'Mug', price: '123.00', currency: 'PLN', generate_invoice: true, email: 'client@buyer.example' });
    const sent = await client.payments.sendBlikCode(created.id, '333333');
    expect(sent.blik).toEqual({ status: 'pending', reason: null, expires_at: expiresAt(now) });
    const again = await client.payments.sendBlikCode(created.id, '777123').catch((error: unknown) => error);
    expect(again).toBeInstanceOf(InvoicingError);
    expect((again as InvoicingError).status).toBe(409);
    now += 2_000;
    expect((await client.payments.get(created.id)).blik).toEqual({ status: 'failed', reason: 'declined', expires_at: expiresAt(now - 2_000) });
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
    const refused = await blikCheckout(code, email);
    expect(refused.status).toBe(422);
    expect(refused.body).toEqual({ code: 'error', message: { 'payment.code': ['must be the six digits from your bank app'] } });
    expect(await paymentsFor(email)).toEqual([]);
  });

  it('refuses a blank code, an unknown method and BLIK for a product sold in euro', async () => {
    expect((await blikCheckout(null, 'blank@buyer.example')).body).toEqual({ code: 'error', message: { 'payment.code': ["can't be blank"] } });
    const card = await checkout({ product: 'blik-mug', buyer: buyer('card@buyer.example'), payment: { method: 'card', code: '777123' } });
    expect(card.status).toBe(422);
    expect(card.body).toEqual({ code: 'error', message: { 'payment.method': ['must be blik'] } });
    const euro = await blikCheckout('777123', 'euro@buyer.example', 'blik-workshop-eur');
    expect(euro.status).toBe(422);
    expect(euro.body).toEqual({ code: 'error', message: { 'payment.method': ['BLIK is not available for this product'] } });
    expect(await paymentsFor('euro@buyer.example')).toEqual([]);
  });

  it('takes a code as the bank app shows it, with spaces', async () => {
    now = START + 600_000;
    const started = await blikCheckout(' 777 123 ', 'spaced@buyer.example');
    expect(started.status).toBe(201);
    expect(started.body).toMatchObject({ status: 'pending', payment: { status: 'pending' } });
  });

  it('replays a retried checkout from its first answer: one payment, one code sent', async () => {
    now = START + 700_000;
    const body = { product: 'blik-mug', buyer: buyer('replayed@buyer.example'), payment: { method: 'blik', code: '604815' } };
    const first = await checkout(body, { key: 'widget-blik-1', address: '203.0.113.7' });
    const replay = await checkout(body, { key: 'widget-blik-1', address: '203.0.113.7' });
    expect(first.status).toBe(201);
    expect(replay.status).toBe(201);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body).toEqual(first.body);
    expect(await paymentsFor('replayed@buyer.example')).toHaveLength(1);
  });

  it(`limits BLIK attempts to ${BLIK_RATE_LIMITS.address.limit} per address, with 429 and Retry-After`, async () => {
    const from = '192.0.2.10';
    for (let i = 0; i < BLIK_RATE_LIMITS.address.limit; i += 1) {
      expect((await checkout({ product: 'blik-poster', buyer: buyer(`limit-${i}@buyer.example`), payment: { method: 'blik', code: '111111' } }, { address: from })).status).toBe(201);
    }
    const limited = await checkout({ product: 'blik-poster', buyer: buyer('limit-over@buyer.example'), payment: { method: 'blik', code: '111111' } }, { address: from });
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual({ code: 'error', message: 'Too many BLIK attempts. Try again later.' });
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await paymentsFor('limit-over@buyer.example')).toEqual([]);
    // A checkout without BLIK from the same address is still taken.
    expect((await checkout({ product: 'blik-poster', buyer: buyer('limit-card@buyer.example') }, { address: from })).status).toBe(201);
  });

  it(`limits BLIK attempts to ${BLIK_RATE_LIMITS.product.limit} per product from any address`, async () => {
    for (let i = 0; i < BLIK_RATE_LIMITS.product.limit; i += 1) {
      expect((await checkout({ product: 'blik-sticker', buyer: buyer('sticker@buyer.example'), payment: { method: 'blik', code: '111111' } })).status).toBe(201);
    }
    const limited = await checkout({ product: 'blik-sticker', buyer: buyer('sticker-over@buyer.example'), payment: { method: 'blik', code: '111111' } });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
  }, 60_000);
});

describe('a BLIK payment approved after the page gave up', () => {
  let late: TestService;
  beforeAll(async () => {
    const port = (smtp.server.address() as AddressInfo).port;
    // The bank app answers 10 s after the code, which lives 1 s: the checkout times out first.
    late = await startTestService({
      smtpUrl: mailTransportUrl(`smtp://127.0.0.1:${port}`, { from: 'Invoicing <invoices@operator.example>' }),
      clock,
      trustProxy: 1,
      blik: { codeLifetimeMs: 1_000, testApprovalMs: 10_000 },
    });
    const created = await fetch(`${late.url}/products.json`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ api_token: late.apiToken, product: { name: 'Kubek', price_gross: '123.00', tax: '23', token: 'late-mug' } }),
    });
    expect(created.status).toBe(201);
  }, 60_000);
  afterAll(() => late?.stop());

  it('times out, then settles once when the approval comes, and the e-mail with the invoice says the payment came late', async () => {
    now = START + 1_000_000;
    const sentAt = now;
    const started = await answerOf(
      await fetch(`${late.url}/a/${late.prefix}/widget/checkout.json`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': nextAddress() },
        body: JSON.stringify({ product: 'late-mug', lang: 'pl', buyer: { email: 'late@buyer.example', name: 'Anna Nowak' }, payment: { method: 'blik', code: '777123' } }),
      }),
    );
    expect(started.status).toBe(201);
    expect(started.body).toMatchObject({ status: 'pending', payment: { status: 'pending', expires_at: expiresAt(sentAt, 1_000) } });
    const read = async () => answerOf(await fetch(`${late.url}/a/${late.prefix}/widget/checkout/${started.body.attempt as string}.json`));

    now = sentAt + 6_001;
    expect((await read()).body).toMatchObject({ status: 'failed', reason: 'timeout', invoice: null });
    expect(mails.filter((mail) => mail.to.includes('late@buyer.example'))).toEqual([]);

    now = sentAt + 10_000;
    const paid = await read();
    expect(paid.body).toMatchObject({ status: 'paid', reason: null, payment: { status: 'paid', reason: null } });
    expect((await read()).body).toMatchObject({ status: 'paid' });
    await expect.poll(() => mails.filter((mail) => mail.to.includes('late@buyer.example')).length, { timeout: 10_000 }).toBe(1);
    const [mail] = mails.filter((m) => m.to.includes('late@buyer.example'));
    // Quoted-printable may fold the line: the sentence is read from the unfolded text.
    const text = mail!.data.replace(/=\r?\n/g, '');
    expect(decodeQuotedPrintable(text)).toContain('Twoja płatność BLIK dotarła po tym, jak strona płatności przestała na nią czekać. Płatność została przyjęta, a oto faktura.');
    expect(text).toMatch(/application\/pdf/);
    const payments = (await (await fetch(`${late.url}/banking/payments.json?api_token=${late.apiToken}`)).json()) as Record<string, unknown>[];
    expect(payments.filter((payment) => payment.email === 'late@buyer.example')).toMatchObject([{ paid: true, blik: { status: 'paid', reason: null } }]);
    const invoices = (await (await fetch(`${late.url}/invoices.json?api_token=${late.apiToken}`)).json()) as Record<string, unknown>[];
    expect(invoices.filter((invoice) => invoice.buyer_email === 'late@buyer.example')).toHaveLength(1);
  });
});

/** Decodes quoted-printable text (`=C5=82` → `ł`). */
function decodeQuotedPrintable(text: string): string {
  return Buffer.from(text.replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))), 'latin1').toString('utf8');
}

describe('BLIK on the pages without JavaScript', () => {
  const page = (path: string, init: RequestInit = {}) =>
    fetch(`${service.url}${path}`, { redirect: 'manual', ...init, headers: { 'x-forwarded-for': nextAddress(), ...(init.headers as Record<string, string>) } });
  const form = (fields: Record<string, string>) => ({ method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields).toString() });

  it('offers the code field on the checkout page, waits with the time left, then shows the outcome', async () => {
    now = START + 2_000_000;
    const started = await checkout({ product: 'blik-mug', lang: 'en', buyer: buyer('page@buyer.example') });
    const path = `/banking/payments/pay/${started.body.attempt as string}`;
    const offered = await (await page(path)).text();
    expect(offered).toContain('<input name="code" type="text" inputmode="numeric" autocomplete="one-time-code"');
    expect(offered).toContain('<button class="button primary" type="submit" name="choice" value="blik">Pay with BLIK</button>');
    expect(offered).toContain('Test codes: 777123 is approved, 111111 is a wrong code');

    const malformed = await page(path, form({ choice: 'blik', code: '12a456' }));
    expect(malformed.status).toBe(422);
    const malformedPage = await malformed.text();
    expect(malformedPage).toContain('Type the six digits from your bank app.');
    expect(malformedPage).not.toContain('12a456');

    const wrong = await page(path, form({ choice: 'blik', code: '111111' }));
    expect(wrong.status).toBe(303);
    expect(wrong.headers.get('location')).toBe(path);
    const failedPage = await (await page(path)).text();
    expect(failedPage).toContain('The BLIK code was wrong. Check it in your bank app and try again with a new code.');
    expect(failedPage).toContain('value="blik">Pay with BLIK</button>');

    // A new code after a failed one, on the same payment.
    expect((await page(path, form({ choice: 'blik', code: SECRET_CODES[0]! }))).status).toBe(303);
    now += 1_500;
    const waiting = await page(path);
    expect(waiting.headers.get('refresh')).toBe(`3; url=${path}`);
    const waitingPage = await waiting.text();
    expect(waitingPage).toContain('<div class="notice" role="status" aria-live="polite"><strong>Confirm the payment in your bank app.</strong>');
    expect(waitingPage).toContain('Time left: 1:59. This page updates by itself.');
    expect(waitingPage).not.toContain('name="code"');
    // While it waits, no second code goes.
    expect((await page(path, form({ choice: 'blik', code: '777123' }))).status).toBe(303);

    now += 500;
    const paid = await page(path);
    expect(paid.headers.get('refresh')).toBeNull();
    expect(await paid.text()).toContain('Payment received. Thank you!');
  });

  it('speaks Polish on the checkout page of a Polish checkout', async () => {
    now = START + 2_100_000;
    const started = await checkout({ product: 'blik-mug', lang: 'pl', buyer: buyer('strona@buyer.example') });
    const path = `/banking/payments/pay/${started.body.attempt as string}`;
    expect(await (await page(path)).text()).toContain('value="blik">Zapłać BLIKIEM</button>');
    await page(path, form({ choice: 'blik', code: '444444' }));
    expect(await (await page(path)).text()).toContain('Potwierdź płatność w aplikacji banku.</strong><br>\n      <span class="blik-time-left">Pozostały czas: 2:00.');
    now += 125_001;
    expect(await (await page(path)).text()).toContain('Aplikacja banku nie potwierdziła płatności na czas. Nic nie pobrano.');
  });

  it('takes a code on the order page and sends the buyer to the checkout page waiting for the bank app', async () => {
    now = START + 2_200_000;
    const orderPath = `/a/${service.prefix}/p/blik-mug`;
    const offered = await (await page(`${orderPath}?lang=en`)).text();
    expect(offered).toContain('<input name="blik_code" type="text" inputmode="numeric"');
    expect(offered).toContain('<select name="country" autocomplete="country"');
    expect(offered).toContain('<option value="PL" selected>Poland</option>');
    expect(offered).toContain('name="quantity"');

    const refused = await page(orderPath, form({ lang: 'en', email: 'order@buyer.example', name: 'Jan Kowalski', country: 'PL', quantity: '1', blik_code: '69302' }));
    expect(refused.status).toBe(422);
    const refusedPage = await refused.text();
    expect(refusedPage).toContain('must be the six digits from your bank app');
    expect(refusedPage).not.toContain('69302');
    expect(refusedPage).toContain('value="order@buyer.example"');

    const ordered = await page(orderPath, form({ lang: 'en', email: 'order@buyer.example', name: 'Jan Kowalski', country: 'PL', quantity: '2', blik_code: '777123' }));
    expect(ordered.status).toBe(303);
    const location = new URL(ordered.headers.get('location')!);
    expect(location.pathname).toMatch(/^\/banking\/payments\/pay\/[A-Za-z0-9_-]+$/);
    expect(await (await page(location.pathname)).text()).toContain('Confirm the payment in your bank app.');
    expect(await paymentsFor('order@buyer.example')).toMatchObject([{ price: '246.0', quantity: '2.0', invoice_country: 'PL', blik: { status: 'pending' } }]);
  });

  it('lists every country by its name in the page language, sorted, with the seller’s country chosen; a service asks no quantity', async () => {
    const created = await apiCall('POST', '/products.json', { product: { name: 'Konsultacja', price_gross: '246.00', tax: '23', token: 'blik-consulting', service: true } });
    expect(created.status).toBe(201);
    const polish = await (await page(`/a/${service.prefix}/p/blik-consulting?lang=pl`)).text();
    const names = [...polish.matchAll(/<option value="([A-Z]{2})"( selected)?>([^<]+)<\/option>/g)].map((match) => match[3]!);
    expect(names).toHaveLength(250);
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b, 'pl')));
    expect(polish).toContain('<option value="PL" selected>Polska</option>');
    expect(polish).toContain('<option value="DE">Niemcy</option>');
    expect(polish).not.toContain('name="quantity"');

    const ordered = await page(`/a/${service.prefix}/p/blik-consulting`, form({ lang: 'pl', email: 'service@buyer.example', name: 'Jan Kowalski', country: 'PL', quantity: '5' }));
    expect(ordered.status).toBe(303);
    expect(await paymentsFor('service@buyer.example')).toMatchObject([{ quantity: '1.0', price: '246.0' }]);
  });
});

describe('the code, never kept', () => {
  it('appears in no answer, no log line and no file of the data folder', async () => {
    const typed = [...SECRET_CODES];
    for (const code of typed) {
      expect(answers.filter((text) => text.includes(code))).toEqual([]);
      expect(logLines.filter((line) => line.includes(code))).toEqual([]);
    }
    expect(logLines.filter((line) => line.includes('"path":"/a/demo/widget/checkout.json"')).length).toBeGreaterThan(0);
    if (service.databaseUrl) return;
    const files = await listFiles(service.dataDir);
    expect(files.length).toBeGreaterThan(100);
    let stored = 0;
    for (const file of files) {
      const bytes = await readFile(file);
      for (const code of typed) expect(bytes.includes(Buffer.from(code)), `${code} in ${file}`).toBe(false);
      // What is stored is found so: the buyers' addresses, typed in the same requests as the codes.
      if (bytes.includes(Buffer.from('approved@buyer.example'))) stored += 1;
    }
    expect(stored).toBeGreaterThan(0);
  });
});

async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const nested = await Promise.all(entries.map((entry) => (entry.isDirectory() ? listFiles(join(dir, entry.name)) : [join(dir, entry.name)])));
  return nested.flat();
}
