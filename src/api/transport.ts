import ky, { HTTPError, TimeoutError as KyTimeoutError, type Hooks, type KyInstance, type RetryOptions } from 'ky';
import type { ZodType } from 'zod';
import {
  InvoicingError,
  NetworkError,
  TimeoutError,
  UnexpectedResponseError,
  errorForStatus,
} from './errors.js';

/**
 * The one place that speaks HTTP. Resource modules describe an operation (method, path, query,
 * body, which tokens it carries) and the transport turns it into a request in the chosen format,
 * with the tokens placed where the interface puts them (spec §5, §4.8), then reads the answer into
 * plain data or an error of `./errors.js`.
 */

export type Format = 'json' | 'xml';

export interface RetryPolicy {
  /** Retries after the first attempt. Default 2. */
  limit?: number;
  /** Delay before the first retry; it doubles each time, with jitter. Default 300 ms. */
  backoffMs?: number;
  /** Upper bound of one delay. Default 10 s. */
  maxBackoffMs?: number;
  /**
   * A `Retry-After` longer than this is not waited for: the call fails at once with a
   * `RateLimitError` (or `ServerError`) that says how long to wait. Default 10 s.
   */
  maxRetryAfterMs?: number;
}

export interface TransportOptions {
  /** The account's base address, e.g. `https://acme.example.com` or `http://127.0.0.1:8787`. */
  baseUrl: string;
  /** The address of the integration endpoints (§4.8); defaults to `baseUrl`. */
  appUrl?: string;
  apiToken?: string;
  integrationToken?: string;
  /** `json` (default) or `xml`: the representation of requests and answers. */
  format?: Format;
  /** A `fetch` to use instead of the global one. */
  fetch?: typeof fetch;
  /** Milliseconds per attempt before a `TimeoutError`. Default 30000. */
  timeout?: number;
  /** Retries of idempotent calls (GET, PUT, DELETE), or a number as the limit. */
  retry?: RetryPolicy | number;
  /** ky hooks, e.g. to log or to add headers. */
  hooks?: Hooks;
}

export interface CallOptions {
  signal?: AbortSignal;
  /**
   * For POST only: the `Idempotency-Key` to send, in place of the one the client makes for each call.
   * Give your own to make a call safe to repeat across processes or restarts (an order number), and
   * so that the call is also retried after a 5xx or 429 answer (docs/typed-client.md, "Retries").
   */
  idempotencyKey?: string;
  /**
   * For GET only: the entity tag of an answer the caller holds, sent as `If-None-Match`. When the
   * service answers `304 Not Modified` the held answer is still current, and `answer` says so with
   * `notModified` instead of a value.
   */
  ifNoneMatch?: string;
  /**
   * Sent as `X-Request-Id`, on every attempt of the call: the id of the request this call serves,
   * so that one id follows it through your logs and the service's. The service keeps it only from
   * callers it trusts as proxies (1 to 128 of `A-Z a-z 0-9 . _ : -`); every answer says which id it
   * logged under, and errors carry it as `requestId`.
   */
  requestId?: string;
}

/** An answer with its headers, or, for a call made with `ifNoneMatch`, word that the held one is current. */
export type Answer<T> = { value: T; headers: Headers; notModified?: false } | { notModified: true; headers: Headers };

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
/** A query value; a list is sent as a Rails array (`kinds[]=vat&kinds[]=proforma`). */
export type QueryValue = string | number | boolean | null | undefined | readonly (string | number)[];

export interface Operation {
  method: HttpMethod;
  /** The path without its extension, e.g. `invoices/12`; the format's extension is appended. */
  path: string;
  /** Another extension than the format's, e.g. `pdf`. */
  extension?: string;
  /** `app` for the integration endpoints on `appUrl`. */
  host?: 'base' | 'app';
  query?: Record<string, QueryValue>;
  /** The body: one wrapper key (`{ invoice: {...} }`), which is the root element in XML. */
  body?: Record<string, unknown>;
  /** A multipart body (the department logo). */
  form?: FormData;
  /** Whether the call carries the account's api_token. Default true. */
  apiToken?: boolean;
  /** Whether the call carries the integration_token (§4.8). */
  integrationToken?: boolean;
  /** Forces a format for operations the interface defines in one format only (§4.8 is JSON). */
  format?: Format;
}

export interface Transport {
  readonly format: Format;
  readonly baseUrl: string;
  readonly appUrl: string;
  /** Sends the operation and returns its answer parsed by `schema`. */
  request<T>(operation: Operation, schema: ZodType<T>, options?: CallOptions): Promise<T>;
  /** As `request`, with the answer's headers (for extensions that answer in a header). */
  answer<T>(operation: Operation, schema: ZodType<T>, options?: CallOptions): Promise<Answer<T>>;
  /** Sends the operation and returns the raw bytes of the answer (PDF). */
  bytes(operation: Operation, options?: CallOptions): Promise<Uint8Array>;
}

const MEDIA_TYPES: Record<Format, string> = { json: 'application/json', xml: 'application/xml' };
const RETRY_METHODS: NonNullable<RetryOptions['methods']> = ['get', 'put', 'delete', 'head', 'post'];
/** Answers worth another try: the server was busy, failed or timed out, or (409) still runs the same key. */
const RETRY_STATUS_CODES = [408, 409, 429, 500, 502, 503, 504];

/** One failed attempt, as the retry rule sees it. */
export interface FailedAttempt {
  method: HttpMethod | 'HEAD';
  /** Whose `Idempotency-Key` a POST carried: the caller's, or the one the client made for the call. */
  key?: 'caller' | 'automatic';
  /** The answer's status; absent when no answer arrived (the connection failed or closed first). */
  status?: number;
  /** The attempt ran out of time: it may still run on the server. */
  timedOut?: boolean;
  /** The caller aborted the call. */
  aborted?: boolean;
  /** The answer was an earlier answer to the same key, replayed (`Idempotent-Replayed: true`). */
  replayed?: boolean;
  /** The answer's `Retry-After`, in milliseconds. */
  retryAfterMs?: number;
}

/**
 * The client's one retry rule (docs/typed-client.md, "Retries"), after Stripe's `_shouldRetry`:
 * - never after an abort or a timeout, nor once `retries` reaches the policy's limit, nor when the
 *   server asks for a wait longer than `maxRetryAfterMs`;
 * - when no answer arrived (the connection failed, or closed before the answer): every method, POST
 *   included, since every POST carries an `Idempotency-Key` the server deduplicates on;
 * - after 408, 429, 500, 502, 503 and 504: GET, HEAD, PUT and DELETE, and a POST with the caller's
 *   own key (a status is the server's own word, and a server that ignores keys may have done the work);
 * - after 409 to a POST that was not a replay: the same key is still running on the server.
 */
export function shouldRetry(attempt: FailedAttempt, retries: number, policy: Required<RetryPolicy>): boolean {
  if (attempt.aborted || attempt.timedOut || retries >= policy.limit) return false;
  const isPost = attempt.method === 'POST';
  if (attempt.status === undefined) return !isPost || attempt.key !== undefined;
  if (attempt.retryAfterMs !== undefined && attempt.retryAfterMs > policy.maxRetryAfterMs) return false;
  if (attempt.status === 409) return isPost && attempt.key !== undefined && !attempt.replayed;
  if (!RETRY_STATUS_CODES.includes(attempt.status)) return false;
  return !isPost || attempt.key === 'caller';
}

/** A fresh `Idempotency-Key`: a random UUID, also where `crypto.randomUUID` is missing (pages on plain http). */
export function newIdempotencyKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = [...bytes].map((byte) => byte.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

let xmlCodec: Promise<typeof import('../kernel/xml.js')> | undefined;
/** The XML codec is loaded on first use, so bundlers split it out of JSON-only code. */
const loadXml = () => (xmlCodec ??= import('../kernel/xml.js'));

export function createTransport(options: TransportOptions): Transport {
  const format: Format = options.format ?? 'json';
  if (format !== 'json' && format !== 'xml') throw new TypeError(`format must be 'json' or 'xml', not ${String(format)}`);
  const baseUrl = trimSlash(requireUrl(options.baseUrl, 'baseUrl'));
  const appUrl = trimSlash(requireUrl(options.appUrl ?? options.baseUrl, 'appUrl'));
  const policy = retryPolicy(options.retry);
  const http: KyInstance = ky.create({
    timeout: options.timeout ?? 30_000,
    throwHttpErrors: true,
    ...(options.fetch ? { fetch: options.fetch } : {}),
    ...(options.hooks ? { hooks: options.hooks } : {}),
  });

  async function send(operation: Operation, accept: string, call: CallOptions): Promise<Response> {
    const opFormat = operation.format ?? format;
    const host = operation.host === 'app' ? appUrl : baseUrl;
    const url = `${host}/${operation.path}.${operation.extension ?? opFormat}`;
    const searchParams = new URLSearchParams();
    const headers = new Headers({ accept });
    const withApiToken = operation.apiToken !== false && options.apiToken !== undefined;
    const withIntegrationToken = operation.integrationToken === true && options.integrationToken !== undefined;
    const hasBody = operation.body !== undefined || operation.form !== undefined;
    let body: BodyInit | undefined;

    if (operation.form) {
      // §5.2: the token is a form field of the multipart request.
      const form = new FormData();
      if (withApiToken) form.append('api_token', options.apiToken!);
      for (const [key, value] of operation.form.entries()) form.append(key, value);
      body = form;
    } else if (operation.body !== undefined && opFormat === 'json') {
      // §5.2: top-level `api_token` beside the wrapper; §4.8: `integration_token` beside it too.
      headers.set('content-type', MEDIA_TYPES.json);
      body = JSON.stringify({
        ...(withApiToken ? { api_token: options.apiToken } : {}),
        ...operation.body,
        ...(withIntegrationToken ? { integration_token: options.integrationToken } : {}),
      });
    } else if (operation.body !== undefined) {
      // §5.3: XML bodies carry the token in the Authorization header; the wrapper is the root.
      const entries = Object.entries(operation.body);
      if (entries.length !== 1) throw new TypeError('an XML body has exactly one root element');
      const [root, value] = entries[0]!;
      const { encodeXml } = await loadXml();
      headers.set('content-type', MEDIA_TYPES.xml);
      if (withApiToken) headers.set('authorization', `Bearer ${options.apiToken}`);
      body = encodeXml(root, withIntegrationToken ? { ...(value as object), integration_token: options.integrationToken } : value);
    }
    // §5.2: GET and DELETE (and a POST without a body) carry the tokens in the query.
    if (withApiToken && !hasBody) searchParams.set('api_token', options.apiToken!);
    if (withIntegrationToken && !hasBody) searchParams.set('integration_token', options.integrationToken!);
    for (const [key, value] of Object.entries(operation.query ?? {})) {
      if (Array.isArray(value)) for (const item of value as readonly (string | number)[]) searchParams.append(`${key}[]`, String(item));
      else if (value !== undefined && value !== null) searchParams.set(key, String(value));
    }

    const isPost = operation.method === 'POST';
    // Made once per call, so every retry of it carries the same key; the caller's own key wins.
    const key = !isPost ? undefined : call.idempotencyKey ? 'caller' : 'automatic';
    if (isPost) headers.set('idempotency-key', call.idempotencyKey || newIdempotencyKey());
    const conditional = operation.method === 'GET' && call.ifNoneMatch !== undefined;
    if (conditional) headers.set('if-none-match', call.ifNoneMatch!);
    if (call.requestId !== undefined) headers.set('x-request-id', call.requestId);
    const described = { method: operation.method, url: redact(url, searchParams) };
    try {
      return await http(url, {
        method: operation.method,
        headers,
        searchParams,
        ...(body === undefined ? {} : { body }),
        ...(call.signal ? { signal: call.signal } : {}),
        // What the caller holds is still current: a 304 to a conditional read is its answer, not a failure.
        ...(conditional ? { throwHttpErrors: (status: number) => status !== 304 } : {}),
        retry: {
          limit: policy.limit,
          methods: RETRY_METHODS,
          statusCodes: RETRY_STATUS_CODES,
          afterStatusCodes: [429, 503],
          delay: (attempt) => policy.backoffMs * 2 ** (attempt - 1),
          // Equal jitter: spreads clients apart while keeping the backoff growing.
          jitter: (delay) => delay / 2 + Math.random() * (delay / 2),
          backoffLimit: policy.maxBackoffMs,
          // The rule decides whether; ky then waits the backoff, or the `Retry-After` of a 429 or 503.
          shouldRetry: ({ error, retryCount }) => {
            const answer = error instanceof HTTPError ? error.response : undefined;
            const wait = answer ? retryAfterMs(answer.headers.get('retry-after')) : undefined;
            const attempt: FailedAttempt = {
              method: operation.method,
              ...(key ? { key } : {}),
              ...(answer ? { status: answer.status, replayed: answer.headers.get('idempotent-replayed') === 'true' } : {}),
              ...(wait !== undefined ? { retryAfterMs: wait } : {}),
              timedOut: error instanceof KyTimeoutError,
              aborted: isAbort(error) || Boolean(call.signal?.aborted),
            };
            return shouldRetry(attempt, retryCount - 1, policy) ? undefined : false;
          },
        },
      });
    } catch (error) {
      if (call.signal?.aborted) throw call.signal.reason ?? error;
      if (isAbort(error)) throw error;
      if (error instanceof HTTPError) throw await errorFromResponse(error.response, described);
      if (error instanceof KyTimeoutError) {
        throw new TimeoutError(`no answer within ${options.timeout ?? 30_000} ms (${described.method} ${described.url})`, {
          status: 0,
          ...described,
          cause: error,
        });
      }
      if (error instanceof InvoicingError) throw error;
      const reason = error instanceof Error ? error.message : String(error);
      throw new NetworkError(`${reason} (${described.method} ${described.url})`, { status: 0, ...described, cause: error });
    }
  }

  return {
    format,
    baseUrl,
    appUrl,
    async request<T>(operation: Operation, schema: ZodType<T>, call: CallOptions = {}): Promise<T> {
      const { ifNoneMatch: _held, ...unconditional } = call;
      const answered = await answer(operation, schema, unconditional);
      if (answered.notModified) throw new TypeError('an unconditional call was answered 304');
      return answered.value;
    },
    answer,
    async bytes(operation: Operation, call: CallOptions = {}): Promise<Uint8Array> {
      const response = await send(operation, '*/*', call);
      return new Uint8Array(await response.arrayBuffer());
    },
  };

  async function answer<T>(operation: Operation, schema: ZodType<T>, call: CallOptions = {}): Promise<Answer<T>> {
    const opFormat = operation.format ?? format;
    const response = await send(operation, MEDIA_TYPES[opFormat], call);
    if (response.status === 304) return { notModified: true, headers: response.headers };
    const described = { method: operation.method, url: redact(response.url || operation.path, new URLSearchParams()) };
    const rawText = await response.text();
    const body = await readBody(response, rawText, described);
    // A success status whose body says it failed (send_by_email can answer so) is a failure.
    if (isErrorBody(body)) throw errorForStatus({ status: response.status, body, rawText, headers: response.headers, ...described });
    const parsed = schema.safeParse(body);
    if (!parsed.success) {
      const issues = parsed.error.issues.map((issue) => ({ path: issue.path, message: issue.message }));
      const first = issues[0];
      throw new UnexpectedResponseError(
        `the answer does not have the expected shape${first ? `: ${first.path.join('.')} ${first.message}` : ''} (${described.method} ${described.url})`,
        { status: response.status, body, rawText, headers: response.headers, issues, ...described },
      );
    }
    return { value: parsed.data, headers: response.headers };
  }
}

interface Described {
  method: string;
  url: string;
}

async function errorFromResponse(response: Response, described: Described): Promise<InvoicingError> {
  let rawText = '';
  try {
    rawText = await response.text();
  } catch {
    // The body could not be read; the status still says what happened.
  }
  let body: unknown = rawText;
  try {
    body = await readBody(response, rawText, described);
  } catch {
    body = rawText;
  }
  return errorForStatus({ status: response.status, body, rawText, headers: response.headers, ...described });
}

/** Reads a body by its media type: JSON, XML (into the same shapes as JSON) or text. */
async function readBody(response: Response, rawText: string, described: Described): Promise<unknown> {
  const type = response.headers.get('content-type') ?? '';
  const text = rawText.trim();
  try {
    if (/json/i.test(type) || (!type && /^[[{]/.test(text))) return text === '' ? undefined : JSON.parse(text);
    if (/xml/i.test(type) || (!type && text.startsWith('<'))) {
      if (text === '') return undefined;
      const { decodeXml } = await loadXml();
      return decodeXml(text);
    }
  } catch (error) {
    throw new UnexpectedResponseError(`the answer could not be read as ${/json/i.test(type) ? 'JSON' : 'XML'} (${described.method} ${described.url})`, {
      status: response.status,
      body: rawText,
      rawText,
      headers: response.headers,
      cause: error,
      ...described,
    });
  }
  return rawText;
}

function isErrorBody(body: unknown): boolean {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return false;
  const record = body as Record<string, unknown>;
  return record['status'] === 'error' || record['code'] === 'error';
}

function isAbort(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { name?: unknown }).name === 'AbortError';
}

function retryPolicy(retry: TransportOptions['retry']): Required<RetryPolicy> {
  const given = typeof retry === 'number' ? { limit: retry } : (retry ?? {});
  return {
    limit: Math.max(0, Math.floor(given.limit ?? 2)),
    backoffMs: Math.max(0, given.backoffMs ?? 300),
    maxBackoffMs: Math.max(0, given.maxBackoffMs ?? 10_000),
    maxRetryAfterMs: Math.max(0, given.maxRetryAfterMs ?? 10_000),
  };
}

function retryAfterMs(header: string | null): number | undefined {
  if (header === null || header.trim() === '') return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return seconds * 1000;
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : date - Date.now();
}

const SECRET_PARAMS = ['api_token', 'integration_token'];

/** The address for messages and errors: query without tokens, so errors are safe to log. */
function redact(url: string, searchParams: URLSearchParams): string {
  const parsed = parseUrl(url);
  const params = new URLSearchParams(parsed ? parsed.search : '');
  for (const [key, value] of searchParams) params.append(key, value);
  for (const key of SECRET_PARAMS) params.delete(key);
  const query = params.toString();
  const base = parsed ? `${parsed.origin}${parsed.pathname}` : url;
  return query ? `${base}?${query}` : base;
}

function parseUrl(url: string): URL | undefined {
  try {
    return new URL(url);
  } catch {
    return undefined;
  }
}

function requireUrl(value: string | undefined, name: string): string {
  if (typeof value !== 'string' || !parseUrl(value)) throw new TypeError(`${name} must be an absolute URL, got ${String(value)}`);
  return value;
}

const trimSlash = (url: string) => url.replace(/\/+$/, '');
