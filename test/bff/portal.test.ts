import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issuePortalToken } from '../../src/bff/index.js';
import { bearer, json, PORTAL_SECRET, seed, startService, startTestBff, type Api, type Seed, type Service, type TestBff } from './support.js';

let service: Service;
let api: Api;
let data: Seed;
let bff: TestBff;
let tokenA: string;
let tokenB: string;

const INVOICE_KEYS = [
  'id', 'number', 'kind', 'status', 'issue_date', 'sell_date', 'payment_to', 'payment_type', 'currency', 'price_net',
  'price_tax', 'price_gross', 'paid', 'outstanding', 'paid_date', 'seller', 'buyer', 'payment_url', 'view_url', 'pdf_url', 'ksef',
].sort();

beforeAll(async () => {
  ({ service, api } = await startService());
  data = await seed(api);
  bff = await startTestBff(service);
  tokenA = await issuePortalToken({ clientId: data.clientA, ttlSeconds: 600 }, PORTAL_SECRET);
  tokenB = await issuePortalToken({ clientId: data.clientB, ttlSeconds: 600 }, PORTAL_SECRET);
}, 60_000);

afterAll(async () => {
  await bff?.close();
  await service?.stop();
});

const get = (path: string, token?: string) => fetch(`${bff.base}${path}`, { headers: token ? bearer(token) : {} });

async function numbers(query: string, token = tokenA): Promise<string[]> {
  const response = await get(`/invoices${query}`, token);
  expect(response.status).toBe(200);
  return (await json(response)).data.map((invoice: { number: string }) => invoice.number);
}

describe('GET /bff/invoices', () => {
  it('lists only the session client’s visible invoices, with customer fields only', async () => {
    const response = await get('/invoices', tokenA);
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('private, no-store');
    const body = await json(response);
    expect(body.total).toBe(4);
    expect(body.page).toBe(1);
    expect(body.per_page).toBe(25);
    expect(body.data.map((i: { number: string }) => i.number)).toEqual(['ALPHA-003', 'ALPHA-002', 'ALPHA-001', 'ALPHA-004']);
    for (const invoice of body.data) {
      // A row also links the e-invoice in the customer's format: null, as this customer has none.
      expect(Object.keys(invoice).sort()).toEqual([...INVOICE_KEYS, 'einvoice'].sort());
      expect(invoice.einvoice).toBeNull();
      expect(invoice.buyer.name).toBe('Alpha Sp. z o.o.');
    }
    const text = JSON.stringify(body);
    expect(text).not.toContain('Internal note');
    expect(text).not.toContain('BETA');
    expect(text).not.toContain(data.invoices['BETA-001']!.token);
    expect(text).not.toContain('"token"');
    expect(response.headers.get('x-total-count')).toBe('4');
  });

  it('gives each invoice the customer status and what is left to pay', async () => {
    const body = await json(await get('/invoices?order=issue_date.asc', tokenA));
    const byNumber = Object.fromEntries(body.data.map((i: { number: string }) => [i.number, i]));
    expect(byNumber['ALPHA-001']).toMatchObject({ status: 'paid', price_gross: data.invoices['ALPHA-001']!.price_gross, outstanding: '0', payment_url: null });
    expect(byNumber['ALPHA-002']).toMatchObject({ status: 'partial', outstanding: '210.5' });
    expect(byNumber['ALPHA-003']).toMatchObject({ status: 'unpaid', outstanding: '75' });
    expect(byNumber['ALPHA-004']).toMatchObject({ status: 'overdue', outstanding: '999.99', payment_to: '2020-02-01' });
    expect(body.totals).toEqual([{ currency: 'PLN', outstanding: '1285.49', outstanding_count: 3, overdue: '999.99', overdue_count: 1 }]);
  });

  it('filters by customer status; outstanding is everything with money due, overdue and partly paid included', async () => {
    expect(await numbers('?status=paid')).toEqual(['ALPHA-001']);
    expect(await numbers('?status=partial')).toEqual(['ALPHA-002']);
    expect(await numbers('?status=unpaid')).toEqual(['ALPHA-003', 'ALPHA-004']);
    expect(await numbers('?status=overdue')).toEqual(['ALPHA-004']);
    expect(await numbers('?status=outstanding')).toEqual(['ALPHA-003', 'ALPHA-002', 'ALPHA-004']);
  });

  it('keeps the customer’s totals whatever the filters, and counts what the filters select', async () => {
    const body = await json(await get('/invoices?status=paid', tokenA));
    expect(body).toMatchObject({ total: 1, total_pages: 1 });
    expect(body.totals).toEqual([{ currency: 'PLN', outstanding: '1285.49', outstanding_count: 3, overdue: '999.99', overdue_count: 1 }]);
    const next = await get('/invoices?status=outstanding&page=2&per_page=2&totals=false', tokenA);
    expect(next.headers.get('x-total-count')).toBeNull();
    const page = await json(next);
    expect(page.data.map((i: { number: string }) => i.number)).toEqual(['ALPHA-004']);
    expect(page).not.toHaveProperty('totals');
    expect(page).not.toHaveProperty('total');
  });

  it('searches by number, never into another client’s invoices', async () => {
    expect(await numbers('?search=003')).toEqual(['ALPHA-003']);
    expect(await numbers('?search=alpha-00&order=issue_date.asc')).toEqual(['ALPHA-004', 'ALPHA-001', 'ALPHA-002', 'ALPHA-003']);
    expect(await numbers('?search=BETA')).toEqual([]);
    expect(await numbers('?search=ALPHA', tokenB)).toEqual([]);
    expect(await numbers('', tokenB)).toEqual(['BETA-002', 'BETA-001']);
  });

  it('orders by issue date, due date and total, both ways', async () => {
    expect(await numbers('?order=price_gross')).toEqual(['ALPHA-003', 'ALPHA-001', 'ALPHA-002', 'ALPHA-004']);
    expect(await numbers('?order=price_gross.desc')).toEqual(['ALPHA-004', 'ALPHA-002', 'ALPHA-001', 'ALPHA-003']);
    expect(await numbers('?order=payment_to.asc')).toEqual(['ALPHA-004', 'ALPHA-001', 'ALPHA-002', 'ALPHA-003']);
  });

  it('pages through the list', async () => {
    const body = await json(await get('/invoices?per_page=3&page=2&order=price_gross', tokenA));
    expect(body).toMatchObject({ page: 2, per_page: 3, total: 4, total_pages: 2 });
    expect(body.data.map((i: { number: string }) => i.number)).toEqual(['ALPHA-004']);
  });

  it('refuses bad queries with 422 and the field', async () => {
    for (const [query, field] of [['per_page=500', 'per_page'], ['page=0', 'page'], ['status=issued', 'status'], ['totals=maybe', 'totals'], ['order=buyer_name', 'order'], ['period=someday', 'period']]) {
      const response = await get(`/invoices?${query}`, tokenA);
      expect(response.status, query).toBe(422);
      const body = await json(response);
      expect(body.error.code).toBe('validation_failed');
      expect(Object.keys(body.error.fields)).toEqual([field]);
    }
  });
});

describe('GET /bff/invoices/:id', () => {
  it('answers the client’s own invoice with its positions', async () => {
    const own = data.invoices['ALPHA-002']!;
    const response = await get(`/invoices/${own.id}`, tokenA);
    expect(response.status).toBe(200);
    const body = await json(response);
    expect(body).toMatchObject({ id: own.id, number: 'ALPHA-002', status: 'partial', paid: own.paid, price_gross: own.price_gross });
    expect(body.positions).toHaveLength(1);
    expect(body.positions[0]).toMatchObject({ name: 'Consulting', quantity: own.positions?.[0]?.quantity ?? body.positions[0].quantity });
    expect(body.positions[0]).not.toHaveProperty('product_id');
    expect(body.positions[0]).not.toHaveProperty('invoice_id');
    expect(body).not.toHaveProperty('description');
    expect(body).not.toHaveProperty('client_id');
  });

  it('answers 404 for another client’s invoice, a rejected one and ids that do not exist, all alike', async () => {
    const answers = [];
    for (const path of [
      `/invoices/${data.invoices['BETA-001']!.id}`,
      `/invoices/${data.invoices['ALPHA-005']!.id}`,
      '/invoices/987654321',
      '/invoices/abc',
      '/invoices/-1',
    ]) {
      const response = await get(path, tokenA);
      expect(response.status, path).toBe(404);
      answers.push(await json(response));
    }
    expect(new Set(answers.map((a) => JSON.stringify(a))).size).toBe(1);
    expect(answers[0]).toEqual({ error: { code: 'not_found', message: 'The invoice was not found.' } });
    expect((await get(`/invoices/${data.invoices['ALPHA-001']!.id}`, tokenB)).status).toBe(404);
  });
});

describe('PDF', () => {
  it('streams the own invoice’s PDF and refuses another client’s', async () => {
    const own = data.invoices['ALPHA-001']!;
    const response = await get(`/invoices/${own.id}/pdf`, tokenA);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/pdf');
    expect(response.headers.get('content-disposition')).toBe('inline; filename="invoice-ALPHA-001.pdf"');
    const bytes = new Uint8Array(await response.arrayBuffer());
    expect(new TextDecoder().decode(bytes.slice(0, 5))).toBe('%PDF-');

    expect((await get(`/invoices/${data.invoices['BETA-001']!.id}/pdf`, tokenA)).status).toBe(404);
    expect((await get(`/invoices/${own.id}/pdf`, tokenB)).status).toBe(404);
    expect((await get(`/invoices/${own.id}/pdf`)).status).toBe(401);
  });

  it('hands out a signed link that opens the PDF without the header, for that invoice only', async () => {
    const own = data.invoices['ALPHA-003']!;
    const response = await get(`/invoices/${own.id}/pdf-link`, tokenA);
    expect(response.status).toBe(200);
    const { url, expires_at } = await json(response);
    const lifetime = Date.parse(expires_at) - Date.now();
    expect(lifetime).toBeGreaterThan(0);
    expect(lifetime).toBeLessThanOrEqual(3600_000);
    const pdf = await fetch(url);
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');

    const link = new URL(url).searchParams.get('link')!;
    const other = data.invoices['ALPHA-001']!.id;
    expect((await fetch(`${bff.base}/invoices/${other}/pdf?link=${link}`)).status).toBe(401);
    expect((await fetch(`${bff.base}/invoices/${own.id}/pdf?link=${link.slice(0, -2)}xx`)).status).toBe(401);
    expect((await get(`/invoices/${data.invoices['BETA-001']!.id}/pdf-link`, tokenA)).status).toBe(404);
  });
});

describe('client record', () => {
  it('reads the session client with customer fields only', async () => {
    const response = await get('/client', tokenA);
    expect(response.status).toBe(200);
    const body = await json(response);
    expect(body).toMatchObject({ id: data.clientA, name: 'Alpha Sp. z o.o.', email: 'alpha@example.com', city: 'Kraków' });
    for (const hidden of ['note', 'token', 'external_id', 'kind', 'created_at']) expect(body).not.toHaveProperty(hidden);
    expect((await json(await get('/client', tokenB))).name).toBe('Beta GmbH');
  });

  it('updates allowed fields and refuses the rest', async () => {
    const put = (body: unknown, token = tokenA) =>
      fetch(`${bff.base}/client`, { method: 'PUT', headers: { ...bearer(token), 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const response = await put({ phone: '+48 12 345 67 89', street: 'Rynek 1' });
    expect(response.status).toBe(200);
    expect(await json(response)).toMatchObject({ id: data.clientA, phone: '+48 12 345 67 89', street: 'Rynek 1' });
    const stored = await api.clients.get(data.clientA);
    expect(stored.phone).toBe('+48 12 345 67 89');
    expect(stored.note).toBe('VIP: secret discount');

    const sneaky = await put({ note: 'hacked', external_id: 'x', id: data.clientB });
    expect(sneaky.status).toBe(422);
    expect(Object.keys((await json(sneaky)).error.fields).sort()).toEqual(['external_id', 'id', 'note']);
    const badEmail = await put({ email: 'not-an-email' });
    expect(badEmail.status).toBe(422);
    expect((await json(badEmail)).error.fields).toEqual({ email: ['is not an e-mail address'] });
    expect((await api.clients.get(data.clientB)).note).toBe('Beta internal');
  });

  it('has no route that takes another client’s id', async () => {
    expect((await get(`/clients/${data.clientB}`, tokenA)).status).toBe(404);
    expect((await get(`/client/${data.clientB}`, tokenA)).status).toBe(404);
  });

  it('answers 404 for a token of a client that does not exist, and an empty list', async () => {
    const ghost = await issuePortalToken({ clientId: 987654321 }, PORTAL_SECRET);
    expect((await get('/client', ghost)).status).toBe(404);
    expect((await json(await get('/invoices', ghost))).total).toBe(0);
  });
});

describe('portal tokens', () => {
  const key = new TextEncoder().encode(PORTAL_SECRET);
  const sign = (claims: Record<string, unknown>, options: { exp?: number; secret?: Uint8Array; aud?: string } = {}) =>
    new SignJWT({ scope: 'invoices:read client:read client:write', ...claims })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(String(data.clientA))
      .setIssuer('invoicekit-bff')
      .setAudience(options.aud ?? 'invoicekit-portal')
      .setIssuedAt()
      .setExpirationTime(options.exp ?? Math.floor(Date.now() / 1000) + 600)
      .sign(options.secret ?? key);

  it('refuses a missing, expired, tampered or foreign token with 401', async () => {
    const missing = await get('/invoices');
    expect(missing.status).toBe(401);
    expect(missing.headers.get('www-authenticate')).toContain('Bearer');
    expect((await json(missing)).error.code).toBe('unauthorized');

    const expired = await get('/invoices', await sign({}, { exp: Math.floor(Date.now() / 1000) - 60 }));
    expect(expired.status).toBe(401);
    expect((await json(expired)).error.code).toBe('token_expired');

    const [header, payload, signature] = tokenA.split('.') as [string, string, string];
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
    const forged = Buffer.from(JSON.stringify({ ...claims, sub: String(data.clientB) })).toString('base64url');
    for (const token of [
      `${header}.${forged}.${signature}`,
      `${header}.${payload}.${signature.slice(0, -3)}abc`,
      await sign({}, { secret: new TextEncoder().encode('another-secret-another-secret-0123456789') }),
      await sign({}, { aud: 'someone-else' }),
      'not-a-jwt',
    ]) {
      for (const path of ['/invoices', `/invoices/${data.invoices['ALPHA-001']!.id}`, `/invoices/${data.invoices['ALPHA-001']!.id}/pdf`, '/client']) {
        const response = await get(path, token);
        expect(response.status, `${path} ${token.slice(-12)}`).toBe(401);
        expect((await json(response)).error.code).toBe('unauthorized');
      }
    }
  });

  it('answers 403 when the token lacks the scope', async () => {
    const readOnly = await issuePortalToken({ clientId: data.clientA, scopes: ['client:read'] }, PORTAL_SECRET);
    const response = await get('/invoices', readOnly);
    expect(response.status).toBe(403);
    expect((await json(response)).error.code).toBe('insufficient_scope');
    expect((await get('/client', readOnly)).status).toBe(200);
    const put = await fetch(`${bff.base}/client`, { method: 'PUT', headers: { ...bearer(readOnly), 'content-type': 'application/json' }, body: '{"city":"Gdańsk"}' });
    expect(put.status).toBe(403);
  });
});

describe('sign-up', () => {
  it('is off unless the host enables it', async () => {
    const response = await fetch(`${bff.base}/clients`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"name":"X","email":"x@example.com"}' });
    expect(response.status).toBe(404);
  });

  it('creates a buyer and can answer a portal token for it', async () => {
    const created: number[] = [];
    const withSignup = await startTestBff(service, { signup: { portalToken: { scopes: ['client:read'], ttlSeconds: 300 }, onCreated: (c) => void created.push(c.id) } });
    try {
      const post = (body: unknown) =>
        fetch(`${withSignup.base}/clients`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      const response = await post({ name: 'Gamma Ltd', email: 'gamma@example.com', city: 'Leeds' });
      expect(response.status).toBe(201);
      const body = await json(response);
      expect(body.client).toMatchObject({ name: 'Gamma Ltd', email: 'gamma@example.com', city: 'Leeds' });
      expect(created).toEqual([body.client.id]);
      expect((await api.clients.get(body.client.id)).kind).toBe('buyer');
      const me = await fetch(`${withSignup.base}/client`, { headers: bearer(body.portalToken) });
      expect((await json(me)).id).toBe(body.client.id);

      const invalid = await post({ email: 'nobody', note: 'x' });
      expect(invalid.status).toBe(422);
      expect(Object.keys((await json(invalid)).error.fields).sort()).toEqual(['email', 'name', 'note']);
    } finally {
      await withSignup.close();
    }
  });
});
