import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, type Api, UNAUTHORIZED } from '../helpers/http.js';
import { startTestService, type TestService } from '../helpers/service.js';

/**
 * The service is composed of route groups, each behind its own guards: these tests hold every group
 * to what `app.ts` says of it, over HTTP.
 */
let service: TestService;
let http: Api;
beforeAll(async () => {
  service = await startTestService();
  http = api(service);
});
afterAll(() => service.stop());

const TOO_LARGE = { code: 'error', message: 'The request body is larger than 1 MiB' };

describe('the groups of account operations', () => {
  const groups = [
    '/invoices', '/products', '/clients', '/banking/payments', '/categories', '/warehouses', '/warehouse_documents',
    '/departments', '/webhooks', '/recurrings', '/price_lists', '/warehouse_actions', '/issuers', '/account/ksef', '/account/payments',
  ];

  it('answer 401 with the reference body to a request without the account token, in JSON and XML', async () => {
    for (const path of groups) {
      const reply = await http.raw('GET', `${path}.json`);
      expect(reply.status, path).toBe(401);
      expect(reply.body, path).toEqual(UNAUTHORIZED);
      const xml = await http.raw('GET', `${path}.xml`);
      expect(xml.status, path).toBe(401);
      expect(xml.headers.get('content-type'), path).toMatch(/^application\/xml/);
    }
    // A path under a group that names no route is still the group's: refused before it is looked up.
    expect((await http.raw('GET', '/invoices/1/no-such-thing.json')).status).toBe(401);
    // With the token, every group answers.
    for (const path of groups) expect((await http.get(`${path}.json`)).status, path).toBe(200);
  });

  it('answer 413 with the reference body to a body over 1 MiB, before the token is looked at', async () => {
    const big = JSON.stringify({ product: { name: 'x', description: 'n'.repeat(1024 * 1024) } });
    for (const path of ['/products.json', '/invoices.json', '/webhooks.json']) {
      const reply = await http.raw('POST', path, { headers: { 'content-type': 'application/json' }, body: big });
      expect(reply.status, path).toBe(413);
      expect(reply.body, path).toEqual(TOO_LARGE);
    }
  });

  it('let a route that takes files read a larger body than its group, and only that route', async () => {
    const created = await http.post('/invoices.json', {
      invoice: { kind: 'vat', buyer_name: 'Ada Ltd', positions: [{ name: 'Work', quantity: 1, total_price_gross: '123.00', tax: '23' }] },
    });
    expect(created.status).toBe(201);
    const pdf = Buffer.alloc(1.5 * 1024 * 1024, 0x20);
    pdf.write('%PDF-1.4');
    const form = new FormData();
    form.append('api_token', service.apiToken);
    form.append('file', new Blob([new Uint8Array(pdf)]), 'contract.pdf');
    const attached = await http.raw('POST', `/invoices/${created.body.id}/add_attachment.json`, { body: form });
    expect(attached.status).toBe(201);
    // The same 1.5 MiB to the invoice itself is over the group's limit.
    const update = await http.raw('PUT', `/invoices/${created.body.id}.json?api_token=${service.apiToken}`, { body: form });
    expect(update.status).toBe(413);
    expect(update.body).toEqual(TOO_LARGE);
  });

  it('claim an Idempotency-Key on a POST once per account', async () => {
    const send = () =>
      http.raw('POST', '/categories.json', {
        headers: { 'content-type': 'application/json', 'idempotency-key': 'composition-1' },
        body: JSON.stringify({ api_token: service.apiToken, category: { name: 'Once' } }),
      });
    const first = await send();
    const again = await send();
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.body.id).toBe(first.body.id);
    const names = ((await http.get('/categories.json')).body as { name: string }[]).map((category) => category.name);
    expect(names.filter((name) => name === 'Once')).toHaveLength(1);
  });
});

describe('the public groups', () => {
  it('answer without the account token, each checking its own capability', async () => {
    expect((await http.raw('GET', '/healthz')).status).toBe(200);
    expect((await http.raw('GET', '/openapi.json')).status).toBe(200);
    // A token that names nothing is a 404, not a request for the account's token.
    for (const path of ['/invoice/no-such-token', '/banking/payments/pay/no-such-token', '/a/no-such-shop/p/no-such-token']) {
      expect((await http.raw('GET', path)).status, path).toBe(404);
    }
    // The integration operations want the integration token, not an account's.
    expect((await http.raw('POST', '/account.json', { headers: { 'content-type': 'application/json' }, body: '{}' })).status).toBe(401);
    // A provider's notification is checked by its signature.
    const notify = await http.raw('POST', '/payments/stripe/no-such-shop/webhook', { headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(notify.status).not.toBe(401);
    expect(notify.status).toBeLessThan(500);
  });

  it('read bodies under their own 256 KiB limit', async () => {
    const big = 'n'.repeat(256 * 1024 + 1);
    for (const path of ['/invoice/payment/no-such-token', '/payments/przelewy24/no-such-shop/notify', '/no-such-page']) {
      const reply = await http.raw('POST', path, { headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: `note=${big}` });
      expect(reply.status, path).toBe(413);
      expect(reply.body, path).toEqual({ code: 'error', message: 'The request body is larger than 256 KiB' });
    }
  });
});
