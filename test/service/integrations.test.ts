import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../helpers/service.js';

let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(() => service.stop());

const UNAUTHORIZED = { code: 'error', message: 'You must be logged in to gain access to the site' };

async function postJson(path: string, body: unknown) {
  const response = await fetch(`${service.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

async function getJson(path: string) {
  const response = await fetch(`${service.url}${path}`, { headers: { accept: 'application/json' } });
  return { status: response.status, body: (await response.json()) as unknown };
}

describe('integrations (spec §4.8)', () => {
  it('creates an account with owner and company data, logs in and adds a user', async () => {
    const created = await postJson('/account.json', {
      api_token: service.apiToken,
      account: { prefix: 'partner-shop' },
      user: { login: 'partner_owner', email: 'owner@partner-shop.example', password: 'correct horse battery', from_partner: 'PARTNER1' },
      company: { name: 'Partner Shop Sp. z o.o.', tax_no: '5252248481', post_code: '00-001', city: 'Warszawa', street: 'ul. Nowa 1', person: 'Jan Kowalski', bank: 'Bank', bank_account: 'PL61109010140000071219812874' },
      integration_token: service.integrationToken,
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ prefix: 'partner-shop', login: 'partner_owner', email: 'owner@partner-shop.example', url: service.url });
    const token = created.body.api_token as string;
    expect(token).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    expect(token).not.toBe(service.apiToken);

    const login = await postJson('/login.json', { login: 'partner_owner', password: 'correct horse battery', integration_token: service.integrationToken });
    expect(login.status).toBe(200);
    expect(login.body).toEqual({
      login: 'partner_owner',
      email: 'owner@partner-shop.example',
      prefix: 'partner-shop',
      url: service.url,
      first_name: null,
      last_name: null,
      api_token: token,
    });

    const account = await getJson(`/account.json?api_token=${token}&integration_token=${service.integrationToken}`);
    expect(account.status).toBe(200);
    expect(account.body).toMatchObject({ prefix: 'partner-shop', name: 'Partner Shop Sp. z o.o.', url: service.url });

    // The new account's seller is the company it was created with.
    const departments = (await getJson(`/departments.json?api_token=${token}`)).body as Record<string, unknown>[];
    expect(departments).toHaveLength(1);
    expect(departments[0]).toMatchObject({ name: 'Partner Shop Sp. z o.o.', tax_no: '5252248481', city: 'Warszawa', main: true });

    const added = await postJson('/users.json', {
      api_token: token,
      user: { email: 'accountant@partner-shop.example', password: 'another long secret' },
      integration_token: service.integrationToken,
    });
    expect(added.status).toBe(201);
    expect(added.body).toMatchObject({ login: 'accountant@partner-shop.example', email: 'accountant@partner-shop.example', prefix: 'partner-shop' });
    const second = await postJson('/login.json', { login: 'accountant@partner-shop.example', password: 'another long secret', integration_token: service.integrationToken });
    expect(second.body.api_token).toBe(token);
  });

  it('gives each new token its own empty account that sees nothing of the demo account', async () => {
    const demoInvoice = await postJson('/invoices.json', {
      api_token: service.apiToken,
      invoice: { buyer_name: 'Demo buyer', positions: [{ name: 'A', tax: 23, total_price_gross: 10, quantity: 1 }] },
    });
    expect(demoInvoice.status).toBe(201);
    const user = await postJson('/users.json', {
      user: { email: 'solo@freelancer.example', password: 'solo password 1' },
      integration_token: service.integrationToken,
    });
    expect(user.status).toBe(201);
    expect(user.body.prefix).toBe('solo');
    const login = await postJson('/login.json', { login: 'solo@freelancer.example', password: 'solo password 1', integration_token: service.integrationToken });
    const token = login.body.api_token as string;
    expect((await getJson(`/invoices.json?api_token=${token}`)).body).toEqual([]);
    expect((await getJson(`/invoices/${String(demoInvoice.body.id)}.json?api_token=${token}`))).toEqual({ status: 404, body: { code: 'error', message: 'Not found' } });
    expect((await getJson(`/account.json?api_token=${token}&integration_token=${service.integrationToken}`)).body).toMatchObject({ prefix: 'solo' });
  });

  it('gives a taken prefix a free variant', async () => {
    const first = await postJson('/account.json', { account: { prefix: 'twin' }, integration_token: service.integrationToken });
    const second = await postJson('/account.json', { account: { prefix: 'twin' }, integration_token: service.integrationToken });
    expect([first.status, second.status]).toEqual([201, 201]);
    expect(first.body.prefix).toBe('twin');
    expect(second.body.prefix).toBe('twin-2');
    expect(second.body.api_token).not.toBe(first.body.api_token);
  });

  it('answers 401 for a wrong or missing integration_token, and a wrong password', async () => {
    expect(await postJson('/account.json', { account: { prefix: 'nope' }, integration_token: 'wrong' })).toEqual({ status: 401, body: UNAUTHORIZED });
    expect(await postJson('/users.json', { user: { email: 'x@y.example', password: 'long enough' } })).toEqual({ status: 401, body: UNAUTHORIZED });
    expect(await postJson('/login.json', { login: 'partner_owner', password: 'correct horse battery', integration_token: 'wrong' })).toEqual({ status: 401, body: UNAUTHORIZED });
    expect(await postJson('/login.json', { login: 'partner_owner', password: 'wrong password', integration_token: service.integrationToken })).toEqual({ status: 401, body: UNAUTHORIZED });
    expect(await getJson(`/account.json?api_token=${service.apiToken}&integration_token=wrong`)).toEqual({ status: 401, body: UNAUTHORIZED });
    expect(await getJson(`/account.json?api_token=wrong&integration_token=${service.integrationToken}`)).toEqual({ status: 401, body: UNAUTHORIZED });
  });

  it('validates what it creates and never stores a password in plain text', async () => {
    const bad = await postJson('/account.json', { account: { prefix: '!' }, user: { email: 'not-an-email', password: 'short' }, integration_token: service.integrationToken });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.message as object).sort()).toEqual(['account.prefix', 'user.email', 'user.password']);
    const taken = await postJson('/users.json', { user: { email: 'solo@freelancer.example', password: 'solo password 1' }, integration_token: service.integrationToken });
    expect(taken).toEqual({ status: 422, body: { code: 'error', message: { 'user.login': ['has already been taken'] } } });
    const stored = await service.db.query<{ password_hash: string }>(`select password_hash from users`);
    expect(stored.length).toBeGreaterThanOrEqual(3);
    for (const row of stored) {
      expect(row.password_hash).toMatch(/^scrypt\$/);
      expect(row.password_hash).not.toContain('password');
    }
  });
});
