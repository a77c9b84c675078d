import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createInvoicingClient } from '../../src/api/index.js';
import { startKsefDouble, type RunningKsefDouble } from '../../src/service/ksef/double/server.js';
import { startTestService, type TestService } from '../helpers/service.js';
import { Przelewy24StandIn } from '../service/support/przelewy24-standin.js';
import { StripeStandIn } from '../service/support/stripe-standin.js';
import { accountWithUser, type AdminBrowser, signIn } from './support/session.js';

/**
 * "Test connection" of the payment provider (`POST /account/connection_tests/payments`) and of KSeF
 * (`…/ksef`), from the back office, against stand-ins of Stripe and Przelewy24 answering as their
 * references do, and the bundled KSeF double.
 */
const TEST_KEY = 'sk_test_51StandInKey000000000000';
const WEBHOOK_SECRET = 'whsec_standinSigningSecret0000000000';
const MERCHANT = { merchantId: 123456, posId: 123456, crc: 'a1b2c3d4e5f60718', apiKey: 'f0e1d2c3b4a5968778695a4b3c2d1e0f' };

let stripe: StripeStandIn;
let p24: Przelewy24StandIn;
let service: TestService;
let shop: { id: number; prefix: string; apiToken: string };
let anna: AdminBrowser;
let ksef: RunningKsefDouble;

beforeAll(async () => {
  stripe = new StripeStandIn([TEST_KEY]);
  p24 = new Przelewy24StandIn(MERCHANT);
  await Promise.all([stripe.server.start(), p24.server.start()]);
  process.env.INVOICEKIT_STRIPE_API_URL = stripe.url;
  process.env.INVOICEKIT_P24_API_URL = `${p24.url}/api/v1`;
  ksef = await startKsefDouble();
  service = await startTestService({ ksef: { localOrigin: ksef.origin, senderIntervalMs: 3_600_000 } });
  shop = await accountWithUser(service, { prefix: 'kwiaciarnia', login: 'anna', email: 'anna@kwiaciarnia.example', password: 'róże i tulipany' });
  anna = await signIn(service, 'anna', 'róże i tulipany');
}, 60_000);
afterAll(async () => {
  await service?.stop();
  await Promise.all([stripe?.server.stop(), p24?.server.stop(), ksef?.close()]);
  delete process.env.INVOICEKIT_STRIPE_API_URL;
  delete process.env.INVOICEKIT_P24_API_URL;
});

const testConnection = () => anna.call('POST', '/admin/api/account/connection_tests/payments.json');
const choose = (payments: Record<string, unknown>) => anna.call('PUT', '/admin/api/account/payments.json', { payments });

describe('testing the payment provider\'s connection', () => {
  it('says the test provider needs nothing while it is the default', async () => {
    const reply = await testConnection();
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({ ok: true, target: 'test', test_mode: true, message: 'The test provider needs no keys: its Pay and Decline pages record payments, and no money moves.' });
  });

  it('asks Stripe for the balance with the stored key, and says what Stripe answered', async () => {
    expect((await choose({ provider: 'stripe', stripe: { secret_key: TEST_KEY, webhook_secret: WEBHOOK_SECRET } })).status).toBe(200);
    const before = stripe.apiRequests.length;
    const reply = await testConnection();
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({ ok: true, target: 'stripe', test_mode: true, message: "Stripe accepted the key and read the account's balance (test mode)." });
    const asked = stripe.apiRequests.slice(before);
    expect(asked.map((request) => [request.method, request.path, request.headers.authorization])).toEqual([['GET', '/v1/balance', `Bearer ${TEST_KEY}`]]);
    expect(reply.text).not.toContain(TEST_KEY);

    expect((await choose({ stripe: { secret_key: 'sk_test_51WrongKey0000000000000' } })).status).toBe(200);
    const refused = await testConnection();
    expect(refused.body).toEqual({ ok: false, target: 'stripe', test_mode: true, message: 'Stripe refused the key (401): Invalid API Key provided: sk_test_****' });

    await stripe.server.stop();
    try {
      const down = await testConnection();
      expect(down.status).toBe(200);
      expect(down.body).toMatchObject({ ok: false, target: 'stripe', test_mode: true });
      expect(down.body.message).toMatch(/^Stripe could not be reached: /);
    } finally {
      await stripe.server.start();
    }
  });

  it('asks Przelewy24 testAccess with the POS id and API key', async () => {
    const keys = { merchant_id: MERCHANT.merchantId, pos_id: MERCHANT.posId, crc: MERCHANT.crc, api_key: MERCHANT.apiKey, sandbox: true };
    expect((await choose({ provider: 'przelewy24', przelewy24: keys })).status).toBe(200);
    const reply = await testConnection();
    expect(reply.body).toEqual({ ok: true, target: 'przelewy24', test_mode: true, message: 'Przelewy24 accepted the POS id and API key (sandbox).' });
    expect(p24.server.requests.at(-1)).toMatchObject({ method: 'GET', path: '/api/v1/testAccess' });
    expect(reply.text).not.toContain(MERCHANT.apiKey);

    expect((await choose({ przelewy24: { api_key: '00000000000000000000000000000000' } })).status).toBe(200);
    const refused = await testConnection();
    expect(refused.body).toEqual({ ok: false, target: 'przelewy24', test_mode: true, message: 'Przelewy24 refused the POS id and API key (401): Incorrect authentication' });
  });

  it('names the missing choice when online payment is off, and works through the typed client too', async () => {
    expect((await choose({ provider: 'none' })).status).toBe(200);
    const reply = await testConnection();
    expect(reply.status).toBe(422);
    expect(reply.body).toEqual({ code: 'error', message: { provider: ['is none: choose a payment provider first'] } });
    expect((await choose({ provider: 'test' })).status).toBe(200);
    const client = createInvoicingClient({ baseUrl: service.url, apiToken: shop.apiToken });
    expect(await client.seller.testPaymentConnection()).toMatchObject({ ok: true, target: 'test' });
    expect((await anna.call('POST', '/admin/api/account/connection_tests/payments.json', undefined, { csrf: null })).status).toBe(403);
  });
});

describe('testing the KSeF connection', () => {
  const ksefTest = () => anna.call('POST', '/admin/api/account/connection_tests/ksef.json');

  it('asks for an environment first, then authenticates with the token for the seller\'s NIP', async () => {
    const off = await ksefTest();
    expect(off.status).toBe(422);
    expect(off.body).toEqual({ code: 'error', message: { environment: ['is off: choose a KSeF environment first'] } });

    const [department] = (await anna.call('GET', '/admin/api/departments.json')).body as { id: number }[];
    expect((await anna.call('PUT', `/admin/api/departments/${department!.id}.json`, { department: { tax_no: '525-224-84-81', street: 'ul. Kwiatowa 1', post_code: '00-001', city: 'Warszawa', country: 'PL' } })).status).toBe(200);
    const token = ksef.issueToken('5252248481');
    expect((await anna.call('PUT', '/admin/api/account/ksef.json', { ksef: { environment: 'local', token } })).status).toBe(200);
    const reply = await ksefTest();
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({ ok: true, target: 'local', test_mode: true, message: 'KSeF (local) accepted the token for NIP 5252248481.' });
    expect(reply.text).not.toContain(token);
    expect(await createInvoicingClient({ baseUrl: service.url, apiToken: shop.apiToken }).seller.testKsefConnection()).toEqual(reply.body);
  });

  it('sends one invoice to KSeF with a POST that carries the CSRF token, and so does the GET that sends', async () => {
    const created = await anna.call('POST', '/admin/api/invoices.json', {
      invoice: { kind: 'vat', buyer_name: 'Hotel Bristol Sp. z o.o.', buyer_tax_no: '9876543210', buyer_company: true, buyer_street: 'Krakowskie Przedmieście 42', buyer_post_code: '00-325', buyer_city: 'Warszawa', buyer_country: 'PL', positions: [{ name: 'Bukiet', tax: 8, total_price_gross: '108.00', quantity: 1 }] },
    });
    expect(created.status, created.text).toBe(201);
    const id = created.body.id as number;
    expect((await anna.call('POST', `/admin/api/invoices/${id}/send_to_ksef.json`, undefined, { csrf: null })).status).toBe(403);
    // The API's read that sends is a write too: not without the token.
    expect((await anna.call('GET', `/admin/api/invoices/${id}.json?send_to_ksef=yes`)).status).toBe(403);
    expect(await service.db.query('select 1 from ksef_jobs where invoice_id = $1', [id])).toEqual([]);
    const sent = await anna.call('POST', `/admin/api/invoices/${id}/send_to_ksef.json`);
    expect(sent.status).toBe(200);
    expect(sent.body).toMatchObject({ id, gov_status: 'demo_processing' });
    const jobs = await service.db.query<{ state: string; environment: string }>('select state, environment from ksef_jobs where invoice_id = $1', [id]);
    expect(jobs).toEqual([{ state: 'queued', environment: 'local' }]);
    // Sent again while on its way: still the one job.
    expect((await anna.call('POST', `/admin/api/invoices/${id}/send_to_ksef.json`)).status).toBe(200);
    expect(await service.db.query('select 1 from ksef_jobs where invoice_id = $1', [id])).toHaveLength(1);
    const stranger = await accountWithUser(service, { prefix: 'obcy', login: 'obcy', email: 'obcy@example.com', password: 'cudze konto' });
    const otherClient = createInvoicingClient({ baseUrl: service.url, apiToken: stranger.apiToken, retry: 0 });
    await expect(otherClient.seller.sendToKsef(id)).rejects.toMatchObject({ status: 404 });
    expect(await createInvoicingClient({ baseUrl: service.url, apiToken: shop.apiToken }).seller.sendToKsef(id)).toMatchObject({ id, gov_status: 'demo_processing' });
  });

  it('says what KSeF answered a token it does not know', async () => {
    expect((await anna.call('PUT', '/admin/api/account/ksef.json', { ksef: { token: 'not-a-token-of-this-double' } })).status).toBe(200);
    const reply = await ksefTest();
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({
      ok: false,
      target: 'local',
      test_mode: true,
      message: 'KSeF refused the token: Uwierzytelnianie zakończone niepowodzeniem z powodu błędnego tokenu (450): Nieprawidłowy token',
    });
  });
});
