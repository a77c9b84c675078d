import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../helpers/service.js';
import { api, type Api, NOT_FOUND } from '../helpers/http.js';

let service: TestService;
let http: Api;
let main: string;
let second: string;
let departmentId: string;
let clientId: string;

beforeAll(async () => {
  service = await startTestService();
  http = api(service);
  main = String((await http.get('/warehouses.json')).body[0].id);
  second = String((await http.post('/warehouses.json', { warehouse: { name: 'Second', kind: null, description: null } })).body.id);
  departmentId = String((await http.get('/departments.json')).body[0].id);
  clientId = String((await http.post('/clients.json', { client: { name: 'Client1 SA' } })).body.id);
});
afterAll(() => service.stop());

async function stock(productId: number, warehouseId?: string): Promise<string> {
  const reply = await http.get(`/products/${productId}.json`, warehouseId ? { warehouse_id: warehouseId } : {});
  expect(reply.status).toBe(200);
  return reply.body.stock_level;
}

describe('warehouse documents', () => {
  let productId: number;

  it('creates a pz with a product given by name, which becomes a catalogue product', async () => {
    const reply = await http.post('/warehouse_documents.json', {
      warehouse_document: {
        kind: 'pz',
        number: null,
        warehouse_id: main,
        issue_date: '2017-10-23',
        department_name: 'Department1 SA',
        client_name: 'Client1 SA',
        warehouse_actions: [{ product_name: 'Produkt A1', purchase_tax: 23, purchase_price_net: 10.23, quantity: 1 }],
      },
    });
    expect(reply.status, reply.text).toBe(201);
    expect(reply.body).toMatchObject({
      kind: 'pz',
      number: '1/10/2017',
      warehouse_id: Number(main),
      issue_date: '2017-10-23',
      department_name: 'Department1 SA',
      client_name: 'Client1 SA',
      value_net: '10.23',
      value_gross: '12.58',
    });
    expect(reply.body.warehouse_actions).toHaveLength(1);
    expect(reply.body.warehouse_actions[0]).toMatchObject({ product_name: 'Produkt A1', quantity: '1.0', price_net: '10.23', tax: '23' });
    productId = reply.body.warehouse_actions[0].product_id;
    const product = await http.get(`/products/${productId}.json`);
    expect(product.body).toMatchObject({ name: 'Produkt A1', price_net: '10.23', tax: '23', stock_level: '1.0' });
    expect((await http.get(`/warehouse_documents/${reply.body.id}.json`)).body).toEqual(reply.body);
  });

  it('creates a pz and a wz with existing ids, moving stock per warehouse', async () => {
    const pz = await http.post('/warehouse_documents.json', {
      warehouse_document: {
        kind: 'pz', number: null, warehouse_id: second, issue_date: '2017-10-24', department_id: departmentId, client_id: clientId,
        warehouse_actions: [{ product_id: String(productId), tax: 23, price_net: 10.23, quantity: 10 }],
      },
    });
    expect(pz.status, pz.text).toBe(201);
    expect(pz.body).toMatchObject({ number: '2/10/2017', department_id: Number(departmentId), client_id: Number(clientId), client_name: 'Client1 SA', value_net: '102.3', value_gross: '125.83' });
    expect(await stock(productId, second)).toBe('10.0');
    expect(await stock(productId, main)).toBe('1.0');
    expect(await stock(productId)).toBe('11.0');

    const wz = await http.post('/warehouse_documents.json', {
      warehouse_document: {
        kind: 'wz', number: null, warehouse_id: second, issue_date: '2017-10-25', department_id: departmentId, client_id: clientId,
        warehouse_actions: [{ product_id: String(productId), tax: 23, price_net: 15, quantity: 3.5 }],
      },
    });
    expect(wz.status, wz.text).toBe(201);
    expect(wz.body).toMatchObject({ kind: 'wz', number: '1/10/2017', value_net: '52.5', value_gross: '64.58' });
    expect(await stock(productId, second)).toBe('6.5');
    expect(await stock(productId)).toBe('7.5');
    const listed = await http.get('/products.json', { warehouse_id: second });
    expect(listed.body.find((p: { id: number }) => p.id === productId).stock_level).toBe('6.5');

    // Changing the issued quantity moves the stock by the difference; deleting gives it back.
    const changed = await http.put(`/warehouse_documents/${wz.body.id}.json`, {
      warehouse_document: { warehouse_actions: [{ id: wz.body.warehouse_actions[0].id, quantity: 1 }] },
    });
    expect(changed.status, changed.text).toBe(200);
    expect(changed.body.warehouse_actions.map((a: { quantity: string }) => a.quantity)).toEqual(['1.0']);
    expect(await stock(productId, second)).toBe('9.0');
    const moved = await http.put(`/warehouse_documents/${pz.body.id}.json`, { warehouse_document: { warehouse_id: main } });
    expect(moved.status, moved.text).toBe(200);
    expect(await stock(productId, second)).toBe('-1.0');
    expect(await stock(productId, main)).toBe('11.0');
    await http.put(`/warehouse_documents/${pz.body.id}.json`, { warehouse_document: { warehouse_id: second } });

    const deleted = await http.delete(`/warehouse_documents/${wz.body.id}.json`);
    expect(deleted.body).toEqual({ code: 'success', message: expect.any(String) });
    expect(await stock(productId, second)).toBe('10.0');
    expect((await http.get(`/warehouse_documents/${wz.body.id}.json`)).body).toEqual(NOT_FOUND);
  });

  it('moves stock exactly under concurrent documents', async () => {
    const before = await stock(productId, main);
    const replies = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        http.post('/warehouse_documents.json', {
          warehouse_document: { kind: i % 2 ? 'wz' : 'pz', warehouse_id: main, issue_date: '2018-01-01', warehouse_actions: [{ product_id: productId, quantity: i % 2 ? '0.5' : '2' }] },
        }),
      ),
    );
    expect(replies.map((r) => r.status)).toEqual(Array(8).fill(201));
    expect(await stock(productId, main)).toBe(`${Number(before) + 6}.0`);
    await Promise.all(replies.map((r) => http.delete(`/warehouse_documents/${r.body.id}.json`)));
    expect(await stock(productId, main)).toBe(before);
  });

  it('lists as a bare array and filters by kind and warehouse', async () => {
    const all = await http.get('/warehouse_documents.json', { page: 1, per_page: 25 });
    expect(all.body.map((d: { kind: string }) => d.kind)).toEqual(['pz', 'pz']);
    expect((await http.get('/warehouse_documents.json', { kind: 'wz' })).body).toEqual([]);
    expect((await http.get('/warehouse_documents.json', { warehouse_id: second })).body.map((d: { number: string }) => d.number)).toEqual(['2/10/2017']);
    const xml = await http.get('/warehouse_documents.xml');
    expect(xml.text).toMatch(/<warehouse_documents type="array">\s*<warehouse_document>/);
    expect(xml.text).toMatch(/<warehouse_actions type="array">\s*<warehouse_action>/);
    expect(xml.body).toEqual(all.body);
  });

  it('creates from XML', async () => {
    const reply = await http.postXml(
      '/warehouse_documents.xml',
      `<warehouse-document><kind>pz</kind><number nil="true"/><warehouse-id>${main}</warehouse-id><issue-date>2017-11-02</issue-date><warehouse-actions type="array"><warehouse-action><product-id>${productId}</product-id><price-net type="decimal">10</price-net><tax>23</tax><quantity type="integer">4</quantity></warehouse-action></warehouse-actions></warehouse-document>`,
    );
    expect(reply.status, reply.text).toBe(201);
    expect(reply.body).toMatchObject({ kind: 'pz', number: '1/11/2017', value_net: '40.0', value_gross: '49.2' });
    expect(await stock(productId, main)).toBe('5.0');
  });

  it('refuses documents with missing or unknown parts, naming the field', async () => {
    const empty = await http.post('/warehouse_documents.json', { warehouse_document: { kind: 'pz' } });
    expect(empty.status).toBe(422);
    expect(empty.body).toEqual({ code: 'error', message: { warehouse_actions: ["can't be blank"] } });
    const kind = await http.post('/warehouse_documents.json', { warehouse_document: { kind: 'xx', warehouse_actions: [{ product_id: productId, quantity: 1 }] } });
    expect(kind.status).toBe(422);
    expect(kind.body).toEqual({ code: 'error', message: { kind: ['must be pz, wz or mm'] } });
    const unknown = await http.post('/warehouse_documents.json', {
      warehouse_document: { kind: 'wz', warehouse_id: '999999', warehouse_actions: [{ product_id: '999999', quantity: 1 }] },
    });
    expect(unknown.status).toBe(422);
    expect(unknown.body.message).toHaveProperty('warehouse_id', ['does not exist']);
    const quantity = await http.post('/warehouse_documents.json', {
      warehouse_document: { kind: 'wz', warehouse_actions: [{ product_id: productId, quantity: 0 }] },
    });
    expect(quantity.status).toBe(422);
    expect(quantity.body).toEqual({ code: 'error', message: { 'warehouse_actions.0.quantity': ['must be greater than 0'] } });
    expect(await stock(productId)).toBe('15.0');
  });

  it('asks for a warehouse when the account has none left', async () => {
    const { secondAccount } = await import('../helpers/http.js');
    const bare = await secondAccount(service, 'no-warehouses');
    const [only] = (await bare.get('/warehouses.json')).body;
    expect((await bare.delete(`/warehouses/${only.id}.json`)).status).toBe(200);
    const reply = await bare.post('/warehouse_documents.json', { warehouse_document: { kind: 'pz', warehouse_actions: [{ product_name: 'Crate', quantity: 1 }] } });
    expect(reply.status).toBe(422);
    expect(reply.body).toEqual({ code: 'error', message: { warehouse_id: ["can't be blank"] } });
  });
});
