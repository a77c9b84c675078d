import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../helpers/service.js';
import { accountWithUser, type AdminBrowser, signIn } from './support/session.js';

/**
 * Tenancy through the back office, resource by resource: what one account's user makes, another
 * account's signed-in user can neither read, change nor delete, nor find in a list; and the
 * account-wide settings each user reads are their own account's.
 */
let service: TestService;
let anna: AdminBrowser;
let piotr: AdminBrowser;

beforeAll(async () => {
  service = await startTestService({ webhooks: { pollMs: 3_600_000 } });
  await accountWithUser(service, { prefix: 'kwiaciarnia', login: 'anna', email: 'anna@kwiaciarnia.example', password: 'róże i tulipany' });
  await accountWithUser(service, { prefix: 'piekarnia', login: 'piotr', email: 'piotr@piekarnia.example', password: 'chleb na zakwasie' });
  anna = await signIn(service, 'anna', 'róże i tulipany');
  piotr = await signIn(service, 'piotr', 'chleb na zakwasie');
}, 60_000);
afterAll(() => service?.stop());

const RESOURCES: [path: string, body: Record<string, unknown>, change: Record<string, unknown>][] = [
  ['/products', { product: { name: 'Bukiet róż', price_gross: '80.00', tax: 8 } }, { product: { name: 'Cudzy bukiet' } }],
  ['/clients', { client: { name: 'Hotel Bristol', tax_no: '5252248481' } }, { client: { name: 'Cudzy klient' } }],
  ['/invoices', { invoice: { kind: 'vat', buyer_name: 'Hotel Bristol', positions: [{ name: 'Bukiet', tax: 8, total_price_gross: '108.00', quantity: 1 }] } }, { invoice: { buyer_name: 'Cudzy' } }],
  ['/banking/payments', { banking_payment: { name: 'Zaliczka', price: '50.00' } }, { banking_payment: { name: 'Cudza' } }],
  ['/webhooks', { webhook: { kind: 'invoice:create', url: 'https://kwiaciarnia.example/hooks/invoices', api_token: 'kwiaciarnia' } }, { webhook: { active: false } }],
  ['/departments', { department: { name: 'Kwiaciarnia — Kraków', tax_no: '5252248481' } }, { department: { name: 'Cudzy oddział' } }],
  ['/categories', { category: { name: 'Bukiety' } }, { category: { name: 'Cudza' } }],
  ['/warehouses', { warehouse: { name: 'Chłodnia' } }, { warehouse: { name: 'Cudzy' } }],
];

describe('another account\'s user', () => {
  for (const [path, body, change] of RESOURCES) {
    it(`can neither read, change, delete nor list ${path}`, async () => {
      const created = await anna.call('POST', `/admin/api${path}.json`, body);
      expect(created.status, created.text).toBe(201);
      const id = created.body.id as number;
      const before = await anna.call('GET', `/admin/api${path}/${id}.json`);
      expect(before.status).toBe(200);

      for (const [method, payload] of [['GET', undefined], ['PUT', change], ['DELETE', undefined]] as const) {
        const reply = await piotr.call(method, `/admin/api${path}/${id}.json`, payload);
        expect(reply.status, `${method} ${path}/${id}`).toBe(404);
        expect(reply.body).toEqual({ code: 'error', message: 'Not found' });
      }
      const theirs = await piotr.call('GET', `/admin/api${path}.json`);
      expect(theirs.status).toBe(200);
      expect((theirs.body as { id: number }[]).some((record) => record.id === id)).toBe(false);
      expect(await anna.call('GET', `/admin/api${path}/${id}.json`)).toMatchObject({ status: 200, body: before.body });
    });
  }

  it('reads its own account\'s settings and overview, never this account\'s', async () => {
    expect((await anna.call('PUT', '/admin/api/account/payments.json', { payments: { provider: 'none' } })).status).toBe(200);
    expect((await anna.call('GET', '/admin/api/account/payments.json')).body.payments).toMatchObject({ provider: 'none', default: false });
    expect((await piotr.call('GET', '/admin/api/account/payments.json')).body.payments).toMatchObject({ provider: 'test', default: true });
    expect((await piotr.call('GET', '/admin/api/account/ksef.json')).body.ksef).toMatchObject({ environment: 'off', token_set: false });
    const departments = (await piotr.call('GET', '/admin/api/departments.json')).body as { name: string }[];
    expect(departments.map((department) => department.name)).toEqual(['piekarnia Ltd']);
  });
});
