import { createHmac, randomBytes } from 'node:crypto';
import { bearerOf, DeliveryLog, type ProviderAnswer, type ProviderRequest, ProviderServer } from './provider-server.js';

/**
 * A stand-in for the parts of Stripe's API a Checkout integration uses, written from Stripe's API
 * reference (https://docs.stripe.com/api/checkout/sessions): form-encoded requests with a Bearer secret
 * key, `POST /v1/checkout/sessions`, `GET /v1/checkout/sessions/:id`, Stripe's error bodies and
 * `Idempotency-Key` replays. Events are signed as Stripe signs them
 * (https://docs.stripe.com/webhooks#verify-manually): `Stripe-Signature: t=<unix>,v1=<hex HMAC-SHA256
 * of "<t>.<payload>">`.
 *
 * BLIK (https://docs.stripe.com/payments/blik/accept-a-payment): `POST /v1/payment_intents` in `pln`
 * with `allowed_payment_method_types[]=blik` (the API version's writable `payment_method_types` is
 * refused with `payment_method_types_no_longer_supported`), `payment_method_data[type]=blik`,
 * `payment_method_options[blik][code]` and `confirm=true`, and `GET /v1/payment_intents/:id`. By the
 * test provider's magic codes: `111111` and `222222` are declined at once (402, `decline_code`
 * `code_invalid` / `code_expired`, the intent back in `requires_payment_method`); any other code waits
 * in `requires_action` (`next_action.type = blik_authorize`) until the bank app answers: `333333`
 * declines (`customer_declined`, `payment_intent.payment_failed`), `444444` never answers (`expire`
 * gives `payment_intent_payment_attempt_expired`), the rest succeed (`payment_intent.succeeded`).
 * Events go to `webhook.url`, signed with `webhook.secret`, `approvalMs` after the confirmation or
 * when the test calls `approve` / `decline` / `expire` (`approvalMs = null`).
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

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type StripeIntent = Record<string, any> & { id: string; amount: number; currency: string; status: string; metadata: Record<string, string> };

/** An event the stand-in posted to the service's webhook, and the service's answer. */
export interface StripeDelivery {
  type: string;
  payload: string;
  status: number;
}

export class StripeStandIn {
  readonly sessions = new Map<string, StripeSession>();
  readonly intents = new Map<string, StripeIntent>();
  readonly server: ProviderServer;
  readonly #log = new DeliveryLog<StripeDelivery>();
  /** Every notification delivered, as the service answered it. */
  get deliveries(): StripeDelivery[] {
    return this.#log.done;
  }
  /** Where events go, and the secret they are signed with. */
  webhook: { url: string; secret: string } | undefined;
  /** How long the bank app takes to answer a BLIK code; `null`: only when the test calls `approve`, `decline` or `expire`. */
  approvalMs: number | null = null;
  #replays = new Map<string, { body: string; answer: ProviderAnswer }>();

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
    if (request.method === 'POST' && !/^application\/x-www-form-urlencoded\b/.test(request.headers['content-type'] ?? '')) {
      return stripeError(400, 'Stripe takes parameters form-encoded (application/x-www-form-urlencoded).');
    }
    if (request.method === 'POST' && (request.path === '/v1/checkout/sessions' || request.path === '/v1/payment_intents')) {
      // Stripe answers a repeated key with the first answer, and refuses it with other parameters.
      const idempotencyKey = request.headers['idempotency-key'];
      const replay = typeof idempotencyKey === 'string' ? this.#replays.get(idempotencyKey) : undefined;
      if (replay && replay.body !== request.body) {
        return { status: 400, body: { error: { type: 'idempotency_error', message: `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${idempotencyKey}' if you meant to execute a different request.` } } };
      }
      if (replay) return replay.answer;
      const params = readStripeForm(request.body);
      const answer = request.path === '/v1/payment_intents' ? this.#createIntent(params) : this.#createSession(params);
      if (typeof idempotencyKey === 'string') this.#replays.set(idempotencyKey, { body: request.body, answer });
      return answer;
    }
    const intent = /^\/v1\/payment_intents\/([^/?]+)$/.exec(request.path);
    if (request.method === 'GET' && intent) {
      const found = this.intents.get(decodeURIComponent(intent[1]!));
      return found ? { status: 200, body: found } : stripeError(404, `No such payment_intent: '${intent[1]}'`, { code: 'resource_missing', param: 'intent' });
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

  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  #createIntent(params: Record<string, any>): ProviderAnswer {
    if (params.payment_method_types !== undefined) {
      return stripeError(400, 'The payment_method_types parameter is no longer supported on this API version. Use allowed_payment_method_types instead.', { code: 'payment_method_types_no_longer_supported', param: 'payment_method_types' });
    }
    if (!/^\d+$/.test(String(params.amount ?? ''))) return stripeError(400, 'Invalid integer: amount', { code: 'parameter_invalid_integer', param: 'amount' });
    if (params.currency !== 'pln') return stripeError(400, 'BLIK takes pln only.', { code: 'payment_intent_invalid_parameter', param: 'currency' });
    const allowed = params.allowed_payment_method_types as unknown;
    if (!Array.isArray(allowed) || allowed.join() !== 'blik') return stripeError(400, 'Only blik is set up in this stand-in.', { param: 'allowed_payment_method_types' });
    if (params.payment_method_data?.type !== 'blik') return stripeError(400, 'Missing required param: payment_method_data[type].', { code: 'parameter_missing', param: 'payment_method_data[type]' });
    const code = String(params.payment_method_options?.blik?.code ?? '');
    if (params.confirm !== 'true') return stripeError(400, 'A BLIK code can only be set on confirmation.', { code: 'payment_intent_invalid_parameter', param: 'payment_method_options[blik][code]' });
    if (!/^\d{6}$/.test(code)) return stripeError(400, 'Invalid BLIK code.', { code: 'payment_method_invalid_parameter', param: 'payment_method_options[blik][code]' });
    const id = `pi_${randomBytes(12).toString('hex')}`;
    const intent: StripeIntent = {
      id,
      object: 'payment_intent',
      amount: Number(params.amount),
      amount_received: 0,
      currency: 'pln',
      created: Math.floor(Date.now() / 1000),
      description: params.description ?? null,
      last_payment_error: null,
      livemode: false,
      metadata: params.metadata ?? {},
      next_action: { type: 'blik_authorize', blik_authorize: {} },
      payment_method: `pm_${randomBytes(12).toString('hex')}`,
      payment_method_types: ['blik'],
      status: 'requires_action',
    };
    this.intents.set(id, intent);
    if (code === '111111' || code === '222222') {
      const declineCode = code === '111111' ? 'code_invalid' : 'code_expired';
      const message = code === '111111' ? 'The BLIK code is invalid.' : 'The BLIK code has expired.';
      const error = { type: 'card_error', code: 'payment_method_provider_decline', decline_code: declineCode, message };
      Object.assign(intent, { status: 'requires_payment_method', next_action: null, last_payment_error: error });
      return { status: 402, body: { error: { ...error, payment_intent: intent } } };
    }
    const answer = code === '333333' ? 'decline' : code === '444444' ? 'none' : 'approve';
    if (this.approvalMs !== null && answer !== 'none') {
      setTimeout(() => void (answer === 'approve' ? this.approve(id) : this.decline(id)), this.approvalMs);
    }
    return { status: 200, body: intent };
  }

  /** The buyer confirmed in the bank app (also after the service gave up): `payment_intent.succeeded` goes to the webhook. */
  approve(id: string): Promise<StripeDelivery> {
    const intent = this.#intent(id);
    Object.assign(intent, { status: 'succeeded', amount_received: intent.amount, next_action: null, latest_charge: `py_${randomBytes(12).toString('hex')}` });
    return this.deliver('payment_intent.succeeded', intent);
  }

  /** The buyer declined in the bank app: `payment_intent.payment_failed` with `customer_declined`. */
  decline(id: string): Promise<StripeDelivery> {
    return this.#fail(id, { type: 'card_error', code: 'payment_method_provider_decline', decline_code: 'customer_declined', message: 'The customer declined the payment in their banking app.' });
  }

  /** No answer within BLIK's 60 seconds: `payment_intent.payment_failed` with `payment_intent_payment_attempt_expired`. */
  expire(id: string): Promise<StripeDelivery> {
    return this.#fail(id, { type: 'invalid_request_error', code: 'payment_intent_payment_attempt_expired', message: 'The payment attempt expired before the customer authorized it.' });
  }

  #fail(id: string, error: Record<string, string>): Promise<StripeDelivery> {
    const intent = this.#intent(id);
    Object.assign(intent, { status: 'requires_payment_method', next_action: null, last_payment_error: error });
    return this.deliver('payment_intent.payment_failed', intent);
  }

  #intent(id: string): StripeIntent {
    const intent = this.intents.get(id);
    if (!intent) throw new Error(`no payment intent ${id}`);
    return intent;
  }

  /** Posts `type` for `object` to the webhook, signed, and records the service's answer. */
  deliver(type: string, object: Record<string, unknown>): Promise<StripeDelivery> {
    const webhook = this.webhook;
    const payload = this.event(type, { ...object } as StripeSession);
    // Without an endpoint the event goes nowhere, as with Stripe.
    if (!webhook) return this.#log.track(Promise.resolve({ type, payload, status: 0 }));
    const headers = { 'content-type': 'application/json; charset=utf-8', 'stripe-signature': stripeSignature(payload, webhook.secret) };
    return this.#log.post(webhook.url, payload, headers, (status) => ({ type, payload, status }));
  }

  /** Resolves with the next delivery once the service has answered it. */
  nextDelivery(): Promise<StripeDelivery> {
    return this.#log.next();
  }

  /** Resolves once every event the stand-in started delivering has been answered. */
  async settled(): Promise<void> {
    await this.#log.settled();
  }

  /** The buyer finished paying on Stripe's page: the session is complete (paid, or processing for a delayed method). */
  complete(id: string, paymentStatus: 'paid' | 'unpaid' = 'paid'): StripeSession {
    const session = this.sessions.get(id);
    if (!session) throw new Error(`no session ${id}`);
    Object.assign(session, { status: 'complete', payment_status: paymentStatus, payment_intent: `pi_${randomBytes(12).toString('hex')}` });
    return { ...session };
  }

  /** An event as Stripe sends it (https://docs.stripe.com/api/events/object). */
  event(type: string, session: StripeSession | StripeIntent): string {
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
