import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AuthError,
  InvoicingError,
  NetworkError,
  NotFoundError,
  RateLimitError,
  ServerError,
  TimeoutError,
  UnexpectedResponseError,
  ValidationError,
  createInvoicingClient,
} from '../../src/api/index.js';
import { sendJson, sendXml, startLocalServer } from './helpers/local-server.js';

// Status codes the real service never answers on purpose (429, 5xx, hanging) come from a tiny
// local server that counts the attempts.
const buyer = {
  id: 1, name: 'Acme', tax_no: null, bank: null, bank_account: null, city: null, country: null, email: null, person: null,
  post_code: null, phone: null, street: null, first_name: null, last_name: null, company: true, kind: 'buyer',
  external_id: null, note: null, token: 'tok', created_at: '2026-01-03T12:05:09.017+01:00', updated_at: '2026-01-03T12:05:09.017+01:00',
  // The rest of the hosted service's client keys, as it sends them.
  accounting_id: null, attachments_count: 0, balance: '0.0', bank_account_id: null, buyer_id: null, category_id: null,
  default_payment_type: null, deleted: false, delivery_address: null, department_id: null, disable_auto_reminders: false,
  discount: null, dynamic_fields: {}, fax: null, femail: null, fname: null, fuid: null, import: null, mass_payment_code: null,
  mobile_phone: null, panel_user_id: null, password_hash: null, password_salt: null, payment_to_kind: null, referrer: null,
  register_number: null, shortcut: 'Acme', street_no: null, tax_no_check: null, tax_no_kind: null, title: null,
  use_delivery_address: false, use_mass_payment: false, www: null,
};
const books = { id: 7, name: 'Books', description: null, created_at: '2026-01-03T12:05:09.017+01:00', updated_at: '2026-01-03T12:05:09.017+01:00' };

let server: Awaited<ReturnType<typeof startLocalServer>>;
beforeAll(async () => {
  server = await startLocalServer((_req, res) => sendJson(res, 200, []));
});
afterAll(() => server.stop());

const client = (extra: Partial<Parameters<typeof createInvoicingClient>[0]> = {}) =>
  createInvoicingClient({ baseUrl: server.url, apiToken: 'secret-token-1', retry: { limit: 2, backoffMs: 5 }, ...extra });

describe('retries', () => {
  it('retries a GET after 503 and succeeds on the third attempt', async () => {
    server.reset((_req, res) => (server.requests.length < 3 ? sendJson(res, 503, { code: 'error', message: 'busy' }) : sendJson(res, 200, [books])));
    const categories = await client().categories.list();
    expect(categories).toEqual([books]);
    expect(server.requests.map((r) => r.method)).toEqual(['GET', 'GET', 'GET']);
  });

  it('gives up after the retry limit with a ServerError', async () => {
    server.reset((_req, res) => sendJson(res, 502, { code: 'error', message: 'bad gateway' }));
    const error = await client().categories.get(7).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServerError);
    expect((error as ServerError).status).toBe(502);
    expect((error as ServerError).body).toEqual({ code: 'error', message: 'bad gateway' });
    expect((error as ServerError).rawText).toBe('{"code":"error","message":"bad gateway"}');
    expect(server.requests).toHaveLength(3);
  });

  it('retries PUT and DELETE, which are idempotent', async () => {
    server.reset((req, res) =>
      server.requests.length < 2
        ? sendJson(res, 500, { code: 'error', message: 'oops' })
        : sendJson(res, 200, req.method === 'DELETE' ? { code: 'success', message: 'deleted' } : books),
    );
    await expect(client().categories.delete(7)).resolves.toEqual({ code: 'success', message: 'deleted' });
    expect(server.requests.map((r) => r.method)).toEqual(['DELETE', 'DELETE']);
  });

  it('does not retry a POST', async () => {
    server.reset((_req, res) => sendJson(res, 503, { code: 'error', message: 'busy' }));
    const error = await client().categories.create({ name: 'Books' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServerError);
    expect((error as ServerError).status).toBe(503);
    expect(server.requests).toHaveLength(1);
  });

  it('retries a POST that carries an idempotency key, sending the same key each time', async () => {
    server.reset((_req, res) => (server.requests.length < 2 ? sendJson(res, 503, { code: 'error', message: 'busy' }) : sendJson(res, 201, books)));
    const created = await client().categories.create({ name: 'Books' }, { idempotencyKey: 'order-4711' });
    expect(created).toEqual(books);
    expect(server.requests).toHaveLength(2);
    expect(server.requests.map((r) => r.headers['idempotency-key'])).toEqual(['order-4711', 'order-4711']);
    expect(server.requests.map((r) => JSON.parse(r.body.toString()))).toEqual([
      { api_token: 'secret-token-1', category: { name: 'Books' } },
      { api_token: 'secret-token-1', category: { name: 'Books' } },
    ]);
  });

  it('does not retry with retry: 0', async () => {
    server.reset((_req, res) => sendJson(res, 500, { code: 'error', message: 'oops' }));
    await expect(client({ retry: 0 }).categories.list()).rejects.toBeInstanceOf(ServerError);
    expect(server.requests).toHaveLength(1);
  });

  it('waits with growing, jittered delays between attempts', async () => {
    server.reset((_req, res) => sendJson(res, 503, { code: 'error', message: 'busy' }));
    await expect(client({ retry: { limit: 3, backoffMs: 40 } }).categories.list()).rejects.toBeInstanceOf(ServerError);
    expect(server.requests).toHaveLength(4);
    const gaps = server.requests.slice(1).map((r, i) => r.at - server.requests[i]!.at);
    // Equal jitter: each delay lies between half and all of 40, 80, 160 ms.
    expect(gaps[0]).toBeGreaterThanOrEqual(18);
    expect(gaps[1]).toBeGreaterThanOrEqual(38);
    expect(gaps[2]).toBeGreaterThanOrEqual(78);
    expect(gaps[2]).toBeLessThan(400);
  });
});

describe('rate limits', () => {
  it('honours Retry-After on a GET and then succeeds', async () => {
    server.reset((_req, res) =>
      server.requests.length < 2 ? sendJson(res, 429, { code: 'error', message: 'slow down' }, { 'retry-after': '1' }) : sendJson(res, 200, [books]),
    );
    const started = performance.now();
    await expect(client().categories.list()).resolves.toEqual([books]);
    expect(performance.now() - started).toBeGreaterThanOrEqual(950);
    expect(server.requests).toHaveLength(2);
  });

  it('raises RateLimitError with the seconds to wait when a POST is limited', async () => {
    server.reset((_req, res) => sendJson(res, 429, { code: 'error', message: 'Too many requests' }, { 'retry-after': '7' }));
    const error = await client().categories.create({ name: 'Books' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).retryAfterSeconds).toBe(7);
    expect((error as RateLimitError).status).toBe(429);
    expect((error as RateLimitError).message).toContain('Too many requests');
    expect(server.requests).toHaveLength(1);
  });

  it('does not sit out a Retry-After longer than maxRetryAfterMs', async () => {
    server.reset((_req, res) => sendJson(res, 429, { code: 'error', message: 'later' }, { 'retry-after': '120' }));
    const started = performance.now();
    const error = await client({ retry: { limit: 3, maxRetryAfterMs: 5_000 } }).categories.list().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).retryAfterSeconds).toBe(120);
    expect(server.requests).toHaveLength(1);
    expect(performance.now() - started).toBeLessThan(2_000);
  });
});

describe('errors', () => {
  it('maps 401, 404 and 422 to their classes with the parsed body and raw text', async () => {
    const bodies: Record<string, [number, unknown]> = {
      '/categories/1.json': [401, { code: 'error', message: 'You must be logged in to gain access to the site' }],
      '/categories/2.json': [404, { code: 'error', message: 'Not found' }],
      '/categories.json': [422, { code: 'error', message: { name: ["can't be blank"], description: ['is too long', 'is odd'] } }],
    };
    server.reset((req, res) => {
      const [status, body] = bodies[req.url.pathname]!;
      sendJson(res, status, body);
    });
    const api = client().categories;
    const auth = await api.get(1).catch((e: unknown) => e);
    expect(auth).toBeInstanceOf(AuthError);
    expect((auth as AuthError).message).toMatch(/^You must be logged in to gain access to the site/);
    const missing = await api.get(2).catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(NotFoundError);
    expect((missing as NotFoundError).body).toEqual({ code: 'error', message: 'Not found' });
    const invalid = await api.create({ name: '' }).catch((e: unknown) => e);
    expect(invalid).toBeInstanceOf(ValidationError);
    expect((invalid as ValidationError).fields).toEqual({ name: ["can't be blank"], description: ['is too long', 'is odd'] });
    expect((invalid as ValidationError).messages).toEqual(["name can't be blank", 'description is too long', 'description is odd']);
    expect((invalid as ValidationError).rawText).toBe(JSON.stringify(bodies['/categories.json']![1]));
    for (const error of [auth, missing, invalid]) expect(error).toBeInstanceOf(InvoicingError);
  });

  it('reads a 422 whose message is plain text', async () => {
    server.reset((_req, res) => sendJson(res, 422, { code: 'error', message: 'Invoice with this oid already exists' }));
    const error = (await client().categories.create({ name: 'x' }).catch((e: unknown) => e)) as ValidationError;
    expect(error).toBeInstanceOf(ValidationError);
    expect(error.fields).toEqual({ base: ['Invoice with this oid already exists'] });
    expect(error.messages).toEqual(['Invoice with this oid already exists']);
  });

  it('reads an XML error body into the same field map', async () => {
    server.reset((_req, res) =>
      sendXml(
        res,
        422,
        '<?xml version="1.0" encoding="UTF-8"?>\n<error><code>error</code><message><buyer-name type="array"><buyer-name>can\'t be blank</buyer-name></buyer-name><positions type="array"><position>is empty</position><position>is &lt;wrong&gt;</position></positions></message></error>',
      ),
    );
    const error = (await client({ format: 'xml' }).invoices.create({ buyer_name: '' }).catch((e: unknown) => e)) as ValidationError;
    expect(error).toBeInstanceOf(ValidationError);
    expect(error.fields).toEqual({ buyer_name: ["can't be blank"], positions: ['is empty', 'is <wrong>'] });
  });

  it('treats a 200 answer whose body says "status":"error" as an error', async () => {
    server.reset((_req, res) => sendJson(res, 200, { status: 'error', message: 'Buyer has no e-mail address' }));
    const error = (await client().invoices.sendByEmail(5).catch((e: unknown) => e)) as InvoicingError;
    expect(error).toBeInstanceOf(InvoicingError);
    expect(error.status).toBe(200);
    expect(error.message).toMatch(/^Buyer has no e-mail address/);
    expect(error.body).toEqual({ status: 'error', message: 'Buyer has no e-mail address' });
  });

  it('raises UnexpectedResponseError when a success does not have the promised shape', async () => {
    server.reset((_req, res) => sendJson(res, 200, { id: 'seven', name: 'Books' }));
    const error = (await client().categories.get(7).catch((e: unknown) => e)) as UnexpectedResponseError;
    expect(error).toBeInstanceOf(UnexpectedResponseError);
    expect(error.issues.map((issue) => issue.path.join('.'))).toContain('id');
  });

  it('keeps tokens out of error messages', async () => {
    server.reset((_req, res) => sendJson(res, 404, { code: 'error', message: 'Not found' }));
    const error = (await client({ integrationToken: 'secret-integration' }).integrations.getAccount().catch((e: unknown) => e)) as NotFoundError;
    expect(error).toBeInstanceOf(NotFoundError);
    expect(server.requests[0]!.url.searchParams.get('api_token')).toBe('secret-token-1');
    expect(error.message).toContain(`GET ${server.url}/account.json`);
    expect(`${error.message} ${error.url} ${error.stack}`).not.toMatch(/secret-token-1|secret-integration/);
  });

  it('raises TimeoutError when no answer comes in time', async () => {
    server.reset(() => new Promise(() => undefined));
    const started = performance.now();
    const error = await client({ timeout: 150, retry: 0 }).categories.list().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TimeoutError);
    expect((error as TimeoutError).status).toBe(0);
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  it('raises NetworkError when nothing listens', async () => {
    const closed = await startLocalServer(() => undefined);
    await closed.stop();
    const error = await createInvoicingClient({ baseUrl: closed.url, apiToken: 't', retry: 0 }).categories.list().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as NetworkError).status).toBe(0);
  });
});

describe('abort', () => {
  it('stops a request in flight when its signal aborts', async () => {
    server.reset(() => new Promise(() => undefined));
    const controller = new AbortController();
    const started = performance.now();
    const pending = client().categories.list(undefined, { signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    const error = await pending.catch((e: unknown) => e);
    expect((error as Error).name).toBe('AbortError');
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(server.requests).toHaveLength(1);
  });

  it('rejects with the abort reason and sends nothing when the signal is already aborted', async () => {
    server.reset((_req, res) => sendJson(res, 200, []));
    const reason = new Error('user navigated away');
    await expect(client().categories.list(undefined, { signal: AbortSignal.abort(reason) })).rejects.toBe(reason);
    expect(server.requests).toHaveLength(0);
  });

  it('stops waiting between retries when aborted', async () => {
    server.reset((_req, res) => sendJson(res, 503, { code: 'error', message: 'busy' }));
    const controller = new AbortController();
    const pending = client({ retry: { limit: 5, backoffMs: 5_000 } }).categories.list(undefined, { signal: controller.signal });
    setTimeout(() => controller.abort(), 100);
    const error = await pending.catch((e: unknown) => e);
    expect((error as Error).name).toBe('AbortError');
    expect(server.requests).toHaveLength(1);
  });

  it('stops an iteration between pages', async () => {
    const page = Array.from({ length: 2 }, (_, i) => ({ ...buyer, id: i + 1 }));
    server.reset((_req, res) => sendJson(res, 200, page));
    const controller = new AbortController();
    const seen: number[] = [];
    const error = await (async () => {
      for await (const buyer of client().clients.iterate({ per_page: 2 }, { signal: controller.signal })) {
        seen.push(buyer.id);
        if (seen.length === 3) controller.abort();
      }
    })().catch((e: unknown) => e);
    expect((error as Error).name).toBe('AbortError');
    expect(seen).toEqual([1, 2, 1]);
    expect(server.requests.map((r) => r.url.searchParams.get('page'))).toEqual(['1', '2']);
  });
});
