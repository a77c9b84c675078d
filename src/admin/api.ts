/**
 * The back office's way to the service's API: every call goes to `/admin/api/<API path>` with the
 * session's cookie, and every write carries the session's CSRF token. The account's api_token
 * never reaches the browser: the server adds it.
 */

/** An answer other than 2xx. `fields` holds a 422's messages by field (`{"buyer.tax_no": ["..."]}`). */
export class AdminApiError extends Error {
  readonly status: number;
  readonly body: unknown;
  /** field → messages, from a 422 */
  readonly fields: Record<string, string[]>;

  constructor(status: number, body: unknown, message: string) {
    super(message);
    this.name = 'AdminApiError';
    this.status = status;
    this.body = body;
    this.fields = fieldMessages(body);
  }
}

export interface AdminApi {
  /** `path` as the API's: `'/invoices.json'`. */
  get<T>(path: string, query?: Record<string, string | number | boolean | undefined>): Promise<T>;
  post<T>(path: string, body?: unknown): Promise<T>;
  put<T>(path: string, body?: unknown): Promise<T>;
  delete<T>(path: string): Promise<T>;
}

export interface AdminApiOptions {
  /** The session's CSRF token, read at each write (it changes when the user signs in again). */
  csrf: () => string;
  /** Called on a 401: the session ended (signed out elsewhere, expired). */
  onSignedOut: () => void;
  /** Where the API is dispatched; `'/admin/api'`. */
  base?: string;
}

export function createAdminApi(options: AdminApiOptions): AdminApi {
  const base = (options.base ?? '/admin/api').replace(/\/$/, '');
  const send = async <T>(method: string, path: string, body?: unknown, query?: Record<string, string | number | boolean | undefined>): Promise<T> => {
    const url = base + (path.startsWith('/') ? path : `/${path}`) + queryString(query);
    const headers: Record<string, string> = { accept: 'application/json' };
    if (method !== 'GET') headers['x-csrf-token'] = options.csrf();
    if (body !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(url, { method, headers, credentials: 'same-origin', body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await response.text();
    const parsed = parseJson(text);
    if (response.status === 401) options.onSignedOut();
    if (!response.ok) throw new AdminApiError(response.status, parsed, errorMessage(parsed, response.status));
    return parsed as T;
  };
  return {
    get: (path, query) => send('GET', path, undefined, query),
    post: (path, body) => send('POST', path, body ?? {}),
    put: (path, body) => send('PUT', path, body ?? {}),
    delete: (path) => send('DELETE', path),
  };
}

function queryString(query: Record<string, string | number | boolean | undefined> | undefined): string {
  if (!query) return '';
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value !== undefined) params.append(key, String(value));
  const text = params.toString();
  return text ? `?${text}` : '';
}

function parseJson(text: string): unknown {
  if (text === '') return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** The reference's error body is `{"code":"error","message": string | {field: [messages]}}`. */
function errorMessage(body: unknown, status: number): string {
  const message = isRecord(body) ? body.message : undefined;
  if (typeof message === 'string' && message !== '') return message;
  const fields = fieldMessages(body);
  const first = Object.entries(fields)[0];
  if (first) return `${first[0]}: ${first[1].join(', ')}`;
  return `HTTP ${status}`;
}

function fieldMessages(body: unknown): Record<string, string[]> {
  const message = isRecord(body) ? body.message : undefined;
  if (!isRecord(message)) return {};
  const fields: Record<string, string[]> = {};
  for (const [field, value] of Object.entries(message)) {
    if (Array.isArray(value)) fields[field] = value.map(String);
    else if (typeof value === 'string') fields[field] = [value];
  }
  return fields;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
