/**
 * An error with the reference's body: `{"code":"error","message":…}`. A failure the reference does
 * not know, that a client must tell apart from the others, has its own `code` (a subclass says which).
 */
export class ApiError extends Error {
  readonly code: 'error' | 'idempotency_key_reused' = 'error';
  readonly status: 400 | 401 | 403 | 404 | 408 | 409 | 413 | 415 | 422 | 429 | 503;
  readonly fields: Record<string, string[]> | undefined;
  /** Headers the answer carries, such as `Retry-After`. */
  readonly headers: Record<string, string> | undefined;

  constructor(status: ApiError['status'], message: string, fields?: Record<string, string[]>, headers?: Record<string, string>) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.fields = fields;
    this.headers = headers;
  }

  get body(): { code: ApiError['code']; message: string | Record<string, string[]> } {
    return { code: this.code, message: this.fields ?? this.message };
  }
}
