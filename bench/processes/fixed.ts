import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import type { AddressInfo } from 'node:net';

/**
 * The baseline: a fixed JSON answer of a requested size on the same stack as the service (Hono on
 * @hono/node-server, a Node process of its own started the same way). `GET /fixed/8192` answers
 * about 8 KB of invoice-like JSON, serialized on every request as the service serializes its own.
 */
const payloads = new Map<number, unknown[]>();

function payloadOf(bytes: number): unknown[] {
  let payload = payloads.get(bytes);
  if (!payload) {
    const row = (i: number) => ({ id: 100_000 + i, number: `${i}/01/2026`, price_gross: '123.45', buyer_name: 'Client SA', status: 'issued' });
    const one = JSON.stringify(row(0)).length + 1;
    payload = Array.from({ length: Math.max(1, Math.round(bytes / one)) }, (_, i) => row(i));
    payloads.set(bytes, payload);
  }
  return payload;
}

const app = new Hono();
app.get('/fixed/:bytes', (c) => c.json(payloadOf(Math.min(Number(c.req.param('bytes')) || 8192, 4_000_000))));
const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => {
  process.send!({ type: 'ready', url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` });
});
process.on('message', (message: { id: number; type: string }) => {
  if (message.type === 'stop') {
    process.send!({ id: message.id, result: {} });
    server.close();
    process.exit(0);
  }
});
