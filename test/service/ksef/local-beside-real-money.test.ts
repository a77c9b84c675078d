import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localKsefRefusal } from '../../../src/service/ksef/local.js';
import { startService } from '../../../src/service/server.js';
import { api, type Api, secondAccount } from '../../helpers/http.js';
import { killServices, spawnService, startTestService, type TestService } from '../../helpers/service.js';

/** The local KSeF double mints tokens for any NIP: it never runs, nor is chosen, beside real money. */
const TEST_KEY = 'sk_test_51StandInKey000000000000';
const LIVE_KEY = 'sk_live_51StandInKey000000000000';
const P24 = { merchant_id: 11111, pos_id: 11111, crc: 'crc0123456789abc', api_key: 'apikey0123456789abcdef0123456789' };

let service: TestService;
let shop: Api;

beforeAll(async () => {
  service = await startTestService({ ksef: { localOrigin: 'http://127.0.0.1:9' } });
  shop = api(service);
});
afterAll(async () => {
  await service?.stop();
  killServices();
});

const payments = (body: Record<string, unknown>, as = shop) => as.put('/account/payments.json', { payments: body });
const ksef = (environment: string, as = shop) => as.put('/account/ksef.json', { ksef: { environment } });

describe('the local KSeF beside real money', () => {
  it('cannot be chosen by an account that takes live Stripe payments, and says why', async () => {
    expect((await payments({ provider: 'stripe', stripe: { secret_key: LIVE_KEY, webhook_secret: 'whsec_x' } })).status).toBe(200);
    const refused = await ksef('local');
    expect(refused.status).toBe(422);
    expect(refused.body).toEqual({
      code: 'error',
      message: { 'ksef.environment': ['cannot be local while the account takes real payments (stripe.secret_key is a live key): the local KSeF is a test double that never runs beside real money'] },
    });
    expect((await shop.get('/account/ksef.json')).body).toMatchObject({ ksef: { environment: 'off' } });
    // With a test key it may.
    expect((await payments({ stripe: { secret_key: TEST_KEY } })).status).toBe(200);
    expect((await ksef('local')).status).toBe(200);
  });

  it('keeps an account on the local KSeF from taking live keys or Przelewy24 production', async () => {
    const live = await payments({ provider: 'stripe', stripe: { secret_key: LIVE_KEY, webhook_secret: 'whsec_x' } });
    expect(live.status).toBe(422);
    expect(live.body).toEqual({
      code: 'error',
      message: { 'stripe.secret_key': ['is a live key: an account whose invoices go to the local KSeF (a test double) cannot take real payments; use a test key or another KSeF environment'] },
    });
    const production = await payments({ provider: 'przelewy24', przelewy24: { ...P24, sandbox: false } });
    expect(production.status).toBe(422);
    expect(production.body).toEqual({
      code: 'error',
      message: { 'przelewy24.sandbox': ['must be true: an account whose invoices go to the local KSeF (a test double) cannot take real payments; use the sandbox or another KSeF environment'] },
    });
    expect((await shop.get('/account/payments.json')).body).toMatchObject({ payments: { provider: 'stripe', stripe: { key_mode: 'test' } } });
    expect((await payments({ provider: 'przelewy24', przelewy24: { ...P24, sandbox: true } })).status).toBe(200);
  });

  it('names each account that takes real payments or uses another KSeF environment', async () => {
    expect(await localKsefRefusal(service.db)).toBeUndefined();
    const other = await secondAccount(service, 'live-shop');
    expect((await payments({ provider: 'stripe', stripe: { secret_key: LIVE_KEY, webhook_secret: 'whsec_x' } }, other)).status).toBe(200);
    await service.db.query(`insert into ksef_settings (account_id, environment) select id, 'prod' from accounts where prefix = 'live-shop'`);
    expect(await localKsefRefusal(service.db)).toBe(
      'The local KSeF (a test double that issues tokens for any NIP) does not run beside real money or a real KSeF: ' +
        'account "live-shop" takes real payments (a live Stripe key); account "live-shop" sends invoices to the KSeF environment "prod". Start the service without --ksef-local.',
    );
  });

  it('refuses to start with `invoicekit service --ksef-local` beside an account with a live key', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'invoicekit-ksef-live-'));
    try {
      const apiToken = 'ksef-live-token';
      const first = await startService({ port: 0, dataDir, apiToken });
      const reply = await api({ url: first.url, apiToken }).put('/account/payments.json', {
        payments: { provider: 'stripe', stripe: { secret_key: LIVE_KEY, webhook_secret: 'whsec_x' } },
      });
      expect(reply.status).toBe(200);
      await first.close();
      await expect(spawnService(['--ksef-local', '--ksef-local-port', '0', '--quiet', '--data-dir', dataDir], { INVOICEKIT_API_TOKEN: apiToken, DATABASE_URL: '' })).rejects.toThrow(
        'The local KSeF (a test double that issues tokens for any NIP) does not run beside real money or a real KSeF: account "demo" takes real payments (a live Stripe key). Start the service without --ksef-local.',
      );
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});
