/**
 * The BFF's error answers, as the elements read them: `{ "error": { "code", "message", "fields"? } }`
 * with one of these codes. The service answers in the reference's own error body instead.
 */
export const ERROR_CODES = {
  badRequest: 'bad_request',
  validation: 'validation_failed',
  unauthorized: 'unauthorized',
  tokenExpired: 'token_expired',
  insufficientScope: 'insufficient_scope',
  originNotAllowed: 'origin_not_allowed',
  notFound: 'not_found',
  methodNotAllowed: 'method_not_allowed',
  conflict: 'idempotency_key_in_use',
  nothingToPay: 'nothing_to_pay',
  idempotencyMismatch: 'idempotency_key_reused',
  payloadTooLarge: 'payload_too_large',
  unsupportedMediaType: 'unsupported_media_type',
  rateLimited: 'rate_limited',
  upstream: 'service_error',
  upstreamBusy: 'service_busy',
  upstreamTimeout: 'service_timeout',
  internal: 'internal_error',
} as const;
export type ErrorCode = (typeof ERROR_CODES)[keyof typeof ERROR_CODES];

/** A 422's messages, by field name (`buyer.email`, `tax_no`). */
export type FieldErrors = Record<string, string[]>;

/** The body of every error answer of the BFF. */
export interface ErrorBody {
  error: { code: ErrorCode; message: string; fields?: FieldErrors };
}
