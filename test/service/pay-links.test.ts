import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAY_LINK_RATE_LIMIT } from '../../src/service/public/pages.js';
import { api, type Api } from '../helpers/http.js';
import { startTestService, type TestService } from '../helpers/service.js';
import { StripeStandIn } from './support/stripe-standin.js';

/**
 * `POST /invoice/payment/<token>` (an invoice's Pay, open to anyone with the link): pressing it again
 * reuses the pending payment, and one address may press it only so often.
 */
const TEST_KEY = 'sk_test_51StandInKey000000000000';

let stripe: StripeStandIn;
let service: TestService;
let shop: Api;

beforeAll(async () => {
  stripe = new StripeStandIn([TEST_KEY]);
  await stripe.server.start();
  process.env.INVOICEKIT_STRIPE_API_URL = stripe.url;
  service = await startTestService();
  shop = api(service);
  const reply = await shop.put('/account/payments.json', { payments: { provider: 'stripe', stripe: { secret_key: TEST_KEY, webhook_secret: 'whsec_standin' } } });
  expect(reply.status).toBe(200);
});
afterAll(async () => {
  await service?.stop();
  await stripe?.server.stop();
  delete process.env.INVOICEKIT_STRIPE_API_URL;
});

async function invoice(gross: string): Promise<{ id: number; token: string }> {
  const created = await shop.post('/invoices.json', {
    invoice: { kind: 'vat', buyer_name: 'Acme Sp. z o.o.', buyer_email: 'pay@example.com', positions: [{ name: 'Audit', quantity: '1', total_price_gross: gross, tax: '23' }] },
  });
  expect(created.status).toBe(201);
  return created.body as { id: number; token: string };
}

/** Presses Pay from `localAddress` (other loopback addresses stand in for other clients). */
function press(token: string, localAddress = '127.0.0.1'): Promise<{ status: number; location: string | undefined; retryAfter: string | undefined }> {
  const url = new URL(`${service.url}/invoice/payment/${token}`);
  return new Promise((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, path: url.pathname, method: 'POST', localAddress, headers: { 'content-length': '0' } }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode!, location: res.headers.location, retryAfter: res.headers['retry-after'] as string | undefined }));
    });
    req.on('error', reject);
    req.end();
  });
}

async function paymentsOf(invoiceId: number): Promise<{ price: string; paid: boolean; payment_url: string }[]> {
  return (await shop.get('/banking/payments.json', { invoice_id: invoiceId, per_page: 100 })).body as { price: string; paid: boolean; payment_url: string }[];
}

describe('an invoice’s pay link', () => {
  it('reuses the pending payment for the same invoice and amount, and makes a new one when the amount changed', async () => {
    const { id, token } = await invoice('615.00');
    const first = await press(token);
    const second = await press(token);
    const third = await press(token);
    expect([first.status, second.status, third.status]).toEqual([303, 303, 303]);
    const payments = await paymentsOf(id);
    expect(payments.map((p) => [p.price, p.paid])).toEqual([['615.0', false]]);
    const paymentToken = payments[0]!.payment_url.split('/').at(-1)!;
    // Every session the presses opened at the provider is for that one payment.
    const sessions = [...stripe.sessions.values()].filter((s) => s.customer_email === 'pay@example.com');
    expect(new Set(sessions.map((s) => s.client_reference_id))).toEqual(new Set([paymentToken]));
    expect(third.location).toBe(sessions.at(-1)!.url);

    // A part paid in between: what is left is another amount, so another payment.
    expect((await shop.post('/banking/payments.json', { banking_payment: { name: 'Deposit', price: '15.00', invoice_id: id, paid: true, kind: 'api' } })).status).toBe(201);
    expect((await press(token)).status).toBe(303);
    expect((await paymentsOf(id)).map((p) => [p.price, p.paid]).sort()).toEqual([['15.0', true], ['600.0', false], ['615.0', false]]);
  });

  it(`is pressed at most ${PAY_LINK_RATE_LIMIT.limit} times in ${PAY_LINK_RATE_LIMIT.windowMs / 60_000} minutes per address; others still can`, async () => {
    const { id, token } = await invoice('100.00');
    // The first test pressed four times from this address.
    const statuses: number[] = [];
    for (let i = 4; i < PAY_LINK_RATE_LIMIT.limit; i += 1) statuses.push((await press(token)).status);
    expect(statuses.every((status) => status === 303)).toBe(true);
    const refused = await press(token);
    expect(refused.status).toBe(429);
    expect(Number(refused.retryAfter)).toBeGreaterThan(0);
    expect(Number(refused.retryAfter)).toBeLessThanOrEqual(600);
    expect((await press(token, '127.0.0.2')).status).toBe(303);
    expect((await paymentsOf(id)).map((p) => [p.price, p.paid])).toEqual([['100.0', false]]);
  });
});
