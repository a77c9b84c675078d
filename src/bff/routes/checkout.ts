import { issueAttemptToken } from './checkout-outcome.js';
import { Hono } from 'hono';
import { z } from 'zod';
import type { CheckoutAnswer, CheckoutBuyer, CheckoutVies } from '../../contract/sale.js';
import { allowedReturnUrl, checkoutLang, checkoutPayment, treatmentOf } from '../../kernel/checkout.js';
import { taxNotes } from '../../kernel/tax/index.js';
import type { ViesConsultation } from '../../server-kit/registries/index.js';
import { type CheckoutSale, decideCheckoutSale, ViesRefusalError } from '../../server-kit/sale.js';
import { originOf, type Bff, type BffContext, type Env } from '../context.js';
import { readSession } from '../middleware.js';
import type { PortalSession } from '../portal-token.js';
import { BffError, ERROR_CODES, type FieldErrors } from '../errors.js';
import { fingerprintOf, serviceIdempotencyKey, type StoredAnswer } from '../idempotency.js';
import type { InvoicingClient } from '../options.js';
import { checkBuyer, checkoutBuyerShape, checkoutLangInput, productToken } from '../../kernel/validation/checkout.js';
import { readJson, validate, webUrl } from '../validation.js';
import { type ProductLookup, sellerLookup } from './products.js';
import { type ViesCheck, viesRequester } from '../vies-check.js';
import { admitBlik, checkoutPaymentInput, fingerprintedPayment, sendBlikCode } from './checkout-blik.js';

const IDEMPOTENCY_KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

const buyerShape = z.strictObject(checkoutBuyerShape);
const buyerInput = buyerShape.superRefine(checkBuyer);

/**
 * `POST /checkout`: creates an unpaid payment in the service at the service's price and answers
 * where to send the buyer. With an `Idempotency-Key`, a retry gets the first answer and creates
 * nothing, even when the retries arrive at the same time.
 *
 * Before a sale to an EU business goes without Polish VAT (0 % or `np`), VIES is asked: a number it
 * calls invalid is a 422 naming `buyer.tax_no`; when it cannot answer, the sale goes ahead at Polish
 * VAT and the answer says why (`fallback`). The consultation's identifier and date go on the payment.
 */
export function checkoutRoutes(bff: Bff, findProduct: ProductLookup, vies: ViesCheck): Hono<Env> {
  const { checkout, idempotency, limits } = bff;
  const sellerOf = sellerLookup(bff);
  const guestInput = z.strictObject({
    product: productToken,
    quantity: z
      .number({ message: 'must be a whole number' })
      .int('must be a whole number')
      .min(1, 'must be at least 1')
      .max(checkout.maxQuantity, `must be at most ${checkout.maxQuantity}`)
      .default(1),
    buyer: buyerInput,
    returnUrl: webUrl,
    cancelUrl: webUrl.optional(),
    lang: checkoutLangInput,
    payment: checkoutPaymentInput,
  });
  // A signed-in customer is invoiced to their own record: they may name only where it is e-mailed.
  const customerInput = guestInput.extend({
    buyer: buyerShape
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
    // Only configured origins: never the request\'s own `Host` (docs/decisions/checkout-core.md).
    const returnOrigins = bff.returnOriginsOf(c.req.raw);
    const badReturn: FieldErrors = {};
    for (const field of ['returnUrl', 'cancelUrl'] as const) {
      const url = input[field];
      if (url && !allowedReturnUrl(url, returnOrigins)) badReturn[field] = ['must point to an allowed origin'];
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
    // The BLIK code enters the fingerprint only as an HMAC: the idempotency store never holds the digits.
    const fingerprint = await fingerprintOf({ ...input, payment: await fingerprintedPayment(bff, input.payment), customer: session?.clientId ?? null });
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
    if (input.payment) await admitBlik(bff, c, product);
    // A guest's buyer passed the full schema; only a signed-in customer's may be partial.
    const buyer: CheckoutBuyer = session ? await customerAsBuyer(c, session, input.buyer?.email) : (input.buyer as CheckoutBuyer);
    const { decision, consultation, terms } = await taxOfSale(c, product, buyer);
    const lang = checkoutLang(input.lang, c.req.header('accept-language'));
    const paymentInput = {
      ...checkoutPayment({
        product,
        quantity: input.quantity,
        buyer,
        treatment: decision,
        lang,
        // Read by our service's payment page to send the buyer back; the hosted service ignores them.
        returnUrl: input.returnUrl,
        cancelUrl: input.cancelUrl ?? null,
      }),
      generate_invoice: checkout.generateInvoice,
      ...(checkout.departmentId ? { department_id: checkout.departmentId } : {}),
      // A signed-in customer's invoice joins their own record, and so their portal.
      ...(session ? { client_id: session.clientId } : {}),
      ...(key ? { oid: `checkout-${(await fingerprintOf(key)).slice(0, 32)}` } : {}),
      // The evidence that VIES was asked (kept by our service; the hosted one ignores the fields).
      ...(consultation
        ? { vies_status: consultation.status, vies_request_identifier: consultation.requestIdentifier, vies_request_date: consultation.requestDate }
        : {}),
      // How the sale is taxed, which our service's invoice follows (the hosted service ignores it).
      sale_terms: terms,
    };
    const serviceKey = key ? await serviceIdempotencyKey(bff.secretKey, 'checkout', key) : undefined;
    const payment = await bff.service(
      c,
      'payments.create',
      (call) =>
        bff.client.payments.create(paymentInput as Parameters<InvoicingClient['payments']['create']>[0], {
          ...call,
          ...(serviceKey ? { idempotencyKey: serviceKey } : {}),
        }),
      [],
    );
    // BLIK on the page: the code goes to the service once, for this payment, and into no answer.
    const blik = input.payment ? await sendBlikCode(bff, c, payment.id, input.payment.code, key) : undefined;
    const paymentUrl = (payment as Record<string, unknown>)['payment_url'];
    const redirectUrl = typeof paymentUrl === 'string' && originOf(paymentUrl) ? paymentUrl : input.returnUrl;
    return {
      status: 201,
      body: {
        attempt: await issueAttemptToken(payment.id, bff.secretKey),
        redirectUrl,
        amount: paymentInput.price,
        tax: decision.rate,
        vat_treatment: treatmentOf(decision).kind,
        case: decision.case,
        notes: taxNotes(decision.case, lang, { ossCountry: decision.ossCountry }),
        currency: product.currency,
        quantity: input.quantity,
        product: { token: product.token, name: product.name },
        ...(decision.fallback ? { fallback: decision.fallback } : {}),
        ...(consultation ? { vies: viesAnswer(consultation) } : {}),
        ...(blik ? { status: blik.status === 'failed' ? 'failed' : 'pending', payment: blik } : {}),
      } satisfies CheckoutAnswer,
    };
  }

  /**
   * The sale's tax by the engine, with VIES asked first where its answer decides (the 0 % of an
   * intra-EU supply, the `np` of a reverse charge), by the rule both checkouts share
   * (src/server-kit/sale.ts). Invalid there refuses the checkout.
   */
  async function taxOfSale(c: BffContext, product: { tax: string; service?: boolean | null; supply_kind?: string | null }, buyer: CheckoutBuyer): Promise<CheckoutSale> {
    const seller = await sellerOf(c);
    try {
      return await decideCheckoutSale({
        seller: { country: seller.country, taxNo: seller.taxNo, ossRegistered: seller.ossRegistered },
        product,
        buyer,
        vies: { check: (number) => vies.consult(c, `${number.countryCode}${number.vatNumber}`, viesRequester(seller.country, seller.taxNo)) },
      });
    } catch (error) {
      if (error instanceof ViesRefusalError) throw new BffError(422, ERROR_CODES.validation, 'Some fields are not valid.', { fields: { 'buyer.tax_no': ['is not a VAT number registered in VIES'] } });
      throw error;
    }
  }

  /** The buyer fields of a signed-in customer's invoice: their record as they keep it, e-mailed where they ask. */
  async function customerAsBuyer(c: BffContext, session: PortalSession, email: string | undefined): Promise<z.output<typeof buyerShape>> {
    const record = await bff.service(c, 'clients.get', (call) => bff.client.clients.get(session.clientId, call));
    const to = email ?? record.email ?? undefined;
    if (!to) throw new BffError(422, ERROR_CODES.validation, 'Some fields are not valid.', { fields: { 'buyer.email': ['is required: your details have no e-mail'] } });
    const text = (value: string | null | undefined) => value || undefined;
    return {
      email: to,
      name: text(record.name),
      company: record.company,
      first_name: text(record.first_name),
      last_name: text(record.last_name),
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

function viesAnswer(consultation: ViesConsultation): CheckoutVies {
  return {
    status: consultation.status === 'valid' ? 'valid' : 'unavailable',
    request_identifier: consultation.requestIdentifier,
    request_date: consultation.requestDate,
    reason: consultation.reason,
  };
}
