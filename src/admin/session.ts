/**
 * The back office's session routes: `GET /admin/session` (who is signed in), `POST /admin/session`
 * (sign in) and `DELETE /admin/session` (sign out, which ends the session on the server).
 */
import { AdminApiError } from './api.js';

/** The session as the server answers it; the account's api_token is never part of it. */
export interface AdminSession {
  user: { login: string; email: string };
  account: { prefix: string; name: string | null };
  /** Sent back as `X-CSRF-Token` on every write. */
  csrf: string;
}

const SESSION_PATH = '/admin/session';

async function answerOf(response: Response): Promise<unknown> {
  const text = await response.text();
  try {
    return text === '' ? null : JSON.parse(text);
  } catch {
    return text;
  }
}

function failure(response: Response, body: unknown): AdminApiError {
  const message = typeof body === 'object' && body !== null && 'message' in body && typeof body.message === 'string' ? body.message : `HTTP ${response.status}`;
  return new AdminApiError(response.status, body, message);
}

/** The signed-in session, or null when there is none. */
export async function readSession(base = SESSION_PATH): Promise<AdminSession | null> {
  const response = await fetch(base, { headers: { accept: 'application/json' }, credentials: 'same-origin' });
  const body = await answerOf(response);
  if (response.status === 401) return null;
  if (!response.ok) throw failure(response, body);
  return body as AdminSession;
}

/** Signs in with a login or e-mail; a wrong password is an `AdminApiError` with status 401. */
export async function signIn(login: string, password: string, base = SESSION_PATH): Promise<AdminSession> {
  const response = await fetch(base, {
    method: 'POST',
    headers: { accept: 'application/json', 'content-type': 'application/json' },
    credentials: 'same-origin',
    body: JSON.stringify({ login, password }),
  });
  const body = await answerOf(response);
  if (!response.ok) throw failure(response, body);
  return body as AdminSession;
}

export async function signOut(csrf: string, base = SESSION_PATH): Promise<void> {
  const response = await fetch(base, { method: 'DELETE', headers: { accept: 'application/json', 'x-csrf-token': csrf }, credentials: 'same-origin' });
  // A session that already ended is signed out all the same.
  if (!response.ok && response.status !== 401) throw failure(response, await answerOf(response));
}
