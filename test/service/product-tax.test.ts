import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../helpers/service.js';
import { api, type Api } from '../helpers/http.js';

/**
 * Products say what they are (goods, a service, an electronically supplied service), in agreement
 * with the hosted service's `service` flag; and a rate no Polish invoice may carry is refused where
 * KSeF would refuse it.
 */

let service: TestService;
let http: Api;

beforeAll(async () => {
  service = await startTestService();
  http = api(service);
});
afterAll(() => service.stop());

const create = (product: Record<string, unknown>) => http.post('/products.json', { product: { name: 'Thing', price_net: '100', tax: '23', ...product } });

describe('supply_kind', () => {
  it('follows the hosted service’s flag when not given, and sets the flag when given', async () => {
    expect((await create({})).body).toMatchObject({ service: false, supply_kind: 'goods' });
    expect((await create({ service: true })).body).toMatchObject({ service: true, supply_kind: 'service' });
    expect((await create({ supply_kind: 'electronic_service' })).body).toMatchObject({ service: true, supply_kind: 'electronic_service' });
    expect((await create({ supply_kind: 'goods', service: false })).body).toMatchObject({ service: false, supply_kind: 'goods' });
    const xml = await http.postXml('/products.xml', '<product><name>Course</name><price_net>10</price_net><supply_kind>electronic_service</supply_kind></product>');
    expect(xml.status, xml.text).toBe(201);
    expect(xml.body).toMatchObject({ service: true, supply_kind: 'electronic_service' });
  });

  it('keeps both in agreement on update', async () => {
    const id = (await create({ supply_kind: 'electronic_service' })).body.id as number;
    expect((await http.put(`/products/${id}.json`, { product: { service: true } })).body).toMatchObject({ service: true, supply_kind: 'electronic_service' });
    expect((await http.put(`/products/${id}.json`, { product: { service: false } })).body).toMatchObject({ service: false, supply_kind: 'goods' });
    expect((await http.put(`/products/${id}.json`, { product: { supply_kind: 'service' } })).body).toMatchObject({ service: true, supply_kind: 'service' });
    expect((await http.put(`/products/${id}.json`, { product: { name: 'Renamed' } })).body).toMatchObject({ service: true, supply_kind: 'service' });
  });

  it('refuses a kind it does not know and a flag that contradicts the kind', async () => {
    const unknown = await create({ supply_kind: 'digital' });
    expect(unknown.status).toBe(422);
    expect(unknown.body).toEqual({ code: 'error', message: { supply_kind: ['must be goods, service or electronic_service'] } });
    const contradiction = await create({ supply_kind: 'goods', service: true });
    expect(contradiction.status).toBe(422);
    expect(contradiction.body).toEqual({ code: 'error', message: { service: ['must be false for goods'] } });
    const id = (await create({})).body.id as number;
    const cleared = await http.put(`/products/${id}.json`, { product: { supply_kind: null } });
    expect(cleared.status).toBe(422);
  });
});

describe('rates no Polish invoice may carry', () => {
  it('are kept while the account does not send to KSeF, and refused once it does', async () => {
    const before = await create({ tax: '10' });
    expect(before.status, before.text).toBe(201);
    expect(before.body).toMatchObject({ tax: '10', price_gross: '110.0' });

    const on = await http.put('/account/ksef.json', { ksef: { environment: 'test' } });
    expect(on.status, on.text).toBe(200);

    const refused = await create({ tax: '10' });
    expect(refused.status).toBe(422);
    expect(refused.body).toEqual({ code: 'error', message: { tax: ['10 is not a rate KSeF accepts (23, 22, 8, 7, 5, 4, 3, 0, zw, np)'] } });
    const changed = await http.put(`/products/${before.body.id as number}.json`, { product: { tax: '19' } });
    expect(changed.status).toBe(422);
    expect(changed.body).toEqual({ code: 'error', message: { tax: ['19 is not a rate KSeF accepts (23, 22, 8, 7, 5, 4, 3, 0, zw, np)'] } });
    expect((await create({ tax: '8' })).status).toBe(201);
    expect((await create({ tax: 'zw' })).status).toBe(201);

    const invoice = await http.post('/invoices.json', {
      invoice: {
        kind: 'vat', seller_name: 'Moja Firma', seller_tax_no: '5252445767', seller_street: 'ul. Przykładowa 10', seller_post_code: '00-001', seller_city: 'Warszawa',
        buyer_name: 'Klient', buyer_tax_no: '9876543210', buyer_street: 'ul. Testowa 5', buyer_post_code: '00-002', buyer_city: 'Kraków',
        positions: [{ name: 'A', quantity: 1, total_price_gross: '110', tax: '10' }],
      },
    });
    expect(invoice.status).toBe(422);
    expect(invoice.body).toEqual({ code: 'error', message: { 'positions.0.tax': ['10 is not a rate KSeF accepts (23, 22, 8, 7, 5, 4, 3, 0, zw, np)'] } });

    expect((await http.put('/account/ksef.json', { ksef: { validate_invoices_for_gov: false } })).status).toBe(200);
    expect((await create({ tax: '10' })).status).toBe(201);
    expect((await http.put('/account/ksef.json', { ksef: { environment: 'off', validate_invoices_for_gov: true } })).status).toBe(200);
  });
});
