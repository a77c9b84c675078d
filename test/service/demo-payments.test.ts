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

it('offers BLIK on the demo shop’s products in złoty, with the test codes on the checkout page', async () => {
  const products = (await api(service).get('/products.json', { per_page: 100 })).body as { token: string; currency: string }[];
  const pln = products.find((product) => product.currency === 'PLN')!;
  const eur = products.find((product) => product.currency === 'EUR')!;
  const widget = (token: string) => fetch(`${service.url}/a/${service.prefix}/widget/products/${token}.json`).then((response) => response.json() as Promise<{ blik: boolean }>);
  expect((await widget(pln.token)).blik).toBe(true);
  expect((await widget(eur.token)).blik).toBe(false);
  const created = await fetch(`${service.url}/a/${service.prefix}/widget/checkout.json`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ product: pln.token, lang: 'en', buyer: { email: 'demo-blik@example.com', name: 'Demo Buyer' } }),
  });
  const { redirectUrl } = (await created.json()) as { redirectUrl: string };
  const page = await (await fetch(redirectUrl)).text();
  expect(page).toContain('value="blik">Pay with BLIK</button>');
  expect(page).toContain('Test codes: 777123 is approved, 111111 is a wrong code, 222222 an expired one, 333333 is declined in the bank app and 444444 never answered.');
});
