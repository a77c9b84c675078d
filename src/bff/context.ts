import type { Context, Hono } from 'hono';
import { createInvoicingClient } from '../api/client.js';
import { InvoicingError } from '../api/errors.js';
import { MemoryCacheStore, type CacheStore } from './cache.js';
import { BffError, ERROR_CODES, fromServiceError } from './errors.js';
import { MemoryIdempotencyStore, type IdempotencyStore } from './idempotency.js';
import { jsonLineLogger, redactingLogger, type BffLogEntry, type BffLogger } from './logger.js';
import type { BffOptions, BffServiceClient, CheckoutOptions, SignupOptions } from './options.js';
import { checkBffOptions } from './check-options.js';
import { portalSecretKey, type PortalSession } from './portal-token.js';
import { publicOrigin, type PublicOrigin } from './public-origin.js';
import { type AccountNamespace, accountNamespace, accountScopedCache, accountScopedIdempotency, accountScopedRateLimit, bffAccountId } from './stores/account-scope.js';
import { DEFAULT_RATE_LIMITS, MemoryRateLimitStore, type RateLimitHit, type RateLimitOptions, type RateLimitRule, type RateLimitStore } from './rate-limit.js';

export type Env = { Variables: { session: PortalSession; requestId: string; clientIp: string } };
/** The Hono app `createBff` returns; `app.fetch(request, env?)` is all a host needs. */
export type BffApp = Hono<Env>;
export type BffContext = Context<Env>;

/** What every route module shares: the service, the stores, the limits and the settings, resolved once. */
export interface Bff {
  options: BffOptions;
  client: BffServiceClient;
  secretKey: ReturnType<typeof portalSecretKey>;
  basePath: string;
  allowedOrigins: ReadonlySet<string>;
  returnOrigins: ReadonlySet<string>;
  /** The origin browsers see the BFF at (see public-origin.ts): for absolute links and the same-origin check. */
  publicOrigin: PublicOrigin;
  /**
   * Where a buyer may be sent back to: the allowed origins, plus the BFF's own public origin when
   * configuration names it (`publicUrl`, or a trusted proxy's forwarded host), never a bare `Host`.
   */
  returnOriginsOf: (request: Request) => ReadonlySet<string>;
  timeZone: string;
  idempotency: IdempotencyStore;
  cache: CacheStore;
  limits: RateLimits;
  checkout: Required<Pick<CheckoutOptions, 'generateInvoice' | 'maxQuantity'>> & CheckoutOptions;
  signup: SignupOptions | undefined;
  emit(entry: Omit<BffLogEntry, 'time'>): void;
  /**
   * Runs one call to the service under the BFF's timeout and turns its failures into safe answers.
   * `call` passes what it is given to the client: the timeout's signal, and the request's id, sent
   * as `X-Request-Id` so that the service's log lines name the same request.
   */
  service<T>(c: BffContext, what: string, call: (options: ServiceCall) => Promise<T>, publicFields?: readonly string[]): Promise<T>;
  /** Counts a request against `rule` under `key`; over the limit it throws 429. */
  enforce(c: BffContext, rule: RateLimitRule | undefined, key: string): Promise<void>;
}

/** The call options of every call to the service: the BFF's timeout and the request's id. */
export interface ServiceCall {
  signal: AbortSignal;
  requestId: string;
}

export interface RateLimits {
  store?: RateLimitStore;
  ip?: RateLimitRule;
  token?: RateLimitRule;
  list?: RateLimitRule;
  create?: RateLimitRule;
  blik?: RateLimitRule;
}

export function resolveBff(options: BffOptions): Bff {
  checkBffOptions(options);
  const secretKey = portalSecretKey(options.portalSecret);
  const allowedOrigins = new Set(
    (options.allowedOrigins ?? []).map((o) => {
      const origin = originOf(o);
      if (!origin) throw new TypeError(`Not an origin: ${o}`);
      return origin;
    }),
  );
  const timeZone = options.timeZone ?? 'UTC';
  todayIn(timeZone); // an unknown zone fails here, at start-up
  const timeoutMs = options.serviceTimeoutMs ?? 10_000;
  const secrets = [options.apiToken ?? '', typeof options.portalSecret === 'string' ? options.portalSecret : ''];
  const log: BffLogger = options.logger === false ? () => {} : redactingLogger(options.logger ?? jsonLineLogger, secrets);
  // Every key the stores keep carries the account, so BFFs of several accounts can share one store.
  const { apiToken } = options;
  const namespace = accountNamespace(options.account ?? (apiToken ? () => bffAccountId(apiToken) : 'default'));
  const limits = rateLimits(options.rateLimit, options.stores?.rateLimit, namespace);

  const emit = (entry: Omit<BffLogEntry, 'time'>) => {
    try {
      log({ time: new Date().toISOString(), ...entry } as BffLogEntry);
    } catch {
      // A failing logger must not fail the request.
    }
  };

  const ownOrigin = publicOrigin(options);
  const returnOrigins: ReadonlySet<string> = new Set([...allowedOrigins, ...(options.returnUrlOrigins ?? []).map((o) => originOf(o) ?? o)]);
  return {
    options,
    client: resolveClient(options),
    secretKey,
    basePath: normalizeBasePath(options.basePath ?? '/bff'),
    allowedOrigins,
    publicOrigin: ownOrigin,
    returnOrigins,
    returnOriginsOf: options.publicUrl !== undefined || (options.trustProxy ?? 0) > 0
      ? (request) => new Set([...returnOrigins, ownOrigin(request)])
      : () => returnOrigins,
    timeZone,
    idempotency: accountScopedIdempotency(options.idempotencyStore ?? options.stores?.idempotency ?? new MemoryIdempotencyStore(), namespace),
    cache: accountScopedCache(options.cacheStore ?? options.stores?.cache ?? new MemoryCacheStore(), namespace),
    limits,
    checkout: { generateInvoice: true, maxQuantity: 1000, ...options.checkout },
    signup: options.signup === true ? {} : options.signup || undefined,
    emit,

    async service(c, what, call, publicFields) {
      const signal = AbortSignal.timeout(timeoutMs);
      try {
        return await call({ signal, requestId: c.get('requestId') });
      } catch (error) {
        const answer = fromServiceError(error, { publicFields, timedOut: signal.aborted });
        if (answer.status >= 500 || answer.code === ERROR_CODES.upstreamBusy) {
          const status = (error as { status?: unknown } | undefined)?.status;
          emit({
            level: 'error',
            msg: 'service call failed',
            request_id: c.get('requestId'),
            call: what,
            error: error instanceof Error ? error.name : typeof error,
            upstream_status: typeof status === 'number' ? status : undefined,
            upstream_request_id: error instanceof InvoicingError ? error.requestId : undefined,
            code: answer.code,
          });
        }
        throw answer;
      }
    },

    async enforce(c, rule, key) {
      if (!rule || !limits.store) return;
      let hit: RateLimitHit;
      try {
        hit = await limits.store.hit(key, rule.windowMs);
      } catch (error) {
        // A shared store that is down must not take the BFF down with it (nor its health checks):
        // the request goes through unlimited, and the failure is logged for the operator.
        emit({ level: 'error', msg: 'rate limit store failed', request_id: c.get('requestId'), error: error instanceof Error ? error.name : typeof error });
        return;
      }
      const resetSeconds = Math.max(1, Math.ceil((hit.resetAt - Date.now()) / 1000));
      c.header('RateLimit-Limit', String(rule.limit));
      c.header('RateLimit-Remaining', String(Math.max(0, rule.limit - hit.count)));
      c.header('RateLimit-Reset', String(resetSeconds));
      if (hit.count > rule.limit) {
        throw new BffError(429, ERROR_CODES.rateLimited, 'Too many requests. Try again later.', {
          headers: { 'Retry-After': String(resetSeconds) },
        });
      }
    },
  };
}

export function originOf(value: string): string | undefined {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : undefined;
  } catch {
    return undefined;
  }
}

const dayFormats = new Map<string, Intl.DateTimeFormat>();

export function todayIn(timeZone: string): string {
  // Making a formatter costs far more than using one: one per zone, kept.
  let format = dayFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
    dayFormats.set(timeZone, format);
  }
  return format.format(new Date());
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
    ...(options.serviceFetch ? { fetch: options.serviceFetch } : {}),
  });
}

function normalizeBasePath(path: string): string {
  const trimmed = path.replace(/\/+$/, '');
  if (trimmed === '') return '';
  return trimmed.startsWith('/') ? trimmed : `/${trimmed}`;
}

function rateLimits(option: RateLimitOptions | false | undefined, shared: RateLimitStore | undefined, namespace: AccountNamespace): RateLimits {
  if (option === false) return {};
  const pick = (rule: RateLimitRule | false | undefined, fallback: RateLimitRule) => (rule === false ? undefined : (rule ?? fallback));
  return {
    store: accountScopedRateLimit(option?.store ?? shared ?? new MemoryRateLimitStore(), namespace),
    ip: pick(option?.ip, DEFAULT_RATE_LIMITS.ip),
    token: pick(option?.token, DEFAULT_RATE_LIMITS.token),
    list: pick(option?.list, DEFAULT_RATE_LIMITS.list),
    create: pick(option?.create, DEFAULT_RATE_LIMITS.create),
    blik: pick(option?.blik, DEFAULT_RATE_LIMITS.blik),
  };
}
