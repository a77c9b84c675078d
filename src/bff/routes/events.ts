import { Hono } from 'hono';
import { streamSSE } from 'hono/streaming';
import { invoice as invoiceSchema } from '../../api/schemas/invoice.js';
import { todayIn, type Bff, type Env } from '../context.js';
import { BffError, ERROR_CODES } from '../errors.js';
import { type CustomerEvent, type EventHub, MemoryEventHub, verifyWebhookSignature, type WebhookReceiverOptions } from '../events.js';
import { requireSession, readSession } from '../middleware.js';
import { EVENTS_TICKET_TTL_SECONDS, issueEventsTicket, PortalTokenError, verifyEventsTicket } from '../portal-token.js';
import { customerInvoice } from '../views.js';

const MAX_WEBHOOK_BYTES = 1024 * 1024;
const KEEPALIVE_MS = 25_000;
const SEEN_KEPT = 2000;

/**
 * `POST /webhooks`: the service's signed webhook deliveries; `GET /events`: a Server-Sent Events
 * stream of the portal token's own client, so the elements see a payment land without polling.
 * EventSource cannot send headers, so a page first trades its portal token for a one-minute ticket
 * (`POST /events/ticket`) and opens `/events?ticket=…`: the portal token never appears in a URL.
 */
export function eventRoutes(bff: Bff, options: WebhookReceiverOptions): Hono<Env> {
  const routes = new Hono<Env>();
  const hub: EventHub = options.hub ?? new MemoryEventHub();
  const seen = new Set<string>();

  routes.post('/webhooks', async (c) => {
    const length = Number(c.req.header('content-length') ?? 0);
    if (length > MAX_WEBHOOK_BYTES) throw new BffError(413, ERROR_CODES.payloadTooLarge, 'The request body is too large.');
    const body = await c.req.text();
    if (body.length > MAX_WEBHOOK_BYTES) throw new BffError(413, ERROR_CODES.payloadTooLarge, 'The request body is too large.');
    const valid = await verifyWebhookSignature(c.req.header('x-invoicekit-signature'), body, options.secret, options.toleranceSeconds);
    if (!valid) throw new BffError(401, ERROR_CODES.unauthorized, 'The webhook signature is not valid.');
    const deliveryId = c.req.header('x-invoicekit-delivery') ?? '';
    // A retried delivery that already arrived is acknowledged and not published twice.
    if (deliveryId && seen.has(deliveryId)) return c.json({ received: true, duplicate: true });
    let parsed: unknown;
    try {
      parsed = JSON.parse(body);
    } catch {
      throw new BffError(400, ERROR_CODES.badRequest, 'The body is not valid JSON.');
    }
    const kind = c.req.header('x-invoicekit-event') ?? '';
    const deal = (parsed as { deal?: unknown } | null)?.deal;
    if (kind === 'invoice:create' || kind === 'invoice:update') {
      const invoice = invoiceSchema.safeParse(deal);
      if (invoice.success && typeof invoice.data.client_id === 'number' && invoice.data.status !== 'rejected') {
        const event: CustomerEvent = {
          type: kind === 'invoice:create' ? 'invoice.created' : 'invoice.updated',
          invoice: customerInvoice(invoice.data, todayIn(bff.timeZone), bff.basePath),
        };
        await hub.publish(invoice.data.client_id, event);
      }
    }
    if (deliveryId) {
      seen.add(deliveryId);
      if (seen.size > SEEN_KEPT) seen.delete(seen.values().next().value!);
    }
    return c.json({ received: true });
  });

  // The ticket is asked for with the portal token in the Authorization header, where it belongs.
  routes.post('/events/ticket', requireSession(bff, 'invoices:read'), async (c) => {
    const ticket = await issueEventsTicket(c.get('session').clientId, bff.secretKey);
    c.header('Cache-Control', 'private, no-store');
    return c.json({ ticket, expires_at: new Date(Date.now() + EVENTS_TICKET_TTL_SECONDS * 1000).toISOString() }, 201);
  });

  routes.get('/events', async (c) => {
    if (c.req.query('portal_token') !== undefined) {
      throw new BffError(400, ERROR_CODES.badRequest, 'A portal token does not go in a URL: open the stream with a ticket from POST /events/ticket.');
    }
    const ticket = c.req.query('ticket');
    let clientId: number;
    if (ticket !== undefined) {
      try {
        clientId = (await verifyEventsTicket(ticket, bff.secretKey)).clientId;
      } catch (error) {
        const expired = error instanceof PortalTokenError && error.reason === 'expired';
        throw new BffError(401, expired ? ERROR_CODES.tokenExpired : ERROR_CODES.unauthorized, expired ? 'The ticket has expired.' : 'The ticket is not valid.');
      }
      c.set('session', { clientId, scopes: new Set(['invoices:read']), expiresAt: 0 });
    } else {
      // A client that can send headers (fetch, not EventSource) may use the portal token itself.
      clientId = (await readSession(c, bff, 'invoices:read'))!.clientId;
    }
    await bff.enforce(c, bff.limits.token, `token:${clientId}`);
    c.header('Cache-Control', 'private, no-store');
    c.header('X-Accel-Buffering', 'no');
    return streamSSE(c, async (stream) => {
      const queue: CustomerEvent[] = [];
      let wake: (() => void) | undefined;
      const unsubscribe = hub.subscribe(clientId, (event) => {
        queue.push(event);
        wake?.();
      });
      stream.onAbort(() => {
        unsubscribe();
        wake?.();
      });
      await stream.writeSSE({ event: 'ready', data: JSON.stringify({ client_id: clientId }) });
      while (!stream.aborted) {
        const event = queue.shift();
        if (event) {
          await stream.writeSSE({ event: event.type, data: JSON.stringify(event.invoice), id: `${event.invoice.id}-${Date.now()}` });
          continue;
        }
        await new Promise<void>((resolve) => {
          wake = resolve;
          setTimeout(resolve, KEEPALIVE_MS);
        });
        wake = undefined;
        if (queue.length === 0 && !stream.aborted) await stream.write(': keep-alive\n\n');
      }
      unsubscribe();
    });
  });

  return routes;
}
