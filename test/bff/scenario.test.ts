import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { issuePortalToken } from '../../src/bff/index.js';
import { bearer, PORTAL_SECRET, PRODUCT_TOKEN, seed, SHOP_ORIGIN, startService, startTestBff, type Api, type Seed, type Service, type TestBff } from './support.js';

let service: Service;
let api: Api;
let data: Seed;
let bff: TestBff;

beforeAll(async () => {
  ({ service, api } = await startService());
  data = await seed(api);
  bff = await startTestBff(service);
}, 60_000);

afterAll(async () => {
  await bff?.close();
  await service?.stop();
});

it('runs a whole shop and portal session without the api_token in any answer or log line', async () => {
  const bodies: string[] = [];
  const statuses: number[] = [];
  const call = async (path: string, init: RequestInit = {}) => {
    const response = await fetch(`${bff.base}${path}`, { ...init, headers: { origin: SHOP_ORIGIN, ...(init.headers as Record<string, string>) } });
    statuses.push(response.status);
    const bytes = Buffer.from(await response.arrayBuffer());
    bodies.push(bytes.toString('latin1'), [...response.headers].map(([k, v]) => `${k}: ${v}`).join('\n'));
    return { response, text: bytes.toString('utf8') };
  };
  const postJson = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    call(path, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });

  // The shop: a buyer looks at the product, pays (with a retry), and fumbles a few times.
  await call(`/products/${PRODUCT_TOKEN}`);
  await call('/products/unknown-token');
  const key = randomUUID();
  const purchase = { product: PRODUCT_TOKEN, quantity: 2, buyer: { email: 'scenario@example.com', name: 'Scenario Ltd' }, returnUrl: `${SHOP_ORIGIN}/thanks` };
  const first = await postJson('/checkout', purchase, { 'idempotency-key': key });
  await postJson('/checkout', purchase, { 'idempotency-key': key });
  await postJson('/checkout', { ...purchase, quantity: 5 }, { 'idempotency-key': key });
  await postJson('/checkout', { ...purchase, buyer: { email: 'broken' } });
  await call('/checkout', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{oops' });
  expect(first.response.status).toBe(201);

  // The portal: the customer browses, reads, downloads, edits, and pokes at someone else's records.
  const token = await issuePortalToken({ clientId: data.clientA }, PORTAL_SECRET);
  const auth = bearer(token);
  for (const query of ['', '?status=overdue', '?search=002', '?order=price_gross.desc&per_page=2&page=2', '?per_page=1000']) {
    await call(`/invoices${query}`, { headers: auth });
  }
  const own = data.invoices['ALPHA-002']!;
  await call(`/invoices/${own.id}`, { headers: auth });
  await call(`/invoices/${own.id}/pdf`, { headers: auth });
  const link = await call(`/invoices/${own.id}/pdf-link`, { headers: auth });
  const pdfUrl = new URL(JSON.parse(link.text).url);
  await call(`${pdfUrl.pathname.slice('/bff'.length)}${pdfUrl.search}`);
  await call(`/invoices/${data.invoices['BETA-001']!.id}`, { headers: auth });
  await call(`/invoices/${data.invoices['BETA-001']!.id}/pdf`, { headers: auth });
  await call('/client', { headers: auth });
  await call('/client', { method: 'PUT', headers: { ...auth, 'content-type': 'application/json' }, body: '{"city":"Wrocław"}' });
  await call('/client', { method: 'PUT', headers: { ...auth, 'content-type': 'application/json' }, body: '{"note":"x"}' });
  await call('/invoices', { headers: bearer(`${token}x`) });
  await call('/invoices');
  await call('/invoices', { method: 'OPTIONS', headers: { origin: 'https://evil.example' } });

  expect(statuses).toContain(200);
  expect(statuses).toContain(201);
  expect(statuses).toContain(401);
  expect(statuses).toContain(404);
  expect(statuses).toContain(422);
  expect(bodies.length).toBeGreaterThan(40);
  const requestLines = bff.logs.filter((line) => line.msg === 'request');
  expect(requestLines).toHaveLength(statuses.length);
  expect(requestLines.map((line) => line.status)).toEqual(statuses);
  expect(requestLines.every((line) => typeof line.request_id === 'string' && typeof line.path === 'string')).toBe(true);

  const logLines = bff.logs.map((line) => JSON.stringify(line));
  for (const secret of [service.apiToken, PORTAL_SECRET]) {
    expect(bodies.filter((body) => body.includes(secret))).toEqual([]);
    expect(logLines.filter((line) => line.includes(secret))).toEqual([]);
  }
  // Portal tokens and PDF links are bearer credentials too: they stay out of the logs.
  expect(logLines.filter((line) => line.includes(token) || line.includes(pdfUrl.searchParams.get('link')!))).toEqual([]);
});
