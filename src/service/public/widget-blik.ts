import { z } from 'zod';
import type { BlikState, CheckoutAnswer } from '../../contract/sale.js';
import { BLIK_CODE_PROBLEM, blikCodeOf, blikOutcome, BlikRefusedError, blikStateOf, sendBlikCode } from '../application/blik.js';
import type { PaymentData } from '../application/payments.js';
import { ApiError, invalid, type ServiceContext } from '../http.js';
import type { PaymentProvider } from '../payments/provider.js';
import { providerPaymentOf } from '../payments/start.js';
import { buyerClientOf } from './caller.js';
import type { StoredRow } from '../store.js';

/**
 * BLIK in the widget's checkout: `payment: {"method": "blik", "code": "777123"}` beside the buyer.
 * The code is checked here (a malformed one names `payment.code` and is never repeated), sent once
 * by `sendBlikCode`, and the answer says where the payment stands.
 */

/** `payment` of a checkout: only BLIK so far. The code comes out as six digits, or the checkout is refused. */
export const checkoutPaymentInput = z.object(
  {
    method: z.unknown().superRefine((value, ctx) => {
      if (value !== 'blik') ctx.addIssue({ code: 'custom', message: value == null ? "can't be blank" : 'must be blik' });
    }),
    code: z.unknown().transform((value, ctx) => {
      const code = blikCodeOf(value);
      if (code === undefined) ctx.addIssue({ code: 'custom', message: value == null ? "can't be blank" : BLIK_CODE_PROBLEM });
      return code ?? '';
    }),
  },
  { message: 'must be an object' },
);

/** The refusal of BLIK for a product: its provider takes no codes, or it is not sold in złoty. */
export const blikUnavailable = () => invalid({ 'payment.method': ['BLIK is not available for this product'] });

/** Sends the checkout's code for its new payment and says where it stands: `pending`, or `failed` when refused at once. */
export async function chargeCheckoutByCode(
  c: ServiceContext,
  checkout: { provider: PaymentProvider; row: StoredRow<PaymentData>; code: string; lang: 'pl' | 'en' },
): Promise<Required<Pick<CheckoutAnswer, 'status' | 'payment'>>> {
  const { publicUrl, issuing, blik } = c.get('config');
  const sent = await sendBlikCode(issuing, {
    provider: checkout.provider,
    token: checkout.row.data.token,
    code: checkout.code,
    describe: (payment) => ({ ...providerPaymentOf(publicUrl, payment, checkout.lang), buyerClient: buyerClientOf(c) }),
    settings: blik,
  }).catch((error: unknown) => {
    throw error instanceof BlikRefusedError ? new ApiError(409, error.message) : error;
  });
  return { status: blikOutcome(sent.data) === 'failed' ? 'failed' : 'pending', payment: blikStateOf(sent.data)! };
}

/** What an attempt's outcome adds for a BLIK payment: why it failed, and its state. */
export function blikOutcomeFields(payment: PaymentData): { reason?: BlikState['reason']; payment?: BlikState } {
  const state = blikStateOf(payment);
  return state ? { reason: state.reason, payment: state } : {};
}
