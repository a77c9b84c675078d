import type { MiddlewareHandler } from 'hono';
import { accountCacheOf } from './account-cache.js';
import type { Database, Sql } from './db.js';
import { type Account, type ServiceEnv, unauthorized } from './http.js';
import { verifyPassword } from './passwords.js';

const ACCOUNT_COLUMNS = 'id, prefix, api_token, name, created_at';

export async function accountByToken(sql: Sql, token: string): Promise<Account | undefined> {
  const rows = await sql.query<Account>(`select ${ACCOUNT_COLUMNS} from accounts where api_token = $1`, [token]);
  return rows[0];
}

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

export async function accountByLogin(sql: Sql, login: string, password: string): Promise<Account | undefined> {
  const rows = await sql.query<Account & { password_hash: string }>(
    `select a.id, a.prefix, a.api_token, a.name, a.created_at, u.password_hash
       from users u join accounts a on a.id = u.account_id
      where u.login = $1 or lower(u.email) = lower($1)
      order by u.id limit 1`,
    [login],
  );
  const row = rows[0];
  if (!row || !(await verifyPassword(password, row.password_hash))) return undefined;
  const { password_hash: _ignored, ...account } = row;
  return account;
}

function tokenFromHeader(header: string | undefined): { token?: string; login?: string; password?: string } {
  if (!header) return {};
  const [scheme, value = ''] = header.trim().split(/\s+/, 2);
  switch (scheme?.toLowerCase()) {
    case 'bearer':
      return { token: value };
    case 'token':
      return { token: value.replace(/^token="?|"$/g, '') };
    case 'basic': {
      let decoded = '';
      try {
        decoded = Buffer.from(value, 'base64').toString('utf8');
      } catch {
        return {};
      }
      const colon = decoded.indexOf(':');
      return colon > 0 ? { login: decoded.slice(0, colon), password: decoded.slice(colon + 1) } : {};
    }
    default:
      return {};
  }
}

/**
 * Resolves the account of an account-level request (spec §5): `api_token` in the query, at the top
 * of a JSON or form body, as `Authorization: Bearer` (XML), or Basic `login:password` (XML creation).
 * Any failure is the reference's 401.
 */
export const requireAccount: MiddlewareHandler<ServiceEnv> = async (c, next) => {
  // `/invoices` and `/invoices/*` both match a list or create request: authenticate it once.
  if (c.get('account')) return next();
  const db = c.get('db');
  const body = c.get('body');
  const header = tokenFromHeader(c.req.header('authorization'));
  const token = c.req.query('api_token') ?? (typeof body.api_token === 'string' ? body.api_token : undefined) ?? header.token;
  let account: Account | undefined;
  if (token) account = await cachedAccountByToken(db, token);
  else if (header.login && header.password !== undefined) account = await accountByLogin(db, header.login, header.password);
  if (!account) throw unauthorized();
  c.set('account', account);
  await next();
};
