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
