import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PaymentProvider } from '../../src/service/payments/provider.js';
import { stripeProvider } from '../../src/service/payments/stripe.js';
import { api, type Api, secondAccount } from '../helpers/http.js';
import { startTestService, type TestService } from '../helpers/service.js';
import { readStripeForm, StripeStandIn, stripeSignature } from './support/stripe-standin.js';
import { apiPayment, type PaymentJson } from './support/blik-providers.js';

/**
 * BLIK level 0 through Stripe, with the official `stripe` package talking to a stand-in of Stripe's
 * API: a PaymentIntent in PLN allowing BLIK alone, created and confirmed with the code under an
 * idempotency key of the payment, settled by `payment_intent.succeeded` or ended by
 * `payment_intent.payment_failed` on the account's signed webhook. Payments are made through the API;
 * their token is what the provider is given. One service and one stand-in for the file.
 */
const TEST_KEY = 'sk_test_51BlikStandInKey0000000000';
const WEBHOOK_SECRET = 'whsec_blikStandinSigningSecret000000';

let stripe: StripeStandIn;
let service: TestService;
let shop: Api;
let provider: PaymentProvider;

const webhookUrl = () => `${service.url}/payments/stripe/${service.prefix}/webhook`;

beforeAll(async () => {
  stripe = new StripeStandIn([TEST_KEY]);
  await stripe.server.start();
  process.env.INVOICEKIT_STRIPE_API_URL = stripe.url;
  service = await startTestService();
  shop = api(service);
  expect((await shop.put('/account/payments.json', { payments: { provider: 'stripe', stripe: { secret_key: TEST_KEY, webhook_secret: WEBHOOK_SECRET } } })).status).toBe(200);
  stripe.webhook = { url: webhookUrl(), secret: WEBHOOK_SECRET };
  provider = stripeProvider({ secret_key: TEST_KEY, webhook_secret: WEBHOOK_SECRET });
});
afterAll(async () => {
  await service.stop();
  await stripe.server.stop();
  delete process.env.INVOICEKIT_STRIPE_API_URL;
});

const newPayment = (email: string, currency = 'PLN', price = '1845.00') => apiPayment(shop, { email, currency, price });

const paymentJson = async (id: number) => (await shop.get(`/banking/payments/${id}.json`)).body as PaymentJson;
const intentRequests = () => stripe.apiRequests.filter((request) => request.path === '/v1/payment_intents');

function deliver(payload: string, signature: string) {
  return fetch(webhookUrl(), { method: 'POST', headers: { 'content-type': 'application/json', 'stripe-signature': signature }, body: payload });
}

describe('BLIK with Stripe: a PaymentIntent confirmed with the code', () => {
  it('creates and confirms the intent with the code once, and settles on payment_intent.succeeded', async () => {
    const { json, payment } = await newPayment('blik@example.com');
    const charge = await provider.blik!.chargeByCode(payment, '580417');
    const intent = [...stripe.intents.values()].find((i) => i.metadata.payment_token === payment.token)!;
    expect(charge).toEqual({ reference: intent.id });
    expect(intent).toMatchObject({ status: 'requires_action', next_action: { type: 'blik_authorize' }, amount: 184500, currency: 'pln' });

    const sent = intentRequests().at(-1)!;
    expect(sent.headers.authorization).toBe(`Bearer ${TEST_KEY}`);
    expect(sent.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(sent.headers['idempotency-key']).toBe(`invoicekit-blik-${payment.token}`);
    expect(readStripeForm(sent.body)).toEqual({
      amount: '184500',
      currency: 'pln',
      allowed_payment_method_types: ['blik'],
      payment_method_data: { type: 'blik', billing_details: { email: 'blik@example.com' } },
      payment_method_options: { blik: { code: '580417' } },
      confirm: 'true',
      description: 'Logo design',
      metadata: { payment_token: payment.token, payment_method: 'blik' },
    });
    // The code went to Stripe once, in the confirmation, and in nothing else; never in the metadata.
    expect(stripe.server.requests.filter((request) => request.body.includes('580417') || JSON.stringify(request.headers).includes('580417'))).toEqual([sent]);
    expect(JSON.stringify(intent.metadata)).not.toContain('580417');

    const delivery = await stripe.approve(intent.id);
    expect(delivery.status).toBe(200);
    const paid = await paymentJson(json.id);
    expect(paid).toMatchObject({ paid: true, provider: 'stripe', provider_status: 'paid', provider_title: intent.id });
    expect(paid.invoice_id).not.toBeNull();
    expect(JSON.stringify(paid)).not.toContain('580417');
    // The same event again settles nothing more, and one e-mail went out.
    expect((await deliver(delivery.payload, stripeSignature(delivery.payload, WEBHOOK_SECRET))).status).toBe(200);
    expect(await paymentJson(json.id)).toEqual(paid);
    const mails = await service.db.query<{ count: number }>('select count(*)::int as count from outbox_messages where invoice_id = $1', [paid.invoice_id]);
    expect(mails[0]!.count).toBe(1);
    // The return address asks Stripe for the intent, and finds it paid.
    expect(await provider.outcome(intent.id, payment)).toBe('paid');
  });

  it('never sends a code twice: a repeated charge is answered from Stripe’s record of the first', async () => {
    const { payment } = await newPayment('twice@example.com');
    const first = await provider.blik!.chargeByCode(payment, '615243');
    const again = await provider.blik!.chargeByCode(payment, '615243');
    expect(again).toEqual(first);
    expect([...stripe.intents.values()].filter((i) => i.metadata.payment_token === payment.token)).toHaveLength(1);
    // Another code for the same payment is refused by Stripe's idempotency check: nothing is charged.
    expect(await provider.blik!.chargeByCode(payment, '615244')).toEqual({ failed: 'provider_error' });
    expect([...stripe.intents.values()].filter((i) => i.metadata.payment_token === payment.token)).toHaveLength(1);
  });

  it('answers a wrong and an expired code as Stripe declines them, at once', async () => {
    const wrong = await newPayment('wrong@example.com');
    const wrongCharge = await provider.blik!.chargeByCode(wrong.payment, '111111');
    const wrongIntent = [...stripe.intents.values()].find((i) => i.metadata.payment_token === wrong.payment.token)!;
    expect(wrongCharge).toEqual({ failed: 'wrong_code', reference: wrongIntent.id });
    expect(wrongIntent).toMatchObject({ status: 'requires_payment_method', last_payment_error: { code: 'payment_method_provider_decline', decline_code: 'code_invalid' } });

    const expired = await newPayment('expired@example.com');
    const expiredCharge = await provider.blik!.chargeByCode(expired.payment, '222222');
    const expiredIntent = [...stripe.intents.values()].find((i) => i.metadata.payment_token === expired.payment.token)!;
    expect(expiredCharge).toEqual({ failed: 'expired_code', reference: expiredIntent.id });
    expect(await paymentJson(wrong.json.id)).toMatchObject({ paid: false, provider_status: null });
  });

  it('ends the payment declined on payment_intent.payment_failed, and refuses forged or altered events', async () => {
    const { json, payment } = await newPayment('declined@example.com');
    const charge = await provider.blik!.chargeByCode(payment, '333333');
    const intent = [...stripe.intents.values()].find((i) => i.metadata.payment_token === payment.token)!;
    expect(charge).toEqual({ reference: intent.id });

    const failed = { ...intent, status: 'requires_payment_method', last_payment_error: { code: 'payment_method_provider_decline', decline_code: 'customer_declined' } };
    const payload = stripe.event('payment_intent.payment_failed', failed);
    const cheaper = stripe.event('payment_intent.payment_failed', { ...failed, amount: 100 });
    for (const [body, signature] of [
      [payload, stripeSignature(payload, 'whsec_someoneElsesSecret000000')],
      [payload.replace('"amount": 184500', '"amount": 100'), stripeSignature(payload, WEBHOOK_SECRET)],
      [cheaper, stripeSignature(cheaper, WEBHOOK_SECRET)],
    ] as const) {
      const response = await deliver(body, signature);
      expect(response.status).toBe(400);
      expect(((await response.json()) as { code: string }).code).toBe('error');
    }
    expect(await paymentJson(json.id)).toMatchObject({ paid: false, provider_status: null });

    const delivery = await stripe.decline(intent.id);
    expect(delivery.status).toBe(200);
    expect(await paymentJson(json.id)).toMatchObject({ paid: false, provider: 'stripe', provider_status: 'declined', provider_title: intent.id, invoice_id: null });
    expect(await provider.outcome(intent.id, payment)).toBe('pending');
  });

  it('waits on a code the bank app never answers, and still settles once when the approval comes late', async () => {
    const { json, payment } = await newPayment('late@example.com');
    const charge = await provider.blik!.chargeByCode(payment, '444444');
    const intent = [...stripe.intents.values()].find((i) => i.metadata.payment_token === payment.token)!;
    expect(charge).toEqual({ reference: intent.id });
    expect(intent.status).toBe('requires_action');
    expect(await paymentJson(json.id)).toMatchObject({ paid: false, provider_status: null });

    expect((await stripe.approve(intent.id)).status).toBe(200);
    const paid = await paymentJson(json.id);
    expect(paid).toMatchObject({ paid: true, provider_status: 'paid' });
    const mails = await service.db.query<{ count: number }>('select count(*)::int as count from outbox_messages where invoice_id = $1', [paid.invoice_id]);
    expect(mails[0]!.count).toBe(1);
  });

  it('records an attempt Stripe let expire as declined', async () => {
    const { json, payment } = await newPayment('expire@example.com');
    await provider.blik!.chargeByCode(payment, '444444');
    const intent = [...stripe.intents.values()].find((i) => i.metadata.payment_token === payment.token)!;
    expect((await stripe.expire(intent.id)).status).toBe(200);
    expect(await paymentJson(json.id)).toMatchObject({ paid: false, provider_status: 'declined' });
  });

  it('delivers the bank app’s answer by itself after the approval time', async () => {
    stripe.approvalMs = 20;
    try {
      const { json, payment } = await newPayment('auto@example.com');
      const delivered = stripe.nextDelivery();
      await provider.blik!.chargeByCode(payment, '777123');
      expect(await delivered).toMatchObject({ type: 'payment_intent.succeeded', status: 200 });
      expect(await paymentJson(json.id)).toMatchObject({ paid: true });
    } finally {
      stripe.approvalMs = null;
    }
  });

  it('ignores payment intent events it did not make, and those of another account', async () => {
    const { json, payment } = await newPayment('foreign@example.com');
    await provider.blik!.chargeByCode(payment, '444444');
    const intent = [...stripe.intents.values()].find((i) => i.metadata.payment_token === payment.token)!;
    const succeeded = { ...intent, status: 'succeeded', amount_received: intent.amount };
    // An intent of a Checkout Session (no BLIK mark) is the session events' business.
    const checkoutIntent = stripe.event('payment_intent.succeeded', { ...succeeded, metadata: { payment_token: payment.token } });
    const answered = await deliver(checkoutIntent, stripeSignature(checkoutIntent, WEBHOOK_SECRET));
    expect(await answered.json()).toEqual({ received: true, ignored: true });
    const other = await secondAccount(service, 'blik-thief');
    expect((await other.put('/account/payments.json', { payments: { provider: 'stripe', stripe: { secret_key: TEST_KEY, webhook_secret: 'whsec_thiefSecret00000000000' } } })).status).toBe(200);
    const stolen = stripe.event('payment_intent.succeeded', succeeded);
    const response = await fetch(`${service.url}/payments/stripe/blik-thief/webhook`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'stripe-signature': stripeSignature(stolen, 'whsec_thiefSecret00000000000') },
      body: stolen,
    });
    expect(await response.json()).toEqual({ received: true, ignored: true });
    expect(await paymentJson(json.id)).toMatchObject({ paid: false });
  });

  it('sends nothing for another currency, and fails without throwing while Stripe is down', async () => {
    const euro = await newPayment('euro@example.com', 'EUR');
    const before = stripe.server.requests.length;
    expect(await provider.blik!.chargeByCode(euro.payment, '777123')).toEqual({ failed: 'provider_error' });
    expect(stripe.server.requests.length).toBe(before);

    const down = await newPayment('down@example.com');
    await stripe.server.stop();
    try {
      expect(await provider.blik!.chargeByCode(down.payment, '777123')).toEqual({ failed: 'provider_error' });
    } finally {
      await stripe.server.start();
    }
  });
});
