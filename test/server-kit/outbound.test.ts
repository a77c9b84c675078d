import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOutboundClient, OutboundError, retryDelay } from '../../src/server-kit/outbound.js';

/** A real HTTP server misbehaving in every way the client must survive. */
let server: Server;
let base: string;
let flaky = 0;
const seenKeys: (string | undefined)[] = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    const path = request.url ?? '/';
    if (path === '/ok') {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end('{"mid":4.2512}');
    } else if (path === '/reset') {
      // Promises 1000 bytes, sends 10, then drops the connection.
      response.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
      response.write('{"rates":[');
      setTimeout(() => request.socket.destroy(), 20);
    } else if (path === '/reset-before-headers') {
      request.socket.destroy();
    } else if (path === '/garbage') {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end('<html>Service Unavailable</html>');
    } else if (path === '/stall-headers') {
      // Never answers.
    } else if (path === '/stall-body') {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.write('{"a":');
    } else if (path === '/too-much') {
      // No Content-Length: the cap must hold while the body streams.
      response.writeHead(200, { 'content-type': 'application/octet-stream' });
      const chunk = Buffer.alloc(64 * 1024, 120);
      let sent = 0;
      const pump = () => {
        while (sent < 64 && response.write(chunk)) sent += 1;
        if (sent < 64) response.once('drain', () => ((sent += 1), pump()));
        else response.end();
      };
      response.on('error', () => undefined);
      pump();
    } else if (path === '/too-much-announced') {
      response.writeHead(200, { 'content-length': String(10 * 1024 * 1024) });
      response.on('error', () => undefined);
      response.write('x');
    } else if (path === '/missing') {
      response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' });
      response.end('404 NotFound - Not Found - Brak danych');
    } else if (path === '/flaky') {
      flaky += 1;
      seenKeys.push(request.headers['idempotency-key'] as string | undefined);
      if (flaky === 1) {
        response.writeHead(503, { 'retry-after': '0' });
        response.end('busy');
      } else {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end('{"ok":true}');
      }
    } else {
      response.writeHead(500);
      response.end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const noWait = async () => undefined;

async function failureOf(promise: Promise<unknown>): Promise<OutboundError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(OutboundError);
    return error as OutboundError;
  }
  throw new Error('the call succeeded');
}

describe('the outbound client', () => {
  const client = createOutboundClient({ timeoutMs: 500, maxBytes: 64 * 1024, maxAttempts: 1 });

  it('reads a JSON answer', async () => {
    const answer = await client.json({ url: `${base}/ok` });
    expect(answer.status).toBe(200);
    expect(answer.text).toBe('{"mid":4.2512}');
    expect(answer.body).toEqual({ mid: 4.2512 });
  });

  it('says `reset` when the connection drops in the middle of the body', async () => {
    const error = await failureOf(client.request({ url: `${base}/reset` }));
    expect(error.kind).toBe('reset');
    expect(error.target).toBe(`GET ${base}/reset`);
  });

  it('says `reset` when the connection drops before any answer', async () => {
    expect((await failureOf(client.request({ url: `${base}/reset-before-headers` }))).kind).toBe('reset');
  });

  it('says `bad_json` for garbage where JSON was promised', async () => {
    const error = await failureOf(client.json({ url: `${base}/garbage` }));
    expect(error.kind).toBe('bad_json');
  });

  it('says `timeout` when the headers never come, and when the body stalls', async () => {
    const started = Date.now();
    expect((await failureOf(client.request({ url: `${base}/stall-headers`, timeoutMs: 150 }))).kind).toBe('timeout');
    expect((await failureOf(client.request({ url: `${base}/stall-body`, timeoutMs: 150 }))).kind).toBe('timeout');
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('says `too_large` while an unannounced body streams past the cap, and at once for an announced one', async () => {
    const streamed = await failureOf(client.request({ url: `${base}/too-much` }));
    expect(streamed.kind).toBe('too_large');
    expect(streamed.message).toBe(`GET ${base}/too-much: the answer is larger than 65536 bytes`);
    expect((await failureOf(client.request({ url: `${base}/too-much-announced` }))).kind).toBe('too_large');
  });

  it('says `status` for a non-2xx answer and keeps its body', async () => {
    const error = await failureOf(client.request({ url: `${base}/missing` }));
    expect(error.kind).toBe('status');
    expect(error.status).toBe(404);
    expect(error.text).toBe('404 NotFound - Not Found - Brak danych');
  });

  it('says `refused` for a closed port and `dns` for a name that does not resolve', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    expect((await failureOf(client.request({ url: `http://127.0.0.1:${port}/` }))).kind).toBe('refused');
    expect((await failureOf(client.request({ url: 'http://registry.invalid/' }))).kind).toBe('dns');
  });

  it("says `aborted` when the caller's signal fires", async () => {
    const controller = new AbortController();
    const pending = client.request({ url: `${base}/stall-headers`, signal: controller.signal, timeoutMs: 5000 });
    controller.abort();
    expect((await failureOf(pending)).kind).toBe('aborted');
  });

  it('retries a passing failure of an idempotent call, and a POST only with its key', async () => {
    const retrying = createOutboundClient({ maxAttempts: 2, sleep: noWait });
    flaky = 0;
    expect((await retrying.json({ url: `${base}/flaky` })).body).toEqual({ ok: true });
    expect(flaky).toBe(2);

    flaky = 0;
    const error = await failureOf(retrying.request({ url: `${base}/flaky`, method: 'POST', body: '{}' }));
    expect([error.kind, error.status, flaky]).toEqual(['status', 503, 1]);

    flaky = 0;
    seenKeys.length = 0;
    await retrying.request({ url: `${base}/flaky`, method: 'POST', body: '{}', headers: { 'Idempotency-Key': 'k-1' } });
    expect(seenKeys).toEqual(['k-1', 'k-1']);
  });
});

describe('the retry rule', () => {
  const error = (kind: OutboundError['kind'], status?: number, retryAfter?: string) =>
    new OutboundError(kind, 'GET https://api.example/', 'failed', { ...(status ? { status } : {}), headers: new Headers(retryAfter ? { 'retry-after': retryAfter } : {}) });
  const ask = (e: OutboundError, attempt = 1, idempotent = true) => retryDelay({ attempt, maxAttempts: 3, error: e, idempotent, now: Date.parse('2026-11-28T12:00:00Z') });

  it('waits 200 ms doubling for passing failures', () => {
    expect(ask(error('reset'))).toBe(200);
    expect(ask(error('timeout'), 2)).toBe(400);
    expect(ask(error('status', 503))).toBe(200);
    expect(ask(error('status', 429))).toBe(200);
    expect(ask(error('refused'))).toBe(200);
  });

  it("follows the other side's Retry-After, in seconds or as a date, up to 10 s", () => {
    expect(ask(error('status', 503, '3'))).toBe(3000);
    expect(ask(error('status', 429, 'Sat, 28 Nov 2026 12:00:05 GMT'))).toBe(5000);
    expect(ask(error('status', 503, '120'))).toBeUndefined();
  });

  it('never retries what does not pass, what is unsafe, or past the last attempt', () => {
    expect(ask(error('dns'))).toBeUndefined();
    expect(ask(error('too_large'))).toBeUndefined();
    expect(ask(error('bad_json'))).toBeUndefined();
    expect(ask(error('aborted'))).toBeUndefined();
    expect(ask(error('status', 404))).toBeUndefined();
    expect(ask(error('status', 501))).toBeUndefined();
    expect(ask(error('reset'), 1, false)).toBeUndefined();
    expect(ask(error('reset'), 3)).toBeUndefined();
  });
});
