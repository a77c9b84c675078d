import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../helpers/service.js';
import { api, type Api, NOT_FOUND, UNAUTHORIZED } from '../helpers/http.js';

/** Warehouse actions, issuers and departments, payments with their invoices, client lookups, deletes and account operations. */
let service: TestService;
let http: Api;

beforeAll(async () => {
  service = await startTestService();
  http = api(service);
});
afterAll(() => service.stop());

describe('warehouse actions', () => {
  it('follow from the warehouse documents, with every filter', async () => {
    const warehouses = (await http.get('/warehouses.json')).body as { id: number }[];
    const main = warehouses[0]!.id;
    const second = (await http.post('/warehouses.json', { warehouse: { name: 'my_warehouse', kind: null, description: null } })).body.id as number;
    const pz = await http.post('/warehouse_documents.json', {
      warehouse_document: {
        kind: 'pz', number: null, warehouse_id: String(main), issue_date: '2017-10-23', department_name: 'Department1 SA', client_name: 'Client1 SA',
        warehouse_actions: [
          { product_name: 'Produkt A1', purchase_tax: 23, purchase_price_net: 10.23, quantity: 1 },
          { product_name: 'Produkt A2', purchase_tax: 0, purchase_price_net: 50, quantity: 2 },
        ],
      },
    });
    expect(pz.status, pz.text).toBe(201);
    const a1 = pz.body.warehouse_actions[0].product_id as number;
    const wz = await http.post('/warehouse_documents.json', {
      warehouse_document: {
        kind: 'wz', number: null, warehouse_id: String(second), issue_date: '2017-11-02', department_name: 'Department1 SA', client_name: 'Client1 SA',
        warehouse_actions: [{ product_id: String(a1), tax: 23, price_net: 10.23, quantity: 1 }],
      },
    });
    expect(wz.status, wz.text).toBe(201);

    const all = await http.get('/warehouse_actions.json');
    expect(all.status).toBe(200);
    expect(all.body).toEqual([
      {
        id: pz.body.warehouse_actions[0].id, kind: 'pz', warehouse_id: main, warehouse2_id: null, product_id: a1, product_name: 'Produkt A1',
        quantity: '1.0', price_net: '10.23', tax: '23', issue_date: '2017-10-23', warehouse_document_id: pz.body.id,
        from_warehouse_document_id: null, to_warehouse_document_id: pz.body.id, created_at: expect.any(String), updated_at: expect.any(String),
      },
      expect.objectContaining({ kind: 'pz', product_name: 'Produkt A2', quantity: '2.0', price_net: '50.0', tax: '0', warehouse_document_id: pz.body.id }),
      expect.objectContaining({
        kind: 'wz', warehouse_id: second, product_id: a1, quantity: '1.0', issue_date: '2017-11-02',
        warehouse_document_id: wz.body.id, from_warehouse_document_id: wz.body.id, to_warehouse_document_id: null,
      }),
    ]);
    const ids = (query: Record<string, string | number>) => http.get('/warehouse_actions.json', query).then((r) => r.body.map((a: { warehouse_document_id: number; product_name: string }) => `${a.warehouse_document_id}:${a.product_name}`));
    expect(await ids({ warehouse_id: second })).toEqual([`${wz.body.id}:Produkt A1`]);
    expect(await ids({ kind: 'pz' })).toEqual([`${pz.body.id}:Produkt A1`, `${pz.body.id}:Produkt A2`]);
    expect(await ids({ product_id: a1 })).toEqual([`${pz.body.id}:Produkt A1`, `${wz.body.id}:Produkt A1`]);
    expect(await ids({ date_from: '2017-11-01' })).toEqual([`${wz.body.id}:Produkt A1`]);
    expect(await ids({ date_to: '2017-10-31' })).toHaveLength(2);
    expect(await ids({ from_warehouse_document: wz.body.id })).toEqual([`${wz.body.id}:Produkt A1`]);
    expect(await ids({ from_warehouse_document: pz.body.id })).toEqual([]);
    expect(await ids({ to_warehouse_document: pz.body.id })).toHaveLength(2);
    expect(await ids({ warehouse_document_id: wz.body.id })).toHaveLength(1);
    expect(await ids({ per_page: 1, page: 2 })).toEqual([`${pz.body.id}:Produkt A2`]);
    expect((await http.get('/warehouse_actions.json', { kind: 'xx' })).status).toBe(422);
    expect((await http.get('/warehouse_actions.xml')).body).toHaveLength(3);

    // A document deleted takes its actions with it.
    expect((await http.delete(`/warehouse_documents/${wz.body.id}.json`)).body).toEqual({ code: 'success', message: `warehouse document ${wz.body.id} deleted` });
    expect(await ids({})).toHaveLength(2);
  });
});

describe('departments and issuers', () => {
  it('have full CRUD as the documentation shows', async () => {
    const department = await http.post('/departments.json', { department: { name: 'my_warehouse', shortcut: 'short_name', tax_no: '-' } });
    expect(department.status, department.text).toBe(201);
    expect(department.body).toMatchObject({ name: 'my_warehouse', shortcut: 'short_name', tax_no: '-', main: false });
    const id = department.body.id as number;
    expect((await http.get(`/departments/${id}.json`)).body).toEqual(department.body);
    const updated = await http.put(`/departments/${id}.json`, { department: { name: 'new_name', shortcut: 'new_short_name', tax_no: 'xxx-xxx-xx-xx' } });
    expect(updated.body).toMatchObject({ id, name: 'new_name', shortcut: 'new_short_name', tax_no: 'xxx-xxx-xx-xx' });
    expect((await http.delete(`/departments/${id}.json`)).body).toEqual({ code: 'success', message: `department ${id} deleted` });
    expect((await http.get(`/departments/${id}.json`)).body).toEqual(NOT_FOUND);

    const issuer = await http.post('/issuers.json', { issuer: { name: 'Issuer', tax_no: '4170106662' } });
    expect(issuer.status, issuer.text).toBe(201);
    expect(issuer.body).toEqual({
      id: expect.any(Number), name: 'Issuer', tax_no: '4170106662', first_name: null, last_name: null, email: null, phone: null,
      street: null, post_code: null, city: null, country: null, note: null, company: true, created_at: expect.any(String), updated_at: expect.any(String),
    });
    const issuerId = issuer.body.id as number;
    expect((await http.get('/issuers.json')).body).toEqual([issuer.body]);
    expect((await http.get(`/issuers/${issuerId}.json`)).body).toEqual(issuer.body);
    expect((await http.put(`/issuers/${issuerId}.json`, { issuer: { name: 'new_name' } })).body).toMatchObject({ id: issuerId, name: 'new_name', tax_no: '4170106662' });
    expect((await http.put(`/issuers/${issuerId}.json`, { issuer: { name: '' } })).body).toEqual({ code: 'error', message: { name: ["can't be blank"] } });
    expect((await http.get(`/issuers/${issuerId}.xml`)).body).toMatchObject({ id: issuerId, name: 'new_name' });
    expect((await http.delete(`/issuers/${issuerId}.json`)).body).toEqual({ code: 'success', message: `issuer ${issuerId} deleted` });
    expect((await http.get(`/issuers/${issuerId}.json`)).body).toEqual(NOT_FOUND);
  });
});

describe('payments, clients and deletes', () => {
  it('embeds the paid invoices with include=invoices, updates and deletes payments', async () => {
    const invoice = (await http.post('/invoices.json', { invoice: { buyer_name: 'Payer Ltd', positions: [{ name: 'Service', tax: 23, total_price_gross: '200', quantity: 1 }] } })).body;
    const payment = (await http.post('/banking/payments.json', { banking_payment: { name: 'Payment 003', price: 200, invoice_id: invoice.id, paid: true, kind: 'api' } })).body;
    const loose = (await http.post('/banking/payments.json', { banking_payment: { name: 'Payment 001', price: 100.05, invoice_id: null, paid: true, kind: 'api' } })).body;
    const list = await http.get('/banking/payments.json', { include: 'invoices' });
    const withInvoice = list.body.find((p: { id: number }) => p.id === payment.id);
    expect(withInvoice.invoices).toHaveLength(1);
    expect(withInvoice.invoices[0]).toMatchObject({ id: invoice.id, number: invoice.number, status: 'paid', paid: '200.0', price_gross: '200.0' });
    expect(list.body.find((p: { id: number }) => p.id === loose.id).invoices).toEqual([]);
    expect((await http.get('/banking/payments.json')).body[0].invoices).toBeUndefined();

    const updated = await http.put(`/banking/payments/${payment.id}.json`, { banking_payment: { name: 'New payment name', price: 100 } });
    expect(updated.body).toMatchObject({ id: payment.id, name: 'New payment name', price: '100.0' });
    expect((await http.get(`/invoices/${invoice.id}.json`)).body).toMatchObject({ status: 'partial', paid: '100.0' });
    expect((await http.delete(`/banking/payments/${payment.id}.json`)).body).toEqual({ code: 'success', message: `banking payment ${payment.id} deleted` });
    expect((await http.get(`/invoices/${invoice.id}.json`)).body).toMatchObject({ status: 'issued', paid: '0.0' });
  });

  it('finds clients by name, email and tax number, and deletes categories and warehouses', async () => {
    const client = (await http.post('/clients.json', { client: { name: 'Klient1', tax_no: '6272616681', email: 'email@gmail.com' } })).body;
    for (const query of [{ name: 'Klient1' }, { email: 'email@gmail.com' }, { tax_no: '6272616681' }]) {
      const found = (await http.get('/clients.json', query)).body;
      expect(found.map((c: { id: number }) => c.id), JSON.stringify(query)).toEqual([client.id]);
    }
    const category = (await http.post('/categories.json', { category: { name: 'my_category', description: null } })).body;
    expect((await http.delete(`/categories/${category.id}.json`)).body).toEqual({ code: 'success', message: `category ${category.id} deleted` });
    const warehouse = (await http.post('/warehouses.json', { warehouse: { name: 'empty', kind: null, description: null } })).body;
    expect((await http.delete(`/warehouses/${warehouse.id}.json`)).body).toEqual({ code: 'success', message: `warehouse ${warehouse.id} deleted` });
  });
});

describe('account operations', () => {
  it('adds a user, links and unlinks client accounts, and deletes an account by the e-mailed link only', async () => {
    const added = await http.post('/account/add_user.json', {
      integration_token: service.integrationToken,
      user: { invite: false, email: 'email@test.pl', password: 'Password123', role: 'member', department_ids: [] },
    });
    expect(added.status, added.text).toBe(201);
    expect(added.body).toMatchObject({ login: 'email@test.pl', email: 'email@test.pl', role: 'member', department_ids: [], prefix: service.prefix });
    const login = await http.post('/login.json', { login: 'email@test.pl', password: 'Password123', integration_token: service.integrationToken }, { token: null });
    expect(login.body).toMatchObject({ api_token: service.apiToken });
    const invited = await http.post('/account/add_user.json', { integration_token: service.integrationToken, user: { invite: true, email: 'email@test.pl', role: 'admin' } });
    expect(invited.status).toBe(201);
    expect(invited.body).toMatchObject({ email: 'email@test.pl', role: 'admin' });
    expect((await http.post('/account/add_user.json', { integration_token: 'wrong', user: { email: 'x@test.pl', password: 'Password123' } })).body).toEqual(UNAUTHORIZED);

    // A client account the partner creates with its own api_token is linked to it.
    const created = await http.post('/account.json', {
      account: { prefix: 'prefix1', lang: 'pl' },
      company: { name: 'Company1', tax_no: '5252445700' },
      integration_token: service.integrationToken,
    });
    expect(created.status, created.text).toBe(201);
    const unlink = (prefix: unknown) =>
      http.raw('PATCH', '/account/unlink.json', {
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({ api_token: service.apiToken, prefix }),
      });
    const first = await unlink(['prefix1', 'SUB_DOMAIN_3']);
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ code: 'success', message: 'Accounts unlinked', result: { unlinked: ['prefix1'], not_unlinked: ['SUB_DOMAIN_3'] } });
    const again = await unlink('prefix1');
    expect(again.status).toBe(422);
    expect(again.body).toEqual({ code: 'error', message: 'No accounts to unlink', result: { not_unlinked: ['prefix1'] } });

    // Deleting: the answer only says the link was sent; the account goes when the link is followed.
    const doomed = api({ url: service.url, apiToken: created.body.api_token });
    await doomed.post('/account/add_user.json', { integration_token: service.integrationToken, user: { email: 'owner@company1.pl', password: 'Password123' } });
    const asked = await doomed.post('/account/delete.json', {});
    expect(asked.body).toEqual({ code: 'success', message: 'The link to delete the account has been sent' });
    expect((await doomed.get('/invoices.json')).status).toBe(200);
    const mail = await service.db.query<{ text_body: string; recipients: unknown }>(`select text_body, recipients from outbox_messages where subject like 'Confirm the deletion%' order by id desc limit 1`);
    expect(JSON.stringify(mail[0]!.recipients)).toContain('owner@company1.pl');
    const link = /(http:\/\/\S+\/account\/delete\/[A-Za-z0-9_-]+)/.exec(mail[0]!.text_body)![1]!;
    expect((await fetch(link)).status).toBe(200);
    expect((await fetch(link, { method: 'POST' })).status).toBe(200);
    expect((await doomed.get('/invoices.json')).body).toEqual(UNAUTHORIZED);
    expect((await fetch(link, { method: 'POST' })).status).toBe(404);
    expect((await http.get('/invoices.json')).status).toBe(200);
  });
});
