/**
 * The back office's session, as `POST /admin/session` and `GET /admin/session` answer it. The
 * account's api_token is never part of it: the server adds it to each call of `/admin/api/*`.
 */
export interface AdminSessionAnswer {
  user: { login: string; email: string };
  account: { prefix: string; name: string | null };
  /** Sent back as `X-CSRF-Token` on every write (any method but GET and HEAD). */
  csrf: string;
}

/** The cookie that carries the session's id: `HttpOnly`, `SameSite=Strict`, `Path=/admin`. */
export const ADMIN_SESSION_COOKIE = 'ik_admin';
/** The header every write repeats the session's CSRF token in. */
export const ADMIN_CSRF_HEADER = 'x-csrf-token';
