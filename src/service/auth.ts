import type { MiddlewareHandler } from 'hono';
import { accountCacheOf } from './account-cache.js';
import { accountByToken, joinedAccount } from './accounts.js';
import { userByLogin } from './data/users.js';
import type { Database } from './db.js';
import { type Account, ApiError, type ServiceContext, type ServiceEnv, replayedBody, unauthorized } from './http.js';
import { clientAddress } from './login-guard.js';
import { HashingBusyError, verifyPassword } from './passwords.js';

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
  const row = await checkLogin(c, login, password, (name) => userByLogin(c.get('db'), name));
  return row && joinedAccount(row);
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
  if (credentials.kind === 'login') return loggedInFirst.get(c) ?? accountByLogin(c, credentials.login, credentials.password);
  return undefined;
}

/** How much of a body is read, at most, to find an `api_token` at its top when no other place has one. */
export const BODY_TOKEN_HEAD_BYTES = 64 * 1024;
/** How long those first bytes may take to arrive. */
export const BODY_TOKEN_HEAD_MS = 5_000;

/** Accounts whose Basic credentials were checked before the body, so the password is checked once. */
const loggedInFirst = new WeakMap<ServiceContext, Account>();

const refused = () => new ApiError(401, unauthorized().message, undefined, { connection: 'close' });

/**
 * Authenticates an account's request before its body is read: nothing of a stranger's body is
 * parsed. A token in the query (which wins over every other place) or in `Authorization` is checked
 * first, and a wrong query token ends the connection. Without either, only a token at the top of the
 * body can allow it: the body's first 64 KiB are read (within 5 s) to find `api_token` as a JSON
 * body's first key or a form's field, and it is checked before the rest is read. A body with no token
 * there is refused unless it is whole within those bytes (`requireAccount` then answers it). An XML
 * body never carries the token (it goes in `Authorization`), so it is refused unread.
 */
export const authenticatesFirst: MiddlewareHandler<ServiceEnv> = async (c, next) => {
  if (c.get('format') !== undefined || c.get('account') || !c.req.raw.body) return next();
  const db = c.get('db');
  const query = c.req.query('api_token');
  if (query !== undefined) {
    if (!query || !(await cachedAccountByToken(db, query))) throw refused();
    return next();
  }
  const header = fromAuthorization(c.req.header('authorization'));
  if (header.kind === 'token' && header.token && (await cachedAccountByToken(db, header.token))) return next();
  if (header.kind === 'login') {
    const account = await accountByLogin(c, header.login, header.password);
    if (account) {
      loggedInFirst.set(c, account);
      return next();
    }
  }
  const type = (c.req.header('content-type') ?? '').toLowerCase();
  if (/xml/.test(type)) throw refused();
  const head = await readHead(c.req.raw.body, BODY_TOKEN_HEAD_BYTES, BODY_TOKEN_HEAD_MS);
  const token = bodyTokenOf(type, head.text, head.done);
  if (token !== undefined ? !(token && (await cachedAccountByToken(db, token))) : !head.done) {
    await head.reader.cancel().catch(() => undefined);
    throw refused();
  }
  c.req.raw = new Request(c.req.raw, { body: head.rest(), duplex: 'half' } as RequestInit);
  await next();
};

interface Head {
  text: string;
  done: boolean;
  reader: ReadableStreamDefaultReader<Uint8Array>;
  /** The whole body again: the bytes already read, then the rest as it comes. */
  rest(): ReadableStream<Uint8Array>;
}

/** Reads a body's first `bytes` (or all of it, when shorter) within `timeMs`; a slower sender gets a 408. */
async function readHead(body: ReadableStream<Uint8Array>, bytes: number, timeMs: number): Promise<Head> {
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  let done = false;
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), timeMs);
  });
  try {
    while (!done && size < bytes) {
      const chunk = await Promise.race([reader.read(), late]);
      if (chunk === 'late') {
        await reader.cancel().catch(() => undefined);
        throw new ApiError(408, `The request body did not arrive within ${timeMs / 1000} s`, undefined, { connection: 'close' });
      }
      done = chunk.done;
      if (chunk.value) {
        chunks.push(chunk.value);
        size += chunk.value.length;
      }
    }
  } finally {
    clearTimeout(timer);
  }
  return {
    text: Buffer.concat(chunks).toString('latin1'),
    done,
    reader,
    rest: () => replayedBody(chunks, done, reader),
  };
}

/** The `api_token` at the top of a body's first bytes (as latin1 text; `whole` when they are all of it): a JSON body's first key, or a form's field. */
export function bodyTokenOf(type: string, head: string, whole = true): string | undefined {
  const utf8 = (text: string) => Buffer.from(text, 'latin1').toString('utf8');
  if (type.startsWith('multipart/form-data')) {
    const part = /content-disposition:\s*form-data;\s*name="api_token"[^\r\n]*\r\n(?:[^\r\n]+\r\n)*\r\n([^\r]*)\r\n--/i.exec(head);
    return part ? utf8(part[1]!) : undefined;
  }
  if (type.startsWith('application/x-www-form-urlencoded')) {
    // The value ends at the next field, or at the body's end when the whole body is here.
    const field = (whole ? /(?:^|&)api_token=([^&]*)(?:&|$)/ : /(?:^|&)api_token=([^&]*)&/).exec(head);
    if (!field) return undefined;
    try {
      return decodeURIComponent(field[1]!.replace(/\+/g, ' '));
    } catch {
      return '';
    }
  }
  const first = /^\s*\{\s*"api_token"\s*:\s*("(?:[^"\\]|\\.)*")/.exec(head);
  if (!first) return undefined;
  try {
    return utf8(JSON.parse(first[1]!) as string);
  } catch {
    return '';
  }
}

/** Resolves the account of an account-level request (spec §5); any failure is the reference's 401. */
export const requireAccount: MiddlewareHandler<ServiceEnv> = async (c, next) => {
  // `/invoices` and `/invoices/*` both match a list or create request: authenticate it once.
  if (c.get('account')) return next();
  const account = await accountOf(c);
  if (!account) throw unauthorized();
  c.set('account', account);
  await next();
};
