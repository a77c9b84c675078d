import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../helpers/service.js';

let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(() => service.stop());

/** Clients built on Rails conventions send form-encoded bodies; the service reads them like JSON. */
describe('form-encoded bodies', () => {
  it('creates an invoice from Rails-style fields with repeated [] positions', async () => {
    const body = new URLSearchParams();
    body.append('api_token', service.apiToken);
    body.append('invoice[kind]', 'vat');
    body.append('invoice[buyer_name]', 'Client1 SA');
    for (const [name, tax, gross, quantity] of [['Produkt A1', '23', '10,23', '1'], ['Produkt A2', '0', '50', '2']]) {
      body.append('invoice[positions][][name]', name!);
      body.append('invoice[positions][][tax]', tax!);
      body.append('invoice[positions][][total_price_gross]', gross!);
      body.append('invoice[positions][][quantity]', quantity!);
    }
    const response = await fetch(`${service.url}/invoices.json`, { method: 'POST', body });
    expect(response.status).toBe(201);
    const invoice = (await response.json()) as { price_net: string; price_tax: string; price_gross: string; positions: { name: string }[] };
    expect([invoice.price_net, invoice.price_tax, invoice.price_gross]).toEqual(['58.32', '1.91', '60.23']);
    expect(invoice.positions.map((p) => p.name)).toEqual(['Produkt A1', 'Produkt A2']);
  });

  it('reads indexed fields and names what is missing', async () => {
    const body = new URLSearchParams({
      api_token: service.apiToken,
      'invoice[buyer_name]': 'Client2 SA',
      'invoice[positions][1][name]': 'Second',
      'invoice[positions][1][total_price_gross]': '2',
      'invoice[positions][0][name]': 'First',
      'invoice[positions][0][total_price_gross]': '1',
    });
    const created = (await (await fetch(`${service.url}/invoices.json`, { method: 'POST', body })).json()) as { positions: { name: string }[] };
    expect(created.positions.map((p) => p.name)).toEqual(['First', 'Second']);
    const missing = await fetch(`${service.url}/invoices.json`, {
      method: 'POST',
      body: new URLSearchParams({ api_token: service.apiToken, 'invoice[positions][0][name]': 'x', 'invoice[positions][0][total_price_gross]': '1' }),
    });
    expect(missing.status).toBe(422);
    expect(await missing.json()).toEqual({ code: 'error', message: { buyer_name: ["can't be blank"] } });
  });
});
