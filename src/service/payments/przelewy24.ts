import { createHash, timingSafeEqual } from 'node:crypto';
import type { Hono } from 'hono';
import { z } from 'zod';
import { decimal, minorUnits, roundMoney } from '../../kernel/money.js';
import { ApiError, type ServiceEnv } from '../http.js';
import { accountByPrefix } from '../accounts.js';
import { byToken } from '../data/public-records.js';
import { outboundFetch } from '../outbound.js';
import type { PaymentData } from '../resources/payments.js';
import type { BlikCapability, BlikCharge, BlikFailureReason, PaymentOutcome, PaymentProvider, ProviderPayment } from './provider.js';
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
export function przelewy24Sign(fields: Record<string, unknown>): string {
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

/**
 * `POST /api/v1/transaction/register` for `payment`: its token as `sessionId`, the amount in grosze
 * and the account's notification address. Answers the transaction's token, or `undefined` when
 * Przelewy24 refused it.
 */
async function registerTransaction(keys: Przelewy24Keys, payment: ProviderPayment, notifyUrl: string, extra: Record<string, unknown> = {}): Promise<string | undefined> {
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
    urlStatus: notifyUrl,
    encoding: 'UTF-8',
    ...extra,
    sign,
  });
  const result = registered.safeParse(answer.body);
  return answer.status === 200 && result.success ? result.data.data.token : undefined;
}

export function przelewy24Provider(keys: Przelewy24Keys, options: { notifyUrl: string }): PaymentProvider {
  return {
    id: 'przelewy24',
    redirects: true,
    testMode: keys.sandbox,
    async start(payment) {
      if (!payment.buyerEmail) throw new Error('Przelewy24 needs the buyer’s e-mail');
      const token = await registerTransaction(keys, payment, options.notifyUrl);
      if (!token) throw new Error('Przelewy24 refused the registration');
      return { redirectUrl: `${baseUrl(keys)}/trnRequest/${token}`, reference: token };
    },
    async outcome(_reference, payment): Promise<PaymentOutcome> {
      // Status 2 is a transaction already verified; an unverified one settles by its notification only.
      const answer = await callApi(keys, 'GET', `/transaction/by/sessionId/${encodeURIComponent(payment.token)}`);
      const result = transaction.safeParse(answer.body);
      if (answer.status !== 200 || !result.success) return 'pending';
      const { status, amount, currency } = result.data.data;
      return status === 2 && amount === przelewy24Amount(payment.amount, payment.currency) && currency === payment.currency.toUpperCase() ? 'paid' : 'pending';
    },
    blik: przelewy24Blik(keys, options.notifyUrl),
  };
}

/** Przelewy24's method id of BLIK on the shop's own page ("level 0"); 154 is BLIK on its payment page. */
export const PRZELEWY24_BLIK_METHOD = 181;

/**
 * Przelewy24's error codes for a BLIK code, as `chargeByCode` answers them (`{"error": "...", "code": 28}`)
 * and as its BLIK notification reports them (`result.error`, also written `"err28"`). Any other code is
 * the provider's own failure.
 */
export const PRZELEWY24_BLIK_ERRORS: Readonly<Record<number, BlikFailureReason>> = {
  28: 'wrong_code',
  29: 'expired_code',
  35: 'expired_code',
};

const charged = z.object({ data: z.object({ orderId: z.number().int() }) });
const refusal = z.object({ code: z.union([z.number(), z.string()]) });

/** A Przelewy24 error code (`28`, `"28"` or `"err28"`) as a number, or `undefined`. */
function errorCodeOf(value: unknown): number | undefined {
  const digits = /^(?:err)?(\d{1,6})$/i.exec(String(value ?? '').trim())?.[1];
  return digits === undefined ? undefined : Number(digits);
}

/**
 * BLIK level 0: register the transaction with BLIK's method, the buyer's address and browser (the
 * `additional.PSU` that `chargeByCode` needs) and the notification address for BLIK's result, then
 * `POST /api/v1/paymentMethod/blik/chargeByCode` with the transaction's token and the code. Answers the
 * order id, which the notification and the verification carry. Nothing here throws on Przelewy24's
 * answers: a refusal or an unreachable Przelewy24 is `{ failed }` (a late "paid" still settles).
 */
function przelewy24Blik(keys: Przelewy24Keys, notifyUrl: string): BlikCapability {
  return {
    async chargeByCode(payment, code): Promise<BlikCharge> {
      if (payment.currency.toUpperCase() !== 'PLN' || !payment.buyerEmail) return { failed: 'provider_error' };
      const client = payment.buyerClient;
      const token = await registerTransaction(keys, payment, notifyUrl, {
        method: PRZELEWY24_BLIK_METHOD,
        urlCardPaymentNotification: notifyUrl,
        ...(client ? { additional: { PSU: { IP: client.ip, userAgent: client.userAgent } } } : {}),
      }).catch(() => undefined);
      if (!token) return { failed: 'provider_error' };
      const answer = await callApi(keys, 'POST', '/paymentMethod/blik/chargeByCode', { token, blikCode: code }).catch(() => undefined);
      if (!answer) return { failed: 'provider_error', reference: token };
      const accepted = charged.safeParse(answer.body);
      if ((answer.status === 200 || answer.status === 201) && accepted.success) return { reference: String(accepted.data.data.orderId) };
      const refused = refusal.safeParse(answer.body);
      const reason = refused.success ? PRZELEWY24_BLIK_ERRORS[errorCodeOf(refused.data.code) ?? -1] : undefined;
      return { failed: reason ?? 'provider_error', reference: token };
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

/** Przelewy24's additional BLIK notification (to `urlCardPaymentNotification`): the result of the code's authorisation. */
const blikNotification = z.object({
  data: z.object({
    orderId: z.number().int(),
    sessionId: z.string().max(100),
    method: z.number().int(),
    result: z.record(z.string(), z.unknown()),
    sign: z.string().regex(/^[0-9a-f]{96}$/i),
  }),
});

/**
 * Why Przelewy24's BLIK notification says the code did not go through, or `undefined` when it reports
 * no error (the payment then settles by the transaction notification). An error Przelewy24 does not
 * name otherwise is a refusal in the bank.
 */
export function przelewy24BlikFailure(result: Record<string, unknown>): BlikFailureReason | undefined {
  const code = errorCodeOf(result.error);
  if (!code) return undefined;
  return PRZELEWY24_BLIK_ERRORS[code] ?? 'declined';
}

/**
 * `POST /payments/przelewy24/<prefix>/notify`: Przelewy24's notification (`urlStatus`). Its `sign` is
 * checked with the account's CRC key, its amount against the payment's, and then the transaction is
 * verified with Przelewy24; only a verified one settles. Anything but a 200 makes Przelewy24 notify
 * again, so a verification that fails or times out leaves the payment pending for the next try.
 *
 * The same address takes Przelewy24's BLIK notification (`{"data": {orderId, sessionId, method,
 * result, sign}}`), signed over those fields and the CRC key: a failed authorisation ends a pending
 * BLIK payment as declined, with its reason. It never pays anything; money settles by the above.
 */
export function mountPrzelewy24Notify(app: Hono<ServiceEnv>, _options: { clock?: (() => Date) | undefined } = {}): void {
  app.post('/przelewy24/:prefix/notify', async (c) => {
    const db = c.get('db');
    const account = await accountByPrefix(db, c.req.param('prefix'));
    const keys = przelewy24KeysOf(await readPaymentSettings(db, account.id));
    if (!keys) throw new ApiError(400, 'Przelewy24 is not set up for this account');
    const body = c.get('body');
    if (typeof body === 'object' && body !== null && 'data' in body) {
      const blik = blikNotification.safeParse(body);
      if (!blik.success) throw new ApiError(400, 'The notification is not one of Przelewy24');
      const { orderId, sessionId, method, result, sign } = blik.data.data;
      if (!sameText(przelewy24Sign({ orderId, sessionId, method, result, crc: keys.crc }), sign.toLowerCase())) {
        throw new ApiError(400, 'The notification’s sign does not match');
      }
      const failure = przelewy24BlikFailure(result);
      const found = await byToken<PaymentData>(db, 'payments', sessionId).catch(() => undefined);
      if (!failure || !found || found.account.id !== account.id) return c.json({ status: 'OK' });
      await settlePayment(c.get('config').issuing, { token: sessionId, outcome: 'declined', failure, providerId: 'przelewy24', reference: String(orderId), accountId: account.id });
      return c.json({ status: 'OK' });
    }
    const parsed = notification.safeParse(body);
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
