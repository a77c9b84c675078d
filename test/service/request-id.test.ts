import { mkdtemp, rm } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type RunningService } from '../../src/service/server.js';
import { addUser, basicHeader } from '../helpers/http.js';
import { copyDataDir, isolatedDatabaseUrl, startTestService, templateDataDir, type TestService } from '../helpers/service.js';

/**
 * Issue 43, point 3: every answer of the service carries `X-Request-Id`, whatever produced it
 * (a route, an error, a page, a middleware that refused early, Node itself), and so does every log
 * line about a request. One service stands behind a trusted proxy (`trustProxy: 1`) and keeps the
 * proxy's ids; the other trusts no one, logs its requests and runs with small connection limits.
 */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

let proxied: TestService;
let direct: RunningService;
let directDir: string;
const logged: Record<string, unknown>[] = [];

beforeAll(async () => {
  proxied = await startTestService({ seed: true, trustProxy: 1 });
  directDir = await mkdtemp(join(tmpdir(), 'invoicekit-test-'));
  const databaseUrl = await isolatedDatabaseUrl();
  if (!databaseUrl) await copyDataDir(await templateDataDir(false), directDir);
  direct = await startService({
    port: 0,
    host: '127.0.0.1',
    dataDir: directDir,
    databaseUrl,
    apiToken: 'request-id-direct-token',
    log: (entry) => logged.push(entry),
    logRequests: true,
    connectionLimits: { requestTimeoutMs: 400, headersTimeoutMs: 300 },
  });
}, 60_000);
afterAll(async () => {
  await proxied?.stop();
  await direct?.close().catch(() => undefined);
  await rm(directDir, { recursive: true, force: true });
});

/** The answer's id, its body read so the connection is free again. */
async function idOf(answer: Promise<Response>, status: number): Promise<string | null> {
  const response = await answer;
  await response.arrayBuffer();
  expect(response.status).toBe(status);
  return response.headers.get('x-request-id');
}

describe('X-Request-Id on every kind of answer', () => {
  it('is a new random UUID on API answers in JSON and XML, documents, pages, the widget script and the service description', async () => {
    const token = proxied.apiToken;
    const created = await fetch(`${proxied.url}/invoices.json`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ api_token: token, invoice: { kind: 'vat', buyer_name: 'Client1 SA', positions: [{ name: 'Work', tax: 23, total_price_gross: '10.23', quantity: 1 }] } }),
    });
    expect(created.status).toBe(201);
    expect(created.headers.get('x-request-id')).toMatch(UUID);
    const invoice = (await created.json()) as { id: number; view_url: string };
    const viewPath = new URL(invoice.view_url).pathname;
    const answers: [string, number][] = [
      [`/invoices.json?api_token=${token}`, 200],
      [`/invoices.xml?api_token=${token}`, 200],
      [`/invoices/${invoice.id}.pdf?api_token=${token}`, 200],
      [viewPath, 200],
      [`${viewPath}.pdf`, 200],
      [`/a/${proxied.prefix}/p/logo-design.js`, 200],
      [`/a/${proxied.prefix}/widget/products/logo-design.json`, 200],
      ['/openapi.json', 200],
      ['/healthz', 200],
      ['/readyz', 200],
    ];
    const ids = new Set<string>();
    for (const [path, status] of answers) {
      const id = await idOf(fetch(`${proxied.url}${path}`), status);
      expect(id, path).toMatch(UUID);
      ids.add(id!);
    }
    expect(ids.size).toBe(answers.length);
  });

  it('is on error answers in the reference body: 401, 404 (a wrong method too), 413, 422, 400 and 429, in JSON and XML', async () => {
    const token = proxied.apiToken;
    const expectError = async (answer: Promise<Response>, status: number, body: unknown) => {
      const response = await answer;
      expect(response.status).toBe(status);
      expect(response.headers.get('x-request-id')).toMatch(UUID);
      expect(await response.json()).toEqual(body);
    };
    await expectError(fetch(`${proxied.url}/invoices.json`), 401, { code: 'error', message: 'You must be logged in to gain access to the site' });
    await expectError(fetch(`${proxied.url}/no-such-page`), 404, { code: 'error', message: 'Not found' });
    await expectError(fetch(`${proxied.url}/openapi.json`, { method: 'DELETE' }), 404, { code: 'error', message: 'Not found' });
    await expectError(
      fetch(`${proxied.url}/invoices.json?api_token=${token}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: `{"invoice":{"buyer_name":"${'x'.repeat(2 * 1024 * 1024)}"}}` }),
      413,
      { code: 'error', message: 'The request body is larger than 1 MiB' },
    );
    await expectError(
      fetch(`${proxied.url}/invoices.json`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ api_token: token, invoice: { kind: 'vat', issue_date: '2026-02-30' } }) }),
      422,
      { code: 'error', message: expect.objectContaining({ issue_date: expect.any(Array) }) },
    );
    await expectError(
      fetch(`${proxied.url}/invoices.json`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"invoice":' }),
      400,
      { code: 'error', message: 'The request body is not valid JSON' },
    );
    const xml = await fetch(`${proxied.url}/invoices/999999.xml?api_token=${token}`);
    expect(xml.status).toBe(404);
    expect(xml.headers.get('x-request-id')).toMatch(UUID);
    expect(await xml.text()).toContain('<code>error</code>');

    await addUser(proxied, 'request-id-user', 'right-password');
    const basic = (password: string) => fetch(`${proxied.url}/invoices.json`, { headers: { authorization: basicHeader('request-id-user', password) } });
    for (let i = 0; i < 10; i += 1) expect(await idOf(basic(`wrong-${i}`), 401)).toMatch(UUID);
    const limited = await basic('right-password');
    expect(limited.status).toBe(429);
    expect(limited.headers.get('x-request-id')).toMatch(UUID);
    expect(await limited.json()).toEqual({ code: 'error', message: expect.stringMatching(/^Too many failed logins\. Try again in \d+ seconds\.$/) });
  });

  it("is on the widget's CORS preflight", async () => {
    const preflight = await fetch(`${proxied.url}/a/${proxied.prefix}/widget/checkout.json`, {
      method: 'OPTIONS',
      headers: { origin: 'https://shop.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
    expect(preflight.headers.get('x-request-id')).toMatch(UUID);
  });
});

describe("a proxy's id", () => {
  it('is kept behind a trusted proxy when it is a sane token of up to 128 characters', async () => {
    for (const sent of ['edge-7f3a.91:req_01', 'a'.repeat(128), '0f8fad5b-d9cb-469f-a165-70867728950e']) {
      const kept = await fetch(`${proxied.url}/healthz`, { headers: { 'x-request-id': sent } });
      expect(kept.headers.get('x-request-id')).toBe(sent);
      // An error keeps it too.
      const missing = await fetch(`${proxied.url}/no-such-page`, { headers: { 'x-request-id': sent } });
      expect(missing.status).toBe(404);
      expect(missing.headers.get('x-request-id')).toBe(sent);
    }
  });

  it('is replaced when it is not sane, even from a trusted proxy', async () => {
    for (const sent of ['a'.repeat(129), 'id with spaces', 'id,another', '"quoted"', 'x=y', 'a/b', '<script>']) {
      const replaced = await fetch(`${proxied.url}/healthz`, { headers: { 'x-request-id': sent } });
      expect(replaced.headers.get('x-request-id'), sent).toMatch(UUID);
    }
  });

  it('is replaced when no proxy is trusted', async () => {
    const replaced = await fetch(`${direct.url}/healthz`, { headers: { 'x-request-id': 'spoofed-by-a-caller' } });
    expect(replaced.status).toBe(200);
    expect(replaced.headers.get('x-request-id')).toMatch(UUID);
  });
});

/** Everything the server sends on a raw connection until it closes it. */
async function rawExchange(url: string, request: string): Promise<string> {
  const { hostname, port } = new URL(url);
  const socket = connect(Number(port), hostname);
  let received = '';
  socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
  socket.on('error', () => undefined);
  const closed = new Promise<string>((resolve) => socket.once('close', () => resolve(received)));
  socket.write(request);
  return closed;
}

const idHeader = (answer: string) => /\r\nX-Request-Id: ([^\r]*)\r\n/i.exec(answer)?.[1];

describe('answers the app never sees', () => {
  it("carries an id on Node's 408 to a body slower than the request timeout", async () => {
    const answer = await rawExchange(direct.url, `POST /invoices.json HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{`);
    expect(answer).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
    expect(idHeader(answer)).toMatch(UUID);
  });

  it("carries an id on Node's 400 to a request that is not HTTP, and on 431 to headers that are too large", async () => {
    const garbage = await rawExchange(direct.url, 'NOT HTTP AT ALL\r\n\r\n');
    expect(garbage).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    expect(idHeader(garbage)).toMatch(UUID);
    const large = await rawExchange(direct.url, `GET /healthz HTTP/1.1\r\nHost: x\r\nX-Padding: ${'p'.repeat(20_000)}\r\n\r\n`);
    expect(large).toMatch(/^HTTP\/1\.1 431 Request Header Fields Too Large\r\n/);
    expect(idHeader(large)).toMatch(UUID);
  });

  it("carries an id on the adapter's 400 to a path it cannot read", async () => {
    const answer = await rawExchange(direct.url, 'GET /invoices\\x.json HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    expect(answer).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    expect(idHeader(answer)).toMatch(UUID);
  });
});

describe('log lines', () => {
  it("carry the answer's id on each request's line", async () => {
    const response = await fetch(`${direct.url}/invoices.json?api_token=request-id-direct-token&per_page=1`);
    expect(response.status).toBe(200);
    await response.arrayBuffer();
    const id = response.headers.get('x-request-id');
    expect(id).toMatch(UUID);
    expect(logged.filter((entry) => entry['request_id'] === id)).toEqual([
      expect.objectContaining({ level: 'info', msg: 'request', method: 'GET', path: '/invoices.json', status: 200, request_id: id }),
    ]);
  });

  // Last: it closes the database under the running service.
  it('carry it on an unexpected failure, whose 500 and 503 answers carry it too', async () => {
    await direct.db.close();
    const failed = await fetch(`${direct.url}/invoices.json?api_token=request-id-direct-token`);
    expect(failed.status).toBe(500);
    expect(await failed.json()).toEqual({ code: 'error', message: 'Internal server error' });
    const id = failed.headers.get('x-request-id');
    expect(id).toMatch(UUID);
    const lines = logged.filter((entry) => entry['request_id'] === id);
    expect(lines.map((entry) => entry['message'] ?? entry['msg'])).toEqual(['unhandled error', 'request']);
    expect(lines[1]).toMatchObject({ level: 'error', status: 500, path: '/invoices.json' });

    const ready = await fetch(`${direct.url}/readyz`);
    expect(ready.status).toBe(503);
    expect(await ready.json()).toEqual({ code: 'error', message: 'The database does not answer.' });
    expect(ready.headers.get('x-request-id')).toMatch(UUID);
  });
});
