import { createHmac, randomBytes } from 'node:crypto';
import { bearerOf, type ProviderAnswer, type ProviderRequest, ProviderServer } from './provider-server.js';

/**
 * A stand-in for the parts of Stripe's API a Checkout integration uses, written from Stripe's API
 * reference (https://docs.stripe.com/api/checkout/sessions): form-encoded requests with a Bearer secret
 * key, `POST /v1/checkout/sessions`, `GET /v1/checkout/sessions/:id`, Stripe's error bodies and
 * `Idempotency-Key` replays. Events are signed as Stripe signs them
 * (https://docs.stripe.com/webhooks#verify-manually): `Stripe-Signature: t=<unix>,v1=<hex HMAC-SHA256
 * of "<t>.<payload>">`.
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type StripeSession = Record<string, any> & { id: string; amount_total: number; currency: string; client_reference_id: string | null };

/** Stripe's form encoding (`line_items[0][price_data][unit_amount]=…`) read back into objects and arrays. */
export function readStripeForm(body: string): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  for (const [key, value] of new URLSearchParams(body)) {
    const parts = key.replace(/\]/g, '').split('[');
    let target: Record<string, unknown> = root;
    parts.forEach((part, index) => {
      if (index === parts.length - 1) target[part] = value;
      else target = (target[part] ??= {}) as Record<string, unknown>;
    });
  }
  const arrays = (value: unknown): unknown => {
    if (typeof value !== 'object' || value === null) return value;
    const entries = Object.entries(value).map(([k, v]) => [k, arrays(v)] as const);
    return entries.length && entries.every(([k]) => /^\d+$/.test(k)) ? entries.map(([, v]) => v) : Object.fromEntries(entries);
  };
  return arrays(root) as Record<string, unknown>;
}

const stripeError = (status: number, message: string, extra: Record<string, unknown> = {}): ProviderAnswer => ({
  status,
  body: { error: { type: 'invalid_request_error', message, ...extra } },
});

export class StripeStandIn {
  readonly sessions = new Map<string, StripeSession>();
  readonly server: ProviderServer;
  #replays = new Map<string, ProviderAnswer>();

  constructor(readonly secretKeys: readonly string[]) {
    this.server = new ProviderServer((request) => this.#answer(request));
  }

  get url(): string {
    return this.server.url;
  }

  /** Requests the service made to the API (the buyer's visits to the hosted page left out). */
  get apiRequests(): ProviderRequest[] {
    return this.server.requests.filter((request) => request.path.startsWith('/v1/'));
  }

  #answer(request: ProviderRequest): ProviderAnswer {
    const page = /^\/c\/pay\/([^/?]+)/.exec(request.path);
    if (page && request.method === 'GET') return { status: 200, html: true, body: `<!doctype html><title>Stripe Checkout</title><p>${page[1]}</p>` };
    const key = bearerOf(request.headers);
    if (!key || !this.secretKeys.includes(key)) return stripeError(401, `Invalid API Key provided: ${key ? `${key.slice(0, 8)}****` : 'none'}`);
    if (request.method === 'POST' && request.path === '/v1/checkout/sessions') {
      const idempotencyKey = request.headers['idempotency-key'];
      const replay = typeof idempotencyKey === 'string' ? this.#replays.get(idempotencyKey) : undefined;
      if (replay) return replay;
      const answer = this.#createSession(readStripeForm(request.body));
      if (typeof idempotencyKey === 'string') this.#replays.set(idempotencyKey, answer);
      return answer;
    }
    // https://docs.stripe.com/api/balance/balance_retrieve: what "Test connection" asks.
    if (request.method === 'GET' && request.path === '/v1/balance') {
      return { status: 200, body: { object: 'balance', available: [{ amount: 0, currency: 'pln', source_types: { card: 0 } }], livemode: !key.includes('_test_'), pending: [{ amount: 0, currency: 'pln', source_types: { card: 0 } }] } };
    }
    const read = /^\/v1\/checkout\/sessions\/([^/?]+)$/.exec(request.path);
    if (request.method === 'GET' && read) {
      const session = this.sessions.get(decodeURIComponent(read[1]!));
      return session ? { status: 200, body: session } : stripeError(404, `No such checkout.session: '${read[1]}'`, { code: 'resource_missing', param: 'session' });
    }
    return stripeError(404, `Unrecognized request URL (${request.method}: ${request.path})`);
  }

  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  #createSession(params: Record<string, any>): ProviderAnswer {
    if (params.mode !== 'payment') return stripeError(400, 'Missing required param: mode.', { param: 'mode' });
    for (const param of ['success_url']) if (!params[param]) return stripeError(400, `Missing required param: ${param}.`, { param });
    const lines = params.line_items as Record<string, Record<string, Record<string, string>>>[] | undefined;
    if (!Array.isArray(lines) || lines.length === 0) return stripeError(400, 'Missing required param: line_items.', { param: 'line_items' });
    let amount = 0;
    let currency = '';
    for (const [index, line] of lines.entries()) {
      const price = line.price_data;
      const unit = String(price?.unit_amount ?? '');
      if (!/^\d+$/.test(unit)) return stripeError(400, 'Invalid integer: unit_amount', { param: `line_items[${index}][price_data][unit_amount]` });
      if (!/^[a-z]{3}$/.test(String(price?.currency ?? ''))) return stripeError(400, 'Invalid currency', { param: `line_items[${index}][price_data][currency]` });
      if (!price?.product_data?.name) return stripeError(400, 'Missing required param: name.', { param: `line_items[${index}][price_data][product_data][name]` });
      amount += Number(unit) * Number(line.quantity ?? 1);
      currency = String(price.currency);
    }
    const id = `cs_test_${randomBytes(24).toString('hex')}`;
    const session: StripeSession = {
      id,
      object: 'checkout.session',
      amount_subtotal: amount,
      amount_total: amount,
      cancel_url: params.cancel_url ?? null,
      client_reference_id: params.client_reference_id ?? null,
      created: Math.floor(Date.now() / 1000),
      currency,
      customer_email: params.customer_email ?? null,
      expires_at: Math.floor(Date.now() / 1000) + 86_400,
      livemode: false,
      locale: params.locale ?? null,
      metadata: params.metadata ?? {},
      mode: 'payment',
      payment_intent: null,
      payment_status: 'unpaid',
      status: 'open',
      success_url: params.success_url,
      url: `${this.url}/c/pay/${id}`,
      line_items_sent: lines,
    };
    this.sessions.set(id, session);
    return { status: 200, body: session };
  }

  /** The buyer finished paying on Stripe's page: the session is complete (paid, or processing for a delayed method). */
  complete(id: string, paymentStatus: 'paid' | 'unpaid' = 'paid'): StripeSession {
    const session = this.sessions.get(id);
    if (!session) throw new Error(`no session ${id}`);
    Object.assign(session, { status: 'complete', payment_status: paymentStatus, payment_intent: `pi_${randomBytes(12).toString('hex')}` });
    return { ...session };
  }

  /** An event as Stripe sends it (https://docs.stripe.com/api/events/object). */
  event(type: string, session: StripeSession): string {
    return JSON.stringify(
      {
        id: `evt_${randomBytes(12).toString('hex')}`,
        object: 'event',
        api_version: '2025-01-27.acacia',
        created: Math.floor(Date.now() / 1000),
        data: { object: session },
        livemode: false,
        pending_webhooks: 1,
        request: { id: null, idempotency_key: null },
        type,
      },
      null,
      2,
    );
  }
}

/** The `Stripe-Signature` header Stripe sends with `payload`, signed at `timestamp` (seconds). */
export function stripeSignature(payload: string, secret: string, timestamp = Math.floor(Date.now() / 1000)): string {
  const v1 = createHmac('sha256', secret).update(`${timestamp}.${payload}`, 'utf8').digest('hex');
  return `t=${timestamp},v1=${v1}`;
}
