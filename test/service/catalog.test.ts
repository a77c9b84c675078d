import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../helpers/service.js';
import { api, type Api, NOT_FOUND } from '../helpers/http.js';

let service: TestService;
let http: Api;

beforeAll(async () => {
  service = await startTestService();
  http = api(service);
});
afterAll(() => service.stop());

describe('categories', () => {
  it('creates, lists and reads in JSON and XML, and deletes', async () => {
    const created = await http.post('/categories.json', { category: { name: 'my_category', description: null } });
    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({ name: 'my_category', description: null });
    const id = created.body.id as number;

    const list = await http.get('/categories.json');
    expect(list.body).toEqual([created.body]);
    const xmlList = await http.get('/categories.xml');
    expect(xmlList.text).toMatch(/<categories type="array">\s*<category>/);
    expect(xmlList.body).toEqual([created.body]);
    expect((await http.get(`/categories/${id}.json`)).body).toEqual(created.body);
    const xml = await http.get(`/categories/${id}.xml`);
    expect(xml.text).toContain('<description nil="true"/>');
    expect(xml.body).toEqual(created.body);

    const renamed = await http.put(`/categories/${id}.json`, { category: { description: 'Things to read' } });
    expect(renamed.body).toMatchObject({ id, name: 'my_category', description: 'Things to read' });

    const product = await http.post('/products.json', { product: { name: 'Atlas', price_net: 10, category_id: id } });
    const deleted = await http.delete(`/categories/${id}.json`);
    expect(deleted.body).toEqual({ code: 'success', message: expect.any(String) });
    expect((await http.get(`/categories/${id}.json`)).body).toEqual(NOT_FOUND);
    expect((await http.get(`/products/${product.body.id}.json`)).body.category_id).toBeNull();
  });

  it('refuses a category without a name', async () => {
    const reply = await http.post('/categories.json', { category: { description: 'nameless' } });
    expect(reply.status).toBe(422);
    expect(reply.body).toEqual({ code: 'error', message: { name: ["can't be blank"] } });
  });

  it('creates from XML', async () => {
    const reply = await http.postXml('/categories.xml', '<category><name>Rails &amp; XML</name><description nil="true"/></category>');
    expect(reply.status, reply.text).toBe(201);
    expect(reply.body).toMatchObject({ name: 'Rails & XML', description: null });
  });
});

describe('warehouses', () => {
  it('has the main warehouse from the start', async () => {
    const list = await http.get('/warehouses.json');
    expect(list.body).toHaveLength(1);
    expect(list.body[0]).toMatchObject({ name: 'Main warehouse', kind: 'main' });
  });

  it('creates, lists and reads in JSON and XML, and deletes', async () => {
    const created = await http.post('/warehouses.json', { warehouse: { name: 'my_warehouse', kind: null, description: null } });
    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({ name: 'my_warehouse', kind: null, description: null });
    const id = created.body.id as number;
    expect((await http.get('/warehouses.json')).body.map((w: { id: number }) => w.id)).toContain(id);
    const xmlList = await http.get('/warehouses.xml');
    expect(xmlList.text).toMatch(/<warehouses type="array">\s*<warehouse>/);
    expect(xmlList.body.map((w: { id: number }) => w.id)).toContain(id);
    expect((await http.get(`/warehouses/${id}.json`)).body).toEqual(created.body);
    expect((await http.get(`/warehouses/${id}.xml`)).body).toEqual(created.body);
    const deleted = await http.delete(`/warehouses/${id}.json`);
    expect(deleted.body).toEqual({ code: 'success', message: expect.any(String) });
    expect((await http.get(`/warehouses/${id}.json`)).body).toEqual(NOT_FOUND);
  });

  it('refuses to delete a warehouse that holds documents', async () => {
    const warehouse = await http.post('/warehouses.json', { warehouse: { name: 'Busy' } });
    const document = await http.post('/warehouse_documents.json', {
      warehouse_document: { kind: 'pz', warehouse_id: String(warehouse.body.id), warehouse_actions: [{ product_name: 'Pallet', purchase_price_net: 5, quantity: 1 }] },
    });
    expect(document.status, document.text).toBe(201);
    const reply = await http.delete(`/warehouses/${warehouse.body.id}.json`);
    expect(reply.status).toBe(422);
    expect(reply.body.code).toBe('error');
    expect((await http.get(`/warehouses/${warehouse.body.id}.json`)).status).toBe(200);
  });
});

describe('departments', () => {
  it('lists the default department, the seller, as a bare array', async () => {
    const reply = await http.get('/departments.json');
    expect(reply.status).toBe(200);
    expect(reply.body).toHaveLength(1);
    expect(reply.body[0]).toMatchObject({ main: true, name: expect.any(String) });
    const xml = await http.get('/departments.xml');
    expect(xml.text).toMatch(/<departments type="array">\s*<department>/);
    expect(xml.body).toEqual(reply.body);
    expect((await http.get(`/departments/${reply.body[0].id}.json`)).body).toEqual(reply.body[0]);
  });
});
