/**
 * One error hierarchy for every failure of an invoicing call. Each error carries the HTTP status
 * (0 when no answer arrived), the parsed body, the raw text and the answer's request id, so callers
 * can branch on the class and still show or log exactly what the service said, and find the
 * service's own log lines about it.
 */

export interface InvoicingErrorDetails {
  status: number;
  body?: unknown;
  rawText?: string;
  /** The method and address of the request, with any token removed. */
  method?: string;
  url?: string;
  headers?: Headers;
  cause?: unknown;
}

export class InvoicingError extends Error {
  readonly status: number;
  readonly body: unknown;
  readonly rawText: string;
  readonly method: string | undefined;
  readonly url: string | undefined;
  readonly headers: Headers | undefined;
  /** The answer's `X-Request-Id`: the id the service logged the request under. `undefined` when no answer arrived or it carried none. */
  readonly requestId: string | undefined;

  constructor(message: string, details: InvoicingErrorDetails) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.name = 'InvoicingError';
    this.status = details.status;
    this.body = details.body;
    this.rawText = details.rawText ?? '';
    this.method = details.method;
    this.url = details.url;
    this.headers = details.headers;
    this.requestId = details.headers?.get('x-request-id') ?? undefined;
  }
}

/** 400: the request could not be read (malformed JSON or XML, a wrong parameter). */
export class BadRequestError extends InvoicingError {
  constructor(message: string, details: InvoicingErrorDetails) {
    super(message, details);
    this.name = 'BadRequestError';
  }
}

/** 401: the token is missing, wrong, or belongs to no account. */
export class AuthError extends InvoicingError {
  constructor(message: string, details: InvoicingErrorDetails) {
    super(message, details);
    this.name = 'AuthError';
  }
}

/** 404: no such record in this account (a record of another account looks the same). */
export class NotFoundError extends InvoicingError {
  constructor(message: string, details: InvoicingErrorDetails) {
    super(message, details);
    this.name = 'NotFoundError';
  }
}

/** 413: the body or the uploaded file is too large. */
export class PayloadTooLargeError extends InvoicingError {
  constructor(message: string, details: InvoicingErrorDetails) {
    super(message, details);
    this.name = 'PayloadTooLargeError';
  }
}

/**
 * 422: the service refused the data. `fields` maps each field to its messages; a message that
 * names no field (the body's `message` is plain text) is kept under `base`.
 */
export class ValidationError extends InvoicingError {
  readonly fields: Record<string, string[]>;

  constructor(message: string, details: InvoicingErrorDetails) {
    super(message, details);
    this.name = 'ValidationError';
    this.fields = fieldMessages(details.body);
  }

  /** Every message as one readable line each: `buyer_name can't be blank`. */
  get messages(): string[] {
    return Object.entries(this.fields).flatMap(([field, list]) =>
      list.map((text) => (field === 'base' ? text : `${field} ${text}`)),
    );
  }
}

/**
 * An `Idempotency-Key` sent again with a different request (another path or body): the service
 * refused it (422, `"code":"idempotency_key_reused"`) and ran nothing. Send a new key for a new request.
 */
export class IdempotencyKeyReusedError extends InvoicingError {
  constructor(message: string, details: InvoicingErrorDetails) {
    super(message, details);
    this.name = 'IdempotencyKeyReusedError';
  }
}

/** 429: too many requests. `retryAfterSeconds` is the service's `Retry-After`, when it sent one. */
export class RateLimitError extends InvoicingError {
  readonly retryAfterSeconds: number | undefined;

  constructor(message: string, details: InvoicingErrorDetails) {
    super(message, details);
    this.name = 'RateLimitError';
    this.retryAfterSeconds = retryAfterSeconds(details.headers?.get('retry-after') ?? null);
  }
}

/** 5xx: the service failed. Idempotent calls have already been retried when this is thrown. */
export class ServerError extends InvoicingError {
  constructor(message: string, details: InvoicingErrorDetails) {
    super(message, details);
    this.name = 'ServerError';
  }
}

/** No answer at all: the connection failed, was refused or was cut. */
export class NetworkError extends InvoicingError {
  constructor(message: string, details: InvoicingErrorDetails) {
    super(message, details);
    this.name = 'NetworkError';
  }
}

/** No answer within the client's `timeout`. */
export class TimeoutError extends InvoicingError {
  constructor(message: string, details: InvoicingErrorDetails) {
    super(message, details);
    this.name = 'TimeoutError';
  }
}

/** A successful status whose body does not have the shape the interface promises. */
export class UnexpectedResponseError extends InvoicingError {
  readonly issues: readonly { path: readonly PropertyKey[]; message: string }[];

  constructor(message: string, details: InvoicingErrorDetails & { issues?: readonly { path: readonly PropertyKey[]; message: string }[] }) {
    super(message, details);
    this.name = 'UnexpectedResponseError';
    this.issues = details.issues ?? [];
  }
}

/** The error for an answer with `status`, chosen by status code. */
export function errorForStatus(details: InvoicingErrorDetails): InvoicingError {
  const { status } = details;
  const text = messageText(details.body) ?? (details.rawText?.trim().slice(0, 200) || `HTTP ${status}`);
  const where = details.method && details.url ? ` (${details.method} ${details.url})` : '';
  const message = `${text}${where}`;
  if (codeOf(details.body) === 'idempotency_key_reused') return new IdempotencyKeyReusedError(message, details);
  if (status === 400) return new BadRequestError(message, details);
  if (status === 401) return new AuthError(message, details);
  if (status === 404) return new NotFoundError(message, details);
  if (status === 413) return new PayloadTooLargeError(message, details);
  if (status === 422) return new ValidationError(message, details);
  if (status === 429) return new RateLimitError(message, details);
  if (status >= 500) return new ServerError(message, details);
  return new InvoicingError(message, details);
}

function codeOf(body: unknown): unknown {
  return typeof body === 'object' && body !== null ? (body as Record<string, unknown>)['code'] : undefined;
}

function messageText(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const message = (body as Record<string, unknown>)['message'];
  if (typeof message === 'string') return message;
  if (typeof message === 'object' && message !== null) {
    const lines = Object.entries(fieldMessages(body)).flatMap(([field, list]) =>
      list.map((text) => (field === 'base' ? text : `${field} ${text}`)),
    );
    if (lines.length > 0) return lines.join('; ');
  }
  return undefined;
}

/** `message` as a field map (`{"buyer_name":["can't be blank"]}`) or as text (`"Not found"`). */
function fieldMessages(body: unknown): Record<string, string[]> {
  if (typeof body !== 'object' || body === null) return typeof body === 'string' && body ? { base: [body] } : {};
  const record = body as Record<string, unknown>;
  const message = record['message'] ?? record['errors'];
  if (typeof message === 'string') return message ? { base: [message] } : {};
  if (typeof message !== 'object' || message === null) return {};
  const fields: Record<string, string[]> = {};
  for (const [field, value] of Object.entries(message as Record<string, unknown>)) {
    const list = (Array.isArray(value) ? value : [value]).filter((item) => item !== null && item !== undefined);
    fields[field] = list.map((item) => (typeof item === 'string' ? item : JSON.stringify(item)));
  }
  return fields;
}

/** `Retry-After` as seconds or as an HTTP date. */
function retryAfterSeconds(header: string | null): number | undefined {
  if (header === null || header.trim() === '') return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, seconds);
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - Date.now()) / 1000));
}
