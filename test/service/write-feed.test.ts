import { request, type IncomingMessage } from 'node:http';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createPlainInvoice, NOT_FOUND, secondAccount, UNAUTHORIZED } from '../helpers/http.js';
import { MAX_FEEDS, MAX_FEEDS_PER_ACCOUNT } from '../../src/service/write-feed.js';
import { startTestService, type TestService } from '../helpers/service.js';

/**
 * `GET /changes`: the database's write count as server-sent events, for a BFF in another process on
 * the same host (docs/decisions/conditional-reads.md). On PGlite the service counts every write; on
 * PostgreSQL, where other processes write too, there is no feed.
 */
const pglite = !process.env.DATABASE_URL;

let service: TestService;
beforeAll(async () => {
  service = await startTestService();
}, 60_000);
afterAll(() => service?.stop());

/** A feed read event by event: `next()` resolves with the next event's data, as it arrives. */
async function follow(token: string): Promise<{ response: IncomingMessage; next(): Promise<string>; buffered(): number; close(): void }> {
  const response = await new Promise<IncomingMessage>((resolve, reject) => {
    const req = request(`${service.url}/changes`, { headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' } }, resolve);
    req.on('error', reject);
    req.end();
  });
  const events: string[] = [];
  const waiting: ((data: string) => void)[] = [];
  let pending = '';
  response.setEncoding('utf8');
  response.on('data', (chunk: string) => {
    pending += chunk;
    let end: number;
    while ((end = pending.indexOf('\n\n')) >= 0) {
      const event = pending.slice(0, end);
      pending = pending.slice(end + 2);
      const data = /^data: (.*)$/m.exec(event)?.[1];
      if (data === undefined) continue;
      const taker = waiting.shift();
      if (taker) taker(data);
      else events.push(data);
    }
  });
  return {
    response,
    next: () => (events.length ? Promise.resolve(events.shift()!) : new Promise((resolve) => waiting.push(resolve))),
    buffered: () => events.length,
    close: () => response.destroy(),
  };
}

describe('the write feed', () => {
  it('refuses a request without the account token, or with a wrong one, with the reference 401', async () => {
    for (const headers of [{}, { authorization: 'Bearer not-the-token' }, { authorization: 'Basic Og==' }] as Record<string, string>[]) {
      const response = await fetch(`${service.url}/changes`, { headers });
      expect(response.status).toBe(401);
      expect(await response.json()).toEqual(UNAUTHORIZED);
    }
    const query = await fetch(`${service.url}/changes?api_token=wrong`);
    expect(query.status).toBe(401);
    expect(await query.json()).toEqual(UNAUTHORIZED);
  });

  it.runIf(!pglite)('is not offered on PostgreSQL, where other processes write too', async () => {
    const response = await fetch(`${service.url}/changes`, { headers: { authorization: `Bearer ${service.apiToken}` } });
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual(NOT_FOUND);
  });

  it.runIf(pglite)('answers a HEAD with the headers alone, and ends it', async () => {
    const response = await fetch(`${service.url}/changes`, { method: 'HEAD', headers: { authorization: `Bearer ${service.apiToken}` } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(await response.text()).toBe('');
  });

  it.runIf(pglite)('is not offered in-process, where there is no connection to hold', async () => {
    const response = await service.fetch(`${service.url}/changes`, { headers: { authorization: `Bearer ${service.apiToken}` } });
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual(NOT_FOUND);
  });

  it.runIf(pglite)('says the count at once, and a new one before the answer of every write', async () => {
    const feed = await follow(service.apiToken);
    try {
      expect(feed.response.statusCode).toBe(200);
      expect(feed.response.headers['content-type']).toBe('text/event-stream; charset=utf-8');
      expect(feed.response.headers['cache-control']).toBe('no-store');
      const first = await feed.next();
      expect(first).toMatch(/^[\w-]{8}\.\d+$/);
      const [epoch, count] = first.split('.');
      await createPlainInvoice(service, 'Ada');
      // Told as the write began and as it ended, each count once, all with the same epoch.
      const told = [await feed.next(), await feed.next()];
      expect(told.every((data) => data.startsWith(`${epoch}.`))).toBe(true);
      const counts = told.map((data) => Number(data.split('.')[1]));
      expect(counts[0]).toBeGreaterThan(Number(count));
      expect(counts[1]).toBeGreaterThan(counts[0]!);
    } finally {
      feed.close();
    }
  });

  it.runIf(pglite)('is new with each opening of a database: a restarted service never repeats a count', async () => {
    // Two services opened on copies of one template folder: the same data, the same counts.
    const other = await startTestService();
    try {
      const epochOf = async (of: TestService) => {
        const response = await fetch(`${of.url}/changes`, { headers: { authorization: `Bearer ${of.apiToken}` } });
        const reader = response.body!.getReader();
        let text = '';
        while (!text.includes('\n\n')) text += new TextDecoder().decode((await reader.read()).value);
        await reader.cancel();
        return /^data: ([\w-]+)\./m.exec(text)![1];
      };
      expect(await epochOf(other)).not.toBe(await epochOf(service));
    } finally {
      await other.stop();
    }
  });

  it.runIf(pglite)("counts the account's own writes only: another tenant's never reach its feed", async () => {
    const other = await secondAccount(service, 'feed-other');
    const feed = await follow(service.apiToken);
    try {
      const [epoch, count] = (await feed.next()).split('.');
      expect((await other.post('/clients.json', { client: { name: 'Other tenant client' } })).status).toBe(201);
      // On one host the feed's bytes arrive before the write's answer: read every readable socket, then look.
      await new Promise((resolve) => setImmediate(resolve));
      expect(feed.buffered()).toBe(0);
      await createPlainInvoice(service, 'Own');
      expect(Number((await feed.next()).split('.')[1])).toBe(Number(count) + 1);
      expect((await feed.next()).startsWith(`${epoch}.`)).toBe(true);
    } finally {
      feed.close();
    }
  });

  it.runIf(pglite)(`holds at most ${MAX_FEEDS_PER_ACCOUNT} feeds per account, refusing more with 429 while other accounts still get theirs`, async () => {
    const feeds = await Promise.all(Array.from({ length: MAX_FEEDS_PER_ACCOUNT }, () => follow(service.apiToken)));
    try {
      expect(feeds.every((feed) => feed.response.statusCode === 200)).toBe(true);
      const refused = await fetch(`${service.url}/changes`, { headers: { authorization: `Bearer ${service.apiToken}` } });
      expect(refused.status).toBe(429);
      expect(refused.headers.get('retry-after')).toBe('5');
      expect(await refused.json()).toEqual({ code: 'error', message: `The account holds ${MAX_FEEDS_PER_ACCOUNT} change feeds already, the most it may` });
      const other = await follow((await secondAccount(service, 'feed-quota')).token);
      feeds.push(other);
      expect(other.response.statusCode).toBe(200);
      feeds.shift()!.close();
      await vi.waitFor(async () => {
        const next = await follow(service.apiToken);
        feeds.push(next);
        expect(next.response.statusCode).toBe(200);
      }, { timeout: 10_000 });
    } finally {
      for (const feed of feeds) feed.close();
    }
  });

  it.runIf(pglite)(`holds at most ${MAX_FEEDS} feeds at once, and refuses more with 503 and Retry-After until one closes`, async () => {
    const tokens = await Promise.all(Array.from({ length: MAX_FEEDS / MAX_FEEDS_PER_ACCOUNT + 1 }, async (_, i) => (await secondAccount(service, `feed-${i}`)).token));
    const feeds = await Promise.all(tokens.slice(1).flatMap((token) => Array.from({ length: MAX_FEEDS_PER_ACCOUNT }, () => follow(token))));
    try {
      expect(feeds).toHaveLength(MAX_FEEDS);
      expect(feeds.every((feed) => feed.response.statusCode === 200)).toBe(true);
      const refused = await fetch(`${service.url}/changes`, { headers: { authorization: `Bearer ${tokens[0]}` } });
      expect(refused.status).toBe(503);
      expect(refused.headers.get('retry-after')).toBe('5');
      expect(await refused.json()).toEqual({ code: 'error', message: 'Too many change feeds are open' });
      feeds.pop()!.close();
      await vi.waitFor(async () => {
        const next = await follow(tokens[0]!);
        feeds.push(next);
        expect(next.response.statusCode).toBe(200);
      }, { timeout: 10_000 });
    } finally {
      for (const feed of feeds) feed.close();
    }
  });
});

