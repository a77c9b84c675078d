import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';

export interface KeepAliveFetchOptions {
  /** Connections kept open per service origin. Default 32. */
  maxSockets?: number;
  /** How long an idle connection is kept, in ms. Default 4000 (below Node's 5 s server keep-alive). */
  idleMs?: number;
}

const NULL_BODY = new Set([101, 103, 204, 205, 304]);
const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const MAX_REDIRECTS = 5;

/**
 * A `fetch` over Node's `http`/`https` with keep-alive agents, for the BFF's calls to the service
 * where the BFF runs on Node (`startBff`, the CLI). Per call it costs less CPU than the global
 * `fetch` (undici's dispatcher, web streams and body mixins), which measured as a large share of a
 * proxied request (docs/decisions/bff-list-one-call.md). Answers are read whole: the service's
 * answers are JSON, XML or a PDF, none of them streamed. Edge runtimes keep the global `fetch`.
 */
/** A `fetch` whose kept connections `close()` ends. */
export type KeepAliveFetch = typeof fetch & { close(): void };

export function keepAliveFetch(options: KeepAliveFetchOptions = {}): KeepAliveFetch {
  const agentOptions = { keepAlive: true, maxSockets: options.maxSockets ?? 32, timeout: options.idleMs ?? 4000 };
  const agents = { http: new HttpAgent(agentOptions), https: new HttpsAgent(agentOptions) };

  async function send(url: URL, method: string, headers: Record<string, string>, body: Buffer | undefined, signal: AbortSignal | undefined, redirects: number): Promise<Response> {
    const secure = url.protocol === 'https:';
    if (!secure && url.protocol !== 'http:') throw new TypeError(`fetch: ${url.protocol} is not supported`);
    const answer = await new Promise<{ res: IncomingMessage; bytes: Buffer }>((resolve, fail) => {
      // As `fetch` does: an abort is an AbortError, any other failure a TypeError with its cause.
      const reject = (error: Error) => fail(error.name === 'AbortError' ? error : new TypeError('fetch failed', { cause: error }));
      const req = (secure ? httpsRequest : httpRequest)(url, { method, headers, agent: secure ? agents.https : agents.http, signal }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ res, bytes: chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks) }));
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end(body);
    });
    const { res } = answer;
    const status = res.statusCode ?? 0;
    const location = res.headers.location;
    if (REDIRECTS.has(status) && location && redirects < MAX_REDIRECTS) {
      // As `fetch` does: 303 (and 301/302 after a POST) go on as a GET without a body.
      const asGet = status === 303 || ((status === 301 || status === 302) && method === 'POST');
      const next = new URL(location, url);
      const nextHeaders = { ...headers };
      if (asGet) delete nextHeaders['content-type'];
      delete nextHeaders['content-length'];
      // Credentials never follow a redirect to another origin.
      if (next.origin !== url.origin) delete nextHeaders['authorization'];
      return send(next, asGet ? 'GET' : method, nextHeaders, asGet ? undefined : body, signal, redirects + 1);
    }
    const responseHeaders = new Headers();
    for (let i = 0; i < res.rawHeaders.length; i += 2) responseHeaders.append(res.rawHeaders[i]!, res.rawHeaders[i + 1]!);
    const bytes = decoded(answer.bytes, res.headers['content-encoding']);
    if (bytes !== answer.bytes) {
      responseHeaders.delete('content-encoding');
      responseHeaders.delete('content-length');
    }
    const withoutBody = NULL_BODY.has(status) || method === 'HEAD';
    return new Response(withoutBody ? null : (bytes as Uint8Array<ArrayBuffer>), { status, statusText: res.statusMessage ?? '', headers: responseHeaders });
  }

  const fetchOverNode = async (input: RequestInfo | URL, init?: RequestInit) => {
    // ky hands over a whole Request and, beside it, only options a Request does not hold.
    const request = input instanceof Request ? input : new Request(input, init);
    const headers: Record<string, string> = {};
    request.headers.forEach((value, name) => {
      headers[name] = value;
    });
    const body = request.body ? Buffer.from(await request.arrayBuffer()) : undefined;
    if (body) headers['content-length'] = String(body.byteLength);
    return send(new URL(request.url), request.method, headers, body, init?.signal ?? request.signal, 0);
  };
  return Object.assign(fetchOverNode as typeof fetch, {
    close() {
      agents.http.destroy();
      agents.https.destroy();
    },
  });
}

function decoded(bytes: Buffer, encoding: string | undefined): Buffer {
  switch (encoding?.trim().toLowerCase()) {
    case 'gzip':
    case 'x-gzip':
      return gunzipSync(bytes);
    case 'deflate':
      return inflateSync(bytes);
    case 'br':
      return brotliDecompressSync(bytes);
    default:
      return bytes;
  }
}
