import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issuePortalToken } from '../../src/bff/index.js';
import { bearer, json, PORTAL_SECRET, PRODUCT_TOKEN, SHOP_ORIGIN, startService, startTestBff, type Api, type Service, type TestBff } from './support.js';

/** The BFF's part of the security review: prototype keys in checkout, and buyers capturing invoices. */
let service: Service;
let api: Api;
let bff: TestBff;

beforeAll(async () => {
  ({ service, api } = await startService());
  await api.products.create({ name: 'E-book', price_net: '40.65', tax: '23', currency: 'PLN', token: PRODUCT_TOKEN });
  bff = await startTestBff(service, { signup: { portalToken: {} } });
}, 60_000);

afterAll(async () => {
  await bff?.close();
  await service?.stop();
});

const buyer = { email: 'buyer@example.com', name: 'Buyer Ltd' };
const checkout = (body: string) =>
  fetch(`${bff.base}/checkout`, { method: 'POST', headers: { 'content-type': 'application/json', origin: SHOP_ORIGIN }, body });

async function portalNumbers(token: string): Promise<string[]> {
  const response = await fetch(`${bff.base}/invoices?per_page=100`, { headers: { ...bearer(token), origin: SHOP_ORIGIN } });
  expect(response.status).toBe(200);
  return ((await json(response)) as { data: { number: string }[] }).data.map((invoice) => invoice.number);
}

describe('checkout bodies with prototype keys', () => {
  it('answers 400 to a top-level or nested "__proto__" or "constructor", never 500', async () => {
    const base = { product: PRODUCT_TOKEN, buyer, returnUrl: `${SHOP_ORIGIN}/thanks` };
    const bodies = [
      `{"__proto__":{"x":1},${JSON.stringify(base).slice(1)}`,
      `{"constructor":{"prototype":{"x":1}},${JSON.stringify(base).slice(1)}`,
      JSON.stringify({ ...base, buyer: { ...buyer, constructor: 'x' } }),
      `{"prototype":1}`,
    ];
    for (const body of bodies) {
      const response = await checkout(body);
      expect(response.status, body).toBe(400);
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect((await json(response)).error.code).toBe('bad_request');
    }
    expect(({} as Record<string, unknown>).x).toBeUndefined();
    // A well-formed checkout still goes through.
    expect((await checkout(JSON.stringify(base))).status).toBe(201);
  });
});

describe('NUL characters', () => {
  it('are refused with 422 naming the field, in a query as in a body, and nothing is made of them', async () => {
    const token = await issuePortalToken({ clientId: (await api.clients.create({ name: 'Nul Ltd', email: 'nul@example.com' })).id, scopes: ['invoices:read', 'client:write'], ttlSeconds: 600 }, PORTAL_SECRET);
    const before = (await api.invoices.list({ period: 'all', per_page: 100 })).length;
    const fieldsOf = async (response: Response) => {
      expect(response.status).toBe(422);
      const body = await json(response);
      expect(body.error.code).toBe('validation_failed');
      return body.error.fields as Record<string, string[]>;
    };
    const list = await fetch(`${bff.base}/invoices?search=A%00B`, { headers: { ...bearer(token), origin: SHOP_ORIGIN } });
    expect(await fieldsOf(list)).toEqual({ search: ['must not contain NUL characters'] });
    const bought = await checkout(JSON.stringify({ product: PRODUCT_TOKEN, buyer: { ...buyer, name: 'Buyer\u0000Ltd' }, returnUrl: `${SHOP_ORIGIN}/thanks` }));
    expect(await fieldsOf(bought)).toEqual({ 'buyer.name': ['must not contain NUL characters'] });
    const changed = await fetch(`${bff.base}/client`, {
      method: 'PUT',
      headers: { ...bearer(token), origin: SHOP_ORIGIN, 'content-type': 'application/json' },
      body: JSON.stringify({ city: 'Kraków\u0000' }),
    });
    expect(await fieldsOf(changed)).toEqual({ city: ['must not contain NUL characters'] });
    expect((await api.invoices.list({ period: 'all', per_page: 100 })).length).toBe(before);
  });
});

describe('characters XML and KSeF forbid', () => {
  const forbidden = ['must not contain control characters, U+FFFE, U+FFFF or unpaired surrogates (XML and KSeF cannot carry them)'];
  it('are refused with 422 naming the field at checkout, sign-up and a customer’s update, and nothing is made of them', async () => {
    const token = await issuePortalToken({ clientId: (await api.clients.create({ name: 'Ctrl Ltd', email: 'ctrl@example.com' })).id, scopes: ['invoices:read', 'client:write'], ttlSeconds: 600 }, PORTAL_SECRET);
    const before = (await api.invoices.list({ period: 'all', per_page: 100 })).length;
    const fieldsOf = async (response: Response) => {
      expect(response.status).toBe(422);
      const body = await json(response);
      expect(body.error.code).toBe('validation_failed');
      return body.error.fields as Record<string, string[]>;
    };
    const bought = await checkout(JSON.stringify({ product: PRODUCT_TOKEN, buyer: { ...buyer, name: 'Buyer\u0001Ltd', city: 'Kraków\uFFFE' }, returnUrl: `${SHOP_ORIGIN}/thanks` }));
    expect(await fieldsOf(bought)).toEqual({ 'buyer.name': forbidden, 'buyer.city': forbidden });
    const signedUp = await fetch(`${bff.base}/clients`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: SHOP_ORIGIN },
      body: `{"email":"lone@example.com","name":"Lone \\ud800 surrogate"}`,
    });
    expect(await fieldsOf(signedUp)).toEqual({ name: forbidden });
    const changed = await fetch(`${bff.base}/client`, {
      method: 'PUT',
      headers: { ...bearer(token), origin: SHOP_ORIGIN, 'content-type': 'application/json' },
      body: JSON.stringify({ street: 'ul. Prosta\uFFFF 1' }),
    });
    expect(await fieldsOf(changed)).toEqual({ street: forbidden });
    expect((await api.invoices.list({ period: 'all', per_page: 100 })).length).toBe(before);
    expect((await api.clients.list({ per_page: 100 })).map((client) => client.name)).not.toContain('Lone \ufffd surrogate');
  });
});

describe('a customer cannot capture other buyers’ invoices', () => {
  it('keeps a claimed tax number and an anonymous purchase with the customer’s e-mail out of their portal', async () => {
    const signup = await fetch(`${bff.base}/clients`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: SHOP_ORIGIN },
      body: JSON.stringify({ name: 'Mallory', email: 'mallory@example.com' }),
    });
    expect(signup.status).toBe(201);
    const { portalToken } = (await json(signup)) as { portalToken: string; client: { id: number } };
    // Mallory claims a company's public tax number (NIP) through the portal.
    const claim = await fetch(`${bff.base}/client`, {
      method: 'PUT',
      headers: { ...bearer(portalToken), 'content-type': 'application/json', origin: SHOP_ORIGIN },
      body: JSON.stringify({ tax_no: '5252248481' }),
    });
    expect(claim.status).toBe(200);
    // The company's next purchase, invoiced by the shop's backend without a client_id.
    const companyInvoice = await api.invoices.create({
      kind: 'vat',
      buyer_name: 'Big Company S.A.',
      buyer_tax_no: '5252248481',
      positions: [{ name: 'Licence', tax: 23, total_price_gross: '1230.00', quantity: 1 }],
    });
    // Someone buys anonymously, typing Mallory's e-mail, and pays.
    const bought = await checkout(JSON.stringify({ product: PRODUCT_TOKEN, buyer: { email: 'mallory@example.com', name: 'Not Mallory' }, returnUrl: `${SHOP_ORIGIN}/thanks` }));
    expect(bought.status).toBe(201);
    const payUrl = ((await json(bought)) as { redirectUrl: string }).redirectUrl;
    expect((await fetch(payUrl, { method: 'POST', redirect: 'manual' })).status).toBe(303);

    const mine = await portalNumbers(portalToken);
    expect(mine).not.toContain(companyInvoice.number);
    expect(mine).toEqual([]);
  });

  it('still shows a customer the invoices the shop issued to them by client_id', async () => {
    const client = await api.clients.create({ name: 'Known Customer', email: 'known@example.com' });
    const issued = await api.invoices.create({
      kind: 'vat',
      client_id: client.id,
      positions: [{ name: 'Service', tax: 23, total_price_gross: '10.00', quantity: 1 }],
    });
    const token = await issuePortalToken({ clientId: client.id, ttlSeconds: 600 }, PORTAL_SECRET);
    expect(await portalNumbers(token)).toEqual([issued.number]);
  });
});
