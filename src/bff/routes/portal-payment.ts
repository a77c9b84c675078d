import { Hono } from 'hono';
import type { PaymentAttempt } from '../../contract/sale.js';
import { allowedReturnUrl } from '../../kernel/checkout.js';
import { z } from 'zod';
import { compare, decimal, sub, toPlain, ZERO } from '../../kernel/money.js';
import { originOf, type Bff, type Env } from '../context.js';
import { BffError, ERROR_CODES } from '../errors.js';
import { serviceIdempotencyKey } from '../idempotency.js';
import { requireSession } from '../middleware.js';
import type { InvoicingClient } from '../options.js';
import { readJson, validate, webUrl } from '../validation.js';
import { issueAttemptToken } from './checkout-outcome.js';
import { ownInvoice } from './portal-invoices.js';

/** A payment the buyer declined or cancelled is over: paying again needs a new one. */
const ended = (payment: Record<string, unknown>) => !payment.paid && (payment.provider_status === 'declined' || payment.provider_status === 'cancelled');
/** How many ended payments one invoice may chain before the BFF stops making new ones for it. */
const MAX_RETRIES = 20;

const payInput = z.strictObject({ returnUrl: webUrl, cancelUrl: webUrl.optional() });

/**
 * `POST /invoices/:id/payment`: where the customer pays what is left on their invoice and comes
 * back from. The BFF checks `returnUrl` against the allowed origins and creates an unpaid payment
 * for the invoice in the service with it; the service's checkout page then sends the customer
 * only to the address its authenticated creator stored, so there is no open redirect. A retry for
 * the same invoice, amount and address gets the same payment. A service that ignores `return_url`
 * (the hosted one) still takes the payment; the invoice's own `payment_url` is the last resort.
 * The answer's `attempt` names the payment, so the page the customer comes back to asks
 * `GET /checkout/:attempt` how it ended instead of believing its own address. After a declined or
 * cancelled payment, Pay makes a new one (keyed by the one that ended, so retries still get one).
 */
export function portalPaymentRoutes(bff: Bff): Hono<Env> {
  const routes = new Hono<Env>();
  routes.post('/invoices/:id/payment', requireSession(bff, 'invoices:read'), async (c) => {
    const input = validate(payInput, await readJson(c));
    // Only configured origins: never the request's own `Host`.
    const returnOrigins = bff.returnOriginsOf(c.req.raw);
    const allowed = (url: string | undefined) => !url || allowedReturnUrl(url, returnOrigins) !== null;
    const fields: Record<string, string[]> = {};
    if (!allowed(input.returnUrl)) fields.returnUrl = ['must point to an allowed origin'];
    if (!allowed(input.cancelUrl)) fields.cancelUrl = ['must point to an allowed origin'];
    if (Object.keys(fields).length) throw new BffError(422, ERROR_CODES.validation, 'Some fields are not valid.', { fields });

    const clientId = c.get('session').clientId;
    const invoice = await ownInvoice(bff, c, clientId, c.req.param('id'));
    const left = sub(decimal(invoice.price_gross), decimal(invoice.paid));
    if (invoice.status === 'paid' || compare(left, ZERO) <= 0) {
      throw new BffError(409, ERROR_CODES.nothingToPay, 'Nothing is left to pay on this invoice.');
    }
    await bff.enforce(c, bff.limits.create, `create:${c.get('clientIp')}`);
    const amount = toPlain(left);
    const paymentInput = {
      name: `${invoice.number}`,
      price: amount,
      quantity: 1,
      currency: invoice.currency,
      invoice_id: invoice.id,
      client_id: clientId,
      kind: 'api',
      paid: false,
      generate_invoice: false,
      email: (invoice as Record<string, unknown>)['buyer_email'] ?? null,
      return_url: input.returnUrl,
      cancel_url: input.cancelUrl ?? input.returnUrl,
    };
    const base = [invoice.id, amount, input.returnUrl, input.cancelUrl ?? ''];
    let payment: Record<string, unknown> = {};
    for (let previous: unknown = '', round = 0; round <= MAX_RETRIES; round += 1) {
      const key = await serviceIdempotencyKey(bff.secretKey, 'invoice-payment', previous === '' ? base : [...base, String(previous)]);
      payment = (await bff.service(
        c,
        'payments.create',
        (call) =>
          bff.client.payments.create(paymentInput as Parameters<InvoicingClient['payments']['create']>[0], { ...call, idempotencyKey: key }),
        [],
      )) as unknown as Record<string, unknown>;
      // A replayed answer shows the payment as created: ask how it stands now.
      const current = (await bff.service(c, 'payments.get', (call) => bff.client.payments.get(Number(payment.id), call), [])) as unknown as Record<string, unknown>;
      if (!ended(current)) break;
      if (round === MAX_RETRIES) throw new BffError(429, ERROR_CODES.rateLimited, 'Too many payment attempts for this invoice.');
      previous = payment.id;
    }
    const paymentUrl = payment['payment_url'];
    const redirectUrl = typeof paymentUrl === 'string' && originOf(paymentUrl) ? paymentUrl : invoice.payment_url;
    c.header('Cache-Control', 'private, no-store');
    return c.json({ attempt: await issueAttemptToken(Number(payment.id), bff.secretKey), redirectUrl, amount, currency: invoice.currency } satisfies PaymentAttempt, 201);
  });
  return routes;
}
