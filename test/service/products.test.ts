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

describe('products', () => {
  it('creates with the documented body, deriving the gross price and a widget token', async () => {
    const reply = await http.post('/products.json', { product: { name: 'PoduktAA', code: 'A001', price_net: '100', tax: '23' } });
    expect(reply.status, reply.text).toBe(201);
    expect(reply.body).toMatchObject({
      name: 'PoduktAA',
      code: 'A001',
      price_net: '100.0',
      price_gross: '123.0',
      tax: '23',
      currency: 'PLN',
      service: false,
      category_id: null,
      stock_level: '0.0',
    });
    expect(reply.body.token).toMatch(/^[A-Za-z0-9_-]{4,64}$/);
    expect(reply.body.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?[+-]\d{2}:\d{2}$/);
    const read = await http.get(`/products/${reply.body.id}.json`);
    expect(read.body).toEqual(reply.body);
  });

  it('updates with price_gross, deriving the net price from it and the tax', async () => {
    const created = await http.post('/products.json', { product: { name: 'PoduktAA', code: 'A001', price_net: '100', tax: '23' } });
    const reply = await http.put(`/products/${created.body.id}.json`, { product: { name: 'PoduktAA2', code: 'A0012', price_gross: '102' } });
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body).toMatchObject({ id: created.body.id, name: 'PoduktAA2', code: 'A0012', price_gross: '102.0', price_net: '82.93', tax: '23', token: created.body.token });
    const taxChange = await http.put(`/products/${created.body.id}.json`, { product: { tax: '8', price_gross: '108' } });
    expect(taxChange.body).toMatchObject({ tax: '8', price_net: '100.0', price_gross: '108.0' });
    expect((await http.get(`/products/${created.body.id}.json`)).body).toEqual(taxChange.body);
  });

  it('keeps a chosen token unique within the account', async () => {
    const first = await http.post('/products.json', { product: { name: 'E-book', price_gross: '49.99', tax: 5, token: 'ebook-2026' } });
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ token: 'ebook-2026', price_gross: '49.99', price_net: '47.61' });
    const second = await http.post('/products.json', { product: { name: 'Other', price_net: 1, token: 'ebook-2026' } });
    expect(second.status).toBe(422);
    expect(second.body).toEqual({ code: 'error', message: { token: ['has already been taken'] } });
    expect((await http.get('/products.json', { token: 'ebook-2026' })).body.map((p: { id: number }) => p.id)).toEqual([first.body.id]);
  });

  it('refuses a product without a name or with an unknown category', async () => {
    const blank = await http.post('/products.json', { product: { price_net: '10' } });
    expect(blank.status).toBe(422);
    expect(blank.body).toEqual({ code: 'error', message: { name: ["can't be blank"] } });
    const category = await http.post('/products.json', { product: { name: 'X', category_id: 424242 } });
    expect(category.status).toBe(422);
    expect(category.body).toEqual({ code: 'error', message: { category_id: ['does not exist'] } });
  });

  it('lists and reads in JSON and XML, and filters by category', async () => {
    const category = await http.post('/categories.json', { category: { name: 'Books', description: null } });
    const book = await http.post('/products.json', { product: { name: 'Novel', price_net: '30', tax: '5', category_id: category.body.id } });
    expect(book.body.category_id).toBe(category.body.id);
    const inCategory = await http.get('/products.json', { category_id: category.body.id });
    expect(inCategory.body.map((p: { id: number }) => p.id)).toEqual([book.body.id]);

    const list = await http.get('/products.json', { page: 1, per_page: 25 });
    expect(Array.isArray(list.body)).toBe(true);
    expect(list.body.length).toBeGreaterThanOrEqual(4);
    const xmlList = await http.get('/products.xml');
    expect(xmlList.text).toMatch(/<products type="array">\s*<product>/);
    expect(xmlList.body).toEqual(list.body);
    const xml = await http.get(`/products/${book.body.id}.xml`);
    expect(xml.text).toContain('<price_gross>31.5</price_gross>');
    expect(xml.body).toEqual(book.body);
  });

  it('creates from XML too', async () => {
    const reply = await http.postXml('/products.xml', '<product><name>Cable</name><price-net type="decimal">9,99</price-net><tax>23</tax><service type="boolean">false</service></product>');
    expect(reply.status, reply.text).toBe(201);
    expect(reply.body).toMatchObject({ name: 'Cable', price_net: '9.99', price_gross: '12.29', service: false });
  });

  it('deletes, after which the product is not found', async () => {
    const created = await http.post('/products.json', { product: { name: 'Temporary', price_net: 1 } });
    const reply = await http.delete(`/products/${created.body.id}.json`);
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({ code: 'success', message: expect.any(String) });
    expect((await http.get(`/products/${created.body.id}.json`)).body).toEqual(NOT_FOUND);
    expect((await http.delete(`/products/${created.body.id}.json`)).status).toBe(404);
  });
});
