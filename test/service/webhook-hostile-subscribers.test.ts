import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, type Api } from '../helpers/http.js';
import { copyDataDir, isolatedDatabaseUrl, isRunning, killServices, type ServiceProcess, spawnService, templateDataDir } from '../helpers/service.js';
import { HostileSubscriber } from './support/hostile-subscriber.js';

/**
 * Finding 1 of issue 42: a subscriber that answers before reading a 180 KB body and closes the
 * connection made the body's write fail after the request's error handler was gone, and the
 * uncaught EPIPE ended the process. The service runs as its own process here, so a crash is seen
 * as the process exiting.
 */
const API_TOKEN = 'hostile-subscribers-token-0123456789';
let dataDir: string;
let service: ServiceProcess;
let http: Api;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'invoicekit-hostile-'));
  if (!process.env.DATABASE_URL) await copyDataDir(await templateDataDir(false), dataDir);
  service = await spawnService(['--data-dir', dataDir, '--webhooks-allow-private'], {
    INVOICEKIT_API_TOKEN: API_TOKEN,
    INVOICEKIT_INTEGRATION_TOKEN: 'hostile-subscribers-integration',
    INVOICEKIT_WEBHOOK_RETRY_BASE_MS: '100',
    INVOICEKIT_WEBHOOK_RETRY_CAP_MS: '200',
    INVOICEKIT_WEBHOOK_POLL_MS: '50',
    INVOICEKIT_WEBHOOK_MAX_ATTEMPTS: '3',
    INVOICEKIT_WEBHOOK_TIMEOUT_MS: '1500',
    DATABASE_URL: (await isolatedDatabaseUrl()) ?? '',
  });
  http = api({ url: service.url, apiToken: API_TOKEN });
}, 120_000);
afterAll(async () => {
  killServices();
  await rm(dataDir, { recursive: true, force: true });
});

/** An invoice of 300 positions: its webhook body is about 180 KB. */
function largeInvoice(buyer: string) {
  return {
    invoice: {
      kind: 'vat',
      buyer_name: buyer,
      positions: Array.from({ length: 300 }, (_, i) => ({ name: `Pozycja numer ${i + 1} z dłuższym opisem usługi`, tax: 23, total_price_gross: '12.30', quantity: 1 })),
    },
  };
}

async function deliveriesOf(hookId: number) {
  const reply = await http.get(`/webhooks/${hookId}/deliveries.json`);
  expect(reply.status, reply.text).toBe(200);
  return reply.body as { status: string; attempts: number; last_error: string | null }[];
}

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 20_000): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() - started > timeoutMs) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('hostile webhook subscribers', () => {
  for (const mode of ['answer-and-close', 'reset', 'garbage', 'cut-mid-body', 'endless'] as const) {
    it(`keep the service answering: ${mode}`, async () => {
      const subscriber = new HostileSubscriber(mode);
      await subscriber.start();
      try {
        const hook = await http.post('/webhooks.json', { webhook: { kind: 'invoice:create', url: subscriber.url(), api_token: 'shop' } });
        expect(hook.status, hook.text).toBe(201);
        for (let i = 0; i < 3; i += 1) {
          const invoice = await http.post('/invoices.json', largeInvoice(`Buyer ${mode} ${i}`));
          expect(invoice.status, invoice.text).toBe(201);
        }
        // Every delivery is tried until it is parked, and the service answers all the while.
        const deliveries = await until(
          () => deliveriesOf(hook.body.id),
          (rows) => rows.length === 3 && rows.every((row) => row.status === 'failed'),
          20_000,
        );
        expect(deliveries.map((row) => [row.status, row.attempts])).toEqual([['failed', 3], ['failed', 3], ['failed', 3]]);
        expect(isRunning(service.child)).toBe(true);
        expect((await http.get('/invoices.json', { per_page: 1 })).status).toBe(200);
        await http.delete(`/webhooks/${hook.body.id}.json`);
      } finally {
        await subscriber.stop();
      }
    }, 90_000);
  }
});
