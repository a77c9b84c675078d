import type { Hono } from 'hono';
import Stripe from 'stripe';
import { decimal, minorUnits, roundMoney } from '../../kernel/money.js';
import { ApiError, type ServiceEnv } from '../http.js';
import { accountByPrefix } from '../accounts.js';
import { isStripeTestKey, readPaymentSettings, type StripeKeys, stripeKeysOf } from '../data/payment-settings.js';
import { outboundFetch } from '../outbound.js';
import type { BlikCapability, BlikCharge, BlikFailureReason, PaymentOutcome, PaymentProvider, ProviderPayment } from './provider.js';
import { settlePayment } from '../application/payments.js';
import { byToken } from '../data/public-records.js';
import type { PaymentData } from '../resources/payments.js';

/**
 * Stripe Checkout through Stripe's own `stripe` package. Pay creates a Checkout Session and sends the
 * buyer to its `url`; the account's webhook endpoint settles the payment on Stripe's signed event; the
 * return address asks Stripe for the session. `INVOICEKIT_STRIPE_API_URL` points the client at another
 * address (stripe-mock, a test's stand-in).
 */

/** Currencies Stripe takes in whole units (https://docs.stripe.com/currencies#zero-decimal). */
const ZERO_DECIMAL = new Set(['BIF', 'CLP', 'DJF', 'GNF', 'JPY', 'KMF', 'KRW', 'MGA', 'PYG', 'RWF', 'UGX', 'VND', 'VUV', 'XAF', 'XOF', 'XPF']);
/** Currencies Stripe takes in thousandths, whose last digit must be 0 (https://docs.stripe.com/currencies#three-decimal). */
const THREE_DECIMAL = new Set(['BHD', 'JOD', 'KWD', 'OMR', 'TND']);

/** Seconds an event's signature stays good: Stripe's own default tolerance. */
export const STRIPE_SIGNATURE_TOLERANCE_S = 300;

/**
 * An exact amount as Stripe's integer in the currency's smallest unit: `1845.00` PLN → 184500,
 * `1500` JPY → 1500, `12.5` KWD → 12500. Other currencies count hundredths, as Stripe does (ISK and
 * HUF included, whose amounts the service already rounds to whole units).
 */
export function stripeMinorAmount(amount: string, currency: string): number {
  const code = currency.toUpperCase();
  const exponent = ZERO_DECIMAL.has(code) ? 0 : THREE_DECIMAL.has(code) ? 3 : 2;
  const rounded = roundMoney(decimal(amount), code);
  // The service's rounding (ISO 4217) never keeps more digits than Stripe's exponent, except for
  // three-decimal currencies, whose last digit Stripe wants zero: round those to hundredths first.
  const kept = THREE_DECIMAL.has(code) && minorUnits(code) > 2 ? roundMoney(rounded, 'EUR') : rounded;
  if (kept.scale > exponent) throw new Error(`${amount} ${code} has more decimals than Stripe takes`);
  return Number(kept.units * 10n ** BigInt(exponent - kept.scale));
}

const stripeFetch = outboundFetch({ timeoutMs: 20_000, maxResponseBytes: 2 * 1024 * 1024 });

export function stripeClient(secretKey: string): Stripe {
  const address = process.env.INVOICEKIT_STRIPE_API_URL;
  const target = address ? new URL(address) : undefined;
  return new Stripe(secretKey, {
    // Through the service's outbound client: its deadline, answer cap and errors.
    httpClient: Stripe.createFetchHttpClient(stripeFetch),
    maxNetworkRetries: 1,
    timeout: 20_000,
    telemetry: false,
    ...(target
      ? { host: target.hostname, port: target.port || (target.protocol === 'http:' ? 80 : 443), protocol: target.protocol === 'http:' ? 'http' : 'https' }
      : {}),
  });
}

/** The payment a session was made for: its `client_reference_id`, or the token in its metadata. */
const tokenOf = (session: Stripe.Checkout.Session) => session.client_reference_id ?? session.metadata?.payment_token ?? null;

/** Whether `session` is a paid session for exactly `payment`: its reference, amount and currency. */
function paidSessionOf(session: Stripe.Checkout.Session, payment: Pick<ProviderPayment, 'token' | 'amount' | 'currency'>): boolean {
  return (
    tokenOf(session) === payment.token &&
    (session.payment_status === 'paid' || session.payment_status === 'no_payment_required') &&
    session.amount_total === stripeMinorAmount(payment.amount, payment.currency) &&
    session.currency?.toUpperCase() === payment.currency.toUpperCase()
  );
}

export function stripeProvider(keys: StripeKeys): PaymentProvider {
  return {
    id: 'stripe',
    redirects: true,
    testMode: isStripeTestKey(keys.secret_key),
    async start(payment) {
      const unitAmount = stripeMinorAmount(payment.amount, payment.currency);
      const session = await stripeClient(keys.secret_key).checkout.sessions.create(
        {
          mode: 'payment',
          client_reference_id: payment.token,
          ...(payment.buyerEmail ? { customer_email: payment.buyerEmail } : {}),
          line_items: [{ quantity: 1, price_data: { currency: payment.currency.toLowerCase(), unit_amount: unitAmount, product_data: { name: payment.description.slice(0, 250) } } }],
          success_url: payment.returnUrl,
          cancel_url: payment.checkoutUrl ?? payment.returnUrl,
          metadata: { payment_token: payment.token },
          payment_intent_data: { metadata: { payment_token: payment.token }, description: payment.description.slice(0, 1000) },
          ...(payment.locale ? { locale: payment.locale } : {}),
        },
        // Pressing Pay again within Stripe's idempotency window answers the same session.
        { idempotencyKey: `invoicekit-${payment.token}-${unitAmount}` },
      );
      if (!session.url) throw new Error('Stripe answered a session without a url');
      return { redirectUrl: session.url, reference: session.id };
    },
    async outcome(reference, payment): Promise<PaymentOutcome> {
      const client = stripeClient(keys.secret_key);
      // A BLIK payment's reference is its PaymentIntent; any other's is its Checkout Session.
      if (reference.startsWith('pi_')) return paidBlikIntentOf(await client.paymentIntents.retrieve(reference), payment) ? 'paid' : 'pending';
      return paidSessionOf(await client.checkout.sessions.retrieve(reference), payment) ? 'paid' : 'pending';
    },
    blik: stripeBlik(keys),
  };
}

/** The metadata that marks a PaymentIntent as this service's BLIK payment (never the code). */
const BLIK_METADATA = 'blik';

/**
 * Why a BLIK PaymentIntent failed, from Stripe's `code` and `decline_code`
 * (https://docs.stripe.com/declines/codes): the code was wrong or expired, the buyer or the bank
 * refused, or the buyer did not confirm in time. Anything else is the provider's failure.
 */
export function stripeBlikFailure(code: string | null | undefined, declineCode: string | null | undefined): BlikFailureReason {
  switch (declineCode) {
    case 'code_invalid':
      return 'wrong_code';
    case 'code_expired':
      return 'expired_code';
    case 'customer_declined':
    case 'insufficient_funds':
    case 'payment_limit_exceeded':
    case 'partner_generic_decline':
    case 'generic_decline':
      return 'declined';
  }
  if (code === 'payment_intent_payment_attempt_expired' || code === 'payment_method_provider_timeout') return 'timeout';
  if (code === 'payment_method_invalid_parameter') return 'wrong_code';
  return 'provider_error';
}

/** Whether `intent` is a succeeded BLIK PaymentIntent for exactly `payment`: its token, amount and currency. */
function paidBlikIntentOf(intent: Stripe.PaymentIntent, payment: Pick<ProviderPayment, 'token' | 'amount' | 'currency'>): boolean {
  return intent.status === 'succeeded' && matchesPayment(intent, payment) && intent.amount_received === intent.amount;
}

function matchesPayment(intent: Stripe.PaymentIntent, payment: Pick<ProviderPayment, 'token' | 'amount' | 'currency'>): boolean {
  return (
    intent.metadata?.payment_token === payment.token &&
    intent.amount === stripeMinorAmount(payment.amount, payment.currency) &&
    intent.currency.toUpperCase() === payment.currency.toUpperCase()
  );
}

/** An intent that came back failed at once (`requires_payment_method` with its error), as a failure. */
function failureOfIntent(intent: Stripe.PaymentIntent): BlikFailureReason | undefined {
  if (intent.status === 'canceled') return 'provider_error';
  if (intent.status !== 'requires_payment_method') return undefined;
  return stripeBlikFailure(intent.last_payment_error?.code, intent.last_payment_error?.decline_code);
}

/**
 * BLIK level 0 with Stripe (https://docs.stripe.com/payments/blik/accept-a-payment): a PaymentIntent
 * in PLN that allows BLIK alone, created and confirmed in one request with the code in
 * `payment_method_options.blik.code`. It then waits in `requires_action` (`blik_authorize`) until the
 * buyer confirms in the bank app; the webhook settles it. The idempotency key is the payment's token,
 * so a retried request (the client retries once) is answered from Stripe's record and never sends the
 * code again. Stripe's refusals and an unreachable Stripe are `{ failed }`; nothing here throws.
 */
function stripeBlik(keys: StripeKeys): BlikCapability {
  return {
    async chargeByCode(payment, code): Promise<BlikCharge> {
      if (payment.currency.toUpperCase() !== 'PLN') return { failed: 'provider_error' };
      try {
        const intent = await stripeClient(keys.secret_key).paymentIntents.create(
          {
            amount: stripeMinorAmount(payment.amount, payment.currency),
            currency: 'pln',
            allowed_payment_method_types: ['blik'],
            payment_method_data: { type: 'blik', ...(payment.buyerEmail ? { billing_details: { email: payment.buyerEmail } } : {}) },
            payment_method_options: { blik: { code } },
            confirm: true,
            description: payment.description.slice(0, 1000),
            metadata: { payment_token: payment.token, payment_method: BLIK_METADATA },
          },
          { idempotencyKey: `invoicekit-blik-${payment.token}` },
        );
        const failure = failureOfIntent(intent);
        return failure ? { failed: failure, reference: intent.id } : { reference: intent.id };
      } catch (error) {
        if (!(error instanceof Stripe.errors.StripeError)) return { failed: 'provider_error' };
        const reason = stripeBlikFailure(error.code, error.decline_code);
        return error.payment_intent ? { failed: reason, reference: error.payment_intent.id } : { failed: reason };
      }
    },
  };
}

/**
 * A signed `payment_intent.succeeded` or `payment_intent.payment_failed` of a BLIK PaymentIntent this
 * service made, as an outcome for its payment; `undefined` for any other event.
 */
function blikOutcomeOf(event: Stripe.Event): { intent: Stripe.PaymentIntent; outcome: PaymentOutcome; failure?: BlikFailureReason } | undefined {
  if (event.type !== 'payment_intent.succeeded' && event.type !== 'payment_intent.payment_failed') return undefined;
  const intent = event.data.object;
  if (intent.metadata?.payment_method !== BLIK_METADATA) return undefined;
  if (event.type === 'payment_intent.succeeded') return { intent, outcome: 'paid' };
  return { intent, outcome: 'declined', failure: stripeBlikFailure(intent.last_payment_error?.code, intent.last_payment_error?.decline_code) };
}

/** The events that move a Checkout payment, and to what. */
function outcomeOf(event: Stripe.Event): PaymentOutcome | undefined {
  if (event.type === 'checkout.session.completed') return event.data.object.payment_status === 'unpaid' ? undefined : 'paid';
  if (event.type === 'checkout.session.async_payment_succeeded') return 'paid';
  if (event.type === 'checkout.session.async_payment_failed') return 'declined';
  return undefined;
}

const TOKEN_PATTERN = /^[A-Za-z0-9_-]{16,64}$/;

/**
 * `POST /payments/stripe/<prefix>/webhook`: the account's Stripe events. The `Stripe-Signature` is
 * checked with the account's signing secret and Stripe's tolerance before anything is read; an event
 * that fails is a 400 and changes nothing. A repeated event finds its payment settled and does nothing.
 * Checkout Sessions settle by their `checkout.session.*` events; a BLIK PaymentIntent of this service
 * by `payment_intent.succeeded` (paid) or `payment_intent.payment_failed` (declined, with its reason).
 */
export function mountStripeWebhook(app: Hono<ServiceEnv>, options: { clock?: (() => Date) | undefined }): void {
  const now = options.clock ?? (() => new Date());
  app.post('/stripe/:prefix/webhook', async (c) => {
    const db = c.get('db');
    const account = await accountByPrefix(db, c.req.param('prefix'));
    const keys = stripeKeysOf(await readPaymentSettings(db, account.id));
    if (!keys) throw new ApiError(400, 'Stripe is not set up for this account');
    const signature = c.req.header('stripe-signature');
    if (!signature) throw new ApiError(400, 'The Stripe-Signature header is missing');
    const payload = await c.req.text().catch(() => '');
    const receivedAt = now().getTime();
    // Stripe's check refuses events older than the tolerance; one signed too far ahead is refused as well.
    const signedAt = Number(/(?:^|,)\s*t=(\d{1,12})(?:,|$)/.exec(signature)?.[1] ?? NaN);
    if (!(signedAt * 1000 <= receivedAt + STRIPE_SIGNATURE_TOLERANCE_S * 1000)) throw new ApiError(400, 'The Stripe-Signature header does not match this event');
    let event: Stripe.Event;
    try {
      event = await stripeClient(keys.secret_key).webhooks.constructEventAsync(payload, signature, keys.webhook_secret, STRIPE_SIGNATURE_TOLERANCE_S, undefined, receivedAt);
    } catch {
      throw new ApiError(400, 'The Stripe-Signature header does not match this event');
    }
    const blik = blikOutcomeOf(event);
    if (blik) {
      const token = blik.intent.metadata?.payment_token ?? '';
      const found = TOKEN_PATTERN.test(token) ? await byToken<PaymentData>(db, 'payments', token).catch(() => undefined) : undefined;
      if (!found || found.account.id !== account.id) return c.json({ received: true, ignored: true });
      const payment = { token, amount: found.row.data.price, currency: found.row.data.currency };
      if (blik.outcome === 'paid' ? !paidBlikIntentOf(blik.intent, payment) : !matchesPayment(blik.intent, payment)) {
        throw new ApiError(400, 'The PaymentIntent does not match the payment: amount, currency or status differ');
      }
      const settled = await settlePayment(c.get('config').issuing, { token, outcome: blik.outcome, failure: blik.failure, providerId: 'stripe', reference: blik.intent.id, accountId: account.id });
      if (!settled.mailed) throw new ApiError(503, 'The payment is recorded; the invoice could not be e-mailed yet');
      return c.json({ received: true });
    }
    const outcome = outcomeOf(event);
    const session = event.data.object as Stripe.Checkout.Session;
    const token = tokenOf(session);
    // Events of sessions this service did not make (another integration of the same Stripe account) are acknowledged and left alone.
    if (!outcome || !token || !TOKEN_PATTERN.test(token)) return c.json({ received: true, ignored: true });
    const found = await byToken<PaymentData>(db, 'payments', token).catch(() => undefined);
    if (!found || found.account.id !== account.id) return c.json({ received: true, ignored: true });
    const payment = found.row.data;
    if (outcome === 'paid' && !paidSessionOf(session, { token, amount: payment.price, currency: payment.currency })) {
      throw new ApiError(400, 'The session does not match the payment: amount, currency or status differ');
    }
    const settled = await settlePayment(c.get('config').issuing, { token, outcome, providerId: 'stripe', reference: session.id, accountId: account.id });
    // Stripe delivers again until it is answered 2xx: the invoice's e-mail then goes out on a later try.
    if (!settled.mailed) throw new ApiError(503, 'The payment is recorded; the invoice could not be e-mailed yet');
    return c.json({ received: true });
  });
}
