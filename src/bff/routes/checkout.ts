import { issueAttemptToken } from './checkout-outcome.js';
import { Hono } from 'hono';
import { z } from 'zod';
import { decimal, mul, roundMoney, toPlain } from '../../api/money.js';
import { originOf, type Bff, type BffContext, type Env } from '../context.js';
import { readSession } from '../middleware.js';
import type { PortalSession } from '../portal-token.js';
import { BffError, ERROR_CODES, type FieldErrors } from '../errors.js';
import { fingerprintOf, serviceIdempotencyKey, type StoredAnswer } from '../idempotency.js';
import type { InvoicingClient } from '../options.js';
import { checkoutBuyerShape } from '../../api/validation/checkout.js';
import { readJson, validate, webUrl } from '../validation.js';
import { PRODUCT_TOKEN_PATTERN, type ProductLookup } from './products.js';

const IDEMPOTENCY_KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

const buyerInput = z.strictObject(checkoutBuyerShape);

/**
 * `POST /checkout`: creates an unpaid payment in the service at the service's price and answers
 * where to send the buyer. With an `Idempotency-Key`, a retry gets the first answer and creates
 * nothing, even when the retries arrive at the same time.
 */
export function checkoutRoutes(bff: Bff, findProduct: ProductLookup): Hono<Env> {
  const { checkout, idempotency, limits } = bff;
  const guestInput = z.strictObject({
    product: z.string({ message: 'must be a product token' }).regex(PRODUCT_TOKEN_PATTERN, 'is not a product token'),
    quantity: z
      .number({ message: 'must be a whole number' })
      .int('must be a whole number')
      .min(1, 'must be at least 1')
      .max(checkout.maxQuantity, `must be at most ${checkout.maxQuantity}`)
      .default(1),
    buyer: buyerInput,
    returnUrl: webUrl,
    cancelUrl: webUrl.optional(),
  });
  // A signed-in customer is invoiced to their own record: they may name only where it is e-mailed.
  const customerInput = guestInput.extend({
    buyer: buyerInput
      .partial()
      .superRefine((buyer, ctx) => {
        for (const name of Object.keys(buyer)) {
          if (name !== 'email') ctx.addIssue({ code: 'custom', path: [name], message: "is taken from the signed-in customer's details" });
        }
      })
      .optional(),
  });
  type CheckoutInput = z.output<typeof customerInput>;

  const routes = new Hono<Env>();
  routes.post('/checkout', async (c) => {
    // A portal token makes this the signed-in customer's purchase; none at all, a guest's.
    const session = await readSession(c, bff, 'checkout', true);
    const input: CheckoutInput = session ? validate(customerInput, await readJson(c)) : validate(guestInput, await readJson(c));
    const ownOrigin = bff.publicOrigin(c.req.raw);
    const badReturn: FieldErrors = {};
    for (const field of ['returnUrl', 'cancelUrl'] as const) {
      const url = input[field];
      if (url && !bff.returnOrigins.has(originOf(url) ?? '') && originOf(url) !== ownOrigin) {
        badReturn[field] = ['must point to an allowed origin'];
      }
    }
    if (Object.keys(badReturn).length) throw new BffError(422, ERROR_CODES.validation, 'Some fields are not valid.', { fields: badReturn });

    const key = c.req.header('idempotency-key');
    if (key !== undefined && !IDEMPOTENCY_KEY_PATTERN.test(key)) {
      throw new BffError(400, ERROR_CODES.badRequest, 'The Idempotency-Key header must be 1 to 255 visible ASCII characters.');
    }
    if (key === undefined) {
      await bff.enforce(c, limits.create, `create:${c.get('clientIp')}`);
      const answer = await createCheckout(c, input, session, undefined);
      return c.json(answer.body as object, answer.status as 201);
    }

    // The customer is part of the request: the same key from another customer is another request.
    const fingerprint = await fingerprintOf({ ...input, customer: session?.clientId ?? null });
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const claim = await idempotency.claim(key, fingerprint);
      if (claim.state !== 'claimed' && claim.fingerprint !== fingerprint) {
        throw new BffError(422, ERROR_CODES.idempotencyMismatch, 'This Idempotency-Key was used with a different request.');
      }
      if (claim.state === 'done') return replay(c, claim.answer);
      if (claim.state === 'in-flight') {
        if (!claim.settled) {
          throw new BffError(409, ERROR_CODES.conflict, 'A request with this Idempotency-Key is in progress.', { headers: { 'Retry-After': '1' } });
        }
        const answer = await claim.settled;
        if (answer) return replay(c, answer);
        continue; // the first attempt failed and gave the key back: try again
      }
      let answer: StoredAnswer;
      try {
        // Only a new attempt counts against the limit; replays and waiters create nothing.
        await bff.enforce(c, limits.create, `create:${c.get('clientIp')}`);
        answer = await createCheckout(c, input, session, key);
      } catch (error) {
        await idempotency.release(key);
        throw error;
      }
      await idempotency.complete(key, answer);
      return c.json(answer.body as object, answer.status as 201);
    }
    throw new BffError(409, ERROR_CODES.conflict, 'A request with this Idempotency-Key is in progress.', { headers: { 'Retry-After': '1' } });
  });

  function replay(c: BffContext, answer: StoredAnswer) {
    c.header('Idempotent-Replayed', 'true');
    return c.json(answer.body as object, answer.status as 201);
  }

  async function createCheckout(c: BffContext, input: CheckoutInput, session: PortalSession | undefined, key: string | undefined): Promise<StoredAnswer> {
    const product = await findProduct(c, input.product, true);
    if (!product) throw new BffError(422, ERROR_CODES.validation, 'Some fields are not valid.', { fields: { product: ['is not for sale'] } });
    const amount = roundMoney(mul(decimal(product.price_gross), decimal(input.quantity)), product.currency);
    const buyer = session ? await customerAsBuyer(c, session, input.buyer?.email) : input.buyer!;
    const fullName = [buyer.first_name, buyer.last_name].filter(Boolean).join(' ');
    const paymentInput = {
      name: product.name,
      price: toPlain(amount),
      quantity: input.quantity,
      currency: product.currency,
      product_id: product.id,
      kind: 'api',
      paid: false,
      generate_invoice: checkout.generateInvoice,
      ...(checkout.departmentId ? { department_id: checkout.departmentId } : {}),
      // A signed-in customer's invoice joins their own record, and so their portal.
      ...(session ? { client_id: session.clientId } : {}),
      email: buyer.email,
      first_name: buyer.first_name ?? null,
      last_name: buyer.last_name ?? null,
      phone: buyer.phone ?? null,
      invoice_name: buyer.name || fullName || buyer.email,
      invoice_tax_no: buyer.tax_no ?? null,
      invoice_street: buyer.street ?? null,
      invoice_post_code: buyer.post_code ?? null,
      invoice_city: buyer.city ?? null,
      invoice_country: buyer.country ?? null,
      description: `${input.quantity} × ${product.name}`,
      ...(key ? { oid: `checkout-${(await fingerprintOf(key)).slice(0, 32)}` } : {}),
      // Read by our service's payment page to send the buyer back; the hosted service ignores them.
      return_url: input.returnUrl,
      cancel_url: input.cancelUrl ?? input.returnUrl,
    };
    const serviceKey = key ? await serviceIdempotencyKey(bff.secretKey, 'checkout', key) : undefined;
    const payment = await bff.service(
      c,
      'payments.create',
      (signal) =>
        bff.client.payments.create(paymentInput as Parameters<InvoicingClient['payments']['create']>[0], {
          signal,
          ...(serviceKey ? { idempotencyKey: serviceKey } : {}),
        }),
      [],
    );
    const paymentUrl = (payment as Record<string, unknown>)['payment_url'];
    const redirectUrl = typeof paymentUrl === 'string' && originOf(paymentUrl) ? paymentUrl : input.returnUrl;
    return {
      status: 201,
      body: {
        attempt: await issueAttemptToken(payment.id, bff.secretKey),
        redirectUrl,
        amount: toPlain(amount),
        currency: product.currency,
        quantity: input.quantity,
        product: { token: product.token, name: product.name },
      },
    };
  }

  /** The buyer fields of a signed-in customer's invoice: their record as they keep it, e-mailed where they ask. */
  async function customerAsBuyer(c: BffContext, session: PortalSession, email: string | undefined): Promise<z.output<typeof buyerInput>> {
    const record = await bff.service(c, 'clients.get', (signal) => bff.client.clients.get(session.clientId, { signal }));
    const to = email ?? record.email ?? undefined;
    if (!to) throw new BffError(422, ERROR_CODES.validation, 'Some fields are not valid.', { fields: { 'buyer.email': ['is required: your details have no e-mail'] } });
    const text = (value: string | null | undefined) => value || undefined;
    return {
      email: to,
      name: text(record.name),
      tax_no: text(record.tax_no),
      street: text(record.street),
      post_code: text(record.post_code),
      city: text(record.city),
      country: text(record.country),
      phone: text(record.phone),
    };
  }

  return routes;
}
