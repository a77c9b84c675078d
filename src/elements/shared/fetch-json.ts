/** A failure the element can explain: `status` 0 means the server could not be reached. */
export class BffError extends Error {
  readonly status: number;
  readonly code: string;
  /** A 422's messages by field. */
  readonly fields: Record<string, string[]>;
  constructor(status: number, code: string, message: string, fields: Record<string, string[]> = {}) {
    super(message);
    this.status = status;
    this.code = code;
    this.fields = fields;
  }
}

/** A JSON request: a `body` is sent as JSON. */
export interface JsonRequest {
  method?: string;
  headers?: Record<string, string>;
  body?: unknown;
  signal?: AbortSignal | undefined;
}

/** How long one attempt may take before it counts as unanswered. */
const TIMEOUT_MS = 15_000;
/** Tries after the first one. */
const RETRIES = 2;
/** The server or the one behind it was briefly busy or away. */
const BUSY = [429, 502, 503, 504];

/**
 * The elements' one retry rule (docs/elements.md). A request is retried only when a second try cannot
 * do twice what the first did: its method is not POST or PATCH, or it carries an `Idempotency-Key`
 * (the server then answers the second try with the first one's answer). Such a request is tried again
 * up to `RETRIES` times when it got no answer (a network failure or the 15 s timeout), a busy answer
 * (429, 502, 503, 504), or a 409 for its key (the first try is still running). It waits the answer's
 * `Retry-After`, else 0.5 s then 1 s; an answer asking for more than 3 s is final. Answers the wait in
 * ms, or `undefined` for no retry.
 */
export function retryDelay(method: string, keyed: boolean, retry: number, answer?: { status: number; retryAfter: string | null }): number | undefined {
  if (retry > RETRIES || (!keyed && (method === 'POST' || method === 'PATCH'))) return undefined;
  if (answer && !BUSY.includes(answer.status) && !(answer.status === 409 && keyed)) return undefined;
  const after = Number(answer?.retryAfter);
  const wait = after > 0 ? after * 1000 : 250 * 2 ** retry;
  // A server that asks for longer will not be ready while the buyer waits: they are told at once.
  return wait > 3000 ? undefined : wait;
}

/** A refusal as a `BffError`: the BFF answers `{error: {code, message, fields}}`, the service `{code, message}` with the fields as the message. */
async function refusal(response: Response): Promise<BffError> {
  const body = (await response.json().catch(() => ({}))) as { error?: { code?: string; message?: string; fields?: Record<string, string[]> }; code?: string; message?: unknown };
  const message = body.error?.message ?? body.message;
  const fields = body.error?.fields ?? (typeof message === 'object' && message ? (message as Record<string, string[]>) : {});
  return new BffError(response.status, body.error?.code ?? body.code ?? 'http_error', typeof message === 'string' ? message : response.statusText, fields);
}

/**
 * Plain `fetch` with a timeout, the one retry rule (`retryDelay`) and failures as `BffError`s; an
 * abort by the caller stays an `AbortError`. ky would cost a quarter of an element's budget.
 */
export async function fetchJson<T>(url: string, { method = 'GET', headers = {}, body, signal }: JsonRequest = {}): Promise<T> {
  const sent: Record<string, string> = { accept: 'application/json', ...headers };
  if (body !== undefined) sent['content-type'] = 'application/json';
  // Callers name the header in lower case.
  const keyed = 'idempotency-key' in sent;
  for (let retry = 1; ; retry += 1) {
    const timeout = AbortSignal.timeout(TIMEOUT_MS);
    // Browsers without `AbortSignal.any` (Safari before 17.4) wait for their own network timeout.
    const response = await fetch(url, { method, headers: sent, body: body === undefined ? null : JSON.stringify(body), signal: signal ? (AbortSignal.any?.([signal, timeout]) ?? signal) : timeout }).catch(
      (error: unknown) => {
        if (signal?.aborted) throw error;
        return undefined;
      },
    );
    if (response?.ok) return (await response.json()) as T;
    const wait = retryDelay(method, keyed, retry, response && { status: response.status, retryAfter: response.headers.get('retry-after') });
    if (wait === undefined) throw response ? await refusal(response) : new BffError(0, 'network', 'unreachable');
    await new Promise((resolve) => setTimeout(resolve, wait));
    signal?.throwIfAborted();
  }
}
