import {
  InvoicingError,
  NetworkError,
  NotFoundError,
  RateLimitError,
  ServerError,
  TimeoutError,
  ValidationError,
} from '../api/errors.js';
import { ERROR_CODES, type ErrorBody, type ErrorCode, type FieldErrors } from '../contract/errors.js';

export { ERROR_CODES, type ErrorBody, type ErrorCode, type FieldErrors };

/** An error the BFF answers with as is: its status, code and message are safe to show. */
export class BffError extends Error {
  readonly status: number;
  readonly code: ErrorCode;
  readonly fields?: FieldErrors;
  readonly headers?: Record<string, string>;

  constructor(status: number, code: ErrorCode, message: string, extra: { fields?: FieldErrors; headers?: Record<string, string> } = {}) {
    super(message);
    this.name = 'BffError';
    this.status = status;
    this.code = code;
    this.fields = extra.fields;
    this.headers = extra.headers;
  }

  toBody(): ErrorBody {
    return { error: { code: this.code, message: this.message, ...(this.fields ? { fields: this.fields } : {}) } };
  }
}

export const notFound = (what = 'resource') => new BffError(404, ERROR_CODES.notFound, `The ${what} was not found.`);

/**
 * Turns a failure of the invoicing service into what the browser may see: never the service's own
 * words (they may echo request URLs), only a status and a fixed message. Field errors of a 422 pass
 * through only for the fields the caller names as its own.
 */
export function fromServiceError(error: unknown, options: { publicFields?: readonly string[]; timedOut?: boolean } = {}): BffError {
  if (error instanceof BffError) return error;
  if (options.timedOut || error instanceof TimeoutError || isAbortError(error)) {
    return new BffError(504, ERROR_CODES.upstreamTimeout, 'The invoicing service did not answer in time.');
  }
  if (error instanceof NotFoundError) return notFound();
  if (error instanceof ValidationError) {
    const allowed = new Set(options.publicFields ?? []);
    const fields: FieldErrors = {};
    for (const [name, messages] of Object.entries(error.fields ?? {})) {
      if (allowed.has(name)) fields[name] = messages.map(String);
    }
    if (Object.keys(fields).length > 0) {
      return new BffError(422, ERROR_CODES.validation, 'Some fields are not valid.', { fields });
    }
    return new BffError(502, ERROR_CODES.upstream, 'The invoicing service refused the request.');
  }
  if (error instanceof RateLimitError) {
    const retryAfter = Math.max(1, Math.ceil(error.retryAfterSeconds ?? 1));
    return new BffError(503, ERROR_CODES.upstreamBusy, 'The invoicing service is busy. Try again shortly.', {
      headers: { 'Retry-After': String(retryAfter) },
    });
  }
  if (error instanceof ServerError || error instanceof NetworkError || error instanceof InvoicingError) {
    return new BffError(502, ERROR_CODES.upstream, 'The invoicing service could not complete the request.');
  }
  return new BffError(500, ERROR_CODES.internal, 'Something went wrong.');
}

export function isAbortError(error: unknown): boolean {
  return error instanceof Error && (error.name === 'AbortError' || error.name === 'TimeoutError');
}
