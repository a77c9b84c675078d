import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createBff, issuePortalToken } from '../../src/bff/index.js';
import { runBff } from '../../src/bff/cli.js';
import { bearer, json, PORTAL_SECRET, PRODUCT_TOKEN, SHOP_ORIGIN, startService, startTestBff, type Api, type Service, type TestBff } from './support.js';

let service: Service;
let api: Api;
let bff: TestBff;
let clientId: number;
let token: string;
let invoiceId: number;

const servers: Server[] = [];
async function listen(server: Server): Promise<string> {
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

beforeAll(async () => {
  ({ service, api } = await startService());
  await api.products.create({ name: 'Sticker', price_net: '5', tax: '23', currency: 'EUR', token: PRODUCT_TOKEN });
  clientId = (await api.clients.create({ name: 'Delta SA', email: 'delta@example.com' })).id;
  invoiceId = (await api.invoices.create({ client_id: clientId, positions: [{ name: 'Work', tax: '23', quantity: '1', total_price_gross: '10' }] })).id;
  token = await issuePortalToken({ clientId }, PORTAL_SECRET);
  bff = await startTestBff(service);
}, 60_000);

afterAll(async () => {
  for (const server of servers) {
    server.closeAllConnections();
    server.close();
  }
  await bff?.close();
  await service?.stop();
});

describe('CORS', () => {
  it('answers a preflight from an allowed origin, without credentials', async () => {
    const response = await fetch(`${bff.base}/checkout`, {
      method: 'OPTIONS',
      headers: { origin: SHOP_ORIGIN, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type, idempotency-key' },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe(SHOP_ORIGIN);
    expect(response.headers.get('access-control-allow-methods')).toContain('POST');
    expect(response.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('idempotency-key');
    expect(response.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('authorization');
    expect(response.headers.get('access-control-allow-credentials')).toBeNull();
    expect(response.headers.get('vary')).toContain('Origin');
    expect(response.headers.get('set-cookie')).toBeNull();
  });

  it('refuses a preflight and a request from a forbidden origin', async () => {
    const preflight = await fetch(`${bff.base}/invoices`, {
      method: 'OPTIONS',
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization' },
    });
    expect(preflight.status).toBe(403);
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
    expect((await json(preflight)).error.code).toBe('origin_not_allowed');

    const request = await fetch(`${bff.base}/invoices`, { headers: { origin: 'https://evil.example', ...bearer(token) } });
    expect(request.status).toBe(403);
    expect(request.headers.get('access-control-allow-origin')).toBeNull();
    expect(await request.text()).not.toContain('Delta');
  });
});

describe('headers and errors', () => {
  it('sends security headers and the error shape on every answer', async () => {
    for (const path of ['/health', '/invoices', '/nowhere']) {
      const response = await fetch(`${bff.base}${path}`);
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(response.headers.get('referrer-policy')).toBe('no-referrer');
      expect(response.headers.get('content-security-policy')).toBe("default-src 'none'; frame-ancestors 'none'");
      expect(response.headers.get('x-frame-options')).toBe('DENY');
      expect(response.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
      expect(response.headers.get('x-error-code')).toBeNull();
      if (response.status >= 400) {
        const body = await json(response);
        expect(Object.keys(body)).toEqual(['error']);
        expect(typeof body.error.code).toBe('string');
        expect(typeof body.error.message).toBe('string');
      }
    }
    expect((await fetch(`${bff.url}/elsewhere`)).status).toBe(404);
  });

  it('limits requests per IP, per token and list pages per token with 429 and Retry-After', async () => {
    const limited = await startTestBff(service, {
      rateLimit: { ip: { limit: 9, windowMs: 60_000 }, token: { limit: 2, windowMs: 30_000 }, list: { limit: 3, windowMs: 30_000 } },
    });
    try {
      const other = await issuePortalToken({ clientId: clientId + 1000 }, PORTAL_SECRET);
      const statuses = [];
      for (let i = 0; i < 3; i += 1) statuses.push((await fetch(`${limited.base}/client`, { headers: bearer(token) })).status);
      expect(statuses).toEqual([200, 200, 429]);
      const byToken = await fetch(`${limited.base}/invoices/${invoiceId}`, { headers: bearer(token) });
      expect(byToken.status).toBe(429);
      expect(Number(byToken.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(Number(byToken.headers.get('retry-after'))).toBeLessThanOrEqual(30);
      // List pages have a budget of their own, so browsing the rest of the portal never eats into scrolling.
      const pages = [];
      for (let i = 0; i < 4; i += 1) pages.push((await fetch(`${limited.base}/invoices?totals=false`, { headers: bearer(token) })).status);
      expect(pages).toEqual([200, 200, 200, 429]);
      expect((await fetch(`${limited.base}/invoices?totals=false`, { headers: bearer(other) })).status, 'another token has its own budget').toBe(200);
      const byIp = await fetch(`${limited.base}/health`);
      expect(byIp.status).toBe(429);
      expect(Number(byIp.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect((await json(byIp)).error).toEqual({ code: 'rate_limited', message: 'Too many requests. Try again later.' });
      expect((await fetch(`${limited.base}/client`, { headers: bearer(other) })).status, 'over the IP limit whatever the token').toBe(429);
    } finally {
      await limited.close();
    }
  });
});

describe('a failing service', () => {
  let mode: 'fail' | 'hang' = 'fail';
  let proxyUrl: string;
  /** Invoice calls held in 'hang' mode, answered only when the test lets them go. */
  const held: (() => void)[] = [];
  const releaseHeld = () => held.splice(0).forEach((release) => release());

  beforeAll(async () => {
    // Stands between the BFF and the real service and breaks the invoice calls on demand.
    proxyUrl = await listen(
      createServer(async (req, res) => {
        if (req.url?.startsWith('/invoices')) {
          if (mode === 'fail') {
            res.writeHead(500, { 'content-type': 'text/plain' });
            res.end(`PG::ConnectionBad at /srv/app/db.rb:12 token=${service.apiToken}`);
            return;
          }
          await new Promise<void>((resolve) => held.push(resolve));
        }
        const upstream = await fetch(`${service.url}${req.url}`, { method: req.method, headers: { 'content-type': req.headers['content-type'] ?? 'application/json' } });
        res.writeHead(upstream.status, { 'content-type': upstream.headers.get('content-type') ?? 'application/json' });
        res.end(Buffer.from(await upstream.arrayBuffer()));
      }),
    );
  });

  it('turns a service 5xx into 502 without leaking anything', async () => {
    const broken = await startTestBff(service, { serviceUrl: proxyUrl });
    try {
      mode = 'fail';
      const response = await fetch(`${broken.base}/invoices`, { headers: bearer(token) });
      expect(response.status).toBe(502);
      const text = await response.text();
      expect(JSON.parse(text)).toEqual({ error: { code: 'service_error', message: 'The invoicing service could not complete the request.' } });
      expect((await fetch(`${broken.base}/products/${PRODUCT_TOKEN}`)).status).toBe(200);
      // The page and the summary are asked for together; whichever fails first is the one logged in time.
      const failure = broken.logs.find((line) => line.msg === 'service call failed');
      expect(failure).toMatchObject({ level: 'error', call: expect.stringMatching(/^invoices\.(list|summary)$/), error: 'ServerError', upstream_status: 500 });
      expect(JSON.stringify(broken.logs)).not.toContain(service.apiToken);
    } finally {
      await broken.close();
    }
  });

  it('turns a service timeout into 504', async () => {
    const slow = await startTestBff(service, { serviceUrl: proxyUrl, serviceTimeoutMs: 300 });
    try {
      mode = 'hang';
      const started = Date.now();
      const response = await fetch(`${slow.base}/invoices`, { headers: bearer(token) });
      expect(response.status).toBe(504);
      expect((await json(response)).error.code).toBe('service_timeout');
      expect(Date.now() - started).toBeLessThan(2500);
      expect(held.length, 'the service call was not held').toBeGreaterThan(0);
    } finally {
      releaseHeld();
      await slow.close();
    }
  });
});

describe('mounting', () => {
  const options = () => ({ serviceUrl: service.url, apiToken: service.apiToken, portalSecret: PORTAL_SECRET, allowedOrigins: [SHOP_ORIGIN], logger: false as const });

  it('mounts in Node http beside the host’s own routes', async () => {
    const handleBff = getRequestListener(createBff(options()).fetch);
    const url = await listen(
      createServer((req, res) => {
        if (req.url?.startsWith('/bff/')) return void handleBff(req, res);
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.end('host page');
      }),
    );
    const product = await fetch(`${url}/bff/products/${PRODUCT_TOKEN}`);
    expect(product.status).toBe(200);
    expect((await json(product)).name).toBe('Sticker');
    const invoices = await json(await fetch(`${url}/bff/invoices`, { headers: bearer(token) }));
    expect(invoices.total).toBe(1);
    expect(await (await fetch(`${url}/`)).text()).toBe('host page');
  });

  it('mounts in Express before its body parsers, with a custom base path', async () => {
    const app = express();
    app.all('/api/billing/*splat', getRequestListener(createBff({ ...options(), basePath: '/api/billing' }).fetch));
    app.use(express.json());
    app.post('/echo', (req, res) => void res.json({ echoed: req.body }));
    const url = await listen(createServer(app));

    const checkout = await fetch(`${url}/api/billing/checkout`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: SHOP_ORIGIN, 'idempotency-key': 'express-1' },
      body: JSON.stringify({ product: PRODUCT_TOKEN, quantity: 2, buyer: { email: 'express@example.com', name: 'Ada Lovelace' }, returnUrl: `${SHOP_ORIGIN}/ok` }),
    });
    expect(checkout.status).toBe(201);
    expect((await json(checkout)).currency).toBe('EUR');
    const client = await fetch(`${url}/api/billing/client`, { headers: bearer(token) });
    expect((await json(client)).name).toBe('Delta SA');
    expect((await fetch(`${url}/bff/client`, { headers: bearer(token) })).status).toBe(404);
    const echo = await fetch(`${url}/echo`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"a":1}' });
    expect(await json(echo)).toEqual({ echoed: { a: 1 } });
  });
});

describe('the runner', () => {
  it('starts on a free port and says where', async () => {
    const lines: string[] = [];
    const spy = vi.spyOn(console, 'log').mockImplementation((line: unknown) => void lines.push(String(line)));
    vi.stubEnv('INVOICEKIT_API_TOKEN', service.apiToken);
    vi.stubEnv('INVOICEKIT_PORTAL_SECRET', PORTAL_SECRET);
    let running: Awaited<ReturnType<typeof runBff>> | undefined;
    try {
      running = await runBff(['--port', '0', '--service', service.url]);
      const ready = lines.find((line) => line.startsWith('bff listening on '));
      expect(ready).toMatch(/^bff listening on http:\/\/127\.0\.0\.1:\d+$/);
      expect(ready).toBe(`bff listening on ${running.url}`);
      const product = await fetch(`${running.url}/bff/products/${PRODUCT_TOKEN}`);
      expect((await json(product)).name).toBe('Sticker');
    } finally {
      spy.mockRestore();
      vi.unstubAllEnvs();
      await running?.close();
    }
  });

  it('follows a service on this host over its write feed, unless --no-follow-writes or INVOICEKIT_FOLLOW_WRITES=false says not to', async () => {
    // A transparent proxy in front of the service, on this host, that records the paths asked of it.
    const asked: string[] = [];
    const proxy = createServer(async (req, res) => {
      asked.push(req.url ?? '');
      const headers = new Headers();
      for (const [name, value] of Object.entries(req.headers)) if (typeof value === 'string' && name !== 'host') headers.set(name, value);
      const upstream = await fetch(`${service.url}${req.url}`, { method: req.method, headers });
      res.writeHead(upstream.status, Object.fromEntries([...upstream.headers].filter(([name]) => !['content-length', 'content-encoding', 'transfer-encoding'].includes(name))));
      if (!upstream.body) return res.end();
      for await (const chunk of upstream.body) res.write(chunk);
      res.end();
    });
    const serviceUrl = await listen(proxy);
    const spy = vi.spyOn(console, 'log').mockImplementation(() => undefined);
    vi.stubEnv('INVOICEKIT_API_TOKEN', service.apiToken);
    vi.stubEnv('INVOICEKIT_PORTAL_SECRET', PORTAL_SECRET);
    const paths = () => asked.map((path) => path.split('?')[0]);
    /**
     * The paths the BFF asked of the service once it started and answered one portal list. The feed
     * is asked for as the BFF starts, on a connection of its own, before the list's call.
     */
    const askedBy = async (args: string[], env: Record<string, string> = {}) => {
      for (const [name, value] of Object.entries(env)) vi.stubEnv(name, value);
      asked.length = 0;
      const running = await runBff(['--port', '0', '--service', serviceUrl, ...args]);
      try {
        expect((await fetch(`${running.url}/bff/invoices`, { headers: bearer(token) })).status).toBe(200);
        expect(paths()).toContain('/invoices.json');
        if (!args.length && !Object.keys(env).length) await expect.poll(paths).toContain('/changes');
        return paths();
      } finally {
        await running.close();
      }
    };
    try {
      expect(await askedBy([])).toContain('/changes');
      expect(await askedBy(['--no-follow-writes'])).not.toContain('/changes');
      expect(await askedBy([], { INVOICEKIT_FOLLOW_WRITES: 'false' })).not.toContain('/changes');
    } finally {
      spy.mockRestore();
      vi.unstubAllEnvs();
      proxy.closeAllConnections();
    }
  });
});
