import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issuePortalToken } from '../../src/bff/portal-token.js';
import { api, type Api, createPlainInvoice } from '../helpers/http.js';
import { makePng } from '../service/support/images.js';
import { startTestService, type TestService } from '../helpers/service.js';
import { accountWithUser, type AdminBrowser, readReply, signIn } from './support/session.js';

/**
 * `/admin/api/*`: the service's own API, answered in-process as the session's account. Tenancy as
 * the API's: another account's session sees nothing of this one, a portal token opens nothing, and
 * the api_token is in no answer.
 */
let service: TestService;
let florist: { id: number; prefix: string; apiToken: string };
let baker: { id: number; prefix: string; apiToken: string };
let floristApi: Api;
let anna: AdminBrowser;
let piotr: AdminBrowser;

beforeAll(async () => {
  service = await startTestService();
  florist = await accountWithUser(service, { prefix: 'kwiaciarnia', login: 'anna', email: 'anna@kwiaciarnia.example', password: 'róże i tulipany' });
  baker = await accountWithUser(service, { prefix: 'piekarnia', login: 'piotr', email: 'piotr@piekarnia.example', password: 'chleb na zakwasie' });
  floristApi = api({ url: service.url, apiToken: florist.apiToken });
  anna = await signIn(service, 'anna', 'róże i tulipany');
  piotr = await signIn(service, 'piotr', 'chleb na zakwasie');
}, 60_000);
afterAll(() => service?.stop());

const BOUQUET = { product: { name: 'Bukiet róż', price_gross: '80.00', tax: 8 } };

describe('the API as the session\'s account', () => {
  it('lists, creates and reads the account\'s records, JSON in and out', async () => {
    const created = await anna.call('POST', '/admin/api/products.json', BOUQUET);
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: 'Bukiet róż', price_gross: '80.0', price_net: '74.07', tax: '8' });
    const viaToken = await floristApi.get(`/products/${created.body.id}.json`);
    expect(viaToken.status).toBe(200);
    expect(viaToken.body).toEqual(created.body);

    const list = await anna.call('GET', '/admin/api/products.json');
    expect(list.status).toBe(200);
    expect(list.body.map((p: { name: string }) => p.name)).toEqual(['Bukiet róż']);
    expect(list.headers.get('content-type')).toBe('application/json');
  });

  it('keeps the query string and the API\'s own errors', async () => {
    const invalid = await anna.call('POST', '/admin/api/products.json', { product: { price_gross: '10.00' } });
    expect(invalid.status).toBe(422);
    expect(invalid.body).toEqual({ code: 'error', message: { name: ["can't be blank"] } });
    const missing = await anna.call('GET', '/admin/api/invoices/999999.json');
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ code: 'error', message: 'Not found' });
    const page = await anna.call('GET', '/admin/api/products.json?page=2&per_page=1');
    expect(page.status).toBe(200);
    expect(page.body).toEqual([]);
  });

  it('writes only with the session\'s CSRF token', async () => {
    for (const csrf of [null, 'x'.repeat(43), piotr.csrf]) {
      const refused = await anna.call('POST', '/admin/api/products.json', BOUQUET, { csrf });
      expect(refused.status).toBe(403);
      expect(refused.body).toEqual({ code: 'error', message: "The request lacks this session's X-CSRF-Token" });
    }
    expect((await anna.call('GET', '/admin/api/products.json', undefined, { csrf: null })).status).toBe(200);
    expect((await floristApi.get('/products.json')).body).toHaveLength(1);
  });

  it('refuses an api_token from the browser, in the query or the body', async () => {
    const query = await anna.call('GET', `/admin/api/products.json?api_token=${baker.apiToken}`);
    expect(query.status).toBe(400);
    expect(query.body).toEqual({ code: 'error', message: 'The back office sends no api_token: the session is the credential' });
    const body = await anna.call('POST', '/admin/api/products.json', { api_token: baker.apiToken, ...BOUQUET });
    expect(body.status).toBe(400);
    const form = await readReply(
      await fetch(`${service.url}/admin/api/products.json`, {
        method: 'POST',
        headers: { cookie: anna.cookie, 'x-csrf-token': anna.csrf, 'content-type': 'application/x-www-form-urlencoded' },
        body: `api_token=${baker.apiToken}&product[name]=Chleb`,
      }),
    );
    expect(form.status).toBe(400);
    expect((await api({ url: service.url, apiToken: baker.apiToken }).get('/products.json')).body).toEqual([]);
  });

  it('takes JSON, forms and files, and refuses an XML body it cannot look into', async () => {
    const xml = await readReply(
      await fetch(`${service.url}/admin/api/products.json`, {
        method: 'POST',
        headers: { cookie: anna.cookie, 'x-csrf-token': anna.csrf, 'content-type': 'application/xml' },
        body: `<product><name>Chleb</name><api_token>${baker.apiToken}</api_token></product>`,
      }),
    );
    expect(xml.status).toBe(415);
    expect(xml.body).toEqual({ code: 'error', message: 'The back office sends JSON, a form or a file' });
  });

  it('has no api_token in any answer, even one the API gives out', async () => {
    // login.json answers the account's api_token to an integration partner; through the back office it is taken out.
    const login = await anna.call('POST', '/admin/api/login.json', { login: 'anna', password: 'róże i tulipany', integration_token: service.integrationToken });
    expect(login.status).toBe(200);
    expect(login.body).toEqual({ login: 'anna', email: 'anna@kwiaciarnia.example', prefix: 'kwiaciarnia', url: service.url, first_name: null, last_name: null });
    expect(login.text).not.toContain(florist.apiToken);
    const xml = await anna.call('POST', '/admin/api/login.xml', { login: 'anna', password: 'róże i tulipany', integration_token: service.integrationToken });
    expect(xml.status).toBe(200);
    expect(xml.text).toContain('<login>anna</login>');
    expect(xml.text).not.toContain(florist.apiToken);
    expect(xml.text).toContain('<api_token>[hidden]</api_token>');
  });

  it('passes a file on as a form, and a picture back as its bytes', async () => {
    const [department] = (await anna.call('GET', '/admin/api/departments.json')).body as { id: number }[];
    const png = makePng(40, 20);
    const form = new FormData();
    form.set('department[logo]', new File([png], 'logo.png', { type: 'image/png' }));
    const uploaded = await readReply(
      await fetch(`${service.url}/admin/api/departments/${department!.id}.json`, { method: 'PUT', body: form, headers: { cookie: anna.cookie, 'x-csrf-token': anna.csrf, accept: 'application/json' } }),
    );
    expect(uploaded.status, uploaded.text).toBe(200);
    expect(uploaded.body.logo_url).toMatch(new RegExp(`/departments/${department!.id}/logo\\?v=`));
    const served = await fetch(`${service.url}/admin/api/departments/${department!.id}/logo`, { headers: { cookie: anna.cookie } });
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await served.arrayBuffer()).equals(png)).toBe(true);
  });

  it('is no way back to the back office\'s own routes', async () => {
    for (const path of ['/admin/api/admin/session', '/admin/api/..%2fadmin%2fsession', '/admin/api/', '/admin/api']) {
      const reply = await anna.call('GET', path);
      expect(reply.status, path).toBe(404);
    }
  });
});

describe('tenancy', () => {
  it('shows another account\'s session nothing of this account', async () => {
    const invoiceId = await createPlainInvoice({ url: service.url, apiToken: florist.apiToken }, 'Hotel Bristol');
    const product = (await floristApi.get('/products.json')).body[0] as { id: number };
    expect((await anna.call('GET', `/admin/api/invoices/${invoiceId}.json`)).body).toMatchObject({ id: invoiceId, buyer_name: 'Hotel Bristol' });

    expect((await piotr.call('GET', `/admin/api/invoices/${invoiceId}.json`)).status).toBe(404);
    expect((await piotr.call('GET', `/admin/api/invoices/${invoiceId}.pdf`)).status).toBe(404);
    expect((await piotr.call('GET', `/admin/api/products/${product.id}.json`)).status).toBe(404);
    expect((await piotr.call('PUT', `/admin/api/products/${product.id}.json`, { product: { name: 'Cudzy' } })).status).toBe(404);
    expect((await piotr.call('DELETE', `/admin/api/invoices/${invoiceId}.json`)).status).toBe(404);
    expect((await piotr.call('GET', '/admin/api/invoices.json')).body).toEqual([]);
    expect((await piotr.call('GET', '/admin/api/products.json')).body).toEqual([]);
    // Nothing was changed by the attempts.
    expect((await floristApi.get(`/products/${product.id}.json`)).body).toMatchObject({ name: 'Bukiet róż' });
    expect((await floristApi.get(`/invoices/${invoiceId}.json`)).status).toBe(200);
  });

  it('opens nothing with a customer\'s portal token, wherever it is put', async () => {
    const token = await issuePortalToken({ clientId: 1 }, 'a portal secret of at least thirty-two characters');
    const tries: RequestInit[] = [
      { headers: { authorization: `Bearer ${token}` } },
      { headers: { cookie: `ik_admin=${token}` } },
      { headers: { 'x-csrf-token': token } },
    ];
    for (const init of tries) {
      for (const path of ['/admin/session', '/admin/api/clients.json', `/admin/api/clients.json?portal_token=${token}`]) {
        const reply = await readReply(await fetch(`${service.url}${path}`, init));
        expect(reply.status, path).toBe(401);
        expect(reply.body).toEqual({ code: 'error', message: 'Sign in to the back office first' });
      }
    }
  });
});

describe('the page', () => {
  it('is one shell for every path, in the browser\'s language, under a strict CSP', async () => {
    for (const [path, accept, lang] of [
      ['/admin/', 'pl-PL,pl;q=0.9,en;q=0.8', 'pl'],
      ['/admin/invoices/12', 'en-GB,en;q=0.9', 'en'],
      ['/admin', 'de-DE,de;q=0.9,pl;q=0.5,en;q=0.4', 'pl'],
      ['/admin/products/new', 'fr', 'en'],
    ] as const) {
      const response = await fetch(`${service.url}${path}`, { headers: { 'accept-language': accept } });
      expect(response.status, path).toBe(200);
      expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(response.headers.get('content-security-policy')).toBe(
        "default-src 'none'; script-src 'self'; connect-src 'self'; img-src 'self' data: blob:; style-src 'self' 'unsafe-inline'; font-src 'self'; frame-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
      );
      expect(response.headers.get('x-frame-options')).toBe('DENY');
      const text = await response.text();
      expect(text).toContain(`<html lang="${lang}">`);
      expect(text).toContain('<script type="module" src="/admin/assets/admin.js"></script>');
      expect(text).toContain('<ik-admin-app></ik-admin-app>');
    }
  });

  it('serves the script it loads, revalidated by its hash', async () => {
    const response = await fetch(`${service.url}/admin/assets/admin.js`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(response.headers.get('cache-control')).toBe('no-cache');
    const etag = response.headers.get('etag')!;
    expect(etag).toMatch(/^"[A-Za-z0-9_-]{16}"$/);
    // The build's bundle or the sources bundled now (whichever is newer): each quotes in its own way.
    expect(await response.text()).toMatch(/customElements\.define\((["'`])ik-admin-app\1/);
    const again = await fetch(`${service.url}/admin/assets/admin.js`, { headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
  }, 60_000);

  it('answers an unknown asset 404, and the API 401 without a session', async () => {
    expect((await fetch(`${service.url}/admin/assets/admin.css`)).status).toBe(404);
    expect((await fetch(`${service.url}/admin/assets/other.js`)).status).toBe(404);
    const api401 = await readReply(await fetch(`${service.url}/admin/api/products.json`));
    expect(api401.status).toBe(401);
    expect(api401.body).toEqual({ code: 'error', message: 'Sign in to the back office first' });
  });
});
