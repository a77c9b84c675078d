import type { Context } from 'hono';
import type { Database } from './db.js';
import { ApiError } from './http.js';

/**
 * Limits on failed logins (Basic authentication on every route, and `/login`): per login and per
 * client address, in a fixed window. While a key is over its limit, logins for it are answered 429
 * with `Retry-After` before any password is hashed. A successful login clears its login's count.
 */
export interface LoginFailureStore {
  /** Seconds until `key` may try again, or 0 when it may now. */
  blockedFor(key: string, limit: number): Promise<number>;
  /** Counts one failure of `key` in a window of `windowMs`. */
  fail(key: string, windowMs: number): Promise<void>;
  clear(key: string): Promise<void>;
}

export interface LoginLimits {
  perLogin: number;
  perAddress: number;
  windowMs: number;
}

export const DEFAULT_LOGIN_LIMITS: LoginLimits = { perLogin: 10, perAddress: 50, windowMs: 15 * 60_000 };

/** One process's counts: the default, and right for PGlite, which serves one process. */
export class MemoryLoginFailureStore implements LoginFailureStore {
  readonly #entries = new Map<string, { count: number; resetAt: number }>();
  readonly #max: number;

  constructor(max = 100_000) {
    this.#max = max;
  }

  async blockedFor(key: string, limit: number): Promise<number> {
    const entry = this.#entries.get(key);
    if (!entry) return 0;
    const left = entry.resetAt - Date.now();
    if (left <= 0) {
      this.#entries.delete(key);
      return 0;
    }
    return entry.count >= limit ? Math.ceil(left / 1000) : 0;
  }

  async fail(key: string, windowMs: number): Promise<void> {
    const now = Date.now();
    const entry = this.#entries.get(key);
    if (entry && entry.resetAt > now) {
      entry.count += 1;
      return;
    }
    if (this.#entries.size >= this.#max) {
      for (const [k, e] of this.#entries) if (e.resetAt <= now) this.#entries.delete(k);
      if (this.#entries.size >= this.#max) this.#entries.delete(this.#entries.keys().next().value!);
    }
    this.#entries.set(key, { count: 1, resetAt: now + windowMs });
  }

  async clear(key: string): Promise<void> {
    this.#entries.delete(key);
  }
}

/** Counts shared by every process on one PostgreSQL database (table `login_failures`). */
export class SqlLoginFailureStore implements LoginFailureStore {
  readonly #db: Database;

  constructor(db: Database) {
    this.#db = db;
  }

  async blockedFor(key: string, limit: number): Promise<number> {
    const rows = await this.#db.query<{ seconds: number }>(
      `select ceil(extract(epoch from (reset_at - now())))::integer as seconds from login_failures
        where key = $1 and reset_at > now() and count >= $2`,
      [key, limit],
    );
    return rows[0] ? Math.max(1, rows[0].seconds) : 0;
  }

  async fail(key: string, windowMs: number): Promise<void> {
    await this.#db.query(
      `insert into login_failures (key, count, reset_at) values ($1, 1, now() + make_interval(secs => $2))
       on conflict (key) do update set
         count = case when login_failures.reset_at > now() then login_failures.count + 1 else 1 end,
         reset_at = case when login_failures.reset_at > now() then login_failures.reset_at else excluded.reset_at end`,
      [key, windowMs / 1000],
    );
    // Expired rows are swept now and then, so the table stays as small as the set of active attackers.
    if (Math.random() < 0.01) await this.#db.query(`delete from login_failures where reset_at < now()`);
  }

  async clear(key: string): Promise<void> {
    await this.#db.query(`delete from login_failures where key = $1`, [key]);
  }
}

export interface LoginGuard {
  /** Runs `check` (which hashes the password) unless the login or address is over its limit. */
  attempt<T>(login: string, address: string, check: () => Promise<T | undefined>): Promise<T | undefined>;
}

export function createLoginGuard(store: LoginFailureStore, limits: LoginLimits = DEFAULT_LOGIN_LIMITS): LoginGuard {
  return {
    async attempt(login, address, check) {
      const loginKey = `login:${login.toLowerCase().slice(0, 320)}`;
      const addressKey = `address:${address}`;
      const wait = Math.max(await store.blockedFor(loginKey, limits.perLogin), await store.blockedFor(addressKey, limits.perAddress));
      if (wait > 0) throw tooManyFailures(wait);
      const result = await check();
      if (result === undefined) await Promise.all([store.fail(loginKey, limits.windowMs), store.fail(addressKey, limits.windowMs)]);
      else await store.clear(loginKey);
      return result;
    },
  };
}

const tooManyFailures = (seconds: number) =>
  new ApiError(429, `Too many failed logins. Try again in ${seconds} seconds.`, undefined, { 'retry-after': String(seconds) });

/** The client's address as the socket gives it (proxies' `X-Forwarded-For` is not trusted). */
export function clientAddress(c: Context): string {
  const incoming = (c.env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined)?.incoming;
  return incoming?.socket?.remoteAddress ?? 'unknown';
}
