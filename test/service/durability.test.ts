import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { api, type Api } from '../helpers/http.js';
import { describeOutsidePostgresPass } from '../helpers/passes.js';
import { isRunning, killServices, spawnService, copyDataDir, templateDataDir, type ServiceProcess } from '../helpers/service.js';

/**
 * The service as its command starts it, in a child process on a data dir of its own: what it
 * answered 201 to survives a SIGKILL, and SIGTERM shuts it down cleanly.
 */
const API_TOKEN = 'durability-token-0123456789';
let dataDir: string;
/** The service the first test leaves running, so that the second need not start one more. */
let last: Cli | undefined;

interface Cli extends ServiceProcess {
  http: Api;
}

async function startCli(): Promise<Cli> {
  const started = await spawnService(['--data-dir', dataDir], { INVOICEKIT_API_TOKEN: API_TOKEN, INVOICEKIT_INTEGRATION_TOKEN: 'durability-integration', DATABASE_URL: '' });
  return { ...started, http: api({ url: started.url, apiToken: API_TOKEN }) };
}

/** The record without the links, which name the port the request arrived on. */
const portFree = (invoice: Record<string, unknown>) => ({ ...invoice, view_url: undefined, payment_url: undefined });

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'invoicekit-durability-'));
  // A migrated data dir opens in a fraction of the time a new one takes.
  await copyDataDir(await templateDataDir(false), dataDir);
});
afterAll(async () => {
  killServices();
  await rm(dataDir, { recursive: true, force: true });
});

// Each test starts the service command two or three times; on a loaded machine one start can take 20 s.
describeOutsidePostgresPass('durability of the service command', { timeout: 120_000 }, () => {
  it('keeps what it answered 201 to through a SIGKILL, intact', async () => {
    const first = await startCli();
    expect(first.output()).toMatch(/^invoicing service listening on http:\/\/127\.0\.0\.1:\d+$/m);
    const created = await first.http.post('/invoices.json', {
      invoice: {
        kind: 'vat', number: null, sell_date: '2013-01-16', issue_date: '2013-01-16', payment_to: '2013-01-23',
        buyer_name: 'Client1 SA', buyer_tax_no: '5252445767',
        positions: [
          { name: 'Produkt A1', tax: 23, total_price_gross: 10.23, quantity: 1 },
          { name: 'Produkt A2', tax: 0, total_price_gross: 50, quantity: 2 },
        ],
      },
    });
    expect(created.status).toBe(201);
    const concurrent = await Promise.all(
      Array.from({ length: 10 }, (_, i) => first.http.post('/clients.json', { client: { name: `Kept ${i}`, external_id: `kept-${i}` } })),
    );
    expect(concurrent.map((r) => r.status)).toEqual(Array(10).fill(201));
    first.child.kill('SIGKILL');
    expect(await first.exited).toEqual({ code: null, signal: 'SIGKILL' });

    const second = await startCli();
    last = second;
    const read = await second.http.get(`/invoices/${created.body.id}.json`);
    expect(read.status).toBe(200);
    expect(portFree(read.body)).toEqual(portFree(created.body));
    expect(read.body).toMatchObject({ number: '1/01/2013', price_net: '58.32', price_tax: '1.91', price_gross: '60.23' });
    expect(new URL(read.body.view_url).pathname).toBe(new URL(created.body.view_url).pathname);
    for (const [i, reply] of concurrent.entries()) {
      expect((await second.http.get(`/clients/${reply.body.id}.json`)).body).toEqual(reply.body);
      expect((await second.http.get('/clients.json', { external_id: `kept-${i}` })).body).toHaveLength(1);
    }
    // Numbering carries on after the restart instead of repeating.
    const next = await second.http.post('/invoices.json', { invoice: { issue_date: '2013-01-20', buyer_name: 'After restart', positions: [{ name: 'A', tax: 23, total_price_gross: 1, quantity: 1 }] } });
    expect(next.body.number).toBe('2/01/2013');
  });

  it('shuts down cleanly on SIGTERM, and the data opens again', async () => {
    const cli = last && isRunning(last.child) ? last : await startCli();
    const created = await cli.http.post('/products.json', { product: { name: 'Before SIGTERM', price_net: '10', tax: '23' } });
    expect(created.status).toBe(201);
    cli.child.kill('SIGTERM');
    expect(await cli.exited).toEqual({ code: 0, signal: null });
    expect(cli.output()).not.toMatch(/error/i);

    const again = await startCli();
    expect((await again.http.get(`/products/${created.body.id}.json`)).body).toEqual(created.body);
    again.child.kill('SIGTERM');
    expect(await again.exited).toEqual({ code: 0, signal: null });
  });
});
