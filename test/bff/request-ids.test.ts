import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createInvoicingClient } from '../../src/api/client.js';
import type { BffLogEntry } from '../../src/bff/logger.js';
import { startBff, type RunningBff } from '../../src/bff/node.js';
import { startService, type RunningService } from '../../src/service/server.js';
import { copyDataDir, isolatedDatabaseUrl, templateDataDir } from '../helpers/service.js';
import { PORTAL_SECRET, PRODUCT_TOKEN, SHOP_ORIGIN } from './support.js';

/**
 * One id follows a request through the BFF and the service: the BFF sends its request id with each
 * of its calls, and a service that counts the BFF as a trusted proxy logs them under it. A BFF
 * behind a trusted proxy keeps the proxy's id; one that trusts no proxy makes its own.
 */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

let service: RunningService;
let dataDir: string;
const serviceLog: Record<string, unknown>[] = [];
let proxied: RunningBff;
let exposed: RunningBff;
const proxiedLog: BffLogEntry[] = [];
const exposedLog: BffLogEntry[] = [];

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'invoicekit-test-'));
  const databaseUrl = await isolatedDatabaseUrl();
  if (!databaseUrl) await copyDataDir(await templateDataDir(false), dataDir);
  service = await startService({
    port: 0,
    host: '127.0.0.1',
    dataDir,
    databaseUrl,
    apiToken: 'bff-request-ids-token',
    testPayments: true,
    trustProxy: 1,
    log: (entry) => serviceLog.push(entry),
    logRequests: true,
  });
  const api = createInvoicingClient({ baseUrl: service.url, apiToken: service.apiToken, retry: 0 });
  await api.products.create({ name: 'E-book: Invoicing done right', price_net: '40.65', tax: '23', currency: 'PLN', token: PRODUCT_TOKEN });
  const common = { serviceUrl: service.url, apiToken: service.apiToken, portalSecret: PORTAL_SECRET, allowedOrigins: [SHOP_ORIGIN], followServiceWrites: false };
  proxied = await startBff({ ...common, trustProxy: 1, productCacheMs: 0, logger: (entry) => proxiedLog.push(entry) });
  exposed = await startBff({ ...common, productCacheMs: 0, logger: (entry) => exposedLog.push(entry) });
}, 60_000);
afterAll(async () => {
  await proxied?.close();
  await exposed?.close();
  await service?.close().catch(() => undefined);
  await rm(dataDir, { recursive: true, force: true });
});

const serviceLinesOf = (id: string) => serviceLog.filter((entry) => entry['msg'] === 'request' && entry['request_id'] === id);

describe('request ids through the BFF and the service', () => {
  it("keeps a trusted proxy's id, answers with it, logs it, and sends it with every call to the service", async () => {
    const response = await fetch(`${proxied.url}/bff/products/${PRODUCT_TOKEN}`, { headers: { 'x-request-id': 'edge-7f3a:1' } });
    expect(response.status).toBe(200);
    expect(((await response.json()) as { name: string }).name).toBe('E-book: Invoicing done right');
    expect(response.headers.get('x-request-id')).toBe('edge-7f3a:1');
    expect(proxiedLog.filter((entry) => entry.request_id === 'edge-7f3a:1')).toEqual([
      expect.objectContaining({ msg: 'request', method: 'GET', path: `/bff/products/${PRODUCT_TOKEN}`, status: 200 }),
    ]);
    const calls = serviceLinesOf('edge-7f3a:1');
    expect(calls.map((entry) => entry['path'])).toContain('/products.json');
    expect(calls.every((entry) => entry['status'] === 200)).toBe(true);
  });

  it("makes its own id when it trusts no proxy, and the service's log lines carry that one", async () => {
    const response = await fetch(`${exposed.url}/bff/products/${PRODUCT_TOKEN}`, { headers: { 'x-request-id': 'spoofed-by-a-caller' } });
    expect(response.status).toBe(200);
    await response.arrayBuffer();
    const id = response.headers.get('x-request-id')!;
    expect(id).toMatch(UUID);
    expect(exposedLog.filter((entry) => entry.request_id === id).map((entry) => entry.msg)).toEqual(['request']);
    expect(serviceLinesOf('spoofed-by-a-caller')).toEqual([]);
    expect(serviceLinesOf(id).map((entry) => entry['path'])).toContain('/products.json');
  });

  it("replaces a trusted proxy's id that is not sane", async () => {
    const response = await fetch(`${proxied.url}/bff/products/${PRODUCT_TOKEN}`, { headers: { 'x-request-id': 'two words' } });
    await response.arrayBuffer();
    expect(response.headers.get('x-request-id')).toMatch(UUID);
  });

  // Last: it closes the service's database.
  it("names the service's id of a failed call on the BFF's log line", async () => {
    await service.db.close();
    const response = await fetch(`${proxied.url}/bff/products/${PRODUCT_TOKEN}`, { headers: { 'x-request-id': 'edge-failing:2' } });
    expect(response.status).toBe(502);
    expect(await response.json()).toEqual({ error: { code: 'service_error', message: 'The invoicing service could not complete the request.' } });
    expect(response.headers.get('x-request-id')).toBe('edge-failing:2');
    expect(proxiedLog.filter((entry) => entry.msg === 'service call failed' && entry.request_id === 'edge-failing:2')).toEqual([
      expect.objectContaining({ level: 'error', call: 'products.list', upstream_status: 500, upstream_request_id: 'edge-failing:2' }),
    ]);
    const failures = serviceLog.filter((entry) => entry['message'] === 'unhandled error' && entry['request_id'] === 'edge-failing:2');
    expect(failures.length).toBeGreaterThan(0);
  });
});
