import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createInvoicingClient } from '../../src/api/index.js';
import { api } from '../helpers/http.js';
import { startTestService, type TestService } from '../helpers/service.js';
import { accountWithUser, signIn } from './support/session.js';

/** `POST /account/api_token/rotate`: the new token answered once, the old one a 401 at once. */
let service: TestService;
let florist: { id: number; prefix: string; apiToken: string };

beforeAll(async () => {
  service = await startTestService();
  florist = await accountWithUser(service, { prefix: 'kwiaciarnia', login: 'anna', email: 'anna@kwiaciarnia.example', password: 'róże i tulipany' });
}, 60_000);
afterAll(() => service?.stop());

const UNAUTHORIZED = { code: 'error', message: 'You must be logged in to gain access to the site' };

describe('rotating the api_token', () => {
  it('from the back office: shown once, with the CSRF token only, the old one refused at once', async () => {
    const anna = await signIn(service, 'anna', 'róże i tulipany');
    expect((await anna.call('POST', '/admin/api/account/api_token/rotate.json', undefined, { csrf: null })).status).toBe(403);
    expect((await api({ url: service.url, apiToken: florist.apiToken }).get('/products.json')).status).toBe(200);

    const rotated = await anna.call('POST', '/admin/api/account/api_token/rotate.json');
    expect(rotated.status).toBe(200);
    expect(rotated.headers.get('cache-control')).toBe('no-store');
    const fresh = rotated.body.api_token as string;
    expect(rotated.body).toEqual({ api_token: fresh });
    expect(fresh).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(fresh).not.toBe(florist.apiToken);

    const old = await api({ url: service.url, apiToken: florist.apiToken }).get('/products.json');
    expect(old.status).toBe(401);
    expect(old.body).toEqual(UNAUTHORIZED);
    expect((await api({ url: service.url, apiToken: fresh }).get('/products.json')).status).toBe(200);

    // The session goes on, as the account, under the new token; and no other answer shows it.
    expect((await anna.call('GET', '/admin/api/products.json')).status).toBe(200);
    const login = await anna.call('POST', '/admin/api/login.json', { login: 'anna', password: 'róże i tulipany', integration_token: service.integrationToken });
    expect(login.status).toBe(200);
    expect(login.text).not.toContain(fresh);
    expect(login.body.api_token).toBeUndefined();
  });

  it('through the typed client, with the account\'s token', async () => {
    const account = await accountWithUser(service, { prefix: 'piekarnia', login: 'piotr', email: 'piotr@piekarnia.example', password: 'chleb na zakwasie' });
    const client = createInvoicingClient({ baseUrl: service.url, apiToken: account.apiToken, retry: 0 });
    const { api_token: fresh } = await client.seller.rotateApiToken();
    expect(fresh).toMatch(/^[A-Za-z0-9_-]{32}$/);
    await expect(client.products.list()).rejects.toMatchObject({ status: 401 });
    expect(await createInvoicingClient({ baseUrl: service.url, apiToken: fresh }).products.list()).toEqual([]);
    // Another account's token is untouched.
    expect((await api({ url: service.url, apiToken: service.apiToken }).get('/products.json')).status).toBe(200);
  });
});
