import type { Hono } from 'hono';
import { ApiError, idParam, invalid, respond, type ServiceEnv } from '../http.js';
import { BLIK_CODE_PROBLEM, blikCodeOf, BlikRefusedError, sendBlikCode } from '../application/blik.js';
import type { PaymentData } from '../application/payments.js';
import { paymentProviderOf } from '../payments/settings.js';
import { providerPaymentOf } from '../payments/start.js';
import { countBlikAttempt } from '../public/blik-limits.js';
import { requireRow } from '../store.js';
import { presentPayment } from './payments.js';

/**
 * BLIK for a BFF, with the account's api_token (extensions of this service):
 *
 * - `POST /banking/payments/{id}/blik.json` with `{"code": "777123"}` sends the buyer's code for an
 *   unpaid payment, once, and answers the payment (201) with its `blik` state;
 * - `GET /account/payment_methods.json` says who takes the account's payments and whether BLIK is
 *   offered, so that a BFF knows whether to show the code field.
 */

/** The refusals of a code as the API answers them. */
export function blikRefusal(error: unknown): unknown {
  return error instanceof BlikRefusedError ? new ApiError(409, error.message) : error;
}

/** On the `/banking` group, beside the payments' own routes. */
export function mountPaymentBlik(app: Hono<ServiceEnv>): void {
  app.post('/payments/:id/blik', async (c) => {
    const code = blikCodeOf(c.get('body').code);
    if (!code) throw invalid({ code: [c.get('body').code == null ? "can't be blank" : BLIK_CODE_PROBLEM] });
    const account = c.get('account');
    const row = await requireRow<PaymentData>(c.get('db'), 'payments', account.id, idParam(c));
    await countBlikAttempt(c, { accountId: account.id, product: row.data.product_id as number | null });
    const provider = await paymentProviderOf(c, account);
    if (!provider) throw new ApiError(409, 'BLIK is not available for this payment');
    const { publicUrl, issuing, blik } = c.get('config');
    const lang = row.data.lang === 'en' ? 'en' : 'pl';
    const sent = await sendBlikCode(issuing, {
      provider,
      token: row.data.token,
      code,
      describe: (payment) => providerPaymentOf(publicUrl, payment, lang),
      settings: blik,
      accountId: account.id,
    }).catch((error: unknown) => {
      throw blikRefusal(error);
    });
    c.header('cache-control', 'no-store');
    return respond(c, presentPayment(sent, publicUrl), { status: 201, root: 'banking_payment' });
  });
}

export function mountPaymentMethods(app: Hono<ServiceEnv>): void {
  app.get('/', async (c) => {
    const provider = await paymentProviderOf(c, c.get('account'));
    c.header('cache-control', 'no-store');
    return respond(c, { provider: provider?.id ?? null, test_mode: provider?.testMode === true, blik: provider?.blik !== undefined }, { root: 'payment_methods' });
  });
}
