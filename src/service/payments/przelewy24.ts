import { createHash, timingSafeEqual } from 'node:crypto';
import type { Hono } from 'hono';
import { z } from 'zod';
import { decimal, minorUnits, roundMoney } from '../../kernel/money.js';
import { ApiError, type ServiceEnv } from '../http.js';
import { accountByPrefix } from '../accounts.js';
import { byToken } from '../data/public-records.js';
import { outboundFetch } from '../outbound.js';
import type { PaymentData } from '../resources/payments.js';
import type { PaymentOutcome, PaymentProvider } from './provider.js';
import { type Przelewy24Keys, przelewy24KeysOf, readPaymentSettings } from '../data/payment-settings.js';
import { settlePayment } from '../application/payments.js';

/**
 * Przelewy24 through its REST API v1 (https://docs.przelewy24.pl): register the transaction, send the
 * buyer to its page, and settle only after the notification's `sign` checks out and
 * `PUT /api/v1/transaction/verify` confirms it. Amounts are integers in grosze (hundredths).
 * `INVOICEKIT_P24_API_URL` points the client at another address (a test's stand-in).
 */

const HOSTS = { live: 'https://secure.przelewy24.pl', sandbox: 'https://sandbox.przelewy24.pl' } as const;
const REQUEST_TIMEOUT_MS = 20_000;

/** The SHA-384 `sign` of Przelewy24: the hex digest of the fields as JSON, in the documented order, the CRC key last. */
export function przelewy24Sign(fields: Record<string, string | number>): string {
  return createHash('sha384').update(JSON.stringify(fields)).digest('hex');
}

/** An exact amount as Przelewy24's integer of hundredths: `1845.00` PLN → 184500. */
export function przelewy24Amount(amount: string, currency: string): number {
  if (minorUnits(currency) !== 2) throw new Error(`Przelewy24 takes no payments in ${currency}`);
  const rounded = roundMoney(decimal(amount), currency);
  return Number(rounded.units * 10n ** BigInt(2 - rounded.scale));
}

function baseUrl(keys: Przelewy24Keys): string {
  const configured = process.env.INVOICEKIT_P24_API_URL?.trim();
  if (configured) return configured.replace(/\/+$/, '').replace(/\/api\/v1$/, '');
  return keys.sandbox ? HOSTS.sandbox : HOSTS.live;
}

/** Through the service's outbound client: its deadline, answer cap and errors; redirects are not followed. */
const przelewy24Fetch = outboundFetch({ timeoutMs: REQUEST_TIMEOUT_MS, maxResponseBytes: 1024 * 1024 });

export async function callApi(keys: Przelewy24Keys, method: 'GET' | 'POST' | 'PUT', path: string, body?: unknown): Promise<{ status: number; body: unknown }> {
  const response = await przelewy24Fetch(`${baseUrl(keys)}/api/v1${path}`, {
    method,
    headers: {
      authorization: `Basic ${Buffer.from(`${keys.pos_id}:${keys.api_key}`).toString('base64')}`,
      accept: 'application/json',
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    redirect: 'error',
  });
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  return { status: response.status, body: parsed };
}

const registered = z.object({ data: z.object({ token: z.string().regex(/^[A-Za-z0-9_.-]{1,200}$/) }) });
const verified = z.object({ data: z.object({ status: z.literal('success') }) });
const transaction = z.object({ data: z.object({ status: z.number(), amount: z.number(), currency: z.string() }) });

export function przelewy24Provider(keys: Przelewy24Keys, options: { notifyUrl: string }): PaymentProvider {
  return {
    id: 'przelewy24',
    redirects: true,
    testMode: keys.sandbox,
    async start(payment) {
      if (!payment.buyerEmail) throw new Error('Przelewy24 needs the buyer’s e-mail');
      const amount = przelewy24Amount(payment.amount, payment.currency);
      const currency = payment.currency.toUpperCase();
      const sign = przelewy24Sign({ sessionId: payment.token, merchantId: keys.merchant_id, amount, currency, crc: keys.crc });
      const answer = await callApi(keys, 'POST', '/transaction/register', {
        merchantId: keys.merchant_id,
        posId: keys.pos_id,
        sessionId: payment.token,
        amount,
        currency,
        description: payment.description.slice(0, 1024),
        email: payment.buyerEmail,
        country: 'PL',
        language: payment.locale ?? 'pl',
        urlReturn: payment.returnUrl,
        urlStatus: options.notifyUrl,
        encoding: 'UTF-8',
        sign,
      });
      const result = registered.safeParse(answer.body);
      if (answer.status !== 200 || !result.success) throw new Error(`Przelewy24 refused the registration (${answer.status})`);
      return { redirectUrl: `${baseUrl(keys)}/trnRequest/${result.data.data.token}`, reference: result.data.data.token };
    },
    async outcome(_reference, payment): Promise<PaymentOutcome> {
      // Status 2 is a transaction already verified; an unverified one settles by its notification only.
      const answer = await callApi(keys, 'GET', `/transaction/by/sessionId/${encodeURIComponent(payment.token)}`);
      const result = transaction.safeParse(answer.body);
      if (answer.status !== 200 || !result.success) return 'pending';
      const { status, amount, currency } = result.data.data;
      return status === 2 && amount === przelewy24Amount(payment.amount, payment.currency) && currency === payment.currency.toUpperCase() ? 'paid' : 'pending';
    },
  };
}

const notification = z.object({
  merchantId: z.number().int(),
  posId: z.number().int(),
  sessionId: z.string().max(100),
  amount: z.number().int().min(1),
  originAmount: z.number().int(),
  currency: z.string().regex(/^[A-Z]{3}$/),
  orderId: z.number().int(),
  methodId: z.number().int(),
  statement: z.string().max(500),
  sign: z.string().regex(/^[0-9a-f]{96}$/i),
});

const sameText = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

/**
 * `POST /payments/przelewy24/<prefix>/notify`: Przelewy24's notification (`urlStatus`). Its `sign` is
 * checked with the account's CRC key, its amount against the payment's, and then the transaction is
 * verified with Przelewy24; only a verified one settles. Anything but a 200 makes Przelewy24 notify
 * again, so a verification that fails or times out leaves the payment pending for the next try.
 */
export function mountPrzelewy24Notify(app: Hono<ServiceEnv>, _options: { clock?: (() => Date) | undefined } = {}): void {
  app.post('/przelewy24/:prefix/notify', async (c) => {
    const db = c.get('db');
    const account = await accountByPrefix(db, c.req.param('prefix'));
    const keys = przelewy24KeysOf(await readPaymentSettings(db, account.id));
    if (!keys) throw new ApiError(400, 'Przelewy24 is not set up for this account');
    const parsed = notification.safeParse(c.get('body'));
    if (!parsed.success) throw new ApiError(400, 'The notification is not one of Przelewy24');
    const note = parsed.data;
    const expected = przelewy24Sign({
      merchantId: note.merchantId, posId: note.posId, sessionId: note.sessionId, amount: note.amount, originAmount: note.originAmount,
      currency: note.currency, orderId: note.orderId, methodId: note.methodId, statement: note.statement, crc: keys.crc,
    });
    if (!sameText(expected, note.sign.toLowerCase()) || note.merchantId !== keys.merchant_id || note.posId !== keys.pos_id) {
      throw new ApiError(400, 'The notification’s sign does not match');
    }
    const found = await byToken<PaymentData>(db, 'payments', note.sessionId).catch(() => undefined);
    if (!found || found.account.id !== account.id) return c.json({ status: 'ignored' });
    const payment = found.row.data;
    if (note.amount !== przelewy24Amount(payment.price, payment.currency) || note.originAmount !== note.amount || note.currency !== payment.currency.toUpperCase()) {
      throw new ApiError(400, 'The notification’s amount or currency differs from the payment’s');
    }
    if (!payment.paid) {
      const sign = przelewy24Sign({ sessionId: note.sessionId, orderId: note.orderId, amount: note.amount, currency: note.currency, crc: keys.crc });
      const answer = await callApi(keys, 'PUT', '/transaction/verify', {
        merchantId: keys.merchant_id, posId: keys.pos_id, sessionId: note.sessionId, amount: note.amount, currency: note.currency, orderId: note.orderId, sign,
      }).catch(() => undefined);
      if (!answer || answer.status !== 200 || !verified.safeParse(answer.body).success) {
        throw new ApiError(503, 'Przelewy24 did not verify the transaction yet; the payment stays pending');
      }
    }
    const settled = await settlePayment(c.get('config').issuing, { token: note.sessionId, outcome: 'paid', providerId: 'przelewy24', reference: String(note.orderId), accountId: account.id });
    if (!settled.mailed) throw new ApiError(503, 'The payment is recorded; the invoice could not be e-mailed yet');
    return c.json({ status: 'OK' });
  });
}
