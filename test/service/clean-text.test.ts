import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEXT_PROBLEM } from '../../src/kernel/validation/text.js';
import { startTestService, type TestService } from '../helpers/service.js';
import { api, type Api } from '../helpers/http.js';

/** Characters XML and KSeF forbid are refused with a 422 naming the field, on every way in. */
let service: TestService;
let http: Api;
const SHOP = 'https://shop.example';
const FORBIDDEN = { code: 'error', message: {} as Record<string, string[]> };
const refused = (field: string) => ({ ...FORBIDDEN, message: { [field]: [TEXT_PROBLEM.forbidden] } });

beforeAll(async () => {
  service = await startTestService();
  http = api(service);
  expect((await http.post('/products.json', { product: { name: 'Logo design', price_gross: '1845.00', tax: '23', token: 'logo-design' } })).status).toBe(201);
  const departments = (await http.get('/departments.json')).body as { id: number }[];
  expect((await http.put(`/departments/${departments[0]!.id}.json`, { department: { widget_origins: [SHOP] } })).status).toBe(200);
});
afterAll(() => service.stop());

async function clientNames(): Promise<string[]> {
  return ((await http.get('/clients.json', { per_page: 100 })).body as { name: string }[]).map((client) => client.name);
}

describe('characters XML and KSeF forbid', () => {
  it('are refused in a JSON body, naming the field, and nothing is stored', async () => {
    const control = await http.post('/clients.json', { client: { name: 'Buyer\u0001Ltd' } });
    expect([control.status, control.body]).toEqual([422, refused('name')]);
    const nonCharacter = await http.post('/invoices.json', {
      invoice: { buyer_name: 'Acme', positions: [{ name: 'Usługa\uFFFE', tax: 23, total_price_gross: 10, quantity: 1 }] },
    });
    expect([nonCharacter.status, nonCharacter.body]).toEqual([422, refused('positions.0.name')]);
    const lone = await http.raw('POST', '/clients.json', {
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: `{"api_token":"${http.token}","client":{"name":"Lone \\ud800 surrogate"}}`,
    });
    expect([lone.status, lone.body]).toEqual([422, refused('name')]);
    expect(await clientNames()).not.toContain('Lone \ufffd surrogate');
    // Tab, line breaks and every script still go through.
    const fine = await http.post('/clients.json', { client: { name: 'Zażółć\tgęślą', street: 'ul. Długa 1\r\nlok. 2' } });
    expect([fine.status, fine.body.name, fine.body.street]).toEqual([201, 'Zażółć\tgęślą', 'ul. Długa 1\r\nlok. 2']);
  });

  it('are refused in a form body and in an XML body', async () => {
    const form = await http.raw('POST', '/clients.json', {
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: `api_token=${http.token}&client[name]=Form%01Buyer`,
    });
    expect([form.status, form.body]).toEqual([422, refused('name')]);
    const xml = await http.raw('POST', '/clients.xml', {
      headers: { 'content-type': 'application/xml', accept: 'application/json', authorization: `Bearer ${http.token}` },
      body: '<client><name>Xml\uFFFFBuyer</name></client>',
    });
    expect(xml.status).toBeGreaterThanOrEqual(400);
    expect(xml.status).toBeLessThan(500);
    expect((await clientNames()).filter((name) => name.includes('Buyer'))).toEqual([]);
  });

  it('are refused from an anonymous buyer at the widget checkout', async () => {
    const before = (await http.get('/banking/payments.json', { per_page: 100 })).body as unknown[];
    const response = await fetch(`${service.url}/a/${service.prefix}/widget/checkout.json`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: SHOP },
      body: JSON.stringify({ product: 'logo-design', buyer: { email: 'buyer@example.com', name: 'Anon\u0001ymous', city: 'Kraków\uFFFE' }, returnUrl: `${SHOP}/p/1` }),
    });
    expect(response.status).toBe(422);
    expect(await response.json()).toEqual({ code: 'error', message: { name: [TEXT_PROBLEM.forbidden], city: [TEXT_PROBLEM.forbidden] } });
    expect(((await http.get('/banking/payments.json', { per_page: 100 })).body as unknown[]).length).toBe(before.length);
  });
});
