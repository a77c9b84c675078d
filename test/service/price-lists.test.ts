import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../helpers/service.js';
import { api, type Api, NOT_FOUND, secondAccount } from '../helpers/http.js';

let service: TestService;
let http: Api;

beforeAll(async () => {
  service = await startTestService();
  http = api(service);
});
afterAll(() => service.stop());

describe('price lists', () => {
  it('are created, read, updated and deleted as the documentation shows, and price invoice positions', async () => {
    const product = (await http.post('/products.json', { product: { name: 'PoroductAA', code: 'A001', price_net: '100', tax: '23' } })).body;
    const created = await http.post('/price_lists.json', {
      price_list: {
        name: 'Nazwa cennika',
        description: 'Opis',
        currency: 'PLN',
        price_list_positions_attributes: {
          '0': {
            priceable_id: String(product.id),
            priceable_name: 'Nazwa produktu',
            priceable_type: 'Product',
            use_percentage: '0',
            percentage: '',
            price_net: '111.0',
            price_gross: '136.53',
            use_tax: '1',
            tax: '23',
          },
        },
      },
    });
    expect(created.status, created.text).toBe(201);
    const position = {
      id: expect.any(Number),
      price_list_id: created.body.id,
      priceable_id: product.id,
      priceable_name: 'Nazwa produktu',
      priceable_type: 'Product',
      use_percentage: false,
      percentage: null,
      price_net: '111.0',
      price_gross: '136.53',
      use_tax: true,
      tax: '23',
    };
    expect(created.body).toEqual({
      id: expect.any(Number),
      name: 'Nazwa cennika',
      description: 'Opis',
      currency: 'PLN',
      price_list_positions: [position],
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const id = created.body.id as number;
    expect((await http.get(`/price_lists/${id}.json`)).body).toEqual(created.body);
    expect((await http.get('/price_lists.json')).body).toEqual([created.body]);
    expect((await http.get(`/price_lists/${id}.xml`)).body).toEqual(created.body);

    // An invoice takes the list's price instead of the product's.
    const invoice = await http.post('/invoices.json', {
      invoice: {
        use_prices_from_price_lists: true,
        price_list_id: id,
        seller_name: 'Wystawca Sp. z o.o.',
        buyer_name: 'Klient1 Sp. z o.o.',
        positions: [{ product_id: product.id, quantity: 1 }],
      },
    });
    expect(invoice.status, invoice.text).toBe(201);
    expect(invoice.body.positions[0]).toMatchObject({ product_id: product.id, price_net: '111.0', price_gross: '136.53', total_price_gross: '136.53', tax: '23' });
    expect(invoice.body).toMatchObject({ price_net: '111.0', price_gross: '136.53' });
    const plain = await http.post('/invoices.json', { invoice: { buyer_name: 'Klient1 Sp. z o.o.', positions: [{ product_id: product.id, quantity: 1 }] } });
    expect(plain.body.positions[0]).toMatchObject({ price_net: '100.0', price_gross: '123.0' });

    // The documentation's update: the position by id, new prices and tax.
    const positionId = created.body.price_list_positions[0].id as number;
    const updated = await http.put(`/price_lists/${id}.json`, {
      price_list: {
        name: 'Nazwa cennika',
        description: 'Opis',
        currency: 'PLN',
        price_list_positions_attributes: { '0': { id: String(positionId), priceable_id: String(product.id), price_net: '10.0', price_gross: '10.80', use_tax: '1', tax: '8' } },
      },
    });
    expect(updated.status, updated.text).toBe(200);
    expect(updated.body.price_list_positions).toEqual([{ ...position, id: positionId, price_net: '10.0', price_gross: '10.8', tax: '8' }]);
    const percent = await http.put(`/price_lists/${id}.json`, {
      price_list: { price_list_positions_attributes: [{ id: positionId, use_percentage: true, percentage: '-10' }] },
    });
    expect(percent.body.price_list_positions[0]).toMatchObject({ use_percentage: true, percentage: '-10.0' });
    const discounted = await http.post('/invoices.json', {
      invoice: { use_prices_from_price_lists: true, price_list_id: id, buyer_name: 'Klient1', positions: [{ product_id: product.id, quantity: 2 }] },
    });
    expect(discounted.body.positions[0]).toMatchObject({ price_net: '90.0', total_price_net: '180.0', tax: '8', total_price_gross: '194.4' });

    const other = await secondAccount(service, 'pricing-other');
    expect((await other.get(`/price_lists/${id}.json`)).body).toEqual(NOT_FOUND);
    const wrongProduct = await http.post('/price_lists.json', { price_list: { name: 'Bad', price_list_positions_attributes: [{ priceable_id: 99999999, price_net: '1' }] } });
    expect(wrongProduct.body).toEqual({ code: 'error', message: { 'price_list_positions_attributes.0.priceable_id': ['does not exist'] } });
    expect((await http.post('/invoices.json', { invoice: { price_list_id: 99999999, buyer_name: 'X', positions: [{ product_id: product.id }] } })).body).toEqual({
      code: 'error',
      message: { price_list_id: ['does not exist'] },
    });

    expect((await http.delete(`/price_lists/${id}.json`)).body).toEqual({ code: 'success', message: `price list ${id} deleted` });
    expect((await http.get(`/price_lists/${id}.json`)).body).toEqual(NOT_FOUND);
  });
});
