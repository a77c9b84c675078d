import { connect, createServer, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createInvoicingClient } from '../../src/api/index.js';
import { type FailedAttempt, shouldRetry } from '../../src/api/transport.js';
import { startTestService, type TestService } from '../helpers/service.js';

/**
 * Automatic idempotency keys, against the real service over HTTP. Between the client and the service
 * sits a small TCP proxy that forwards each request whole and, when told to, destroys the client's
 * connection as the service's answer arrives: the service did the work, the client never heard.
 */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

interface Proxy {
  url: string;
  /** The `Idempotency-Key` of every request that passed, in order (null for none). */
  keys: (string | null)[];
  /** How many answers still to lose: the next requests' answers are, each on its own connection. */
  lose: number;
  close(): Promise<void>;
}

async function startProxy(target: URL): Promise<Proxy> {
  const sockets = new Set<Socket>();
  const proxy: Proxy = { url: '', keys: [], lose: 0, close: async () => {} };
  const server: Server = createServer((client) => {
    sockets.add(client);
    const upstream = connect(Number(target.port), target.hostname);
    sockets.add(upstream);
    // Each request is a head and then Content-Length bytes of body; the key is read from each head.
    let pending = '';
    let bodyLeft = 0;
    let loseAnswer = false;
    client.on('data', (chunk: Buffer) => {
      pending += chunk.toString('latin1');
      for (;;) {
        const skipped = Math.min(bodyLeft, pending.length);
        pending = pending.slice(skipped);
        bodyLeft -= skipped;
        const end = pending.indexOf('\r\n\r\n');
        if (bodyLeft > 0 || end === -1) break;
        const lines = pending.slice(0, end).split('\r\n');
        const header = (name: string) => lines.find((line) => line.toLowerCase().startsWith(`${name}:`))?.replace(/^[^:]*:\s*/, '');
        proxy.keys.push(header('idempotency-key') ?? null);
        if (proxy.lose > 0) {
          proxy.lose--;
          loseAnswer = true;
        }
        bodyLeft = Number(header('content-length') ?? 0);
        pending = pending.slice(end + 4);
      }
      upstream.write(chunk);
    });
    upstream.on('data', (chunk: Buffer) => {
      if (loseAnswer) {
        client.destroy();
        upstream.destroy();
      } else client.write(chunk);
    });
    const end = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('close', end).on('error', end);
    upstream.on('close', end).on('error', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address() as { port: number };
  proxy.url = `http://127.0.0.1:${address.port}`;
  proxy.close = () =>
    new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      server.close(() => resolve());
    });
  return proxy;
}

let service: TestService;
let proxy: Proxy;
beforeAll(async () => {
  service = await startTestService();
  proxy = await startProxy(new URL(service.url));
});
afterAll(async () => {
  await proxy?.close();
  await service?.stop();
});

const throughProxy = () => createInvoicingClient({ baseUrl: proxy.url, apiToken: service.apiToken, retry: { limit: 2, backoffMs: 5 } });
const direct = () => createInvoicingClient({ baseUrl: service.url, apiToken: service.apiToken });
const named = async (name: string) => (await direct().categories.list()).filter((category) => category.name === name);

describe('automatic idempotency keys', () => {
  it('retries a POST whose answer was lost, under the same key, and the service creates one record', async () => {
    proxy.keys = [];
    proxy.lose = 1;
    const created = await throughProxy().categories.create({ name: 'Lost answer' });
    expect(created.name).toBe('Lost answer');
    expect(proxy.keys).toHaveLength(2);
    expect(proxy.keys[0]).toMatch(UUID);
    expect(proxy.keys[1]).toBe(proxy.keys[0]);
    expect((await named('Lost answer')).map((category) => category.id)).toEqual([created.id]);
  });

  it('gives two calls two keys, and so two records', async () => {
    proxy.keys = [];
    const client = throughProxy();
    const first = await client.categories.create({ name: 'Twice on purpose' });
    const second = await client.categories.create({ name: 'Twice on purpose' });
    expect(second.id).not.toBe(first.id);
    expect(proxy.keys).toHaveLength(2);
    expect(proxy.keys[0]).toMatch(UUID);
    expect(proxy.keys[1]).toMatch(UUID);
    expect(proxy.keys[1]).not.toBe(proxy.keys[0]);
    expect((await named('Twice on purpose')).map((category) => category.id).sort()).toEqual([first.id, second.id].sort());
  });

  it("sends the caller's key as given, and a repeat of it answers the first call again", async () => {
    proxy.keys = [];
    const client = throughProxy();
    const first = await client.categories.create({ name: 'Order 4711' }, { idempotencyKey: 'order-4711' });
    const again = await client.categories.create({ name: 'Order 4711' }, { idempotencyKey: 'order-4711' });
    expect(proxy.keys).toEqual(['order-4711', 'order-4711']);
    expect(again).toEqual(first);
    expect((await named('Order 4711')).map((category) => category.id)).toEqual([first.id]);
  });

  it("retries a lost answer under the caller's key too", async () => {
    proxy.keys = [];
    proxy.lose = 1;
    const created = await throughProxy().categories.create({ name: 'Order 4712' }, { idempotencyKey: 'order-4712' });
    expect(proxy.keys).toEqual(['order-4712', 'order-4712']);
    expect((await named('Order 4712')).map((category) => category.id)).toEqual([created.id]);
  });

  it('sends no key on reads', async () => {
    proxy.keys = [];
    await throughProxy().categories.list();
    expect(proxy.keys).toEqual([null]);
  });
});

describe('the retry rule', () => {
  const policy = { limit: 2, backoffMs: 300, maxBackoffMs: 10_000, maxRetryAfterMs: 10_000 };
  it.each<[string, FailedAttempt, number, boolean]>([
    ['a GET without an answer', { method: 'GET' }, 0, true],
    ['a POST without an answer, under its automatic key', { method: 'POST', key: 'automatic' }, 0, true],
    ['a POST after a 503, under its automatic key', { method: 'POST', key: 'automatic', status: 503 }, 0, false],
    ["a POST after a 503, under the caller's key", { method: 'POST', key: 'caller', status: 503 }, 0, true],
    ['a POST after a 409 while its key still runs', { method: 'POST', key: 'automatic', status: 409 }, 0, true],
    ['a POST after a replayed 409', { method: 'POST', key: 'automatic', status: 409, replayed: true }, 0, false],
    ['a PUT after a 409', { method: 'PUT', status: 409 }, 0, false],
    ['a DELETE after a 502', { method: 'DELETE', status: 502 }, 1, true],
    ['a GET after a 422', { method: 'GET', status: 422 }, 0, false],
    ['a GET once the limit is reached', { method: 'GET', status: 503 }, 2, false],
    ['a GET after a timeout', { method: 'GET', timedOut: true }, 0, false],
    ['an aborted GET', { method: 'GET', aborted: true }, 0, false],
    ['a GET told to wait longer than allowed', { method: 'GET', status: 429, retryAfterMs: 60_000 }, 0, false],
    ['a GET told to wait a second', { method: 'GET', status: 429, retryAfterMs: 1_000 }, 0, true],
  ])('%s: %s', (_case, attempt, retries, expected) => {
    expect(shouldRetry(attempt, retries, policy)).toBe(expected);
  });
});
