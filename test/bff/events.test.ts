import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createInvoicingClient } from '../../src/api/client.js';
import { issuePortalToken, portalSecretKey, subscribeBffToWebhooks } from '../../src/bff/index.js';
import { issueEventsTicket } from '../../src/bff/portal-token.js';
import { startTestService } from '../helpers/service.js';
import { PORTAL_SECRET, type Service, startTestBff, type TestBff } from './support.js';

/**
 * The BFF subscribes to the service's webhooks and streams each customer's invoice changes to the
 * elements (Server-Sent Events), so a payment shows without polling, and only to its customer.
 */
const WEBHOOK_SECRET = 'whsec_bff-test-secret-0123456789';
let service: Service;
let bff: TestBff;
let api: ReturnType<typeof createInvoicingClient>;

beforeAll(async () => {
  service = await startTestService({ webhooks: { allowPrivate: true, pollMs: 100 } });
  api = createInvoicingClient({ baseUrl: service.url, apiToken: service.apiToken, retry: 0 });
  bff = await startTestBff(service, { webhooks: { secret: WEBHOOK_SECRET } });
  await subscribeBffToWebhooks(api, `${bff.base}/webhooks`, WEBHOOK_SECRET);
});
afterAll(async () => {
  await bff.close();
  await service.stop();
});

/** What a page does before it opens its EventSource: trades the portal token for a ticket, in a header. */
async function ticketFor(token: string): Promise<string> {
  const response = await fetch(`${bff.base}/events/ticket`, { method: 'POST', headers: { authorization: `Bearer ${token}` } });
  expect(response.status).toBe(201);
  expect(response.headers.get('cache-control')).toBe('private, no-store');
  const { ticket, expires_at } = (await response.json()) as { ticket: string; expires_at: string };
  const lifetime = Date.parse(expires_at) - Date.now();
  expect(lifetime).toBeGreaterThan(50_000);
  expect(lifetime).toBeLessThanOrEqual(60_000);
  return ticket;
}

interface SseEvent {
  event: string;
  data: string;
}

/** Reads a Server-Sent Events stream as a test would see it in a browser's EventSource. */
async function openStream(url: string) {
  const controller = new AbortController();
  const response = await fetch(url, { signal: controller.signal, headers: { accept: 'text/event-stream' } });
  const events: SseEvent[] = [];
  const reading = (async () => {
    if (!response.body) return;
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      const reader = response.body.getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        buffer += decoder.decode(value, { stream: true });
        let at: number;
        while ((at = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, at);
          buffer = buffer.slice(at + 2);
          const event = /^event: (.*)$/m.exec(block)?.[1];
          const data = /^data: (.*)$/m.exec(block)?.[1];
          if (event && data !== undefined) events.push({ event, data });
        }
      }
    } catch {
      // aborted
    }
  })();
  return {
    response,
    events,
    async waitFor(match: (event: SseEvent) => boolean, timeoutMs = 20_000) {
      const started = Date.now();
      while (Date.now() - started < timeoutMs) {
        const found = events.find(match);
        if (found) return found;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      throw new Error(`no matching event; got ${JSON.stringify(events)}`);
    },
    async close() {
      controller.abort();
      await reading;
    },
  };
}

function signed(body: string, secret = WEBHOOK_SECRET, t = Math.floor(Date.now() / 1000)) {
  return `t=${t},v1=${createHmac('sha256', secret).update(`${t}.${body}`).digest('hex')}`;
}

describe('BFF events', () => {
  it('streams a payment on the customer’s invoice to that customer only', async () => {
    const alpha = await api.clients.create({ name: 'Alpha Sp. z o.o.', email: 'alpha@example.com' });
    const beta = await api.clients.create({ name: 'Beta GmbH', email: 'beta@example.com' });
    const invoice = await api.invoices.create({ client_id: alpha.id, positions: [{ name: 'Consulting', tax: '23', quantity: '1', total_price_gross: '100.00' }] });
    const tokenA = await issuePortalToken({ clientId: alpha.id }, PORTAL_SECRET);
    const tokenB = await issuePortalToken({ clientId: beta.id }, PORTAL_SECRET);
    const streamA = await openStream(`${bff.base}/events?ticket=${encodeURIComponent(await ticketFor(tokenA))}`);
    const streamB = await openStream(`${bff.base}/events?ticket=${encodeURIComponent(await ticketFor(tokenB))}`);
    try {
      expect(streamA.response.status).toBe(200);
      expect(streamA.response.headers.get('content-type')).toMatch(/^text\/event-stream/);
      await streamA.waitFor((e) => e.event === 'ready');
      await streamB.waitFor((e) => e.event === 'ready');

      await api.payments.create({ name: 'Przelew', price: '100.00', invoice_id: invoice.id, paid: true, kind: 'api' });
      const paid = await streamA.waitFor((e) => e.event === 'invoice.updated' && JSON.parse(e.data).status === 'paid');
      const view = JSON.parse(paid.data);
      expect(view).toMatchObject({ id: invoice.id, number: invoice.number, status: 'paid', paid: '100.0', outstanding: '0' });
      // The customer's view: no internal fields of the record.
      expect(view.description).toBeUndefined();
      expect(view.token).toBeUndefined();
      // Then an invoice of B's own: the BFF streams each delivery to its customer as it comes, so had
      // A's payment gone to B too, B would have had it before this one.
      const own = await api.invoices.create({ client_id: beta.id, positions: [{ name: 'Audit', tax: '23', quantity: '1', total_price_gross: '50.00' }] });
      const sentinel = await streamB.waitFor((e) => e.event === 'invoice.created' && JSON.parse(e.data).id === own.id);
      expect(streamB.events.filter((e) => e.event !== 'ready' && e !== sentinel)).toEqual([]);
    } finally {
      await streamA.close();
      await streamB.close();
    }
  });

  it('refuses deliveries without a valid signature and streams without a valid token', async () => {
    const body = JSON.stringify({ deal: { id: 1, client_id: 1 }, app_name: 'invoicekit', api_token: null, locale: 'pl' });
    const post = (signature: string | undefined) =>
      fetch(`${bff.base}/webhooks`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-invoicekit-event': 'invoice:update', ...(signature ? { 'x-invoicekit-signature': signature } : {}) },
        body,
      });
    expect((await post(undefined)).status).toBe(401);
    expect((await post(signed(body, 'whsec_someone-else-entirely'))).status).toBe(401);
    expect((await post(signed(body, WEBHOOK_SECRET, Math.floor(Date.now() / 1000) - 3600))).status).toBe(401);
    expect((await post(signed(body))).status).toBe(200);
    expect((await fetch(`${bff.base}/events`)).status).toBe(401);
    expect((await fetch(`${bff.base}/events?ticket=not-a-ticket`)).status).toBe(401);
    const clientOnly = await issuePortalToken({ clientId: 1, scopes: ['client:read'] }, PORTAL_SECRET);
    expect((await fetch(`${bff.base}/events`, { headers: { authorization: `Bearer ${clientOnly}` } })).status).toBe(403);
  });

  it('keeps the portal token out of the stream’s URL: a ticket opens the stream and nothing else', async () => {
    const client = await api.clients.create({ name: 'Gamma S.A.', email: 'gamma@example.com' });
    const token = await issuePortalToken({ clientId: client.id }, PORTAL_SECRET);
    // The old way, with the token in the URL, is refused without looking at the token.
    const inUrl = await fetch(`${bff.base}/events?portal_token=${encodeURIComponent(token)}`);
    expect(inUrl.status).toBe(400);
    expect(await inUrl.json()).toMatchObject({ error: { code: 'bad_request' } });

    const ticket = await ticketFor(token);
    const stream = await openStream(`${bff.base}/events?ticket=${encodeURIComponent(ticket)}`);
    try {
      expect(JSON.parse((await stream.waitFor((e) => e.event === 'ready')).data)).toEqual({ client_id: client.id });
    } finally {
      await stream.close();
    }
    // A ticket is no portal token, and a portal token no ticket.
    expect((await fetch(`${bff.base}/invoices`, { headers: { authorization: `Bearer ${ticket}` } })).status).toBe(401);
    expect((await fetch(`${bff.base}/events?ticket=${encodeURIComponent(token)}`)).status).toBe(401);
    // An expired ticket says so.
    const expired = await issueEventsTicket(client.id, portalSecretKey(PORTAL_SECRET), -5);
    const late = await fetch(`${bff.base}/events?ticket=${encodeURIComponent(expired)}`);
    expect(late.status).toBe(401);
    expect(await late.json()).toMatchObject({ error: { code: 'token_expired' } });
    // Only a token that may read invoices gets a ticket, and never without one.
    const clientOnly = await issuePortalToken({ clientId: client.id, scopes: ['client:read'] }, PORTAL_SECRET);
    expect((await fetch(`${bff.base}/events/ticket`, { method: 'POST', headers: { authorization: `Bearer ${clientOnly}` } })).status).toBe(403);
    expect((await fetch(`${bff.base}/events/ticket`, { method: 'POST' })).status).toBe(401);
  });

  it('subscribes once, however often the BFF starts', async () => {
    await subscribeBffToWebhooks(api, `${bff.base}/webhooks`, WEBHOOK_SECRET);
    const hooks = (await api.webhooks.list()).filter((hook) => hook.url === `${bff.base}/webhooks`);
    expect(hooks.map((hook) => hook.kind).sort()).toEqual(['invoice:create', 'invoice:update']);
  });
});
