import { Hono, type Context } from 'hono';
import { SignJWT, jwtVerify } from 'jose';
import type { createInvoicingClient } from '../../api/client.js';
import type { CheckoutOutcome } from '../../contract/sale.js';
import { BffError, notFound } from '../errors.js';
import { PORTAL_TOKEN_ISSUER } from '../portal-token.js';
import { blikStateOf } from './checkout-blik.js';

type InvoicingClient = ReturnType<typeof createInvoicingClient>;

/** Audience of the attempt tokens checkout answers: they name one payment and nothing else. */
const ATTEMPT_AUDIENCE = 'invoicekit-checkout-attempt';
/** A buyer may take a while on the payment page; a day is plenty and bounds what a leaked token shows. */
const ATTEMPT_TTL_SECONDS = 24 * 60 * 60;

/**
 * The attempt token `POST /checkout` answers: signed by the BFF, naming the payment it created, so the
 * button can ask how the payment ended after the buyer comes back. It reveals no id and cannot be
 * made for another payment.
 */
export function issueAttemptToken(paymentId: number, key: Uint8Array): Promise<string> {
  return new SignJWT({ pay: paymentId })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuer(PORTAL_TOKEN_ISSUER)
    .setAudience(ATTEMPT_AUDIENCE)
    .setIssuedAt()
    .setExpirationTime(Math.floor(Date.now() / 1000) + ATTEMPT_TTL_SECONDS)
    .sign(key);
}

async function paymentIdOf(token: string, key: Uint8Array): Promise<number> {
  try {
    const { payload } = await jwtVerify(token, key, { algorithms: ['HS256'], issuer: PORTAL_TOKEN_ISSUER, audience: ATTEMPT_AUDIENCE, requiredClaims: ['exp'] });
    if (typeof payload.pay === 'number' && Number.isSafeInteger(payload.pay) && payload.pay > 0) return payload.pay;
  } catch {
    // expired, forged or malformed: all look like an unknown attempt
  }
  throw notFound('checkout');
}

export interface CheckoutOutcomeDeps {
  client: { payments: Pick<InvoicingClient['payments'], 'get'>; invoices: Pick<InvoicingClient['invoices'], 'get'> };
  key: Uint8Array;
  /** Runs one call to the service under the BFF's timeout, turning its failures into safe answers. */
  call: <T>(c: Context, what: string, run: (options: { signal: AbortSignal; requestId: string }) => Promise<T>) => Promise<T>;
}

/**
 * `GET /checkout/:attempt`: how a checkout ended, as the service records it (`paid`, `declined`,
 * `cancelled` or `pending`), with the invoice issued for it. The button asks this when the buyer
 * comes back from the payment page instead of believing the address it comes back to, and every
 * couple of seconds while a BLIK buyer confirms in the bank app: such a payment may also be `failed`,
 * with the `reason`, and answers its `payment` state with when the code expires.
 */
export function checkoutOutcomeRoutes({ client, key, call }: CheckoutOutcomeDeps): Hono {
  const routes = new Hono();
  routes.get('/checkout/:attempt', async (c) => {
    const id = await paymentIdOf(c.req.param('attempt'), key);
    let payment: Record<string, unknown>;
    try {
      payment = (await call(c, 'payments.get', (options) => client.payments.get(id, options))) as unknown as Record<string, unknown>;
    } catch (error) {
      if (error instanceof BffError && error.status === 404) throw notFound('checkout');
      throw error;
    }
    const invoiceId = typeof payment.invoice_id === 'number' ? payment.invoice_id : undefined;
    const invoice = payment.paid && invoiceId ? await call(c, 'invoices.get', (options) => client.invoices.get(invoiceId, options)) : undefined;
    const providerStatus = payment.provider_status;
    const blik = blikStateOf(payment.blik as Parameters<typeof blikStateOf>[0]);
    // Money that moved settles the payment even after the page gave up on it: paid wins over a failed BLIK state.
    const failed = !payment.paid && blik?.status === 'failed';
    c.header('Cache-Control', 'private, no-store');
    return c.json({
      status: payment.paid ? 'paid' : failed ? 'failed' : providerStatus === 'declined' || providerStatus === 'cancelled' ? providerStatus : 'pending',
      // As the widget route: a BLIK attempt always names its reason, null unless it failed.
      ...(blik ? { reason: failed ? blik.reason : null } : {}),
      ...(blik ? { payment: payment.paid ? { ...blik, status: 'paid' as const, reason: null } : blik } : {}),
      amount: String(payment.price),
      currency: String(payment.currency),
      quantity: Number(payment.quantity),
      product: { name: String(payment.name) },
      invoice: invoice ? { number: invoice.number, view_url: (invoice as { view_url?: string | null }).view_url ?? null } : null,
    } satisfies CheckoutOutcome);
  });
  return routes;
}
