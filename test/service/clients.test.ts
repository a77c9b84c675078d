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

/** The client of the hosted service's documentation. */
const documented = {
  client: {
    name: 'Klient1',
    tax_no: '5252445767',
    bank: 'bank1',
    bank_account: 'bank_account1',
    city: 'city1',
    country: '',
    email: 'bank@gmail.com',
    person: 'person1',
    post_code: 'post-code1',
    phone: 'phone1',
    street: 'street1',
  },
};

describe('clients', () => {
  it('creates with the documented body and reads it back in JSON and XML', async () => {
    const reply = await http.post('/clients.json', documented);
    expect(reply.status, reply.text).toBe(201);
    expect(reply.body).toMatchObject({ ...documented.client, kind: 'buyer', external_id: null });
    expect(typeof reply.body.id).toBe('number');
    expect((await http.get(`/clients/${reply.body.id}.json`)).body).toEqual(reply.body);
    const xml = await http.get(`/clients/${reply.body.id}.xml`);
    expect(xml.text).toContain('<tax_no>5252445767</tax_no>');
    expect(xml.text).toContain('<country></country>');
    expect(xml.body).toEqual(reply.body);
  });

  it('updates with a country code and answers the whole client', async () => {
    const created = await http.post('/clients.json', documented);
    const reply = await http.put(`/clients/${created.body.id}.json`, {
      client: { name: 'Klient2', tax_no: '52524457672', bank: 'bank2', bank_account: 'bank_account2', city: 'city2', country: 'PL', email: 'bank2@gmail.com', person: 'person2', post_code: 'post-code2', phone: 'phone2', street: 'street2' },
    });
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body).toMatchObject({ id: created.body.id, name: 'Klient2', country: 'PL', street: 'street2', token: created.body.token });
    const blank = await http.put(`/clients/${created.body.id}.json`, { client: { name: '' } });
    expect(blank.status).toBe(422);
    expect(blank.body).toEqual({ code: 'error', message: { name: ["can't be blank"] } });
  });

  it('finds by external_id, name, email and tax_no', async () => {
    const crm = await http.post('/clients.json', { client: { name: 'CRM Customer', external_id: 'crm-42', email: 'Buyer@CRM.example', tax_no: '7010001454' } });
    const byExternal = await http.get('/clients.json', { external_id: 'crm-42' });
    expect(byExternal.body.map((c: { id: number }) => c.id)).toEqual([crm.body.id]);
    expect((await http.get('/clients.xml', { external_id: 'crm-42' })).body.map((c: { id: number }) => c.id)).toEqual([crm.body.id]);
    expect((await http.get('/clients.json', { external_id: 'crm-43' })).body).toEqual([]);
    expect((await http.get('/clients.json', { name: 'crm cust' })).body.map((c: { id: number }) => c.id)).toEqual([crm.body.id]);
    expect((await http.get('/clients.json', { email: 'buyer@crm.example' })).body.map((c: { id: number }) => c.id)).toEqual([crm.body.id]);
    expect((await http.get('/clients.json', { tax_no: '7010001454' })).body.map((c: { id: number }) => c.id)).toEqual([crm.body.id]);
    expect((await http.get('/clients.json', { name: '%' })).body).toEqual([]);
  });

  it('creates from XML, refuses a client with no name', async () => {
    const xml = await http.postXml('/clients.xml', '<client><name>XML Client</name><tax-no>123</tax-no><external-id nil="true"/></client>');
    expect(xml.status, xml.text).toBe(201);
    expect(xml.body).toMatchObject({ name: 'XML Client', tax_no: '123', external_id: null });
    const blank = await http.post('/clients.json', { client: { city: 'Nowhere' } });
    expect(blank.status).toBe(422);
    expect(blank.body).toEqual({ code: 'error', message: { name: ["can't be blank"] } });
  });

  it('deletes, after which the client is not found', async () => {
    const created = await http.post('/clients.json', { client: { name: 'Gone Ltd' } });
    const reply = await http.delete(`/clients/${created.body.id}.json`);
    expect(reply.body).toEqual({ code: 'success', message: expect.any(String) });
    expect((await http.get(`/clients/${created.body.id}.json`)).body).toEqual(NOT_FOUND);
  });

  it('pages: bare arrays, per_page 25 by default, at most 100', async () => {
    const pager = await secondAccount(service, 'pager');
    const created = await Promise.all(Array.from({ length: 105 }, (_, i) => pager.post('/clients.json', { client: { name: `Client ${String(i).padStart(3, '0')}` } })));
    expect(created.every((r) => r.status === 201)).toBe(true);
    expect((await pager.get('/clients.json')).body).toHaveLength(25);
    expect((await pager.get('/clients.json', { per_page: 1000 })).body).toHaveLength(100);
    expect((await pager.get('/clients.json', { per_page: 100, page: 2 })).body).toHaveLength(5);
    expect((await pager.get('/clients.json', { per_page: 50, page: 3 })).body).toHaveLength(5);
    expect((await pager.get('/clients.json', { per_page: 50, page: 4 })).body).toEqual([]);
    const pages = await Promise.all([1, 2, 3, 4, 5].map((page) => pager.get('/clients.json', { page })));
    const ids = pages.flatMap((p) => p.body.map((c: { id: number }) => c.id));
    expect(new Set(ids).size).toBe(105);
    // Nonsense paging falls back to the defaults instead of failing.
    expect((await pager.get('/clients.json', { page: 'x', per_page: -3 })).body).toHaveLength(25);
  });
});
