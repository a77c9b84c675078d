import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Context, Hono, MiddlewareHandler } from 'hono';
import { getCookie } from 'hono/cookie';
import { z } from 'zod';
import { ADMIN_CSRF_HEADER, ADMIN_SESSION_COOKIE, type AdminSessionAnswer } from '../../contract/admin-session.js';
import { checkLogin } from '../auth.js';
import { type AdminSession, deleteAdminSession, insertAdminSession, type SignInRow, touchAdminSession, userForSignIn } from '../data/admin-sessions.js';
import { ApiError, type ServiceContext, type ServiceEnv, validate } from '../http.js';

/**
 * The back office's sign-in: `POST /admin/session` checks a user's login (or e-mail) and password
 * exactly as `login.json` does, under the same failed-login limits, and starts a session held in an
 * `HttpOnly`, `SameSite=Strict` cookie scoped to `/admin`. Every write then repeats the session's
 * CSRF token in `X-CSRF-Token`. See docs/decisions/back-office.md.
 */
/** Each request's live session, once `requireAdminSession` found it. */
const sessions = new WeakMap<Context, { session: AdminSession; idHash: string }>();

/** The session `requireAdminSession` found for this request. */
export function adminSessionOf(c: Context): AdminSession {
  const found = sessions.get(c);
  if (!found) throw notSignedIn();
  return found.session;
}

const signInInput = z.object({
  login: z.string({ message: 'must be text' }).trim().min(1, "can't be blank").max(300, 'is too long (maximum is 300 characters)'),
  password: z.string({ message: 'must be text' }).min(1, "can't be blank").max(1024, 'is too long (maximum is 1024 characters)'),
});

export const notSignedIn = () => new ApiError(401, 'Sign in to the back office first');
const wrongCredentials = () => new ApiError(401, 'Wrong login or password');
const badCsrf = () => new ApiError(403, 'The request lacks this session\'s X-CSRF-Token');

const hashOf = (id: string) => createHash('sha256').update(id).digest('hex');

function sameText(given: string | undefined, expected: string): boolean {
  if (given === undefined) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Whether the browser reached us over https: directly, or through a trusted proxy that says so. */
function overHttps(c: ServiceContext): boolean {
  if (new URL(c.req.url).protocol === 'https:') return true;
  if (c.get('config').publicUrl.startsWith('https:')) return true;
  const proto = c.req.header('x-forwarded-proto')?.split(',')[0]?.trim().toLowerCase();
  return c.get('config').trustProxy > 0 && proto === 'https';
}

function sessionCookie(c: ServiceContext, value: string, maxAge?: number): string {
  const parts = [`${ADMIN_SESSION_COOKIE}=${value}`, 'Path=/admin', 'HttpOnly', 'SameSite=Strict'];
  if (maxAge !== undefined) parts.push(`Max-Age=${maxAge}`);
  if (overHttps(c)) parts.push('Secure');
  return parts.join('; ');
}

export function sessionAnswer(session: AdminSession): AdminSessionAnswer {
  return {
    user: { login: session.login, email: session.email },
    account: { prefix: session.prefix, name: session.account_name },
    csrf: session.csrf,
  };
}

/** The request's live session (set as `adminSession`), or the 401 that asks to sign in. */
export const requireAdminSession: MiddlewareHandler<ServiceEnv> = async (c, next) => {
  const id = getCookie(c, ADMIN_SESSION_COOKIE);
  // An id is 43 base64url characters; anything else names no session and costs no query.
  if (!id || !/^[A-Za-z0-9_-]{43}$/.test(id)) throw notSignedIn();
  const idHash = hashOf(id);
  const session = await touchAdminSession(c.get('db'), idHash);
  if (!session) throw notSignedIn();
  sessions.set(c, { session, idHash });
  await next();
};

/** The API's one read that writes (`GET /invoices/{id}?send_to_ksef=yes`); the back office sends with `POST /invoices/{id}/send_to_ksef`. */
const WRITING_QUERY = 'send_to_ksef';

/** Every method but GET and HEAD, and the GET that writes, must carry the session's CSRF token. */
export const requireCsrf: MiddlewareHandler<ServiceEnv> = async (c, next) => {
  const reads = (c.req.method === 'GET' || c.req.method === 'HEAD') && c.req.query(WRITING_QUERY) === undefined;
  if (!reads && !sameText(c.req.header(ADMIN_CSRF_HEADER), adminSessionOf(c).csrf)) throw badCsrf();
  await next();
};

/** A sign-in is JSON only: a form on another site cannot post one without asking first (CORS). */
const jsonOnly: MiddlewareHandler<ServiceEnv> = async (c, next) => {
  if (!/^application\/json\s*(;|$)/i.test(c.req.header('content-type') ?? '')) throw new ApiError(415, 'Send the sign-in as application/json');
  await next();
};

export function mountAdminSession(session: Hono<ServiceEnv>): void {
  session.post('/', jsonOnly, async (c) => {
    const input = validate(signInInput, c.get('body'));
    const db = c.get('db');
    const user = await checkLogin<SignInRow>(c, input.login, input.password, (login) => userForSignIn(db, login));
    if (!user) throw wrongCredentials();
    const id = randomBytes(32).toString('base64url');
    const csrf = randomBytes(32).toString('base64url');
    await insertAdminSession(db, { idHash: hashOf(id), userId: user.user_id, accountId: user.account_id, csrf });
    const started = await touchAdminSession(db, hashOf(id));
    if (!started) throw new Error('a session just started was not found');
    c.header('set-cookie', sessionCookie(c, id));
    c.header('cache-control', 'no-store');
    return c.json(sessionAnswer(started));
  });

  session.get('/', requireAdminSession, (c) => {
    c.header('cache-control', 'no-store');
    return c.json(sessionAnswer(adminSessionOf(c)));
  });

  session.delete('/', requireAdminSession, requireCsrf, async (c) => {
    await deleteAdminSession(c.get('db'), sessions.get(c)!.idHash);
    c.header('set-cookie', sessionCookie(c, '', 0));
    return c.body(null, 204);
  });
}
