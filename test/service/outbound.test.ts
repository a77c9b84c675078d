import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OutboundError, outboundFetch, outboundText, sendOutbound, serviceOutboundClient } from '../../src/service/outbound.js';
import { HostileSubscriber } from './support/hostile-subscriber.js';

/** The service's outbound client against real sockets that misbehave. */
let plain: Server;
let plainUrl = '';

beforeAll(async () => {
  plain = createServer((request, response) => {
    if (request.url === '/big') {
      response.writeHead(200, { 'content-type': 'text/plain' });
      response.end('y'.repeat(100_000));
      return;
    }
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      response.writeHead(201, { 'content-type': 'application/json', 'x-seen': String(Buffer.concat(chunks).length) });
      response.end('{"ok":true}');
    });
  });
  await new Promise<void>((resolve) => plain.listen(0, '127.0.0.1', () => resolve()));
  plainUrl = `http://127.0.0.1:${(plain.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => plain.close(() => resolve()));
});

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: unknown) => (error instanceof OutboundError ? error.kind : `not an OutboundError: ${String(error)}`),
  );

describe('the outbound client', () => {
  it('sends a body and reads the answer, its status and headers', async () => {
    const answer = await sendOutbound({ url: `${plainUrl}/echo`, method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'a'.repeat(180_000) });
    expect([answer.status, answer.headers['x-seen'], outboundText(answer)]).toEqual([201, '180000', '{"ok":true}']);
  });

  it('refuses an answer longer than its cap', async () => {
    expect(await failure(sendOutbound({ url: `${plainUrl}/big`, maxResponseBytes: 1000 }))).toBe('too_large');
  });

  it('connects to a pinned address whatever the host is called', async () => {
    const port = Number(new URL(plainUrl).port);
    const answer = await sendOutbound({ url: `http://subscriber.invalid:${port}/echo`, method: 'POST', body: 'x', address: { address: '127.0.0.1', family: 4 } });
    expect(answer.status).toBe(201);
  });

  it('survives 200 exchanges with peers that answer early and close, reset, send garbage or are cut off', async () => {
    const modes = ['answer-and-close', 'reset', 'garbage', 'cut-mid-body'] as const;
    const peers = modes.map((mode) => new HostileSubscriber(mode));
    await Promise.all(peers.map((peer) => peer.start()));
    try {
      const body = JSON.stringify({ deal: 'x'.repeat(180_000) });
      const outcomes = new Map<string, number>();
      for (let round = 0; round < 50; round += 1) {
        await Promise.all(
          peers.map(async (peer) => {
            const outcome = await sendOutbound({ url: peer.url(), method: 'POST', body, timeoutMs: 2000 }).then(
              (answer) => `${peer.mode}: ${answer.status}`,
              (error: unknown) => `${peer.mode}: ${error instanceof OutboundError ? 'OutboundError' : String(error)}`,
            );
            outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
          }),
        );
      }
      // Each peer's exchanges end one way or the other, and never past the call.
      for (const mode of modes) {
        const total = [...outcomes].filter(([key]) => key.startsWith(`${mode}:`)).reduce((sum, [, n]) => sum + n, 0);
        expect(total).toBe(50);
      }
      expect([...outcomes.keys()].filter((key) => !/: (503|OutboundError)$/.test(key))).toEqual([]);
      expect(outcomes.get('reset: OutboundError')).toBe(50);
      expect(outcomes.get('garbage: OutboundError')).toBe(50);
    } finally {
      await Promise.all(peers.map((peer) => peer.stop()));
    }
  }, 60_000);

  it('ends an answer that never ends at its deadline', async () => {
    const peer = new HostileSubscriber('endless');
    await peer.start();
    try {
      const started = performance.now();
      expect(await failure(sendOutbound({ url: peer.url(), method: 'POST', body: 'x', timeoutMs: 300 }))).toBe('timeout');
      expect(performance.now() - started).toBeLessThan(2000);
    } finally {
      await peer.stop();
    }
  });

  it('is a fetch for clients written against fetch, with the same errors', async () => {
    const fetchOut = outboundFetch({ timeoutMs: 2000, maxResponseBytes: 1000 });
    const answer = await fetchOut(`${plainUrl}/echo`, { method: 'POST', body: 'hello' });
    expect([answer.status, answer.headers.get('x-seen'), await answer.json()]).toEqual([201, '5', { ok: true }]);
    expect(await failure(fetchOut(`${plainUrl}/big`))).toBe('too_large');
    const controller = new AbortController();
    controller.abort();
    expect(await failure(fetchOut(`${plainUrl}/echo`, { signal: controller.signal }))).toBe('aborted');
  });

  it('carries the server-kit client and its retry rule: a reset GET is tried again, a reset POST is not', async () => {
    const peer = new HostileSubscriber('reset');
    await peer.start();
    try {
      const client = serviceOutboundClient({ maxAttempts: 3, sleep: () => Promise.resolve() });
      expect(await failure(client.request({ url: peer.url('/read') }))).toBe('reset');
      expect(peer.connections).toBe(3);
      expect(await failure(client.request({ url: peer.url('/write'), method: 'POST', body: 'x' }))).toBe('reset');
      expect(peer.connections).toBe(4);
      const answer = await client.json({ url: `${plainUrl}/echo`, method: 'POST', json: { a: 1 }, idempotent: true });
      expect([answer.status, answer.body]).toEqual([201, { ok: true }]);
    } finally {
      await peer.stop();
    }
  });
});
