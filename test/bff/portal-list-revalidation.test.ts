import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { issuePortalToken } from '../../src/bff/index.js';
import { bearer, json, PORTAL_SECRET, seed, startService, startTestBff, type Api, type Seed, type Service, type TestBff } from './support.js';

/**
 * The BFF holds the first pages the service tagged and asks again with the tag: the service's
 * `304 Not Modified` makes the held page the answer. Seen through a transparent proxy that records
 * each list call, the tag it named and the status it got.
 */
let service: Service;
let api: Api;
let data: Seed;
let proxy: Server;
let bff: TestBff;
let tokenA: string;
let tokenB: string;
const calls: { url: string; tag: string | undefined; status: number }[] = [];

beforeAll(async () => {
  ({ service, api } = await startService());
  data = await seed(api);
  proxy = createServer(async (req, res) => {
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) if (typeof value === 'string' && name !== 'host') headers.set(name, value);
    const upstream = await fetch(`${service.url}${req.url}`, { method: req.method, headers });
    if (req.url?.startsWith('/invoices.json')) calls.push({ url: req.url, tag: req.headers['if-none-match'], status: upstream.status });
    const answer = Buffer.from(await upstream.arrayBuffer());
    res.writeHead(upstream.status, Object.fromEntries([...upstream.headers].filter(([name]) => !['content-length', 'content-encoding', 'transfer-encoding'].includes(name))));
    res.end(answer);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  // Asking with the tag each time, as a BFF does where it cannot follow the service's write count.
  bff = await startTestBff(service, { serviceUrl: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`, rateLimit: false, followServiceWrites: false });
  [tokenA, tokenB] = await Promise.all([
    issuePortalToken({ clientId: data.clientA, ttlSeconds: 600 }, PORTAL_SECRET),
    issuePortalToken({ clientId: data.clientB, ttlSeconds: 600 }, PORTAL_SECRET),
  ]);
}, 120_000);

afterAll(async () => {
  await bff?.close();
  proxy?.closeAllConnections();
  proxy?.close();
  await service?.stop();
});

async function list(token: string, query = '?per_page=25') {
  calls.length = 0;
  const response = await fetch(`${bff.base}/invoices${query}`, { headers: bearer(token) });
  expect(response.status).toBe(200);
  return { body: await json(response), calls: [...calls] };
}

const numbers = (body: { data: { number: string }[] }) => body.data.map((invoice) => invoice.number).sort();

describe.skipIf(process.env.DATABASE_URL)('the portal list asks again with the tag of the page it holds', () => {
  it('answers the held page when the service says it is current, the same as a whole read', async () => {
    const first = await list(tokenA);
    expect(first.calls).toEqual([expect.objectContaining({ tag: undefined, status: 200 })]);
    const second = await list(tokenA);
    expect(second.calls).toEqual([expect.objectContaining({ tag: expect.stringMatching(/^W\//), status: 304 })]);
    expect(second.body).toEqual(first.body);
    // The rejected ALPHA-005 is not among the active invoices the portal shows first.
    expect(numbers(second.body)).toEqual(['ALPHA-001', 'ALPHA-002', 'ALPHA-003', 'ALPHA-004']);
    expect(second.body.total).toBe(4);
  });

  it('shows a change made straight on the service on the very next request', async () => {
    await list(tokenA);
    const before = (await list(tokenA)).body;
    await api.invoices.changeStatus(data.invoices['ALPHA-003']!.id, 'paid');
    const after = await list(tokenA);
    expect(after.calls).toEqual([expect.objectContaining({ tag: expect.stringMatching(/^W\//), status: 200 })]);
    const status = (body: typeof before) => body.data.find((invoice: { number: string }) => invoice.number === 'ALPHA-003').status;
    expect(status(before)).not.toBe('paid');
    expect(status(after.body)).toBe('paid');
    expect(after.body.totals).not.toEqual(before.totals);

    await api.invoices.create({ kind: 'vat', number: 'ALPHA-006', client_id: data.clientA, positions: [{ name: 'More', tax: '23', quantity: '1', total_price_gross: '12.00' }] });
    const added = await list(tokenA);
    expect(numbers(added.body)).toContain('ALPHA-006');
    expect(added.body.total).toBe(5);
    // And the new page is held in its turn.
    expect((await list(tokenA)).calls).toEqual([expect.objectContaining({ status: 304 })]);
  });

  it("never answers one customer with another's held page", async () => {
    await list(tokenA);
    await list(tokenA);
    const b = await list(tokenB);
    expect(b.calls).toEqual([expect.objectContaining({ tag: undefined, status: 200 })]);
    expect(numbers(b.body)).toEqual(['BETA-001', 'BETA-002']);
    const bAgain = await list(tokenB);
    expect(bAgain.calls).toEqual([expect.objectContaining({ status: 304 })]);
    expect(numbers(bAgain.body)).toEqual(['BETA-001', 'BETA-002']);
    expect(numbers((await list(tokenA)).body)).not.toContain('BETA-001');
  });

  it('holds each query apart: filters, pages and order', async () => {
    const paid = await list(tokenA, '?status=paid&per_page=25');
    const firstTwo = await list(tokenA, '?per_page=2');
    const nextTwo = await list(tokenA, '?per_page=2&page=2');
    expect(paid.body.data.every((invoice: { status: string }) => invoice.status === 'paid')).toBe(true);
    expect(firstTwo.body.data).toHaveLength(2);
    expect(nextTwo.body.data.map((invoice: { number: string }) => invoice.number)).not.toEqual(firstTwo.body.data.map((invoice: { number: string }) => invoice.number));
    expect((await list(tokenA, '?status=paid&per_page=25')).body).toEqual(paid.body);
    expect((await list(tokenA, '?per_page=2')).body).toEqual(firstTwo.body);
  });
});

/**
 * A BFF in the service's process, given the service's write count (`serviceWriteCount`, as the
 * embedded default runs it), answers a held page without asking while the count stands still: the
 * service would answer 304. Its calls are seen through the in-process `fetch` it is given.
 */
describe.skipIf(process.env.DATABASE_URL)("in the service's process, a held page is answered without a call while nothing is written", () => {
  let embedded: TestBff;
  const inProcess: { url: string; tag: string | null; status: number }[] = [];

  beforeAll(async () => {
    expect(service.writeCount, 'a service on PGlite gives its write count').toBeTypeOf('function');
    embedded = await startTestBff(service, {
      rateLimit: false,
      serviceFetch: async (input, init) => {
        const request = new Request(input, init);
        const response = await service.fetch(request);
        if (new URL(request.url).pathname.startsWith('/invoices.json')) inProcess.push({ url: request.url, tag: request.headers.get('if-none-match'), status: response.status });
        return response;
      },
      serviceWriteCount: service.writeCount!,
    });
  });
  afterAll(() => embedded?.close());

  async function embeddedList(token: string, query = '?per_page=25') {
    inProcess.length = 0;
    const response = await fetch(`${embedded.base}/invoices${query}`, { headers: bearer(token) });
    expect(response.status).toBe(200);
    return { body: await json(response), calls: [...inProcess] };
  }

  it('asks once, then answers the held page alone, the same as the whole read', async () => {
    const first = await embeddedList(tokenA);
    expect(first.calls).toHaveLength(1);
    const again = await embeddedList(tokenA);
    expect(again.calls).toEqual([]);
    expect(again.body).toEqual(first.body);
    // The same answer the BFF beside it gives by asking the service with the tag.
    expect(again.body).toEqual((await list(tokenA)).body);
  });

  it('asks again after any write, and shows a change made straight on the service on the very next request', async () => {
    await embeddedList(tokenA);
    const before = (await embeddedList(tokenA)).body;
    await api.invoices.create({ kind: 'vat', number: 'ALPHA-007', client_id: data.clientA, positions: [{ name: 'Later', tax: '23', quantity: '1', total_price_gross: '7.00' }] });
    const after = await embeddedList(tokenA);
    expect(after.calls).toEqual([expect.objectContaining({ tag: expect.stringMatching(/^W\//), status: 200 })]);
    expect(numbers(after.body)).toContain('ALPHA-007');
    expect(after.body.total).toBe(before.total + 1);
    expect((await embeddedList(tokenA)).calls).toEqual([]);
    // A write that changes nothing of this customer's still moves the count: the service is asked
    // again (its tags stand for the count too, so it answers the page whole), and the page is the same.
    const held = (await embeddedList(tokenA)).body;
    await api.products.create({ name: 'Unrelated', price_net: '1.00', tax: '23' });
    const unrelated = await embeddedList(tokenA);
    expect(unrelated.calls).toEqual([expect.objectContaining({ tag: expect.stringMatching(/^W\//), status: 200 })]);
    expect(unrelated.body).toEqual(held);
    expect((await embeddedList(tokenA)).calls).toEqual([]);
  });

  it("never answers one customer with another's held page", async () => {
    await embeddedList(tokenA);
    await embeddedList(tokenA);
    const b = await embeddedList(tokenB);
    expect(b.calls).toHaveLength(1);
    expect(numbers(b.body)).toEqual(['BETA-001', 'BETA-002']);
    expect(numbers((await embeddedList(tokenB)).body)).toEqual(['BETA-001', 'BETA-002']);
    expect(numbers((await embeddedList(tokenA)).body)).not.toContain('BETA-001');
  });
});

/**
 * A BFF in its own process on the service's host follows the service's write count (`GET /changes`,
 * which `startBff` opens by itself for a loopback service): a held page is answered without a call
 * while the count stands still. Its list calls are seen through the `fetch` it is given.
 */
describe.skipIf(process.env.DATABASE_URL)('in its own process on the same host, a held page is answered without a call while nothing is written', () => {
  let following: TestBff;
  const listCalls: string[] = [];

  beforeAll(async () => {
    following = await startTestBff(service, {
      rateLimit: false,
      serviceFetch: async (input, init) => {
        const request = new Request(input, init);
        if (new URL(request.url).pathname.startsWith('/invoices.json')) listCalls.push(request.url);
        return fetch(request);
      },
    });
  });
  afterAll(() => following?.close());

  async function followingList(token: string, query = '?per_page=25') {
    listCalls.length = 0;
    const response = await fetch(`${following.base}/invoices${query}`, { headers: bearer(token) });
    expect(response.status).toBe(200);
    return { body: await json(response), calls: [...listCalls] };
  }

  it('asks once, then answers the held page alone, the same as a BFF that asks', async () => {
    // The feed's first count may still be on its way: a page asked for before it came is asked again.
    await vi.waitFor(async () => expect((await followingList(tokenA)).calls).toEqual([]), { timeout: 10_000 });
    const again = await followingList(tokenA);
    expect(again.calls).toEqual([]);
    expect(again.body).toEqual((await list(tokenA)).body);
  });

  it('shows every write made straight on the service on the very next request', async () => {
    await vi.waitFor(async () => expect((await followingList(tokenA)).calls).toEqual([]), { timeout: 10_000 });
    for (let i = 0; i < 15; i += 1) {
      const number = `FEED-${String(i).padStart(3, '0')}`;
      await api.invoices.create({ kind: 'vat', number, client_id: data.clientA, positions: [{ name: 'Feed', tax: '23', quantity: '1', total_price_gross: '3.00' }] });
      // Asked at once after the service's answer: the new count reached the BFF before that answer did.
      const after = await followingList(tokenA, '?per_page=100');
      expect(after.calls).toHaveLength(1);
      expect(numbers(after.body)).toContain(number);
      expect((await followingList(tokenA, '?per_page=100')).calls).toEqual([]);
    }
  });

  it("never answers one customer with another's held page", async () => {
    await vi.waitFor(async () => expect((await followingList(tokenA)).calls).toEqual([]), { timeout: 10_000 });
    const b = await followingList(tokenB);
    expect(b.calls).toHaveLength(1);
    expect(numbers(b.body)).toEqual(['BETA-001', 'BETA-002']);
    expect((await followingList(tokenB)).calls).toEqual([]);
    expect(numbers((await followingList(tokenB)).body)).toEqual(['BETA-001', 'BETA-002']);
    expect(numbers((await followingList(tokenA)).body)).not.toContain('BETA-001');
  });
});
