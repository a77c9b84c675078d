import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount } from '../../src/service/accounts.js';
import { createInvoicingClient } from '../../src/api/index.js';
import { createPlainInvoice } from '../helpers/http.js';
import { startTestService, type TestService } from '../helpers/service.js';

/**
 * Conditional reads (RFC 9110 §13.1.2): on PGlite the invoice list, an invoice and the summary carry
 * an entity tag, and a request naming the current tag in `If-None-Match` gets `304 Not Modified`
 * without a body, until anything is written. On PostgreSQL no tag is given and every read is whole.
 */
const pglite = !process.env.DATABASE_URL;

describe('conditional reads', () => {
  let service: TestService;
  let other: TestService;
  let id: number;
  const listUrl = () => `${service.url}/invoices.json?api_token=${service.apiToken}&period=all&per_page=25&summary=true`;
  const get = (url: string, tag?: string) => fetch(url, tag ? { headers: { 'if-none-match': tag } } : {});
  const create = (buyer: string) => createPlainInvoice(service, buyer);

  beforeAll(async () => {
    [service, other] = await Promise.all([startTestService(), startTestService()]);
    id = await create('First Buyer SA');
  });
  afterAll(() => Promise.all([service.stop(), other.stop()]));

  it.skipIf(!pglite)('answers 304 with no body while nothing is written, and the list whole once something is', async () => {
    const first = await get(listUrl());
    expect(first.status).toBe(200);
    const tag = first.headers.get('etag')!;
    expect(tag).toMatch(/^W\/"[\w-]+"$/);
    expect(first.headers.get('cache-control')).toBe('private, no-cache');
    const rows = (await first.json()) as { buyer_name: string }[];
    expect(rows.map((row) => row.buyer_name)).toEqual(['First Buyer SA']);

    const again = await get(listUrl(), tag);
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
    expect(again.headers.get('etag')).toBe(tag);
    // A 304 carries no summary: the one held with the tag is still current.
    expect(again.headers.get('x-invoicekit-summary')).toBeNull();
    // Several tags, one of them current, and the weak comparison of a strong-looking copy.
    expect((await get(listUrl(), `"other", ${tag}`)).status).toBe(304);
    expect((await get(listUrl(), tag.slice(2))).status).toBe(304);
    expect((await get(listUrl(), 'W/"not-a-tag-we-gave"')).status).toBe(200);

    await create('Second Buyer SA');
    const changed = await get(listUrl(), tag);
    expect(changed.status).toBe(200);
    expect(changed.headers.get('etag')).not.toBe(tag);
    expect(((await changed.json()) as { buyer_name: string }[]).map((row) => row.buyer_name).sort()).toEqual(['First Buyer SA', 'Second Buyer SA']);
    expect(JSON.parse(changed.headers.get('x-invoicekit-summary')!)).toMatchObject({ count: 2 });
  });

  it.skipIf(!pglite)('tags each representation, URL and account apart', async () => {
    const json = await get(listUrl());
    const tag = json.headers.get('etag')!;
    const xml = await get(`${service.url}/invoices.xml?api_token=${service.apiToken}&period=all&per_page=25&summary=true`, tag);
    expect(xml.status).toBe(200);
    expect(xml.headers.get('content-type')).toContain('xml');
    expect((await get(listUrl().replace('per_page=25', 'per_page=24'), tag)).status).toBe(200);
    // Another account's token on the same URL: its own rows, never a 304 for the first account's tag.
    const stranger = await service.db.transaction((tx) => createAccount(tx, { prefix: 'stranger', company: { name: 'Stranger Ltd' } }));
    const theirs = await get(listUrl().replace(service.apiToken, stranger.api_token), tag);
    expect(theirs.status).toBe(200);
    expect(await theirs.json()).toEqual([]);
  });

  it.skipIf(!pglite)('never matches a tag another process gave', async () => {
    const ours = (await get(listUrl())).headers.get('etag')!;
    const theirs = await get(`${other.url}/invoices.json?api_token=${other.apiToken}&period=all&per_page=25&summary=true`, ours);
    expect(theirs.status).toBe(200);
  });

  it.skipIf(!pglite)('tags an invoice and the summary, and a payment retires the tags', async () => {
    const invoiceUrl = `${service.url}/invoices/${id}.json?api_token=${service.apiToken}`;
    const summaryUrl = `${service.url}/invoices/summary.json?api_token=${service.apiToken}&period=all`;
    const [invoice, summary] = await Promise.all([get(invoiceUrl), get(summaryUrl)]);
    const [invoiceTag, summaryTag] = [invoice.headers.get('etag')!, summary.headers.get('etag')!];
    expect((await get(invoiceUrl, invoiceTag)).status).toBe(304);
    expect((await get(summaryUrl, summaryTag)).status).toBe(304);
    const paid = await fetch(`${service.url}/invoices/${id}/change_status.json?api_token=${service.apiToken}&status=paid`, { method: 'POST' });
    expect(paid.status).toBe(200);
    const [invoiceAfter, summaryAfter] = await Promise.all([get(invoiceUrl, invoiceTag), get(summaryUrl, summaryTag)]);
    expect(invoiceAfter.status).toBe(200);
    expect(((await invoiceAfter.json()) as { status: string }).status).toBe('paid');
    expect(summaryAfter.status).toBe(200);
  });

  it.skipIf(!pglite)('answers a bad query 422 whatever tag it names, and gives errors no tag', async () => {
    const tag = (await get(listUrl())).headers.get('etag')!;
    const bad = await get(listUrl().replace('period=all', 'period=whenever'), tag);
    expect(bad.status).toBe(422);
    expect(bad.headers.get('etag')).toBeNull();
    const missing = await get(`${service.url}/invoices/999999.json?api_token=${service.apiToken}`, '*');
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ code: 'error' });
  });

  it('lets the typed client ask again with the etag of a page it holds', async () => {
    const client = createInvoicingClient({ baseUrl: service.url, apiToken: service.apiToken, retry: 0 });
    const fields = ['id', 'number', 'buyer_name'] as const;
    const query = { period: 'all' as const, per_page: 25 };
    const page = await client.invoices.listPage!(fields, query);
    expect(page.invoices.map((invoice) => invoice.id)).toContain(id);
    if (!pglite) {
      expect(page.etag).toBeUndefined();
      return;
    }
    expect(page.etag).toMatch(/^W\//);
    expect(await client.invoices.listPage!(fields, query, { ifNoneMatch: page.etag! })).toEqual({ notModified: true });
    // A tag that is not the current one gets the page whole, as does any tag after a write.
    const stale = await client.invoices.listPage!(fields, query, { ifNoneMatch: 'W/"not-the-tag"' });
    expect(stale).toMatchObject({ invoices: page.invoices, etag: page.etag });
    const added = await create('Later Buyer SA');
    const changed = await client.invoices.listPage!(fields, query, { ifNoneMatch: page.etag! });
    expect('notModified' in changed).toBe(false);
    expect((changed as typeof page).invoices.map((invoice) => invoice.id)).toContain(added);
    expect((changed as typeof page).etag).not.toBe(page.etag);
  });

  it('answers in-process through service.fetch as over HTTP, errors and conditions included', async () => {
    const url = listUrl().replace('summary=true', 'summary=false');
    const [viaSocket, inProcess] = await Promise.all([get(url), service.fetch(url)]);
    expect(inProcess.status).toBe(200);
    expect(await inProcess.json()).toEqual(await viaSocket.json());
    const tag = inProcess.headers.get('etag');
    if (pglite) expect((await service.fetch(url, { headers: { 'if-none-match': tag! } })).status).toBe(304);
    const missing = await service.fetch(`${service.url}/invoices/999999.json?api_token=${service.apiToken}`);
    expect(missing.status).toBe(404);
    const refused = await service.fetch(`${service.url}/invoices.json?api_token=wrong-token`);
    expect(refused.status).toBe(401);
    const created = await service.fetch(`${service.url}/clients.json`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ api_token: service.apiToken, client: { name: 'In-process Ltd' } }),
    });
    expect(created.status).toBe(201);
    expect(await created.json()).toMatchObject({ name: 'In-process Ltd' });
  });

  it.skipIf(pglite)('gives no tag on PostgreSQL, where other processes write too, and answers whole', async () => {
    const first = await get(listUrl());
    expect(first.status).toBe(200);
    expect(first.headers.get('etag')).toBeNull();
    expect((await get(listUrl(), 'W/"anything"')).status).toBe(200);
    expect((await get(listUrl(), '*')).status).toBe(200);
  });
});
