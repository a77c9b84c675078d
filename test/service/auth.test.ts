import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../helpers/service.js';
import { addUser, api, type Api, basicHeader, NOT_FOUND, secondAccount, UNAUTHORIZED } from '../helpers/http.js';

let service: TestService;
let http: Api;

beforeAll(async () => {
  service = await startTestService();
  http = api(service);
  await addUser(service, 'owner', 'correct horse battery staple');
});
afterAll(() => service.stop());

const invoiceXml = '<invoice><buyer_name>Basic Buyer</buyer_name><positions><position><name>A</name><tax>23</tax><total_price_gross>12.3</total_price_gross><quantity>1</quantity></position></positions></invoice>';

describe('authentication (spec §5)', () => {
  it('takes api_token from the query for GET and DELETE', async () => {
    expect((await http.get('/invoices.json')).status).toBe(200);
    const client = await http.post('/clients.json', { client: { name: 'To delete' } });
    expect((await http.delete(`/clients/${client.body.id}.json`)).status).toBe(200);
  });

  it('answers 401 with the reference body when the token is missing or wrong', async () => {
    for (const path of ['/invoices.json', '/invoices/1.json', '/products.json', '/clients.json', '/banking/payments.json', '/banking/payment/1.json',
      '/categories.json', '/warehouses.json', '/warehouse_documents.json', '/departments.json']) {
      const missing = await http.get(path, {}, { token: null });
      expect([path, missing.status, missing.body]).toEqual([path, 401, UNAUTHORIZED]);
      const wrong = await http.get(path, {}, { token: 'not-a-token' });
      expect([path, wrong.status, wrong.body]).toEqual([path, 401, UNAUTHORIZED]);
    }
    const deleted = await http.delete('/clients/1.json', {}, { token: 'nope' });
    expect(deleted.status).toBe(401);
    expect(deleted.body).toEqual(UNAUTHORIZED);
    const empty = await http.get('/invoices.json', {}, { token: '' });
    expect(empty.status).toBe(401);
  });

  it('answers the 401 in XML for .xml paths', async () => {
    const reply = await http.get('/invoices.xml', {}, { token: null });
    expect(reply.status).toBe(401);
    expect(reply.headers.get('content-type')).toMatch(/^application\/xml/);
    expect(reply.body).toEqual(UNAUTHORIZED);
  });

  it('takes api_token at the top of JSON bodies for POST and PUT, not inside the wrapper', async () => {
    const created = await http.post('/clients.json', { client: { name: 'Top level' } });
    expect(created.status).toBe(201);
    const updated = await http.put(`/clients/${created.body.id}.json`, { client: { name: 'Top level 2' } });
    expect(updated.status).toBe(200);
    const inside = await http.post('/clients.json', { client: { name: 'Inside', api_token: http.token } }, { token: null });
    expect(inside.status).toBe(401);
    expect(inside.body).toEqual(UNAUTHORIZED);
    const numeric = await http.post('/clients.json', { api_token: 12345, client: { name: 'Numeric token' } }, { token: null });
    expect(numeric.status).toBe(401);
    const wrong = await http.put(`/clients/${created.body.id}.json`, { client: { name: 'Hijack' } }, { token: 'wrong' });
    expect(wrong.status).toBe(401);
    expect((await http.get(`/clients/${created.body.id}.json`)).body.name).toBe('Top level 2');
  });

  it('takes Authorization: Bearer for XML bodies', async () => {
    const created = await http.postXml('/invoices.xml', invoiceXml);
    expect(created.status, created.text).toBe(201);
    const none = await http.postXml('/invoices.xml', invoiceXml, { token: null });
    expect(none.status).toBe(401);
    expect(none.headers.get('content-type')).toMatch(/^application\/xml/);
    expect(none.body).toEqual(UNAUTHORIZED);
    expect((await http.postXml('/invoices.xml', invoiceXml, { token: 'wrong' })).status).toBe(401);
  });

  it('takes Basic login:password for XML creation', async () => {
    const created = await http.postXml('/invoices.xml', invoiceXml, { basic: { login: 'owner', password: 'correct horse battery staple' } });
    expect(created.status, created.text).toBe(201);
    expect(created.body.buyer_name).toBe('Basic Buyer');
    // The invoice belongs to the user's account.
    expect((await http.get(`/invoices/${created.body.id}.json`)).status).toBe(200);
    const byEmail = await http.postXml('/invoices.xml', invoiceXml, { basic: { login: 'owner@example.com', password: 'correct horse battery staple' } });
    expect(byEmail.status).toBe(201);

    const wrongPassword = await http.postXml('/invoices.xml', invoiceXml, { basic: { login: 'owner', password: 'Correct horse battery staple' } });
    expect(wrongPassword.status).toBe(401);
    expect(wrongPassword.body).toEqual(UNAUTHORIZED);
    expect((await http.postXml('/invoices.xml', invoiceXml, { basic: { login: 'nobody', password: 'x' } })).status).toBe(401);
    const garbage = await http.raw('POST', '/invoices.xml', { headers: { 'content-type': 'application/xml', authorization: 'Basic %%%not-base64' }, body: invoiceXml });
    expect(garbage.status).toBe(401);
    const noColon = await http.raw('POST', '/invoices.xml', { headers: { 'content-type': 'application/xml', authorization: `Basic ${Buffer.from('owner').toString('base64')}` }, body: invoiceXml });
    expect(noColon.status).toBe(401);
    expect(basicHeader('a', 'b')).toBe('Basic YTpi');
  });
});

describe('accounts are isolated', () => {
  let other: Api;
  const mine: Record<string, { read: string; write?: string; wrapper: string; body: Record<string, unknown> }> = {};

  beforeAll(async () => {
    other = await secondAccount(service, 'intruder');
    const product = await http.post('/products.json', { product: { name: 'Mine', price_net: 10 } });
    const client = await http.post('/clients.json', { client: { name: 'My client', external_id: 'mine-1' } });
    const invoice = await http.post('/invoices.json', { invoice: { client_id: client.body.id, oid: 'mine-oid', positions: [{ product_id: product.body.id, quantity: 2 }] } });
    const payment = await http.post('/banking/payments.json', { banking_payment: { name: 'Mine', price: 1, invoice_id: invoice.body.id, paid: true, kind: 'api' } });
    const category = await http.post('/categories.json', { category: { name: 'Mine' } });
    const warehouse = await http.post('/warehouses.json', { warehouse: { name: 'Mine' } });
    const document = await http.post('/warehouse_documents.json', {
      warehouse_document: { kind: 'pz', warehouse_id: String(warehouse.body.id), warehouse_actions: [{ product_id: String(product.body.id), quantity: 5 }] },
    });
    const department = (await http.get('/departments.json')).body[0];
    for (const reply of [product, client, invoice, payment, category, warehouse, document]) expect(reply.status, reply.text).toBe(201);
    Object.assign(mine, {
      product: { read: `/products/${product.body.id}`, wrapper: 'product', body: product.body },
      client: { read: `/clients/${client.body.id}`, wrapper: 'client', body: client.body },
      invoice: { read: `/invoices/${invoice.body.id}`, wrapper: 'invoice', body: invoice.body },
      banking_payment: { read: `/banking/payment/${payment.body.id}`, write: `/banking/payments/${payment.body.id}`, wrapper: 'banking_payment', body: payment.body },
      category: { read: `/categories/${category.body.id}`, wrapper: 'category', body: category.body },
      warehouse: { read: `/warehouses/${warehouse.body.id}`, wrapper: 'warehouse', body: warehouse.body },
      warehouse_document: { read: `/warehouse_documents/${document.body.id}`, wrapper: 'warehouse_document', body: document.body },
      department: { read: `/departments/${department.id}`, wrapper: 'department', body: department },
    });
    // What each record looks like once everything above has happened (the pz moved the stock).
    for (const record of Object.values(mine)) record.body = (await http.get(`${record.read}.json`)).body;
  });

  it('answers 404 to another account reading, changing or deleting a record, exactly as for a missing one', async () => {
    for (const [name, record] of Object.entries(mine)) {
      const write = record.write ?? record.read;
      const read = await other.get(`${record.read}.json`);
      expect([name, read.status, read.body]).toEqual([name, 404, NOT_FOUND]);
      const readXml = await other.get(`${write}.xml`);
      expect([name, readXml.status, readXml.body]).toEqual([name, 404, NOT_FOUND]);
      const change = await other.put(`${write}.json`, { [record.wrapper]: { name: 'Hijacked', buyer_name: 'Hijacked' } });
      expect([name, change.status, change.body]).toEqual([name, 404, NOT_FOUND]);
      const remove = await other.delete(`${write}.json`);
      expect([name, remove.status, remove.body]).toEqual([name, 404, NOT_FOUND]);
      const still = await http.get(`${record.read}.json`);
      expect([name, still.status]).toEqual([name, 200]);
      expect(still.body).toEqual(record.body);
    }
    const status = await other.post(`${mine.invoice!.read}/change_status.json?status=paid`, {});
    expect(status.status).toBe(404);
    expect((await http.get(`${mine.invoice!.read}.json`)).body.status).toBe('partial');
  });

  it('lists only its own records, even when filtering by the other account keys', async () => {
    for (const path of ['/invoices.json', '/products.json', '/clients.json', '/banking/payments.json', '/categories.json', '/warehouse_documents.json']) {
      expect([path, (await other.get(path)).body]).toEqual([path, []]);
    }
    expect((await other.get('/clients.json', { external_id: 'mine-1' })).body).toEqual([]);
    expect((await other.get('/invoices.json', { oid: 'mine-oid' })).body).toEqual([]);
    expect((await other.get('/invoices.json', { client_id: mine.client!.body.id as number })).body).toEqual([]);
    expect((await other.get('/warehouses.json')).body.map((w: { name: string }) => w.name)).toEqual(['Main warehouse']);
    expect((await other.get('/departments.json')).body.map((d: { name: string }) => d.name)).toEqual(['intruder Ltd']);
  });

  it('cannot point its own records at the other account records', async () => {
    const invoice = await other.post('/invoices.json', {
      invoice: { client_id: mine.client!.body.id, department_id: mine.department!.body.id, positions: [{ product_id: mine.product!.body.id, quantity: 1 }] },
    });
    expect(invoice.status).toBe(422);
    expect(invoice.body).toEqual({
      code: 'error',
      message: { department_id: ['does not exist'], client_id: ['does not exist'] },
    });
    const byProduct = await other.post('/invoices.json', { invoice: { buyer_name: 'Me', positions: [{ product_id: mine.product!.body.id, quantity: 1 }] } });
    expect(byProduct.status).toBe(422);
    expect(byProduct.body).toEqual({ code: 'error', message: { 'positions.0.product_id': ['does not exist'] } });
    const document = await other.post('/warehouse_documents.json', {
      warehouse_document: { kind: 'wz', warehouse_id: String(mine.warehouse!.body.id), warehouse_actions: [{ product_id: String(mine.product!.body.id), quantity: 1 }] },
    });
    expect(document.status).toBe(422);
    expect(document.body.message).toHaveProperty('warehouse_id', ['does not exist']);
    const product = await other.post('/products.json', { product: { name: 'X', category_id: mine.category!.body.id } });
    expect(product.status).toBe(422);
    expect((await http.get(`${mine.product!.read}.json`)).body.stock_level).toBe('5.0');
  });
});
