import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../helpers/http.js';
import { isolatedDatabaseUrl, killServices, spawnService, copyDataDir, templateDataDir } from '../helpers/service.js';
import { Subscriber, verifySignature } from './support/subscriber.js';

/**
 * A delivery queued with the change it reports survives a SIGKILL of the service: the subscriber,
 * down at the time, receives it from the restarted service once it is back.
 */
const API_TOKEN = 'webhook-durability-token-0123456789';
let dataDir: string;
let databaseUrl = '';

async function startCli() {
  const started = await spawnService(['--data-dir', dataDir, '--webhooks-allow-private'], {
    INVOICEKIT_API_TOKEN: API_TOKEN,
    INVOICEKIT_INTEGRATION_TOKEN: 'webhook-durability-integration',
    INVOICEKIT_WEBHOOK_RETRY_BASE_MS: '200',
    INVOICEKIT_WEBHOOK_RETRY_CAP_MS: '1000',
    INVOICEKIT_WEBHOOK_POLL_MS: '100',
    DATABASE_URL: databaseUrl,
  });
  return { ...started, http: api({ url: started.url, apiToken: API_TOKEN }) };
}

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'invoicekit-webhooks-'));
  // A migrated data dir opens in a fraction of the time a new one takes.
  if (!process.env.DATABASE_URL) await copyDataDir(await templateDataDir(false), dataDir);
  databaseUrl = (await isolatedDatabaseUrl()) ?? '';
});
afterAll(async () => {
  killServices();
  await rm(dataDir, { recursive: true, force: true });
});

describe('webhook deliveries across a SIGKILL', () => {
  it('reach a subscriber that was down, from the restarted service', async () => {
    const subscriber = new Subscriber();
    await subscriber.start();
    const port = subscriber.port;
    await subscriber.stop();

    const first = await startCli();
    const hook = await first.http.post('/webhooks.json', { webhook: { kind: 'invoice:create', url: `http://127.0.0.1:${port}/hook`, api_token: 'shop' } });
    expect(hook.status, hook.text).toBe(201);
    const invoice = await first.http.post('/invoices.json', {
      invoice: { kind: 'vat', buyer_name: 'Client1 SA', positions: [{ name: 'Produkt A1', tax: 23, total_price_gross: 10.23, quantity: 1 }] },
    });
    expect(invoice.status).toBe(201);
    first.child.kill('SIGKILL');
    await first.exited;

    await subscriber.start(port);
    const second = await startCli();
    const entry = await subscriber.waitFor((e) => e.json?.deal?.id === invoice.body.id, 60_000);
    expect(entry.json).toMatchObject({ deal: { id: invoice.body.id, number: invoice.body.number, price_gross: '10.23' }, app_name: 'invoicekit', api_token: 'shop' });
    expect(verifySignature(hook.body.secret, entry.headers['x-invoicekit-signature'] as string, entry.body)).toBe(true);
    const log = (await second.http.get(`/webhooks/${hook.body.id}/deliveries.json`)).body;
    expect(log).toHaveLength(1);
    expect(log[0]).toMatchObject({ status: 'delivered', last_status: 200 });

    second.child.kill('SIGTERM');
    expect(await second.exited).toEqual({ code: 0, signal: null });
    await subscriber.stop();
  }, 150_000);
});
