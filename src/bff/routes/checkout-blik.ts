import { z } from 'zod';
import { InvoicingError, ValidationError } from '../../api/errors.js';
import type { PaymentBlik } from '../../api/schemas/payment.js';
import type { BlikState } from '../../contract/sale.js';
import type { Bff, BffContext } from '../context.js';
import { BffError, ERROR_CODES } from '../errors.js';
import { serviceIdempotencyKey } from '../idempotency.js';
import { blikFor } from '../payment-methods.js';

/** A product's BLIK attempts may come from many buyers; per product the limit is this many times the per-address one. */
const PER_PRODUCT_FACTOR = 10;

/** `payment` of a checkout body: BLIK "level 0", the six digits of the buyer's bank app. The message never repeats the value. */
export const checkoutPaymentInput = z
  .strictObject(
    {
      method: z.literal('blik', { message: 'must be blik' }),
      code: z.string({ message: 'must be the six digits from your bank app' }).regex(/^[0-9]{6}$/, 'must be the six digits from your bank app'),
    },
    { message: 'must be an object' },
  )
  .optional();

const invalid = (field: string, message: string) => new BffError(422, ERROR_CODES.validation, 'Some fields are not valid.', { fields: { [field]: [message] } });

/**
 * Before a BLIK checkout creates anything: BLIK must be offered for the product's currency, and the
 * attempt counts against the BLIK limits per client address and per product.
 */
export async function admitBlik(bff: Bff, c: BffContext, product: { token: string; currency: string }): Promise<void> {
  if (!(await blikFor(bff, c, product.currency))) throw invalid('payment.method', 'is not available for this product');
  const rule = bff.limits.blik;
  await bff.enforce(c, rule, `blik:${c.get('clientIp')}`);
  await bff.enforce(c, rule && { ...rule, limit: rule.limit * PER_PRODUCT_FACTOR }, `blik-product:${product.token}`);
}

/** The payment's BLIK state as the wire shapes carry it; none for a payment without one. */
export function blikStateOf(blik: PaymentBlik | null | undefined): BlikState | undefined {
  return blik ? { method: 'blik', status: blik.status, reason: blik.reason, expires_at: blik.expires_at } : undefined;
}

/**
 * Sends the buyer's code for the payment the checkout just created (`POST /banking/payments/{id}/blik`),
 * once: a retry of the same checkout names the same request to the service, and a payment that already
 * has a code (409) answers its state instead of sending another. The code goes nowhere else.
 */
export async function sendBlikCode(bff: Bff, c: BffContext, paymentId: number, code: string, key: string | undefined): Promise<BlikState> {
  const payments = bff.client.payments;
  if (!payments.sendBlikCode) throw invalid('payment.method', 'is not available for this product');
  const send = payments.sendBlikCode;
  const serviceKey = key ? await serviceIdempotencyKey(bff.secretKey, 'checkout-blik', key) : undefined;
  const sent = await bff.service(c, 'payments.sendBlikCode', async (call) => {
    try {
      return await send(paymentId, code, { ...call, ...(serviceKey ? { idempotencyKey: serviceKey } : {}) });
    } catch (error) {
      if (error instanceof ValidationError) throw invalid('payment.code', 'must be the six digits from your bank app');
      if (error instanceof InvoicingError && error.status === 409) return undefined;
      throw error;
    }
  });
  const payment = sent ?? (await bff.service(c, 'payments.get', (call) => payments.get(paymentId, call)));
  const state = blikStateOf(payment.blik);
  if (!state) throw invalid('payment.method', 'is not available for this product');
  return state;
}

/** What a checkout's fingerprint holds of the code: an HMAC under the BFF's secret, never the digits. */
export async function fingerprintedPayment(bff: Bff, payment: { method: 'blik'; code: string } | undefined): Promise<{ method: 'blik'; code: string } | undefined> {
  return payment && { method: payment.method, code: await serviceIdempotencyKey(bff.secretKey, 'blik-code', payment.code) };
}
