import type { MiddlewareHandler } from 'hono';
import { accountCacheOf } from './account-cache.js';
import { accountByToken } from './accounts.js';
import type { Database } from './db.js';
import { type Account, ApiError, type ServiceContext, type ServiceEnv, unauthorized } from './http.js';
import { clientAddress } from './login-guard.js';
import { HashingBusyError, verifyPassword } from './passwords.js';
import { openAccountToken } from './secrets/stored.js';

/** The account of a token, kept between requests (see `AccountCache`). */
async function cachedAccountByToken(db: Database, token: string): Promise<Account | undefined> {
  const cache = await accountCacheOf(db);
  const kept = cache?.get(token);
  if (kept) return kept;
  const generation = cache?.generation ?? 0;
  const account = await accountByToken(db, token);
  if (account) cache?.set(token, account, generation);
  return account;
}

interface LoginRow {
  /** The user the typed login (or e-mail) resolved to: failed logins count per user. */
  user_id: string | number;
  password_hash: string;
}

/**
 * Checks `login:password` under the failed-login limits. An unknown login costs one scrypt like a
 * known one (against a dummy hash), so neither the answer nor its timing tells which logins exist.
 */
export async function checkLogin<Row extends LoginRow>(
  c: ServiceContext,
  login: string,
  password: string,
  find: (login: string) => Promise<Row | undefined>,
): Promise<Row | undefined> {
  const guard = c.get('config').loginGuard;
  const row = await find(login);
  const user = row ? `id:${row.user_id}` : `login:${login.toLowerCase()}`;
  try {
    return await guard.attempt(user, clientAddress(c), async () =>
      (await verifyPassword(password, row?.password_hash)) ? row : undefined);
  } catch (error) {
    // Answered at once rather than queued: a flood of logins waits on nobody's CPU.
    if (error instanceof HashingBusyError) throw new ApiError(429, error.message, undefined, { 'retry-after': '1' });
    throw error;
  }
}

async function accountByLogin(c: ServiceContext, login: string, password: string): Promise<Account | undefined> {
  const row = await checkLogin(c, login, password, async (name) => {
    const rows = await c.get('db').query<Account & LoginRow>(
      `select a.id, a.prefix, a.api_token, a.name, a.created_at, u.id as user_id, u.password_hash
         from users u join accounts a on a.id = u.account_id
        where u.login = $1 or lower(u.email) = lower($1)
        order by u.id limit 1`,
      [name],
    );
    return rows[0];
  });
  if (!row) return undefined;
  const { password_hash: _hash, user_id: _user, ...account } = row;
  return openAccountToken(account);
}

export type Credentials =
  | { kind: 'token'; token: string }
  | { kind: 'login'; login: string; password: string }
  | { kind: 'none' };

function fromAuthorization(header: string | undefined): Credentials {
  if (!header) return { kind: 'none' };
  const [scheme, value = ''] = header.trim().split(/\s+/, 2);
  switch (scheme?.toLowerCase()) {
    case 'bearer':
      return { kind: 'token', token: value };
    case 'token':
      return { kind: 'token', token: value.replace(/^token="?|"$/g, '') };
    case 'basic': {
      const decoded = Buffer.from(value, 'base64').toString('utf8');
      const colon = decoded.indexOf(':');
      return colon > 0 ? { kind: 'login', login: decoded.slice(0, colon), password: decoded.slice(colon + 1) } : { kind: 'token', token: '' };
    }
    default:
      return { kind: 'token', token: '' };
  }
}

/**
 * Where an account's credentials are taken from, one order for every route, the first present one
 * winning (a present but wrong one is a 401, never a fall-through to the next):
 *  1. `api_token` in the query string;
 *  2. `api_token` at the top level of a JSON, form or multipart body, as the body's own field;
 *  3. `Authorization: Bearer <token>` (or `Token token="…"`);
 *  4. `Authorization: Basic <login:password>`.
 */
export function credentialsOf(c: ServiceContext): Credentials {
  const query = c.req.query('api_token');
  if (query !== undefined) return { kind: 'token', token: query };
  const body = c.get('body');
  if (Object.hasOwn(body, 'api_token')) {
    const value = body.api_token;
    return { kind: 'token', token: typeof value === 'string' ? value : '' };
  }
  return fromAuthorization(c.req.header('authorization'));
}

/** The account the request's credentials belong to, or undefined when there are none or they are wrong. */
export async function accountOf(c: ServiceContext): Promise<Account | undefined> {
  const credentials = credentialsOf(c);
  if (credentials.kind === 'token') return credentials.token ? cachedAccountByToken(c.get('db'), credentials.token) : undefined;
  if (credentials.kind === 'login') return accountByLogin(c, credentials.login, credentials.password);
  return undefined;
}

/**
 * On routes that take large bodies (attachments, logos): a token in the query, which wins over
 * every other place, is checked before the body is read, and a wrong one ends the connection.
 */
export const queryTokenBeforeBody: MiddlewareHandler<ServiceEnv> = async (c, next) => {
  const token = c.req.query('api_token');
  if (token !== undefined && !(token && (await cachedAccountByToken(c.get('db'), token)))) {
    throw new ApiError(401, unauthorized().message, undefined, { connection: 'close' });
  }
  await next();
};

/** Resolves the account of an account-level request (spec §5); any failure is the reference's 401. */
export const requireAccount: MiddlewareHandler<ServiceEnv> = async (c, next) => {
  // `/invoices` and `/invoices/*` both match a list or create request: authenticate it once.
  if (c.get('account')) return next();
  const account = await accountOf(c);
  if (!account) throw unauthorized();
  c.set('account', account);
  await next();
};
