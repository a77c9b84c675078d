import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBff, issuePortalToken, renderInvoiceList, BffError } from '../../src/bff/index.js';
import { bearer, json, PORTAL_SECRET, seed, startService, startTestBff, type Api, type Seed, type Service, type TestBff } from './support.js';

/** `POST /bff/render/invoice-list` against a real service and BFF: the fragment a host page prints. */
let service: Service;
let api: Api;
let data: Seed;
let bff: TestBff;
let tokenA: string;
let tokenB: string;

beforeAll(async () => {
  ({ service, api } = await startService());
  data = await seed(api);
  // A PDF's first render starts a worker: on a loaded machine it can take longer than the default 10 s.
  bff = await startTestBff(service, { rateLimit: false, serviceTimeoutMs: 25_000 });
  tokenA = await issuePortalToken({ clientId: data.clientA, ttlSeconds: 600 }, PORTAL_SECRET);
  tokenB = await issuePortalToken({ clientId: data.clientB, ttlSeconds: 600 }, PORTAL_SECRET);
}, 120_000);

afterAll(async () => {
  await bff?.close();
  await service?.stop();
});

function render(token: string | undefined, options: unknown = {}, headers: Record<string, string> = { 'content-type': 'application/json' }) {
  return fetch(`${bff.base}/render/invoice-list`, {
    method: 'POST',
    headers: { ...headers, ...(token ? bearer(token) : {}) },
    body: typeof options === 'string' ? options : JSON.stringify(options),
  });
}

async function fragment(token: string, options: Record<string, unknown> = {}) {
  const response = await render(token, options);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^text\/html; charset=utf-8/i);
  expect(response.headers.get('cache-control')).toBe('private, no-store');
  return response.text();
}

/** The invoice numbers of the rendered rows, in order. */
const rowNumbers = (html: string) => [...html.matchAll(/<th scope="row" part="cell number">([^<]+)/g)].map((m) => m[1]);
const serverState = (html: string) => JSON.parse(/<script type="application\/json" data-server-state>(.*?)<\/script>/s.exec(html)![1]!);

describe('POST /bff/render/invoice-list', () => {
  it('renders the customer’s first page in a declarative shadow root, with the data the element takes over with', async () => {
    const html = await fragment(tokenA);
    expect(html).toMatch(/^<invoice-list [^>]*portal-token="[^"]+"[^>]*locale="en"[^>]*per-page="25"[^>]*endpoint="\/bff"/);
    expect(html).toContain('<template shadowroot="open" shadowrootmode="open"><style>');
    expect(html.endsWith('</script></invoice-list>')).toBe(true);
    // The element's own toolbar, totals, rows and footer, newest first, the rejected invoice left out.
    expect(html).toContain('part="toolbar"');
    expect(html).toContain('part="totals"');
    expect(rowNumbers(html)).toEqual(['ALPHA-003', 'ALPHA-002', 'ALPHA-001', 'ALPHA-004']);
    expect(html).toContain('<p>Showing 1–4 of 4</p>');
    // Lit's markers are left out: the element renders afresh when it takes over.
    expect(html).not.toContain('<!--');
    const state = serverState(html);
    expect(state).toMatchObject({ page: 1, per_page: 25, total: 4 });
    expect(state.data.map((invoice: { number: string }) => invoice.number)).toEqual(['ALPHA-003', 'ALPHA-002', 'ALPHA-001', 'ALPHA-004']);
    expect(state.totals).toEqual([{ currency: 'PLN', outstanding: '1285.49', outstanding_count: 3, overdue: '999.99', overdue_count: 1 }]);
    // Nothing of the account's own records reaches the page.
    expect(html).not.toContain('Internal note');
    expect(html).not.toContain(service.apiToken);
  });

  it('answers 401 without a token, with a bad one, and with one signed by another secret', async () => {
    const foreign = await issuePortalToken({ clientId: data.clientA, ttlSeconds: 600 }, 'another-secret-0123456789abcdef-0123456789');
    for (const token of [undefined, 'not-a-token', foreign]) {
      const response = await render(token);
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toMatch(/^Bearer realm="invoicekit"/);
      expect((await json(response)).error.code).toBe('unauthorized');
    }
  });

  it('shows each customer their own invoices only', async () => {
    const a = await fragment(tokenA);
    const b = await fragment(tokenB);
    expect(rowNumbers(b)).toEqual(['BETA-002', 'BETA-001']);
    expect(b).not.toContain('ALPHA-');
    expect(a).not.toContain('BETA-');
    expect(serverState(b).data.every((invoice: { number: string }) => invoice.number.startsWith('BETA-'))).toBe(true);
  });

  it('renders in English and in Polish', async () => {
    const en = await fragment(tokenA, { locale: 'en' });
    const pl = await fragment(tokenA, { locale: 'pl-PL' });
    expect(en).toContain('>Pay<');
    expect(en).toContain('Mar 10, 2026');
    expect(en).toContain('PLN\u00a075.00');
    expect(pl).toMatch(/locale="pl-PL"/);
    expect(pl).toContain('Zapłać');
    expect(pl).toContain('10 mar 2026');
    expect(pl).toContain('75,00\u00a0zł');
    expect(pl).toContain('<p>Pozycje 1–4 z 4</p>');
    // A language without translations reads as English, as the element does.
    expect(await fragment(tokenA, { locale: 'de' })).toContain('>Pay<');
  });

  it('applies every filter, the sort and the page size', async () => {
    const numbers = async (options: Record<string, unknown>) => rowNumbers(await fragment(tokenA, options));
    expect(await numbers({ status: 'paid' })).toEqual(['ALPHA-001']);
    expect(await numbers({ status: 'outstanding' })).toEqual(['ALPHA-003', 'ALPHA-002', 'ALPHA-004']);
    expect(await numbers({ status: 'overdue' })).toEqual(['ALPHA-004']);
    expect(await numbers({ status: 'partial' })).toEqual(['ALPHA-002']);
    expect(await numbers({ status: '' })).toHaveLength(4);
    expect(await numbers({ status: 'all', period: '', sort: '', search: null, per_page: null, locale: null })).toHaveLength(4);
    expect(await numbers({ per_page: '2' })).toEqual(['ALPHA-003', 'ALPHA-002']);
    expect(await numbers({ period: 'all' })).toHaveLength(4);
    expect(await numbers({ period: 'last_year' })).toEqual([]);
    expect(await numbers({ search: 'ha-00' })).toHaveLength(4);
    expect(await numbers({ search: '002' })).toEqual(['ALPHA-002']);
    expect(await numbers({ sort: 'price_gross.asc' })).toEqual(['ALPHA-003', 'ALPHA-001', 'ALPHA-002', 'ALPHA-004']);
    expect(await numbers({ sort: 'payment_to' })).toEqual(['ALPHA-004', 'ALPHA-001', 'ALPHA-002', 'ALPHA-003']);
    const paged = await fragment(tokenA, { per_page: 2, status: 'outstanding', sort: 'issue_date.asc' });
    expect(rowNumbers(paged)).toEqual(['ALPHA-004', 'ALPHA-002']);
    expect(paged).toMatch(/per-page="2" status="outstanding"[^>]*order="issue_date\.asc"/);
    expect(paged).toContain(' Page 1 of 2 ');
    // The toolbar shows the filters it was rendered with, before any script runs.
    expect(paged).toMatch(/<input type="radio" name="status" checked[^>]*><span\s*>Outstanding/);
    expect(await fragment(tokenA, { search: '002' })).toMatch(/<input[^>]*type="search"[^>]*value="002"/);
    // An empty result renders the element's empty state.
    expect(await fragment(tokenA, { period: 'last_year' })).toContain('part="empty"');
  });

  it('refuses options it does not understand with the BFF’s error body', async () => {
    for (const options of [{ per_page: 0 }, { per_page: 101 }, { per_page: 2.5 }, { status: 'draft' }, { period: 'forever' }, { sort: 'number' }, { locale: 'not a tag!' }, { search: 'x'.repeat(101) }, { endpoint: 'javascript:alert(1)' }]) {
      const response = await render(tokenA, options);
      expect(response.status, JSON.stringify(options)).toBe(422);
      const body = await json(response);
      expect(body.error.code).toBe('validation_failed');
      expect(Object.keys(body.error.fields)).toEqual([Object.keys(options)[0]]);
    }
    expect((await render(tokenA, '{"locale":', { 'content-type': 'application/json' })).status).toBe(400);
    expect((await render(tokenA, 'locale=pl', { 'content-type': 'application/x-www-form-urlencoded' })).status).toBe(415);
    // No body at all asks for the defaults.
    expect((await render(tokenA, '', {})).status).toBe(200);
  });

  it('escapes what the customer typed, in the attributes and in the data', async () => {
    const html = await fragment(tokenA, { search: '"></invoice-list><script>alert(1)</script>' });
    expect(html).not.toContain('<script>alert(1)');
    expect(html.match(/<\/script>/g)).toHaveLength(1);
    expect(html).toContain('search="&quot;&gt;&lt;/invoice-list&gt;&lt;script&gt;alert(1)&lt;/script&gt;"');
  });

  it('signs each PDF link so it opens without the token or a script', async () => {
    const html = await fragment(tokenA);
    const links = [...html.matchAll(/part="action download-button"[^>]*href="([^"]+)"/g)].map((m) => m[1]!.replace(/&amp;/g, '&'));
    expect(links).toHaveLength(4);
    expect(links[0]).toMatch(new RegExp(`^/bff/invoices/${data.invoices['ALPHA-003']!.id}/pdf\\?link=[^&]+&download$`));
    const pdf = await fetch(`${bff.url}${links[0]}`);
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    expect(pdf.headers.get('content-disposition')).toMatch(/^attachment; filename="invoice-ALPHA-003\.pdf"/);
    // Another customer's page cannot use a link signed for this one.
    const forged = links[0]!.replace(String(data.invoices['ALPHA-003']!.id), String(data.invoices['BETA-001']!.id));
    expect((await fetch(`${bff.url}${forged}`)).status).toBe(401);
    // An endpoint the browser reaches the BFF at is used for the element and its links.
    const proxied = await fragment(tokenA, { endpoint: 'https://shop.example.test/portal-api/' });
    expect(proxied).toContain('endpoint="https://shop.example.test/portal-api/"');
    expect(proxied).toMatch(/href="https:\/\/shop\.example\.test\/portal-api\/invoices\/\d+\/pdf\?link=/);
  });
});

describe('renderInvoiceList', () => {
  it('renders in-process through the app createBff made, and over HTTP from the BFF’s URL', async () => {
    const app = createBff({ serviceUrl: service.url, apiToken: service.apiToken, portalSecret: PORTAL_SECRET, rateLimit: false });
    const inProcess = await renderInvoiceList({ bff: app, portalToken: tokenB, locale: 'pl', status: 'overdue' });
    expect(rowNumbers(inProcess)).toEqual(['BETA-002']);
    expect(inProcess).toContain('Zapłać');
    const overHttp = await renderInvoiceList({ bff: bff.base, portalToken: tokenA, per_page: 1 });
    expect(rowNumbers(overHttp)).toEqual(['ALPHA-003']);
    const refused = await renderInvoiceList({ bff: app, portalToken: 'expired-or-forged' }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(BffError);
    expect(refused).toMatchObject({ status: 401, code: 'unauthorized' });
  });
});
