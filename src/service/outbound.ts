import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction, Socket } from 'node:net';
import { createOutboundClient, type OutboundClient, OutboundError, type OutboundErrorKind, type OutboundOptions } from '../server-kit/outbound.js';

/**
 * The service's one outbound HTTP client: webhooks, payment providers and KSeF all go through it.
 * Every call has a deadline for the whole exchange (not only for an idle socket: a body that drips
 * a byte at a time ends too), a cap on the answer's size, and one typed error for every way it
 * can fail. Each call opens its own connection (no keep-alive pool), and the socket keeps an error
 * handler for its whole life: a peer that answers early, resets, or closes mid-body can end the
 * call, never the process. It sits on `node:http` so that a webhook's connection can be pinned to
 * the address that was checked (`address`), which `fetch` cannot do. Its failures are the
 * server-kit client's `OutboundError`s, and `outboundFetch` hands it to that client (or to an SDK)
 * as its `fetch`, so the same retry rule applies over this transport.
 */

export { OutboundError };

/** The kind of a socket's failure, by its code, as the server-kit client names them. */
function kindOf(error: unknown): OutboundErrorKind {
  const code = (error as { code?: string } | undefined)?.code ?? '';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'dns';
  if (code === 'ECONNREFUSED') return 'refused';
  if (code === 'ECONNRESET' || code === 'EPIPE') return 'reset';
  return 'network';
}

export interface OutboundLimits {
  /** Longest time for the whole exchange: connecting, sending, and reading the answer. */
  timeoutMs: number;
  /** Largest answer body read; a longer one ends the call with a `too-large` error. */
  maxResponseBytes: number;
}

export const DEFAULT_OUTBOUND_LIMITS: Readonly<OutboundLimits> = { timeoutMs: 20_000, maxResponseBytes: 4 * 1024 * 1024 };

export interface OutboundRequest extends Partial<OutboundLimits> {
  url: URL | string;
  method?: string;
  headers?: Record<string, string>;
  body?: string | Uint8Array;
  signal?: AbortSignal | undefined;
  /** Connects to this address whatever the URL's host resolves to (the host still names the TLS server). */
  address?: { address: string; family: 4 | 6 } | undefined;
}

export interface OutboundResponse {
  status: number;
  headers: Record<string, string>;
  body: Uint8Array<ArrayBuffer>;
}


/** Sends one request; resolves with the whole (capped) answer or rejects with an `OutboundError`. */
export function sendOutbound(request: OutboundRequest): Promise<OutboundResponse> {
  const url = typeof request.url === 'string' ? new URL(request.url) : request.url;
  const timeoutMs = request.timeoutMs ?? DEFAULT_OUTBOUND_LIMITS.timeoutMs;
  const maxBytes = request.maxResponseBytes ?? DEFAULT_OUTBOUND_LIMITS.maxResponseBytes;
  const method = request.method ?? 'GET';
  // The query is left out: it may carry secrets.
  const target = `${method} ${url.origin}${url.pathname}`;
  const failure = (kind: OutboundErrorKind, message: string, cause?: unknown) => new OutboundError(kind, target, message, cause === undefined ? {} : { cause });
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return Promise.reject(failure('network', `${url.protocol} is not http(s)`));
  if (request.signal?.aborted) return Promise.reject(failure('aborted', 'the call was cancelled'));
  const body = request.body === undefined ? undefined : typeof request.body === 'string' ? Buffer.from(request.body) : Buffer.from(request.body);
  const pinned = request.address;
  const lookup: LookupFunction | undefined = pinned
    ? (_hostname, options, callback) => {
        if ((options as { all?: boolean }).all) (callback as (e: null, a: { address: string; family: number }[]) => void)(null, [pinned]);
        else callback(null, pinned.address, pinned.family);
      }
    : undefined;
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;

  return new Promise<OutboundResponse>((resolve, reject) => {
    let settled = false;
    let socket: Socket | undefined;
    let req: ReturnType<typeof send> | undefined;
    const finish = (outcome: { response: OutboundResponse } | { error: OutboundError }) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      request.signal?.removeEventListener('abort', onAbort);
      // The connection is never reused: whatever the peer still sends or fails with goes nowhere.
      req?.destroy();
      socket?.destroy();
      if ('response' in outcome) resolve(outcome.response);
      else reject(outcome.error);
    };
    const fail = (error: unknown) =>
      finish({ error: error instanceof OutboundError ? error : failure(kindOf(error), error instanceof Error ? error.message : String(error), error) });
    const onAbort = () => fail(failure('aborted', 'the call was cancelled'));
    const deadline = setTimeout(() => fail(failure('timeout', `no complete answer within ${timeoutMs} ms`)), timeoutMs);

    try {
      req = send(url, {
        method,
        headers: { ...request.headers, ...(body ? { 'content-length': String(body.length) } : {}), connection: 'close' },
        agent: false,
        ...(lookup ? { lookup } : {}),
      });
    } catch (error) {
      // A header value that cannot be sent, say: refused before anything left.
      clearTimeout(deadline);
      reject(failure('network', error instanceof Error ? error.message : String(error), error));
      return;
    }
    req.on('error', fail);
    req.on('socket', (s: Socket) => {
      socket = s;
      // Stays for the socket's life, so an error after the call has settled is still handled.
      s.on('error', () => undefined);
    });
    req.on('response', (res: IncomingMessage) => {
      res.on('error', fail);
      res.on('aborted', () => fail(failure('reset', 'the answer was cut off')));
      const declared = Number(res.headers['content-length']);
      if (Number.isFinite(declared) && declared > maxBytes) {
        fail(failure('too_large', `the answer is ${declared} bytes, more than ${maxBytes}`));
        return;
      }
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > maxBytes) fail(failure('too_large', `the answer is longer than ${maxBytes} bytes`));
        else chunks.push(chunk);
      });
      res.on('end', () => {
        const headers: Record<string, string> = {};
        for (const [name, value] of Object.entries(res.headers)) {
          if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
        }
        finish({ response: { status: res.statusCode ?? 0, headers, body: new Uint8Array(Buffer.concat(chunks)) } });
      });
    });
    request.signal?.addEventListener('abort', onAbort, { once: true });
    req.end(body);
  });
}

/** The text of an answer, as UTF-8. */
export const outboundText = (response: OutboundResponse): string => Buffer.from(response.body).toString('utf8');

const NULL_BODY = new Set([101, 103, 204, 205, 304]);

/**
 * A `fetch` on the outbound client, for SDKs and clients written against `fetch` (Stripe's
 * `createFetchHttpClient`, Przelewy24, KSeF): the same deadline, cap and errors. Redirects are not
 * followed (the answer is returned as it came). An `OutboundError` surfaces as a rejected promise,
 * as `fetch` rejects on a network failure.
 */
export function outboundFetch(limits: Partial<OutboundLimits> = {}): typeof fetch {
  return async (input, init) => {
    const request = new Request(input, init);
    const body = request.body ? new Uint8Array(await request.arrayBuffer()) : undefined;
    const headers: Record<string, string> = {};
    request.headers.forEach((value, name) => {
      headers[name] = value;
    });
    const answer = await sendOutbound({
      url: request.url,
      method: request.method,
      headers,
      body,
      signal: init?.signal ?? undefined,
      timeoutMs: limits.timeoutMs,
      maxResponseBytes: limits.maxResponseBytes,
    });
    const status = answer.status >= 200 && answer.status <= 599 ? answer.status : 502;
    return new Response(NULL_BODY.has(status) ? null : answer.body, { status, headers: answer.headers });
  };
}

/**
 * The server-kit's outbound client (its retry rule, `json`, and `status` errors for non-2xx answers)
 * over this transport: for the service's calls that need no pinned address.
 */
export function serviceOutboundClient(options: Omit<OutboundOptions, 'fetch'> & { maxResponseBytes?: number } = {}): OutboundClient {
  const { maxResponseBytes, ...rest } = options;
  return createOutboundClient({ ...rest, fetch: outboundFetch({ timeoutMs: rest.timeoutMs, maxResponseBytes: maxResponseBytes ?? rest.maxBytes }) });
}
