import { afterAll, beforeAll, expect, it } from 'vitest';
import { api } from '../helpers/http.js';
import { startTestService, type TestService } from '../helpers/service.js';

/**
 * The demo (`npm start`) runs the seeded account with `--test-payments` and chooses no provider: it
 * stays on the test provider, whose Pay and Decline are on the service's checkout page.
 */
let service: TestService;
beforeAll(async () => {
  service = await startTestService({ seed: true, testPayments: true });
});
afterAll(() => service.stop());

it('keeps the seeded demo account on the test provider, in test mode, paid on the checkout page', async () => {
  const demo = api(service);
  expect((await demo.get('/account/payments.json')).body.payments).toMatchObject({ provider: 'test', default: true, test_mode: true });
  const [product] = (await demo.get('/products.json', { per_page: 1 })).body as { token: string }[];
  const shown = await (await fetch(`${service.url}/a/${service.prefix}/widget/products/${product!.token}.json`)).json();
  expect(shown).toMatchObject({ available: true, test_mode: true });
  const created = await fetch(`${service.url}/a/${service.prefix}/widget/checkout.json`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: 'https://shop.example' },
    body: JSON.stringify({ product: product!.token, buyer: { email: 'demo-buyer@example.com', name: 'Demo Buyer' } }),
  });
  expect(created.status).toBe(201);
  const { attempt, redirectUrl, test_mode } = (await created.json()) as { attempt: string; redirectUrl: string; test_mode: boolean };
  expect(test_mode).toBe(true);
  expect(redirectUrl).toBe(`${service.url}/banking/payments/pay/${attempt}`);
  const page = await (await fetch(redirectUrl)).text();
  expect(page).toContain('name="choice" value="decline"');
});
