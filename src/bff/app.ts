import { Hono, type Context, type MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { z } from 'zod';
import { createInvoicingClient } from '../api/client.js';
import { compare, decimal, mul, roundMoney, toPlain, add, ZERO, type Decimal } from '../api/money.js';
import type { Invoice } from '../api/schemas/invoice.js';
import { PERIODS } from '../api/schemas/invoice.js';
import type { Product } from '../api/schemas/product.js';
import { BffError, ERROR_CODES, fromServiceError, notFound, type FieldErrors } from './errors.js';
import { fingerprintOf, MemoryIdempotencyStore, type IdempotencyStore, type StoredAnswer } from './idempotency.js';
import { jsonLineLogger, redactingLogger, type BffLogEntry, type BffLogger } from './logger.js';
import {
  issuePdfLinkToken,
  issuePortalToken,
  portalSecretKey,
  PortalTokenError,
  verifyPdfLinkToken,
  verifyPortalToken,
  type PortalScope,
  type PortalSecret,
  type PortalSession,
} from './portal-token.js';
import { checkoutOutcomeRoutes, issueAttemptToken } from './routes/checkout-outcome.js';
import { DEFAULT_RATE_LIMITS, MemoryRateLimitStore, type RateLimitOptions, type RateLimitRule, type RateLimitStore } from './rate-limit.js';
import {
  CUSTOMER_CLIENT_FIELDS,
  CUSTOMER_STATUSES,
  customerClient,
  customerInvoice,
  customerStatus,
  outstandingOf,
  publicProduct,
  type CustomerInvoice,
} from './views.js';

type InvoicingClient = ReturnType<typeof createInvoicingClient>;

/** The part of the typed client the BFF uses; any object of this shape will do (a client with hooks, say). */
export interface BffServiceClient {
  invoices: Pick<InvoicingClient['invoices'], 'list' | 'get' | 'pdf'>;
  products: Pick<InvoicingClient['products'], 'list' | 'get'>;
  clients: Pick<InvoicingClient['clients'], 'get' | 'update' | 'create'>;
  payments: Pick<InvoicingClient['payments'], 'create' | 'get'>;
}

export interface SignupOptions {
  /** Answer a portal token for the new client, so the page can go on to the portal. Default: none. */
  portalToken?: { scopes?: readonly PortalScope[]; ttlSeconds?: number };
  /** Called after the client was created, e.g. to link it to the host's own user. */
  onCreated?: (client: { id: number; email: string | null; name: string }) => void | Promise<void>;
}

export interface CheckoutOptions {
  /** Ask the service to issue an invoice once the payment is paid. Default true. */
  generateInvoice?: boolean;
  /** The seller (department) payments are made to; the service's default when omitted. */
  departmentId?: number;
  /** Most units one checkout may buy. Default 1000. */
  maxQuantity?: number;
  /**
   * The service takes payments with its test provider: products say `test_mode: true`, so the button
   * shows a "Test mode" badge. Default false.
   */
  testMode?: boolean;
}

export interface BffOptions {
  /** A typed client of the invoicing service. Or give `serviceUrl` and `apiToken`. */
  client?: BffServiceClient;
  serviceUrl?: string;
  /** The account's api_token. It stays on the server: no answer and no log line carries it. */
  apiToken?: string;
  /** Signs portal tokens (HS256, at least 32 bytes). The host's backend mints tokens with the same secret. */
  portalSecret: PortalSecret;
  /** Origins (`https://shop.example`) whose pages may call the BFF. Same-origin calls always may. */
  allowedOrigins?: readonly string[];
  /** Origins checkout may send the buyer back to, beside `allowedOrigins` and the BFF's own. */
  returnUrlOrigins?: readonly string[];
  /** Where the routes live. Default `/bff`. */
  basePath?: string;
  /** Limits per IP, per portal token and for creating things; `false` turns them off. */
  rateLimit?: RateLimitOptions | false;
  /** Remembers checkout answers per `Idempotency-Key`. Default: in memory. */
  idempotencyStore?: IdempotencyStore;
  /** Largest request body. Default 16 KiB. */
  bodyLimitBytes?: number;
  /** How long one call to the service may take before the BFF answers 504. Default 10 s. */
  serviceTimeoutMs?: number;
  /** Receives one structured entry per request and per failure; `false` for none. Default: JSON lines on stdout. */
  logger?: BffLogger | false;
  /** Enables `POST /clients` (sign-up). Default off. */
  signup?: boolean | SignupOptions;
  checkout?: CheckoutOptions;
  /** The time zone whose calendar decides when an invoice is overdue. Default UTC. */
  timeZone?: string;
  /** How long a product looked up by token is remembered. Default 30 s. */
  productCacheMs?: number;
  /** Lifetime of the signed PDF links. Default 5 minutes, at most 1 hour. */
  pdfLinkTtlSeconds?: number;
  /**
   * How to find the caller's IP for rate limits. Default: behind `trustProxy` hops of proxies the
   * matching `X-Forwarded-For` entry, else the socket address Node adapters pass in.
   */
  clientIp?: (request: Request, env: unknown) => string | undefined;
  /** How many proxies in front of the BFF append to `X-Forwarded-For`. Default 0 (ignore the header). */
  trustProxy?: number;
  /** How many invoices of one client the portal list reads at most. Default 20,000. */
  maxInvoicesPerClient?: number;
}

type Env = { Variables: { session: PortalSession; requestId: string; clientIp: string } };
/** The Hono app `createBff` returns; `app.fetch(request, env?)` is all a host needs. */
export type BffApp = Hono<Env>;

const ID_PATTERN = /^[1-9]\d{0,14}$/;
const PRODUCT_TOKEN_PATTERN = /^[A-Za-z0-9_-]{4,64}$/;
const IDEMPOTENCY_KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;
const SERVICE_PAGE_SIZE = 100;
const PORTAL_ORDER_FIELDS = ['issue_date', 'payment_to', 'price_gross'] as const;

const text = (max: number) => z.string({ message: 'must be text' }).trim().max(max, `is too long (maximum is ${max} characters)`);
const optionalText = (max: number) => text(max).nullish();
const email = z.string({ message: 'must be text' }).trim().max(300, 'is too long (maximum is 300 characters)').pipe(z.email({ message: 'is not an e-mail address' }));
const webUrl = z
  .string({ message: 'must be a URL' })
  .max(2000, 'is too long (maximum is 2000 characters)')
  .refine((value) => {
    try {
      const url = new URL(value);
      return url.protocol === 'https:' || url.protocol === 'http:';
    } catch {
      return false;
    }
  }, 'must be an http(s) URL');

const buyerInput = z.strictObject({
  email,
  name: optionalText(300),
  first_name: optionalText(200),
  last_name: optionalText(200),
  tax_no: optionalText(50),
  street: optionalText(300),
  post_code: optionalText(30),
  city: optionalText(200),
  country: optionalText(100),
  phone: optionalText(100),
});

const customerClientInput = z.strictObject({
  name: optionalText(300),
  first_name: optionalText(200),
  last_name: optionalText(200),
  person: optionalText(200),
  tax_no: optionalText(50),
  email: z.union([z.literal(''), email]).nullish(),
  phone: optionalText(100),
  street: optionalText(300),
  post_code: optionalText(30),
  city: optionalText(200),
  country: optionalText(100),
});

const signupInput = customerClientInput.extend({ email }).refine(
  (value) => Boolean(value.name?.trim() || value.first_name?.trim() || value.last_name?.trim()),
  { message: "can't be blank", path: ['name'] },
);

const intParam = (name: string, min: number, max: number, fallback: number) =>
  z
    .string()
    .optional()
    .transform((value, ctx) => {
      if (value === undefined) return fallback;
      const n = /^\d{1,9}$/.test(value) ? Number(value) : Number.NaN;
      if (!Number.isInteger(n) || n < min || n > max) {
        ctx.addIssue({ code: 'custom', message: `${name} must be a whole number from ${min} to ${max}` });
        return z.NEVER;
      }
      return n;
    });

const invoiceListQuery = z.object({
  page: intParam('page', 1, 100_000, 1),
  per_page: intParam('per_page', 1, 100, 25),
  period: z.enum(PERIODS.filter((p) => p !== 'more') as [string, ...string[]], { message: `must be one of ${PERIODS.filter((p) => p !== 'more').join(', ')}` }).optional(),
  status: z.enum(CUSTOMER_STATUSES, { message: `must be one of ${CUSTOMER_STATUSES.join(', ')}` }).optional(),
  search: z.string().trim().max(100, 'is too long (maximum is 100 characters)').optional(),
  order: z
    .string()
    .regex(new RegExp(`^(${PORTAL_ORDER_FIELDS.join('|')})(\\.(asc|desc))?$`), `must be one of ${PORTAL_ORDER_FIELDS.join(', ')}, optionally with .asc or .desc`)
    .optional(),
});

function fieldErrors(error: z.ZodError): FieldErrors {
  const fields: FieldErrors = {};
  for (const issue of error.issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) {
        const path = [...issue.path, key].join('.');
        (fields[path] ??= []).push('is not a known field');
      }
      continue;
    }
    const path = issue.path.join('.') || 'base';
    (fields[path] ??= []).push(issue.message);
  }
  return fields;
}

function validate<T extends z.ZodType>(schema: T, value: unknown): z.output<T> {
  const result = schema.safeParse(value);
  if (!result.success) {
    throw new BffError(422, ERROR_CODES.validation, 'Some fields are not valid.', { fields: fieldErrors(result.error) });
  }
  return result.data;
}

async function readJson(c: Context): Promise<unknown> {
  const type = c.req.header('content-type') ?? '';
  if (!/^application\/json\b/i.test(type)) {
    throw new BffError(415, ERROR_CODES.unsupportedMediaType, 'Send the body as application/json.');
  }
  const raw = await c.req.text();
  try {
    return JSON.parse(raw);
  } catch {
    throw new BffError(400, ERROR_CODES.badRequest, 'The body is not valid JSON.');
  }
}

function originOf(value: string): string | undefined {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : undefined;
  } catch {
    return undefined;
  }
}

function todayIn(timeZone: string): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date());
}

function randomId(): string {
  return crypto.randomUUID();
}

/** The address the socket came from, when a Node adapter passes its `IncomingMessage` as `env.incoming`. */
function socketAddress(env: unknown): string | undefined {
  const incoming = (env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined)?.incoming;
  return incoming?.socket?.remoteAddress;
}

class TtlCache<V> {
  readonly #entries = new Map<string, { value: V; expiresAt: number }>();
  readonly #ttlMs: number;
  readonly #max: number;
  constructor(ttlMs: number, max = 10_000) {
    this.#ttlMs = ttlMs;
    this.#max = max;
  }
  get(key: string): V | undefined {
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= Date.now()) {
      this.#entries.delete(key);
      return undefined;
    }
    return entry.value;
  }
  set(key: string, value: V): void {
    if (this.#ttlMs <= 0) return;
    if (this.#entries.size >= this.#max) {
      const oldest = this.#entries.keys().next();
      if (!oldest.done) this.#entries.delete(oldest.value);
    }
    this.#entries.set(key, { value, expiresAt: Date.now() + this.#ttlMs });
  }
  delete(key: string): void {
    this.#entries.delete(key);
  }
}

/**
 * The backend-for-frontend: a Hono app, that is a standard `fetch(Request)` handler, holding the
 * api_token and answering the elements through narrow routes. Nothing here needs Node, so it runs
 * in Node `http`, Express, Fastify, Next.js route handlers and edge runtimes alike.
 */
export function createBff(options: BffOptions): BffApp {
  const secretKey = portalSecretKey(options.portalSecret);
  const client = resolveClient(options);
  const basePath = normalizeBasePath(options.basePath ?? '/bff');
  const allowedOrigins = new Set((options.allowedOrigins ?? []).map((o) => {
    const origin = originOf(o);
    if (!origin) throw new TypeError(`Not an origin: ${o}`);
    return origin;
  }));
  const returnOrigins = new Set([...allowedOrigins, ...(options.returnUrlOrigins ?? []).map((o) => originOf(o) ?? o)]);
  const timeoutMs = options.serviceTimeoutMs ?? 10_000;
  const timeZone = options.timeZone ?? 'UTC';
  todayIn(timeZone);
  const idempotency = options.idempotencyStore ?? new MemoryIdempotencyStore();
  const productCache = new TtlCache<Product | null>(options.productCacheMs ?? 30_000);
  const pdfLinkTtl = Math.min(options.pdfLinkTtlSeconds ?? 300, 3600);
  const maxInvoices = options.maxInvoicesPerClient ?? 20_000;
  const checkout = { generateInvoice: true, maxQuantity: 1000, ...options.checkout };
  const signup = options.signup === true ? {} : options.signup || undefined;
  const secrets = [options.apiToken ?? '', typeof options.portalSecret === 'string' ? options.portalSecret : ''];
  const log: BffLogger = options.logger === false ? () => {} : redactingLogger(options.logger ?? jsonLineLogger, secrets);
  const limits = rateLimits(options.rateLimit);

  const emit = (entry: Omit<BffLogEntry, 'time'>) => {
    try {
      log({ time: new Date().toISOString(), ...entry } as BffLogEntry);
    } catch {
      // A failing logger must not fail the request.
    }
  };

  /** Runs one call to the service under the BFF's timeout and turns its failures into safe answers. */
  async function service<T>(
    c: Context<Env>,
    what: string,
    call: (signal: AbortSignal) => Promise<T>,
    publicFields?: readonly string[],
  ): Promise<T> {
    const signal = AbortSignal.timeout(timeoutMs);
    try {
      return await call(signal);
    } catch (error) {
      const answer = fromServiceError(error, { publicFields, timedOut: signal.aborted });
      if (answer.status >= 500 || answer.code === ERROR_CODES.upstreamBusy) {
        emit({
          level: 'error',
          msg: 'service call failed',
          request_id: c.get('requestId'),
          call: what,
          error: error instanceof Error ? error.name : typeof error,
          upstream_status: typeof (error as { status?: unknown })?.status === 'number' ? (error as { status: number }).status : undefined,
          code: answer.code,
        });
      }
      throw answer;
    }
  }

  async function productByToken(c: Context<Env>, token: string, fresh: boolean): Promise<Product | undefined> {
    const cached = productCache.get(token);
    if (cached === null && !fresh) return undefined;
    if (cached) {
      if (!fresh) return cached;
      try {
        const current = await service(c, 'products.get', (signal) => client.products.get(cached.id, { signal }));
        if (current.token === token) return current;
      } catch (error) {
        if (!(error instanceof BffError && error.status === 404)) throw error;
      }
      productCache.delete(token);
    }
    // `token` is a hint our service honours; the hosted one ignores it, so every page is checked here.
    for (let page = 1; page <= 200; page += 1) {
      const query = { token, page, per_page: SERVICE_PAGE_SIZE } as Parameters<InvoicingClient['products']['list']>[0];
      const batch = await service(c, 'products.list', (signal) => client.products.list(query, { signal }));
      const match = batch.find((product) => product.token === token);
      if (match) {
        productCache.set(token, match);
        return match;
      }
      if (batch.length < SERVICE_PAGE_SIZE) break;
    }
    productCache.set(token, null);
    return undefined;
  }

  async function ownInvoice(c: Context<Env>, clientId: number, idText: string): Promise<Invoice> {
    if (!ID_PATTERN.test(idText)) throw notFound('invoice');
    let invoice: Invoice;
    try {
      invoice = await service(c, 'invoices.get', (signal) => client.invoices.get(Number(idText), { signal }));
    } catch (error) {
      if (error instanceof BffError && error.status === 404) throw notFound('invoice');
      throw error;
    }
    // Another client's invoice answers exactly like a missing one.
    if (invoice.client_id !== clientId || invoice.status === 'rejected') throw notFound('invoice');
    return invoice;
  }

  /**
   * A customer with thousands of invoices scrolls through them a page at a time; reading them all
   * from the service for every page would be slow, so large lists are kept for a few seconds.
   * Small lists, where a fresh status right after paying matters most, are always read anew.
   */
  const largeLists = new Map<string, { until: number; invoices: Promise<Invoice[]> }>();
  const LARGE_LIST = 500;
  const LARGE_LIST_MS = 10_000;

  async function ownInvoices(c: Context<Env>, clientId: number, query: z.output<typeof invoiceListQuery>): Promise<Invoice[]> {
    const key = `${clientId}|${query.period ?? 'all'}|${query.status === 'paid' ? 'paid' : ''}`;
    const kept = largeLists.get(key);
    if (kept && kept.until > Date.now()) return kept.invoices;
    const reading = readOwnInvoices(c, clientId, query);
    const invoices = await reading;
    if (invoices.length >= LARGE_LIST) {
      for (const [k, entry] of largeLists) if (entry.until <= Date.now()) largeLists.delete(k);
      largeLists.set(key, { until: Date.now() + LARGE_LIST_MS, invoices: reading });
    }
    return invoices;
  }

  async function readOwnInvoices(c: Context<Env>, clientId: number, query: z.output<typeof invoiceListQuery>): Promise<Invoice[]> {
    const all: Invoice[] = [];
    for (let page = 1; all.length < maxInvoices; page += 1) {
      const batch = await service(c, 'invoices.list', (signal) =>
        client.invoices.list(
          {
            client_id: clientId,
            page,
            per_page: SERVICE_PAGE_SIZE,
            period: (query.period ?? 'all') as (typeof PERIODS)[number],
            ...(query.status === 'paid' ? { status: 'paid' as const } : {}),
          },
          { signal },
        ),
      );
      // The filter is asked of the service and checked again on every record.
      for (const invoice of batch) if (invoice.client_id === clientId && invoice.status !== 'rejected') all.push(invoice);
      if (batch.length < SERVICE_PAGE_SIZE) return all;
    }
    emit({ level: 'warn', msg: 'portal list truncated', request_id: c.get('requestId'), client_id: clientId, limit: maxInvoices });
    return all;
  }

  const requireSession = (scope: PortalScope): MiddlewareHandler<Env> => async (c, next) => {
    const header = c.req.header('authorization') ?? '';
    const match = /^Bearer\s+([A-Za-z0-9._~+/-]+=*)\s*$/i.exec(header);
    if (!match) {
      throw new BffError(401, ERROR_CODES.unauthorized, 'A portal token is required.', {
        headers: { 'WWW-Authenticate': 'Bearer realm="invoicekit"' },
      });
    }
    let session: PortalSession;
    try {
      session = await verifyPortalToken(match[1]!, secretKey);
    } catch (error) {
      const expired = error instanceof PortalTokenError && error.reason === 'expired';
      throw new BffError(401, expired ? ERROR_CODES.tokenExpired : ERROR_CODES.unauthorized, expired ? 'The portal token has expired.' : 'The portal token is not valid.', {
        headers: { 'WWW-Authenticate': 'Bearer realm="invoicekit", error="invalid_token"' },
      });
    }
    if (!session.scopes.has(scope)) {
      throw new BffError(403, ERROR_CODES.insufficientScope, `The portal token does not allow this (needs ${scope}).`, {
        headers: { 'WWW-Authenticate': `Bearer realm="invoicekit", error="insufficient_scope", scope="${scope}"` },
      });
    }
    c.set('session', session);
    await enforce(c, limits.token, `token:${session.clientId}`);
    await next();
  };

  async function enforce(c: Context<Env>, rule: RateLimitRule | undefined, key: string): Promise<void> {
    if (!rule || !limits.store) return;
    const hit = await limits.store.hit(key, rule.windowMs);
    const resetSeconds = Math.max(1, Math.ceil((hit.resetAt - Date.now()) / 1000));
    c.header('RateLimit-Limit', String(rule.limit));
    c.header('RateLimit-Remaining', String(Math.max(0, rule.limit - hit.count)));
    c.header('RateLimit-Reset', String(resetSeconds));
    if (hit.count > rule.limit) {
      throw new BffError(429, ERROR_CODES.rateLimited, 'Too many requests. Try again later.', {
        headers: { 'Retry-After': String(resetSeconds) },
      });
    }
  }

  const app = new Hono<Env>();
  const routes = new Hono<Env>();

  app.use('*', async (c, next) => {
    const started = Date.now();
    const requestId = randomId();
    c.set('requestId', requestId);
    const ip = options.clientIp?.(c.req.raw, c.env) ?? forwardedFor(c.req.raw, options.trustProxy ?? 0) ?? socketAddress(c.env) ?? 'unknown';
    c.set('clientIp', ip);
    await next();
    c.header('X-Request-Id', requestId);
    applySecurityHeaders(c, allowedOrigins);
    const session = c.get('session');
    const errorCode = c.res.status >= 400 ? c.res.headers.get('x-error-code') : null;
    c.res.headers.delete('x-error-code');
    emit({
      level: c.res.status >= 500 ? 'error' : c.res.status >= 400 ? 'warn' : 'info',
      msg: 'request',
      request_id: requestId,
      method: c.req.method,
      path: new URL(c.req.url).pathname,
      status: c.res.status,
      duration_ms: Date.now() - started,
      ...(session ? { client_id: session.clientId } : {}),
      ...(errorCode ? { code: errorCode } : {}),
    });
  });

  app.use('*', async (c, next) => {
    const origin = c.req.header('origin');
    const ownOrigin = new URL(c.req.url).origin;
    const crossOrigin = origin !== undefined && origin !== ownOrigin;
    if (crossOrigin && !allowedOrigins.has(origin)) {
      throw new BffError(403, ERROR_CODES.originNotAllowed, 'This origin may not call the BFF.');
    }
    if (crossOrigin) {
      c.header('Access-Control-Allow-Origin', origin);
      c.header('Access-Control-Expose-Headers', 'Retry-After, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, X-Request-Id, X-Total-Count, Idempotent-Replayed, Content-Disposition');
    }
    c.header('Vary', 'Origin');
    if (c.req.method === 'OPTIONS') {
      if (crossOrigin) {
        c.header('Access-Control-Allow-Methods', 'GET, POST, PUT, OPTIONS');
        c.header('Access-Control-Allow-Headers', 'Authorization, Content-Type, Idempotency-Key, Accept, Accept-Language');
        c.header('Access-Control-Max-Age', '600');
      }
      return c.body(null, 204);
    }
    await enforce(c, limits.ip, `ip:${c.get('clientIp')}`);
    await next();
  });

  app.use(
    '*',
    bodyLimit({
      maxSize: options.bodyLimitBytes ?? 16 * 1024,
      onError: () => {
        throw new BffError(413, ERROR_CODES.payloadTooLarge, 'The request body is too large.');
      },
    }),
  );

  routes.get('/health', (c) => c.json({ status: 'ok' }));

  routes.get('/products/:token', async (c) => {
    const token = c.req.param('token');
    if (!PRODUCT_TOKEN_PATTERN.test(token)) throw notFound('product');
    const product = await productByToken(c, token, false);
    if (!product) throw notFound('product');
    c.header('Cache-Control', 'public, max-age=30');
    return c.json({ ...publicProduct(product), ...(checkout.testMode ? { test_mode: true } : {}) });
  });

  const checkoutInput = z.strictObject({
    product: z.string({ message: 'must be a product token' }).regex(PRODUCT_TOKEN_PATTERN, 'is not a product token'),
    quantity: z
      .number({ message: 'must be a whole number' })
      .int('must be a whole number')
      .min(1, 'must be at least 1')
      .max(checkout.maxQuantity, `must be at most ${checkout.maxQuantity}`)
      .default(1),
    buyer: buyerInput,
    returnUrl: webUrl,
    cancelUrl: webUrl.optional(),
  });

  routes.post('/checkout', async (c) => {
    const raw = await readJson(c);
    const input = validate(checkoutInput, raw);
    const ownOrigin = new URL(c.req.url).origin;
    const badReturn: FieldErrors = {};
    for (const field of ['returnUrl', 'cancelUrl'] as const) {
      const url = input[field];
      if (url && !returnOrigins.has(originOf(url) ?? '') && originOf(url) !== ownOrigin) {
        badReturn[field] = ['must point to an allowed origin'];
      }
    }
    if (Object.keys(badReturn).length) throw new BffError(422, ERROR_CODES.validation, 'Some fields are not valid.', { fields: badReturn });

    const key = c.req.header('idempotency-key');
    if (key !== undefined && !IDEMPOTENCY_KEY_PATTERN.test(key)) {
      throw new BffError(400, ERROR_CODES.badRequest, 'The Idempotency-Key header must be 1 to 255 visible ASCII characters.');
    }
    if (key === undefined) {
      await enforce(c, limits.create, `create:${c.get('clientIp')}`);
      const answer = await createCheckout(c, input, undefined);
      return c.json(answer.body as object, answer.status as 201);
    }

    const fingerprint = await fingerprintOf(input);
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const claim = await idempotency.claim(key, fingerprint);
      if (claim.state !== 'claimed' && claim.fingerprint !== fingerprint) {
        throw new BffError(422, ERROR_CODES.idempotencyMismatch, 'This Idempotency-Key was used with a different request.');
      }
      if (claim.state === 'done') return replay(c, claim.answer);
      if (claim.state === 'in-flight') {
        if (!claim.settled) {
          throw new BffError(409, ERROR_CODES.conflict, 'A request with this Idempotency-Key is in progress.', { headers: { 'Retry-After': '1' } });
        }
        const answer = await claim.settled;
        if (answer) return replay(c, answer);
        continue; // the first attempt failed and gave the key back: try again
      }
      let answer: StoredAnswer;
      try {
        // Only a new attempt counts against the limit; replays and waiters create nothing.
        await enforce(c, limits.create, `create:${c.get('clientIp')}`);
        answer = await createCheckout(c, input, key);
      } catch (error) {
        await idempotency.release(key);
        throw error;
      }
      await idempotency.complete(key, answer);
      return c.json(answer.body as object, answer.status as 201);
    }
    throw new BffError(409, ERROR_CODES.conflict, 'A request with this Idempotency-Key is in progress.', { headers: { 'Retry-After': '1' } });
  });

  function replay(c: Context<Env>, answer: StoredAnswer) {
    c.header('Idempotent-Replayed', 'true');
    return c.json(answer.body as object, answer.status as 201);
  }

  async function createCheckout(c: Context<Env>, input: z.output<typeof checkoutInput>, key: string | undefined): Promise<StoredAnswer> {
    const product = await productByToken(c, input.product, true);
    if (!product) throw new BffError(422, ERROR_CODES.validation, 'Some fields are not valid.', { fields: { product: ['is not for sale'] } });
    const amount = roundMoney(mul(decimal(product.price_gross), decimal(input.quantity)), product.currency);
    const { buyer } = input;
    const fullName = [buyer.first_name, buyer.last_name].filter(Boolean).join(' ');
    const paymentInput = {
      name: product.name,
      price: toPlain(amount),
      quantity: input.quantity,
      currency: product.currency,
      product_id: product.id,
      kind: 'api',
      paid: false,
      generate_invoice: checkout.generateInvoice,
      ...(checkout.departmentId ? { department_id: checkout.departmentId } : {}),
      email: buyer.email,
      first_name: buyer.first_name ?? null,
      last_name: buyer.last_name ?? null,
      phone: buyer.phone ?? null,
      invoice_name: buyer.name || fullName || buyer.email,
      invoice_tax_no: buyer.tax_no ?? null,
      invoice_street: buyer.street ?? null,
      invoice_post_code: buyer.post_code ?? null,
      invoice_city: buyer.city ?? null,
      invoice_country: buyer.country ?? null,
      description: `${input.quantity} × ${product.name}`,
      ...(key ? { oid: `checkout-${(await fingerprintOf(key)).slice(0, 32)}` } : {}),
      // Read by our service's payment page to send the buyer back; the hosted service ignores them.
      return_url: input.returnUrl,
      cancel_url: input.cancelUrl ?? input.returnUrl,
    };
    const payment = await service(
      c,
      'payments.create',
      (signal) =>
        client.payments.create(paymentInput as Parameters<InvoicingClient['payments']['create']>[0], {
          signal,
          ...(key ? { idempotencyKey: `bff-checkout-${key}` } : {}),
        }),
      [],
    );
    const paymentUrl = (payment as Record<string, unknown>)['payment_url'];
    const redirectUrl = typeof paymentUrl === 'string' && originOf(paymentUrl) ? paymentUrl : input.returnUrl;
    return {
      status: 201,
      body: {
        attempt: await issueAttemptToken(payment.id, secretKey),
        redirectUrl,
        amount: toPlain(amount),
        currency: product.currency,
        quantity: input.quantity,
        product: { token: product.token, name: product.name },
      },
    };
  }

  routes.get('/invoices', requireSession('invoices:read'), async (c) => {
    const query = validate(invoiceListQuery, c.req.query());
    const session = c.get('session');
    const today = todayIn(timeZone);
    const search = query.search?.toLowerCase();
    const [field, direction] = (query.order ?? 'issue_date.desc').split('.') as [(typeof PORTAL_ORDER_FIELDS)[number], string?];
    const sign = direction === 'desc' ? -1 : 1;

    const matching = (await ownInvoices(c, session.clientId, query))
      .filter((invoice) => !query.status || customerStatus(invoice, today) === query.status)
      .filter((invoice) => !search || invoice.number.toLowerCase().includes(search))
      .sort((a, b) => sign * compareBy(field, a, b) || sign * (a.id - b.id));

    const totals = new Map<string, { outstanding: Decimal; overdue: Decimal }>();
    for (const invoice of matching) {
      const entry = totals.get(invoice.currency) ?? { outstanding: ZERO, overdue: ZERO };
      const left = decimal(outstandingOf(invoice));
      entry.outstanding = add(entry.outstanding, left);
      if (customerStatus(invoice, today) === 'overdue') entry.overdue = add(entry.overdue, left);
      totals.set(invoice.currency, entry);
    }
    const start = (query.page - 1) * query.per_page;
    const data: CustomerInvoice[] = matching.slice(start, start + query.per_page).map((invoice) => customerInvoice(invoice, today, basePath));
    c.header('Cache-Control', 'private, no-store');
    c.header('X-Total-Count', String(matching.length));
    return c.json({
      data,
      page: query.page,
      per_page: query.per_page,
      total: matching.length,
      total_pages: Math.ceil(matching.length / query.per_page),
      totals: [...totals].map(([currency, sums]) => ({ currency, outstanding: toPlain(sums.outstanding), overdue: toPlain(sums.overdue) })),
    });
  });

  routes.get('/invoices/:id', requireSession('invoices:read'), async (c) => {
    const invoice = await ownInvoice(c, c.get('session').clientId, c.req.param('id'));
    c.header('Cache-Control', 'private, no-store');
    return c.json(customerInvoice(invoice, todayIn(timeZone), basePath, true));
  });

  routes.get('/invoices/:id/pdf-link', requireSession('invoices:read'), async (c) => {
    const session = c.get('session');
    const invoice = await ownInvoice(c, session.clientId, c.req.param('id'));
    const link = await issuePdfLinkToken(session.clientId, invoice.id, pdfLinkTtl, secretKey);
    const path = `${basePath}/invoices/${invoice.id}/pdf?link=${encodeURIComponent(link)}`;
    c.header('Cache-Control', 'private, no-store');
    return c.json({
      url: new URL(path, c.req.url).href,
      expires_at: new Date(Date.now() + pdfLinkTtl * 1000).toISOString(),
    });
  });

  routes.get('/invoices/:id/pdf', async (c, next) => {
    const link = c.req.query('link');
    if (link === undefined) return requireSession('invoices:read')(c, next);
    try {
      const claims = await verifyPdfLinkToken(link, secretKey);
      if (String(claims.invoiceId) !== c.req.param('id')) throw new PortalTokenError('invalid');
      c.set('session', { clientId: claims.clientId, scopes: new Set(['invoices:read']), expiresAt: 0 });
    } catch (error) {
      const expired = error instanceof PortalTokenError && error.reason === 'expired';
      throw new BffError(401, expired ? ERROR_CODES.tokenExpired : ERROR_CODES.unauthorized, expired ? 'The link has expired.' : 'The link is not valid.');
    }
    await next();
  }, async (c) => {
    const invoice = await ownInvoice(c, c.get('session').clientId, c.req.param('id'));
    const pdf = await service(c, 'invoices.pdf', (signal) => client.invoices.pdf(invoice.id, { signal }));
    if (!isPdf(pdf)) {
      emit({ level: 'error', msg: 'service answered something else than a PDF', request_id: c.get('requestId'), call: 'invoices.pdf' });
      throw new BffError(502, ERROR_CODES.upstream, 'The invoicing service could not complete the request.');
    }
    const filename = `invoice-${invoice.number.replace(/[^A-Za-z0-9._-]+/g, '-')}.pdf`;
    const disposition = c.req.query('download') !== undefined ? 'attachment' : 'inline';
    // Through the context, so the CORS headers set before this handler reach the answer.
    return c.body(pdf as Uint8Array<ArrayBuffer>, 200, {
      'Content-Type': 'application/pdf',
      'Content-Length': String(pdf.byteLength),
      'Content-Disposition': `${disposition}; filename="${filename}"`,
      'Cache-Control': 'private, no-store',
    });
  });

  routes.get('/client', requireSession('client:read'), async (c) => {
    const clientId = c.get('session').clientId;
    const record = await service(c, 'clients.get', (signal) => client.clients.get(clientId, { signal }));
    if (record.id !== clientId) throw notFound('client');
    c.header('Cache-Control', 'private, no-store');
    return c.json(customerClient(record));
  });

  routes.put('/client', requireSession('client:write'), async (c) => {
    const clientId = c.get('session').clientId;
    const changes = validate(customerClientInput, await readJson(c));
    if (changes.name !== undefined && !changes.name) {
      throw new BffError(422, ERROR_CODES.validation, 'Some fields are not valid.', { fields: { name: ["can't be blank"] } });
    }
    const record = await service(
      c,
      'clients.update',
      (signal) => client.clients.update(clientId, changes, { signal }),
      CUSTOMER_CLIENT_FIELDS,
    );
    c.header('Cache-Control', 'private, no-store');
    return c.json(customerClient(record));
  });

  if (signup) {
    routes.post('/clients', async (c) => {
      const input = validate(signupInput, await readJson(c));
      await enforce(c, limits.create, `create:${c.get('clientIp')}`);
      const name = input.name?.trim() || [input.first_name, input.last_name].filter(Boolean).join(' ');
      const created = await service(
        c,
        'clients.create',
        (signal) => client.clients.create({ ...input, name, kind: 'buyer' }, { signal }),
        CUSTOMER_CLIENT_FIELDS,
      );
      await signup.onCreated?.({ id: created.id, email: created.email, name: created.name });
      const body: Record<string, unknown> = { client: customerClient(created) };
      if (signup.portalToken) {
        body.portalToken = await issuePortalToken({ clientId: created.id, ...signup.portalToken }, secretKey);
      }
      c.header('Cache-Control', 'private, no-store');
      return c.json(body, 201);
    });
  }

  routes.route('/', checkoutOutcomeRoutes({ client, key: secretKey, call: (c, what, run) => service(c as Context<Env>, what, run) }));
  app.route(basePath || '/', routes);

  app.notFound((c) => {
    c.header('x-error-code', ERROR_CODES.notFound);
    return c.json(notFound('route').toBody(), 404);
  });

  app.onError((error, c) => {
    let answer: BffError;
    if (error instanceof BffError) answer = error;
    else {
      answer = new BffError(500, ERROR_CODES.internal, 'Something went wrong.');
      emit({ level: 'error', msg: 'unexpected failure', request_id: c.get('requestId'), error: error instanceof Error ? error.name : typeof error });
    }
    for (const [name, value] of Object.entries(answer.headers ?? {})) c.header(name, value);
    c.header('x-error-code', answer.code);
    c.header('Cache-Control', 'no-store');
    return c.json(answer.toBody(), answer.status as 400);
  });

  return app;
}

function isPdf(bytes: Uint8Array): boolean {
  return bytes.byteLength > 5 && String.fromCharCode(...bytes.subarray(0, 5)) === '%PDF-';
}

function compareBy(field: (typeof PORTAL_ORDER_FIELDS)[number], a: Invoice, b: Invoice): number {
  if (field === 'price_gross') return compare(decimal(a.price_gross), decimal(b.price_gross));
  const x = (field === 'payment_to' ? a.payment_to : a.issue_date) ?? '';
  const y = (field === 'payment_to' ? b.payment_to : b.issue_date) ?? '';
  return x < y ? -1 : x > y ? 1 : 0;
}

function resolveClient(options: BffOptions): BffServiceClient {
  if (options.client) return options.client;
  if (!options.serviceUrl || !options.apiToken) {
    throw new TypeError('createBff needs `client`, or `serviceUrl` and `apiToken`.');
  }
  return createInvoicingClient({
    baseUrl: options.serviceUrl,
    apiToken: options.apiToken,
    timeout: options.serviceTimeoutMs ?? 10_000,
    retry: { limit: 1 },
  });
}

function normalizeBasePath(path: string): string {
  const trimmed = path.replace(/\/+$/, '');
  if (trimmed === '') return '';
  return trimmed.startsWith('/') ? trimmed : `/${trimmed}`;
}

function rateLimits(option: RateLimitOptions | false | undefined): {
  store?: RateLimitStore;
  ip?: RateLimitRule;
  token?: RateLimitRule;
  create?: RateLimitRule;
} {
  if (option === false) return {};
  const pick = (rule: RateLimitRule | false | undefined, fallback: RateLimitRule) => (rule === false ? undefined : rule ?? fallback);
  return {
    store: option?.store ?? new MemoryRateLimitStore(),
    ip: pick(option?.ip, DEFAULT_RATE_LIMITS.ip),
    token: pick(option?.token, DEFAULT_RATE_LIMITS.token),
    create: pick(option?.create, DEFAULT_RATE_LIMITS.create),
  };
}

function forwardedFor(request: Request, hops: number): string | undefined {
  if (hops <= 0) return undefined;
  const list = (request.headers.get('x-forwarded-for') ?? '').split(',').map((s) => s.trim()).filter(Boolean);
  return list.length ? list[Math.max(0, list.length - hops)] : undefined;
}

function applySecurityHeaders(c: Context<Env>, allowedOrigins: ReadonlySet<string>): void {
  const headers = c.res.headers;
  headers.set('X-Content-Type-Options', 'nosniff');
  headers.set('Referrer-Policy', 'no-referrer');
  if (!headers.has('Cache-Control')) headers.set('Cache-Control', 'no-store');
  if (new URL(c.req.url).protocol === 'https:') headers.set('Strict-Transport-Security', 'max-age=31536000; includeSubDomains');
  if (headers.get('Content-Type')?.startsWith('application/pdf')) {
    // Only who may frame the PDF; anything more would stop the browser's PDF viewer.
    headers.set('Content-Security-Policy', `frame-ancestors 'self' ${[...allowedOrigins].join(' ')}`.trim());
  } else {
    headers.set('Content-Security-Policy', "default-src 'none'; frame-ancestors 'none'");
    headers.set('X-Frame-Options', 'DENY');
    headers.set('Cross-Origin-Resource-Policy', 'same-origin');
  }
}
