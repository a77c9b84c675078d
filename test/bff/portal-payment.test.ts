import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issuePortalToken } from '../../src/bff/index.js';
import { bearer, json, PORTAL_SECRET, seed, SHOP_ORIGIN, startService, startTestBff, type Api, type Seed, type Service, type TestBff } from './support.js';

let service: Service;
let api: Api;
let data: Seed;
let bff: TestBff;
let tokenA: string;

beforeAll(async () => {
  ({ service, api } = await startService());
  data = await seed(api);
  bff = await startTestBff(service);
  tokenA = await issuePortalToken({ clientId: data.clientA, ttlSeconds: 600 }, PORTAL_SECRET);
}, 60_000);

afterAll(async () => {
  await bff?.close();
  await service?.stop();
});

const pay = (id: number, body: unknown, token = tokenA) =>
  fetch(`${bff.base}/invoices/${id}/payment`, { method: 'POST', headers: { ...bearer(token), 'content-type': 'application/json' }, body: JSON.stringify(body) });

describe('POST /bff/invoices/:id/payment', () => {
  it('refuses a return address outside the allowed origins, or not http(s)', async () => {
    const id = data.invoices['ALPHA-003']!.id;
    for (const [returnUrl, message] of [
      ['https://evil.example/portal', 'must point to an allowed origin'],
      ['javascript:alert(1)', 'must be an http(s) URL'],
      [`${SHOP_ORIGIN}.evil.example/portal`, 'must point to an allowed origin'],
    ]) {
      const response = await pay(id, { returnUrl });
      expect(response.status, returnUrl).toBe(422);
      expect((await json(response)).error.fields).toEqual({ returnUrl: [message] });
    }
    const cancel = await pay(id, { returnUrl: `${SHOP_ORIGIN}/portal`, cancelUrl: 'https://evil.example/' });
    expect((await json(cancel)).error.fields).toEqual({ cancelUrl: ['must point to an allowed origin'] });
  });

  it('sends the customer to pay what is left and brings them back to the host page, with the invoice paid', async () => {
    const invoice = data.invoices['ALPHA-002']!;
    const returnUrl = `${SHOP_ORIGIN}/portal?tab=invoices`;
    const response = await pay(invoice.id, { returnUrl });
    expect(response.status).toBe(201);
    const body = await json(response);
    expect(body).toMatchObject({ amount: '210.5', currency: 'PLN' });
    expect(body.redirectUrl.startsWith(`${service.url}/banking/payments/pay/`)).toBe(true);
    // A second click gets the same payment, not a second one to pay.
    expect((await json(await pay(invoice.id, { returnUrl }))).redirectUrl).toBe(body.redirectUrl);

    const page = await fetch(body.redirectUrl);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('210.50');
    const paid = await fetch(body.redirectUrl, { method: 'POST', redirect: 'manual' });
    expect(paid.status).toBe(303);
    expect(paid.headers.get('location')).toBe(returnUrl);
    expect((await api.invoices.get(invoice.id)).status).toBe('paid');

    const again = await pay(invoice.id, { returnUrl });
    expect(again.status).toBe(409);
    expect((await json(again)).error.code).toBe('nothing_to_pay');
  });

  it('answers an attempt the page asks how the payment ended; a declined or cancelled one is paid with a new payment', async () => {
    const invoice = data.invoices['ALPHA-003']!;
    const returnUrl = `${SHOP_ORIGIN}/portal`;
    const outcome = async (attempt: string) => (await json(await fetch(`${bff.base}/checkout/${encodeURIComponent(attempt)}`))).status;
    const first = await json(await pay(invoice.id, { returnUrl }));
    expect(typeof first.attempt).toBe('string');
    expect(await outcome(first.attempt)).toBe('pending');

    const declined = await fetch(first.redirectUrl, { method: 'POST', body: new URLSearchParams({ choice: 'decline' }), redirect: 'manual' });
    expect(declined.status).toBe(303);
    expect(await outcome(first.attempt)).toBe('declined');

    const second = await json(await pay(invoice.id, { returnUrl }));
    expect(second.redirectUrl).not.toBe(first.redirectUrl);
    // A retried click after the decline gets the same new payment, not a third one.
    expect((await json(await pay(invoice.id, { returnUrl }))).redirectUrl).toBe(second.redirectUrl);
    await fetch(second.redirectUrl, { method: 'POST', body: new URLSearchParams({ choice: 'cancel' }), redirect: 'manual' });
    expect(await outcome(second.attempt)).toBe('cancelled');

    const third = await json(await pay(invoice.id, { returnUrl }));
    expect(third.redirectUrl).not.toBe(second.redirectUrl);
    await fetch(third.redirectUrl, { method: 'POST', redirect: 'manual' });
    expect(await outcome(third.attempt)).toBe('paid');
    expect((await api.invoices.get(invoice.id)).status).toBe('paid');
    expect((await fetch(`${bff.base}/checkout/${first.attempt}x`)).status).toBe(404);
  });

  it('answers 404 for another customer’s invoice and 401 without a token', async () => {
    expect((await pay(data.invoices['BETA-001']!.id, { returnUrl: `${SHOP_ORIGIN}/` })).status).toBe(404);
    expect((await pay(data.invoices['ALPHA-005']!.id, { returnUrl: `${SHOP_ORIGIN}/` })).status).toBe(404);
    const anonymous = await fetch(`${bff.base}/invoices/${data.invoices['ALPHA-003']!.id}/payment`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ returnUrl: `${SHOP_ORIGIN}/` }),
    });
    expect(anonymous.status).toBe(401);
  });
});
