import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServiceApp } from '../../src/service/app.js';
import { openDatabase } from '../../src/service/db.js';
import { startService } from '../../src/service/server.js';
import type { RowHooks } from '../../src/service/store.js';
import { webhookRowHooks } from '../../src/service/webhooks/deliveries.js';
import { api, type Api } from '../helpers/http.js';
import { isolatedDatabaseUrl, copyDataDir, templateDataDir } from '../helpers/service.js';

/**
 * Whether a write queues webhook deliveries is decided where the service is composed, by the row
 * hooks given to `openDatabase`, not by which modules happen to be imported: the same data served
 * by an app composed without them queues nothing, and with them queues a delivery per listening
 * webhook. `startService` composes with them.
 */
let dataDir: string;
let databaseUrl: string | undefined;
const apiToken = `test-${randomBytes(12).toString('hex')}`;
const integrationToken = `integration-${randomBytes(8).toString('hex')}`;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'invoicekit-row-hooks-'));
  if (!process.env.DATABASE_URL) await copyDataDir(await templateDataDir(false), dataDir);
  databaseUrl = await isolatedDatabaseUrl();
});
afterAll(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

/** The service's HTTP app over this test's data, composed by hand with the given row hooks, on an ephemeral port. */
async function composed(rowHooks: RowHooks[] | undefined, work: (http: Api, deliveries: () => Promise<number>) => Promise<void>): Promise<void> {
  const db = await openDatabase({ dataDir, databaseUrl, ...(rowHooks ? { rowHooks } : {}) });
  const app = createServiceApp({ db, integrationToken, publicUrl: 'http://127.0.0.1', allowPrivateWebhooks: true });
  const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const deliveries = async () => (await db.query<{ n: number }>('select count(*)::int as n from webhook_deliveries'))[0]!.n;
  try {
    await work(api({ url, apiToken }), deliveries);
  } finally {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await db.close();
  }
}

async function writeListenedRecords(http: Api): Promise<void> {
  const client = await http.post('/clients.json', { client: { name: 'Klient1', tax_no: '6272616681' } });
  expect(client.status, client.text).toBe(201);
  const invoice = await http.post('/invoices.json', {
    invoice: { kind: 'vat', client_id: client.body.id, positions: [{ name: 'Produkt A1', tax: 23, total_price_gross: 10.23, quantity: 1 }] },
  });
  expect(invoice.status, invoice.text).toBe(201);
}

describe('webhook row hooks', () => {
  it('queue deliveries when startService composes the service, and only when an app is composed with them', async () => {
    const service = await startService({ port: 0, host: '127.0.0.1', dataDir, databaseUrl, apiToken, integrationToken, webhooks: { pollMs: 60_000 } });
    try {
      const http = api(service);
      for (const kind of ['client:create', 'invoice:create']) {
        const hook = await http.post('/webhooks.json', { webhook: { kind, url: 'https://hooks.example.com/invoicekit', api_token: 'subscriber-token', active: true } });
        expect(hook.status, hook.text).toBe(201);
      }
      await writeListenedRecords(http);
      const queued = await service.db.query<{ kind: string }>('select kind from webhook_deliveries order by id');
      expect(queued.map((row) => row.kind)).toEqual(['client:create', 'invoice:create']);
    } finally {
      await service.close();
    }

    await composed(undefined, async (http, deliveries) => {
      await writeListenedRecords(http);
      expect(await deliveries()).toBe(2);
    });

    const told: string[] = [];
    const hooks = webhookRowHooks({ queued: () => told.push('queued') });
    await composed([hooks], async (http, deliveries) => {
      await writeListenedRecords(http);
      expect(await deliveries()).toBe(4);
      expect(told).toEqual(['queued', 'queued']);
    });
  });
});
