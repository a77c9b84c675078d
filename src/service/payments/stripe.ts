import type { Hono } from 'hono';
import Stripe from 'stripe';
import { decimal, minorUnits, roundMoney } from '../../kernel/money.js';
import { ApiError, type ServiceEnv } from '../http.js';
import { accountByPrefix } from '../accounts.js';
import { isStripeTestKey, readPaymentSettings, type StripeKeys, stripeKeysOf } from '../data/payment-settings.js';
import { outboundFetch } from '../outbound.js';
import type { PaymentOutcome, PaymentProvider, ProviderPayment } from './provider.js';
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
      const session = await stripeClient(keys.secret_key).checkout.sessions.retrieve(reference);
      return paidSessionOf(session, payment) ? 'paid' : 'pending';
    },
  };
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
