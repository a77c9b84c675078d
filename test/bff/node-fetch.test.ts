import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createInvoicingClient } from '../../src/api/client.js';
import { keepAliveFetch, type KeepAliveFetch } from '../../src/bff/node-fetch.js';
import { startService, type Service } from './support.js';

/** The BFF's `fetch` over Node's `http`, against a real HTTP server and the real service. */
let server: Server;
let other: Server;
let base: string;
let otherBase: string;
let connections = 0;
const seen: { method: string; url: string; headers: IncomingMessage['headers']; body: string }[] = [];
let release: (() => void) | undefined;
let fetchOverNode: KeepAliveFetch;
let service: Service;

function routes(req: IncomingMessage, res: ServerResponse, body: string): void {
  seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
  const path = new URL(req.url ?? '/', 'http://x').pathname;
  if (path === '/echo') {
    res.writeHead(201, [['content-type', 'application/json'], ['set-cookie', 'a=1'], ['set-cookie', 'b=2']]);
    res.end(JSON.stringify({ method: req.method, body }));
  } else if (path === '/empty') {
    res.writeHead(204).end();
  } else if (path === '/gzip') {
    res.writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'gzip' }).end(gzipSync('zażółć gęślą jaźń'));
  } else if (path === '/see-other') {
    res.writeHead(303, { location: '/echo?after=303' }).end();
  } else if (path === '/elsewhere') {
    res.writeHead(307, { location: `${otherBase}/echo` }).end();
  } else if (path === '/held') {
    release = () => res.writeHead(200).end('late');
  } else {
    res.writeHead(404).end();
  }
}

function listen(target: Server): Promise<string> {
  return new Promise((resolve) => target.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(target.address() as AddressInfo).port}`)));
}

beforeAll(async () => {
  const handler = (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => routes(req, res, Buffer.concat(chunks).toString('utf8')));
  };
  server = createServer(handler);
  server.on('connection', () => (connections += 1));
  other = createServer(handler);
  base = await listen(server);
  otherBase = await listen(other);
  fetchOverNode = keepAliveFetch();
  ({ service } = await startService());
}, 60_000);

afterAll(async () => {
  fetchOverNode?.close();
  server?.closeAllConnections();
  server?.close();
  other?.closeAllConnections();
  other?.close();
  await service?.stop();
});

describe('keepAliveFetch', () => {
  it('sends the method, headers and body, and answers status, every header and the body', async () => {
    const answer = await fetchOverNode(`${base}/echo`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-trace': 't-1' }, body: '{"ząb":1}' });
    expect(answer.status).toBe(201);
    expect(answer.headers.get('content-type')).toBe('application/json');
    expect(answer.headers.getSetCookie()).toEqual(['a=1', 'b=2']);
    expect(await answer.json()).toEqual({ method: 'POST', body: '{"ząb":1}' });
    const last = seen.at(-1)!;
    expect(last.headers['x-trace']).toBe('t-1');
    expect(last.headers['content-length']).toBe(String(Buffer.byteLength('{"ząb":1}')));
  });

  it('keeps one connection for calls one after another', async () => {
    const before = connections;
    for (let i = 0; i < 20; i += 1) expect((await fetchOverNode(`${base}/echo`)).status).toBe(201);
    expect(connections - before).toBeLessThanOrEqual(1);
  });

  it('answers a 204 without a body, and decodes a compressed answer', async () => {
    const empty = await fetchOverNode(`${base}/empty`);
    expect(empty.status).toBe(204);
    expect(empty.body).toBeNull();
    const gzip = await fetchOverNode(`${base}/gzip`);
    expect(await gzip.text()).toBe('zażółć gęślą jaźń');
    expect(gzip.headers.get('content-encoding')).toBeNull();
  });

  it('follows redirects as fetch does, and never carries credentials to another origin', async () => {
    const seeOther = await fetchOverNode(`${base}/see-other`, { method: 'POST', body: 'x' });
    expect(await seeOther.json()).toEqual({ method: 'GET', body: '' });
    await fetchOverNode(`${base}/elsewhere`, { headers: { authorization: 'Bearer secret' } });
    const last = seen.at(-1)!;
    expect(last.url).toBe('/echo');
    expect(last.headers.authorization).toBeUndefined();
  });

  it('stops a call when its signal aborts', async () => {
    const controller = new AbortController();
    const call = fetchOverNode(`${base}/held`, { signal: controller.signal });
    await expect.poll(() => release).toBeDefined();
    controller.abort();
    await expect(call).rejects.toMatchObject({ name: 'AbortError' });
    release!();
  });

  it('fails as fetch does when nothing answers', async () => {
    const closed = createServer();
    const address = await listen(closed);
    closed.close();
    await expect(fetchOverNode(`${address}/echo`)).rejects.toMatchObject({ name: 'TypeError', message: 'fetch failed', cause: { code: 'ECONNREFUSED' } });
  });

  it('carries the typed client against the service, errors included', async () => {
    const client = createInvoicingClient({ baseUrl: service.url, apiToken: service.apiToken, fetch: fetchOverNode, retry: 0 });
    const created = await client.clients.create({ name: 'Keep-Alive Sp. z o.o.' });
    expect((await client.clients.get(created.id)).name).toBe('Keep-Alive Sp. z o.o.');
    await expect(client.clients.get(987_654)).rejects.toMatchObject({ status: 404 });
    const wrongToken = createInvoicingClient({ baseUrl: service.url, apiToken: 'not-the-token', fetch: fetchOverNode, retry: 0 });
    await expect(wrongToken.clients.get(created.id)).rejects.toMatchObject({ status: 401 });
  });
});
