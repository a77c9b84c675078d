import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createInvoicingClient } from '../../src/api/index.js';
import { portalUrlFor } from '../../src/kernel/portal-url.js';
import { api, type Api } from '../helpers/http.js';
import { startTestService, type TestService } from '../helpers/service.js';

/**
 * A department's `portal_url`: the host's customer portal with `{client_id}` where the customer goes,
 * set and cleared through the department's fields, refused unless it is an absolute http(s) address
 * carrying the placeholder.
 */
let service: TestService;
let http: Api;
let departmentId: number;

beforeAll(async () => {
  service = await startTestService();
  http = api({ url: service.url, apiToken: service.apiToken });
  const departments = (await http.get('/departments.json')).body as { id: number; main: boolean }[];
  departmentId = departments.find((department) => department.main)!.id;
}, 60_000);
afterAll(() => service?.stop());

const portal = 'https://shop.example/account/invoices?customer={client_id}';

describe("a department's portal address", () => {
  it('is null until set, then read back as written, and cleared with an empty value', async () => {
    expect((await http.get(`/departments/${departmentId}.json`)).body.portal_url).toBeNull();

    const set = await http.put(`/departments/${departmentId}.json`, { department: { portal_url: ` ${portal} ` } });
    expect(set.status).toBe(200);
    expect(set.body.portal_url).toBe(portal);
    expect((await http.get(`/departments/${departmentId}.json`)).body.portal_url).toBe(portal);
    // Another field's update keeps it.
    expect((await http.put(`/departments/${departmentId}.json`, { department: { phone: '+48 22 123 45 67' } })).body.portal_url).toBe(portal);

    const client = createInvoicingClient({ baseUrl: service.url, apiToken: service.apiToken });
    expect((await client.departments.get(departmentId)).portal_url).toBe(portal);

    expect((await http.put(`/departments/${departmentId}.json`, { department: { portal_url: '' } })).body.portal_url).toBeNull();
    expect((await http.put(`/departments/${departmentId}.json`, { department: { portal_url: portal } })).body.portal_url).toBe(portal);
    expect((await http.put(`/departments/${departmentId}.json`, { department: { portal_url: null } })).body.portal_url).toBeNull();
  });

  it('is set on a new department too', async () => {
    const created = await http.post('/departments.json', { department: { name: 'Sklep Gdańsk', portal_url: 'http://localhost:4000/portal/{client_id}/invoices' } });
    expect(created.status).toBe(201);
    expect(created.body.portal_url).toBe('http://localhost:4000/portal/{client_id}/invoices');
  });

  it.each([
    ['shop.example/account?customer={client_id}', 'must be an absolute http(s) address'],
    ['/account/invoices?customer={client_id}', 'must be an absolute http(s) address'],
    ['javascript:alert({client_id})', 'must be an absolute http(s) address'],
    ['ftp://shop.example/{client_id}', 'must be an absolute http(s) address'],
    ['https://shop.example/account/invoices', "must contain {client_id} where the customer's id goes"],
    [42, 'must be text'],
    [`https://shop.example/${'a'.repeat(500)}?c={client_id}`, 'is too long (maximum is 500 characters)'],
  ])('refuses %j with 422 and the field named', async (value, message) => {
    const reply = await http.put(`/departments/${departmentId}.json`, { department: { portal_url: value } });
    expect(reply.status).toBe(422);
    expect(reply.body).toEqual({ code: 'error', message: { portal_url: [message] } });
  });

  it("puts the customer's id in its place", () => {
    expect(portalUrlFor(portal, 17)).toBe('https://shop.example/account/invoices?customer=17');
    expect(portalUrlFor('https://shop.example/c/{client_id}/f?again={client_id}', 3)).toBe('https://shop.example/c/3/f?again=3');
  });
});
