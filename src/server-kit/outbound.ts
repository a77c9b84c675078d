/**
 * The one outbound HTTP client: everything the servers send to other parties (tax registers,
 * webhooks, payment providers, KSeF) goes through it. It bounds every exchange in time and size and
 * turns every way a call can fail into one `OutboundError` with a `kind`, so no remote party can end
 * the process with an unhandled rejection. Web-standard `fetch` only: it runs in Node and edge
 * runtimes alike, and a host may hand in its own `fetch` (a Node dispatcher, a test's).
 */

export const OUTBOUND_ERROR_KINDS = ['dns', 'refused', 'reset', 'timeout', 'too_large', 'bad_json', 'status', 'aborted', 'network'] as const;
export type OutboundErrorKind = (typeof OUTBOUND_ERROR_KINDS)[number];

/** A failed exchange. `status`, `text` and `headers` are set for `status` errors (a non-2xx answer). */
export class OutboundError extends Error {
  readonly kind: OutboundErrorKind;
  /** Method and address without the query, which may carry secrets. */
  readonly target: string;
  readonly status: number | undefined;
  /** The non-2xx answer's body, read under the same size cap. */
  readonly text: string | undefined;
  readonly headers: Headers | undefined;

  constructor(kind: OutboundErrorKind, target: string, message: string, extra: { status?: number; text?: string; headers?: Headers; cause?: unknown } = {}) {
    super(`${target}: ${message}`, extra.cause === undefined ? undefined : { cause: extra.cause });
    this.name = 'OutboundError';
    this.kind = kind;
    this.target = target;
    this.status = extra.status;
    this.text = extra.text;
    this.headers = extra.headers;
  }

  /** Seconds the other side asked us to wait (`Retry-After` as seconds or an HTTP date), when it did. */
  retryAfterSeconds(now = Date.now()): number | undefined {
    return retryAfterSeconds(this.headers?.get('retry-after'), now);
  }
}

export function retryAfterSeconds(header: string | null | undefined, now = Date.now()): number | undefined {
  if (!header) return undefined;
  const value = header.trim();
  if (/^\d+$/.test(value)) return Number(value);
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - now) / 1000));
}

export interface OutboundRequest {
  url: string;
  method?: string;
  headers?: Record<string, string>;
  /** Sent as is; `json` sends a value as `application/json` instead. */
  body?: string;
  json?: unknown;
  /** Longest time for the whole exchange, the body read included. */
  timeoutMs?: number;
  /** Largest answer body, counted while it streams in. */
  maxBytes?: number;
  /** The caller's own cancellation (a request that went away). */
  signal?: AbortSignal;
  /** Safe to send again: GET, HEAD, PUT, DELETE and OPTIONS are; a POST is with an `Idempotency-Key` or this. */
  idempotent?: boolean;
}

export interface OutboundResponse {
  status: number;
  headers: Headers;
  text: string;
}

/** What the retry rule is asked after a failed attempt. */
export interface RetryQuestion {
  /** The attempt that failed, from 1. */
  attempt: number;
  maxAttempts: number;
  error: OutboundError;
  /** Whether sending the request again is safe. */
  idempotent: boolean;
  now?: number;
}

/** Longest wait between two attempts; a longer `Retry-After` ends the retries instead. */
export const MAX_RETRY_DELAY_MS = 10_000;
const BASE_RETRY_DELAY_MS = 200;

/**
 * The retry rule, written once: try again only when sending again is safe and the failure is one
 * that passes (a reset, a refused or timed-out connection, a busy or failing server: 408, 429, 5xx
 * but 501), waiting what `Retry-After` asks or 200 ms doubling per attempt. Never after a DNS
 * failure, an answer too large or not JSON, another 4xx, or the caller's own cancellation.
 */
export function retryDelay(question: RetryQuestion): number | undefined {
  const { attempt, maxAttempts, error, idempotent } = question;
  if (attempt >= maxAttempts || !idempotent) return undefined;
  const passing =
    error.kind === 'reset' ||
    error.kind === 'refused' ||
    error.kind === 'timeout' ||
    error.kind === 'network' ||
    (error.kind === 'status' && error.status !== undefined && (error.status === 408 || error.status === 429 || (error.status >= 500 && error.status !== 501)));
  if (!passing) return undefined;
  const asked = error.retryAfterSeconds(question.now);
  if (asked !== undefined) return asked * 1000 <= MAX_RETRY_DELAY_MS ? asked * 1000 : undefined;
  return Math.min(MAX_RETRY_DELAY_MS, BASE_RETRY_DELAY_MS * 2 ** (attempt - 1));
}

export interface OutboundOptions {
  /** The `fetch` calls go through. Default the global one. */
  fetch?: typeof fetch;
  /** Default per-call time limit. Default 10 s. */
  timeoutMs?: number;
  /** Default answer size cap. Default 1 MiB. */
  maxBytes?: number;
  /** Attempts per call, the first included. Default 2. */
  maxAttempts?: number;
  /** Headers every call carries (a `User-Agent`, say). */
  headers?: Record<string, string>;
  /** How a wait between attempts is made (tests skip it). Default `setTimeout`. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

export interface OutboundClient {
  /** The answer of a 2xx exchange, its body read in full under the cap; anything else throws an `OutboundError`. */
  request(request: OutboundRequest): Promise<OutboundResponse>;
  /** As `request`, with the body parsed as JSON (`bad_json` when it is not). */
  json(request: OutboundRequest): Promise<OutboundResponse & { body: unknown }>;
}

const IDEMPOTENT_METHODS = new Set(['GET', 'HEAD', 'PUT', 'DELETE', 'OPTIONS']);

const defaultSleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });

export function createOutboundClient(options: OutboundOptions = {}): OutboundClient {
  const maxAttempts = Math.max(1, options.maxAttempts ?? 2);
  const sleep = options.sleep ?? defaultSleep;

  async function request(call: OutboundRequest): Promise<OutboundResponse> {
    const method = (call.method ?? (call.body !== undefined || call.json !== undefined ? 'POST' : 'GET')).toUpperCase();
    const headers = { ...options.headers, ...call.headers };
    const idempotent = call.idempotent ?? (IDEMPOTENT_METHODS.has(method) || Object.keys(headers).some((name) => name.toLowerCase() === 'idempotency-key'));
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await exchange(call, method, headers);
      } catch (error) {
        const failure = error as OutboundError;
        const delay = retryDelay({ attempt, maxAttempts, error: failure, idempotent });
        if (delay === undefined || call.signal?.aborted) throw failure;
        await sleep(delay, call.signal);
      }
    }
  }

  async function exchange(call: OutboundRequest, method: string, given: Record<string, string>): Promise<OutboundResponse> {
    const target = `${method} ${targetOf(call.url)}`;
    const timeoutMs = call.timeoutMs ?? options.timeoutMs ?? 10_000;
    const maxBytes = call.maxBytes ?? options.maxBytes ?? 1024 * 1024;
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, timeoutMs);
    const stopWithCaller = () => controller.abort();
    if (call.signal?.aborted) controller.abort();
    call.signal?.addEventListener('abort', stopWithCaller, { once: true });
    const failed = (error: unknown): OutboundError => {
      if (error instanceof OutboundError) return error;
      if (timedOut) return new OutboundError('timeout', target, `no complete answer within ${timeoutMs} ms`, { cause: error });
      if (call.signal?.aborted) return new OutboundError('aborted', target, 'cancelled by the caller', { cause: error });
      return networkError(target, error);
    };
    try {
      const headers = new Headers(given);
      let body = call.body;
      if (call.json !== undefined) {
        body = JSON.stringify(call.json);
        if (!headers.has('content-type')) headers.set('content-type', 'application/json');
      }
      const fetchOf = options.fetch ?? globalThis.fetch;
      const response = await fetchOf(call.url, { method, headers, ...(body !== undefined ? { body } : {}), signal: controller.signal, redirect: 'follow' });
      const text = await readCapped(response, maxBytes, target, controller);
      if (response.status < 200 || response.status > 299) {
        throw new OutboundError('status', target, `answered ${response.status}`, { status: response.status, text, headers: response.headers });
      }
      return { status: response.status, headers: response.headers, text };
    } catch (error) {
      throw failed(error);
    } finally {
      clearTimeout(timer);
      call.signal?.removeEventListener('abort', stopWithCaller);
    }
  }

  return {
    request,
    async json(call) {
      const answer = await request({ ...call, headers: { accept: 'application/json', ...call.headers } });
      try {
        return { ...answer, body: JSON.parse(answer.text) as unknown };
      } catch (error) {
        throw new OutboundError('bad_json', `${(call.method ?? 'GET').toUpperCase()} ${targetOf(call.url)}`, 'the answer is not JSON', { cause: error });
      }
    },
  };
}

/** The body as text, refused as soon as it passes `maxBytes` (announced or streamed). */
async function readCapped(response: Response, maxBytes: number, target: string, controller: AbortController): Promise<string> {
  const tooLarge = () => new OutboundError('too_large', target, `the answer is larger than ${maxBytes} bytes`, { status: response.status });
  const announced = Number(response.headers.get('content-length'));
  if (Number.isFinite(announced) && announced > maxBytes) {
    controller.abort();
    response.body?.cancel().catch(() => undefined);
    throw tooLarge();
  }
  if (!response.body) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      controller.abort();
      reader.cancel().catch(() => undefined);
      throw tooLarge();
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  return new TextDecoder().decode(bytes);
}

const DNS_CODES = new Set(['ENOTFOUND', 'EAI_AGAIN', 'EAI_NONAME', 'EAI_FAIL']);
const RESET_CODES = new Set(['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED', 'ECONNABORTED']);
const TIMEOUT_CODES = new Set(['ETIMEDOUT', 'UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);

/** Sorts a rejected `fetch` or body read by the codes runtimes put on the error or its causes. */
function networkError(target: string, error: unknown): OutboundError {
  const codes: string[] = [];
  let current: unknown = error;
  for (let depth = 0; current && depth < 5; depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') codes.push(code);
    current = (current as { cause?: unknown }).cause;
  }
  const message = error instanceof Error ? error.message : String(error);
  if (codes.some((code) => DNS_CODES.has(code))) return new OutboundError('dns', target, 'the host name does not resolve', { cause: error });
  if (codes.includes('ECONNREFUSED')) return new OutboundError('refused', target, 'the connection was refused', { cause: error });
  if (codes.some((code) => TIMEOUT_CODES.has(code))) return new OutboundError('timeout', target, 'the connection timed out', { cause: error });
  if (codes.some((code) => RESET_CODES.has(code)) || /terminated|socket hang up|other side closed/i.test(message)) {
    return new OutboundError('reset', target, 'the connection was closed before the answer ended', { cause: error });
  }
  return new OutboundError('network', target, message, { cause: error });
}

function targetOf(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.origin}${parsed.pathname}`;
  } catch {
    return 'an invalid address';
  }
}
