import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issuePortalToken } from '../../src/bff/index.js';
import { bearer, json, PORTAL_SECRET, startService, startTestBff, type Api, type Service, type TestBff } from './support.js';

/** What a customer may change of their own client record, and how the BFF checks it for invoicing. */
let service: Service;
let api: Api;
let bff: TestBff;
let clientId: number;
let token: string;

beforeAll(async () => {
  ({ service, api } = await startService());
  bff = await startTestBff(service, { signup: true });
  const client = await api.clients.create({ name: 'Nowak Design Sp. z o.o.', tax_no: '5252445767', email: 'biuro@nowak.example', country: 'PL', note: 'Pays late', external_id: 'crm-7', kind: 'buyer' });
  clientId = client.id;
  token = await issuePortalToken({ clientId, ttlSeconds: 600 }, PORTAL_SECRET);
}, 60_000);

afterAll(async () => {
  await bff?.close();
  await service?.stop();
});

const put = (body: unknown) =>
  fetch(`${bff.base}/client`, { method: 'PUT', headers: { ...bearer(token), 'content-type': 'application/json' }, body: JSON.stringify(body) });
const signUp = (body: unknown) => fetch(`${bff.base}/clients`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

describe('PUT /bff/client', () => {
  it('changes the documented fields, bank details and the company flag included', async () => {
    const response = await put({ bank: 'mBank', bank_account: 'PL61 1090 1014 0000 0712 1981 2874', company: false, post_code: '00-838', country: 'pl', tax_no: 'PL 525-244-57-67' });
    expect(response.status).toBe(200);
    expect(await json(response)).toMatchObject({ id: clientId, bank: 'mBank', bank_account: 'PL61 1090 1014 0000 0712 1981 2874', company: false, country: 'PL' });
    const stored = await api.clients.get(clientId);
    expect(stored).toMatchObject({ bank: 'mBank', company: false, country: 'PL', note: 'Pays late', external_id: 'crm-7', kind: 'buyer' });
    await put({ company: true });
    expect((await api.clients.get(clientId)).company).toBe(true);
  });

  it('refuses what an invoice cannot carry, naming each field, and changes nothing', async () => {
    const before = await api.clients.get(clientId);
    const response = await put({
      tax_no: '5252445768',
      bank_account: 'PL61109010140000071219812875',
      post_code: '00838',
      country: 'Poland',
      email: 'biuro@',
      phone: 'call me',
    });
    expect(response.status).toBe(422);
    expect((await json(response)).error.fields).toEqual({
      tax_no: ['is not a valid NIP (the check digit does not match)'],
      bank_account: ['is not a valid IBAN (check the length and digits)'],
      country: ['must be a two-letter ISO 3166-1 country code'],
      email: ['is not an e-mail address'],
      phone: ['is not a phone number'],
    });
    const vat = await put({ tax_no: 'DE13669597', country: 'DE', post_code: '1011' });
    expect((await json(vat)).error.fields).toEqual({
      tax_no: ['is not a valid VAT number of its country (the check digits do not match)'],
      post_code: ['is not a post code of the chosen country'],
    });
    expect((await api.clients.get(clientId)).updated_at).toBe(before.updated_at);
  });

  it('lets no one change what decides whose invoices are whose or how the account sees the client', async () => {
    const response = await put({ kind: 'seller', external_id: 'crm-1', note: 'VIP', token: 'x', id: 1, client_id: 1, department_id: 1 });
    expect(response.status).toBe(422);
    expect(Object.keys((await json(response)).error.fields).sort()).toEqual(['client_id', 'department_id', 'external_id', 'id', 'kind', 'note', 'token']);
    expect(await api.clients.get(clientId)).toMatchObject({ kind: 'buyer', external_id: 'crm-7', note: 'Pays late' });
    expect((await put({ company: 'yes' })).status).toBe(422);
  });

  it('passes the service’s own limits through as field errors', async () => {
    const response = await put({ bank: 'b'.repeat(201) });
    expect(response.status).toBe(422);
    expect((await json(response)).error.fields).toEqual({ bank: ['is too long (maximum is 200 characters)'] });
  });
});

describe('POST /bff/clients', () => {
  it('signs up a private person or a company with valid details, and refuses invalid ones', async () => {
    const person = await signUp({ name: 'Anna Kowalska', email: 'anna.kowalska@example.com', company: false, country: 'PL' });
    expect(person.status).toBe(201);
    const { client } = await json(person);
    expect(client).toMatchObject({ name: 'Anna Kowalska', company: false, country: 'PL' });
    expect((await api.clients.get(client.id)).kind).toBe('buyer');

    const company = await signUp({ name: 'Müller GmbH', tax_no: 'DE136695976', email: 'rechnung@mueller.example', country: 'DE', post_code: '10115', bank_account: 'DE89 3704 0044 0532 0130 00' });
    expect(company.status).toBe(201);

    const bad = await signUp({ name: '', email: '', tax_no: 'ATU1358562' });
    expect(bad.status).toBe(422);
    expect((await json(bad)).error.fields).toEqual({
      name: ["can't be blank"],
      email: ["can't be blank"],
      tax_no: ['is not a valid VAT number of its country (the check digits do not match)'],
    });
    expect((await signUp({ name: 'X', email: 'x@example.com', kind: 'seller' })).status).toBe(422);
  });
});
