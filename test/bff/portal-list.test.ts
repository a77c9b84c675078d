import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issuePortalToken } from '../../src/bff/index.js';
import { bearer, json, startService, startTestBff, type Api, type Service, type TestBff } from './support.js';

/**
 * The portal list against a real service, seen through a proxy that records every request the BFF
 * makes and can hide the service's list extensions, as the hosted service lacks them.
 */
let service: Service;
let api: Api;
let proxy: Server;
let proxyUrl: string;
let hideExtensions = false;
/** Drops the list's summary header, as a service from before that extension would not send it. */
let dropSummaryHeader = false;
let holdListMs = 0;
const requests: string[] = [];
/** The service's last answer to a list call, as the BFF received it. */
let lastListAnswer = '';
let clientId: number;
let token: string;
let bff: TestBff;
let plain: TestBff;
let older: TestBff;

const INVOICES = 230;

beforeAll(async () => {
  ({ service, api } = await startService());
  clientId = (await api.clients.create({ name: 'Many Invoices Ltd', email: 'many@example.com' })).id;
  const other = (await api.clients.create({ name: 'Someone Else' })).id;
  // Every 4th invoice paid, every 5th partly paid, every 3rd due in the past; one rejected, one in EUR.
  const specs = Array.from({ length: INVOICES }, (_, i) => {
    const day = String((i % 28) + 1).padStart(2, '0');
    const month = String((i % 12) + 1).padStart(2, '0');
    return {
      client_id: i === 7 ? other : clientId,
      number: `M-${String(i).padStart(4, '0')}`,
      issue_date: `2025-${month}-${day}`,
      payment_to_kind: 'other_date' as const,
      payment_to: i % 3 === 0 ? '2020-01-01' : '2099-01-01',
      currency: i === 11 ? 'EUR' : 'PLN',
      positions: [{ name: 'Work', tax: '23', quantity: '1', total_price_gross: `${10 + i}.50` }],
      ...(i % 4 === 0 ? { status: 'paid' as const } : i % 5 === 0 ? { status: 'partial' as const, paid: '5.25' } : {}),
      ...(i === 13 ? { status: 'rejected' as const } : {}),
    };
  });
  for (let i = 0; i < specs.length; i += 10) await Promise.all(specs.slice(i, i + 10).map((spec) => api.invoices.create(spec)));

  proxy = createServer(async (req, res) => {
    const url = req.url ?? '';
    requests.push(url.replace(/api_token=[^&]*&?/, ''));
    if (hideExtensions && (url.startsWith('/invoices/summary') || /[?&]status=(active|outstanding|overdue|unpaid)\b/.test(url))) {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end('{"code":"error","message":"Not found"}');
      return;
    }
    if (holdListMs && url.startsWith('/invoices.json')) await new Promise((resolve) => setTimeout(resolve, holdListMs));
    const upstream = await fetch(`${service.url}${url}`, { method: req.method });
    const answer = Buffer.from(await upstream.arrayBuffer());
    if (url.startsWith('/invoices.json')) lastListAnswer = answer.toString('utf8');
    const summary = upstream.headers.get('x-invoicekit-summary');
    res.writeHead(upstream.status, {
      'content-type': upstream.headers.get('content-type') ?? 'application/json',
      ...(summary !== null && !hideExtensions && !dropSummaryHeader ? { 'x-invoicekit-summary': summary } : {}),
    });
    res.end(answer);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
  token = await issuePortalToken({ clientId, ttlSeconds: 600 }, 'portal-secret-for-tests-0123456789abcdef');
  // Each asks the service on every list, as a BFF on another host does: the calls are what is counted here.
  bff = await startTestBff(service, { serviceUrl: proxyUrl, rateLimit: false, followServiceWrites: false });
  plain = await startTestBff(service, { serviceUrl: proxyUrl, rateLimit: false, followServiceWrites: false });
  older = await startTestBff(service, { serviceUrl: proxyUrl, rateLimit: false, followServiceWrites: false });
}, 120_000);

afterAll(async () => {
  await bff?.close();
  await plain?.close();
  await older?.close();
  proxy?.closeAllConnections();
  proxy?.close();
  await service?.stop();
});

async function list(target: TestBff, query: string) {
  requests.length = 0;
  const response = await fetch(`${target.base}/invoices${query}`, { headers: bearer(token) });
  expect(response.status).toBe(200);
  return { body: await json(response), calls: [...requests] };
}

const listCalls = (calls: string[]) => calls.filter((url) => url.startsWith('/invoices.json'));
const summaryCalls = (calls: string[]) => calls.filter((url) => url.startsWith('/invoices/summary.json'));
/** The calls besides the read of the customer's client record, made once per page for its e-invoice format. */
const besidesClient = (calls: string[]) => calls.filter((url) => !/^\/clients\/\d+\.json/.test(url));

describe('the portal list, pushed down to the service', () => {
  it('reads one service page of the size shown, with the count and the totals in the same call', async () => {
    const { body, calls } = await list(bff, '?per_page=25&page=3');
    expect(body.data).toHaveLength(25);
    expect(body).toMatchObject({ page: 3, per_page: 25, total: INVOICES - 2, total_pages: 10 });
    expect(listCalls(calls)).toHaveLength(1);
    expect(listCalls(calls)[0]).toMatch(/[?&]per_page=25\b/);
    expect(listCalls(calls)[0]).toMatch(/[?&]page=3\b/);
    expect(listCalls(calls)[0]).toMatch(/[?&]summary=true\b/);
    expect(listCalls(calls)[0]).toMatch(new RegExp(`[?&]client_id=${clientId}\\b`));
    expect(besidesClient(calls)).toHaveLength(1);
    expect(calls.filter((url) => !besidesClient(calls).includes(url))).toEqual([`/clients/${clientId}.json?`]);
    expect(body.totals).toEqual([
      { currency: 'EUR', outstanding: expect.stringMatching(/^\d+\.\d{2}$/), outstanding_count: 1, overdue: '0.00', overdue_count: 0 },
      { currency: 'PLN', outstanding: expect.stringMatching(/^\d+\.\d{2}$/), outstanding_count: expect.any(Number), overdue: expect.stringMatching(/^\d+\.\d{2}$/), overdue_count: expect.any(Number) },
    ]);
  });

  it('asks the customer-wide totals apart, in parallel, when a filter narrows the count', async () => {
    const { body, calls } = await list(bff, '?status=paid&per_page=10');
    expect(listCalls(calls)).toHaveLength(1);
    expect(summaryCalls(calls)).toHaveLength(1);
    expect(summaryCalls(calls)[0]).toMatch(/[?&]status=active\b/);
    const unfiltered = (await list(bff, '?per_page=1')).body;
    // The count is the filter's; the totals are the customer's, as on the unfiltered first page.
    // Every 4th invoice is paid: 0, 4, …, 228.
    expect(body.total).toBe(58);
    expect(body.totals).toEqual(unfiltered.totals);
  });

  it('gives the same answers through a service whose list does not answer the summary, asking for it apart', async () => {
    const queries = ['?per_page=25&page=3', '?status=paid&per_page=10', '?status=outstanding&order=price_gross.asc&per_page=30'];
    const oneCall = [];
    for (const query of queries) oneCall.push((await list(bff, query)).body);
    dropSummaryHeader = true;
    try {
      for (const [i, query] of queries.entries()) {
        const { body, calls } = await list(older, query);
        expect(body, query).toEqual(oneCall[i]);
        if (i > 0) expect(summaryCalls(calls).length, query).toBeGreaterThanOrEqual(1);
        if (i > 0) expect(listCalls(calls).some((url) => /[?&]summary=true\b/.test(url)), query).toBe(false);
      }
    } finally {
      dropSummaryHeader = false;
    }
  });

  it('asks the service for only the fields a customer sees, and still shows every one of them', async () => {
    const { body, calls } = await list(bff, '?per_page=5&status=unpaid');
    const fields = new URL(listCalls(calls)[0]!, 'http://service').searchParams.get('fields')?.split(',');
    expect(fields).toEqual(expect.arrayContaining(['id', 'number', 'status', 'price_gross', 'paid', 'payment_to', 'client_id', 'buyer_name', 'seller_name', 'payment_url']));
    const answered = JSON.parse(lastListAnswer) as Record<string, unknown>[];
    expect(answered).toHaveLength(5);
    // The service answered those keys and nothing else: no positions, no token, no internal fields.
    for (const invoice of answered) expect(Object.keys(invoice).sort()).toEqual([...fields!].sort());
    const [first] = body.data;
    expect(first).toMatchObject({ status: 'unpaid', paid: '0.0', currency: 'PLN', buyer: { name: 'Many Invoices Ltd', email: 'many@example.com' } });
    expect(first.seller.name).toEqual(expect.any(String));
    expect(first.payment_url).toMatch(/^http/);
    expect(first.view_url).toMatch(/^http/);
    expect(first.pdf_url).toBe(`/bff/invoices/${first.id}/pdf`);
  });

  it('filters outstanding invoices in the service, overdue and partly paid included, with exact totals', async () => {
    const { body, calls } = await list(bff, '?status=outstanding&per_page=100&order=price_gross.asc');
    expect(listCalls(calls)).toHaveLength(1);
    expect(listCalls(calls)[0]).toMatch(/status=outstanding/);
    const statuses = new Set(body.data.map((invoice: { status: string }) => invoice.status));
    expect([...statuses].sort()).toEqual(['overdue', 'partial', 'unpaid']);
    expect(body.data.every((invoice: { outstanding: string }) => invoice.outstanding !== '0')).toBe(true);
    const pln = body.totals.find((each: { currency: string }) => each.currency === 'PLN');
    expect(pln.outstanding_count).toBe(body.total - 1); // the EUR one is outstanding too
    expect(pln.outstanding).toMatch(/^\d+\.\d{2}$/);
  });

  it('asks nothing but the page when the totals are not wanted (the following pages of a scroll)', async () => {
    const { body, calls } = await list(bff, '?per_page=100&page=2&totals=false');
    expect(body.data).toHaveLength(100);
    expect(besidesClient(calls)).toHaveLength(1);
  });

  it('shares one service read between identical requests that arrive together', async () => {
    holdListMs = 400;
    try {
      requests.length = 0;
      const answers = await Promise.all(Array.from({ length: 5 }, () => fetch(`${bff.base}/invoices?per_page=10&totals=false`, { headers: bearer(token) })));
      expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200]);
      expect(listCalls(requests)).toHaveLength(1);
    } finally {
      holdListMs = 0;
    }
  });
});

describe('the portal list is the service\'s current data', () => {
  it('shows a new invoice, an edit and a payment made on the service on the next read, counted and summed', async () => {
    const fresh = (await api.clients.create({ name: 'Fresh Data Sp. z o.o.' })).id;
    const freshToken = await issuePortalToken({ clientId: fresh, ttlSeconds: 600 }, 'portal-secret-for-tests-0123456789abcdef');
    const read = async () => {
      requests.length = 0;
      const response = await fetch(`${bff.base}/invoices?per_page=10`, { headers: bearer(freshToken) });
      expect(response.status).toBe(200);
      expect(besidesClient(requests)).toHaveLength(1);
      return json(response);
    };
    const input = { client_id: fresh, number: 'F-1', payment_to_kind: 'other_date' as const, payment_to: '2099-01-01', currency: 'PLN', positions: [{ name: 'Work', tax: '23', quantity: '1', total_price_gross: '100.00' }] };
    const first = await api.invoices.create(input);
    expect(await read()).toMatchObject({ total: 1, totals: [{ currency: 'PLN', outstanding: '100.00', outstanding_count: 1 }] });
    await api.invoices.create({ ...input, number: 'F-2', positions: [{ name: 'Work', tax: '23', quantity: '1', total_price_gross: '50.00' }] });
    const afterCreate = await read();
    expect(afterCreate.data.map((invoice: { number: string }) => invoice.number).sort()).toEqual(['F-1', 'F-2']);
    expect(afterCreate).toMatchObject({ total: 2, totals: [{ currency: 'PLN', outstanding: '150.00', outstanding_count: 2 }] });
    await api.invoices.update(first.id, { positions: [{ id: first.positions![0]!.id, _destroy: 1 }, { name: 'Work', tax: '23', quantity: '1', total_price_gross: '120.00' }] });
    const afterEdit = await read();
    expect(afterEdit.data.find((invoice: { number: string }) => invoice.number === 'F-1').price_gross).toBe('120.0');
    expect(afterEdit.totals).toMatchObject([{ outstanding: '170.00' }]);
    await api.invoices.changeStatus(first.id, 'paid');
    const afterPayment = await read();
    expect(afterPayment.data.find((invoice: { number: string }) => invoice.number === 'F-1').status).toBe('paid');
    expect(afterPayment).toMatchObject({ total: 2, totals: [{ currency: 'PLN', outstanding: '50.00', outstanding_count: 1 }] });
  });
});

describe('the portal list on a service without the extensions', () => {
  it('falls back to reading the whole list, with the same answers', async () => {
    const queries = ['?per_page=25&page=2', '?status=outstanding&order=price_gross.desc', '?status=overdue&per_page=7&page=3', '?status=paid&search=M-00', '?status=unpaid&order=payment_to.asc', '?period=last_year'];
    const pushed = [];
    for (const query of queries) pushed.push((await list(bff, query)).body);
    hideExtensions = true;
    try {
      for (const [i, query] of queries.entries()) {
        const { body, calls } = await list(plain, query);
        expect(body, query).toEqual(pushed[i]);
        // The documented cost: one call per 100 invoices, summaries not asked again after the first 404.
        if (i > 0) expect(summaryCalls(calls), query).toHaveLength(0);
      }
      const { calls } = await list(plain, '?per_page=5&period=all&search=M-01');
      expect(listCalls(calls).length).toBeLessThanOrEqual(Math.ceil(INVOICES / 100));
    } finally {
      hideExtensions = false;
    }
  });
});
