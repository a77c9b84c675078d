import type { Context } from 'hono';
import type { Database } from './db.js';
import { ApiError } from './api-error.js';
import { clearLoginFailures, loginWindowSeconds, releaseLoginAttempt, reserveLoginAttempt, sweepLoginFailures } from './data/login-failures.js';

/**
 * Limits on logins (Basic authentication on every route, and `/login`): per user and per client
 * address, in a fixed window. Each attempt is reserved atomically before any password is hashed, so
 * concurrent guesses cannot all pass the check before the first one is counted; an attempt that
 * succeeds (or is never checked) gives its reservation back. A user is counted under one key however
 * it is named (login, e-mail, any letter case).
 */
export interface LoginFailureStore {
  /**
   * Counts one attempt of `key` in a window of `windowMs` when fewer than `limit` are counted, and
   * answers 0; otherwise counts nothing and answers the seconds until `key` may try again.
   */
  reserve(key: string, limit: number, windowMs: number): Promise<number>;
  /** Gives back one attempt reserved for `key` that did not fail. */
  release(key: string): Promise<void>;
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
  readonly #now: () => number;

  constructor(max = 100_000, now: () => number = Date.now) {
    this.#max = max;
    this.#now = now;
  }

  // No await between the read and the write: in one process, the check and the count are one step.
  async reserve(key: string, limit: number, windowMs: number): Promise<number> {
    const now = this.#now();
    const entry = this.#entries.get(key);
    if (entry && entry.resetAt > now) {
      if (entry.count >= limit) return Math.max(1, Math.ceil((entry.resetAt - now) / 1000));
      entry.count += 1;
      return 0;
    }
    if (this.#entries.size >= this.#max) {
      for (const [k, e] of this.#entries) if (e.resetAt <= now) this.#entries.delete(k);
      if (this.#entries.size >= this.#max) this.#entries.delete(this.#entries.keys().next().value!);
    }
    this.#entries.set(key, { count: 1, resetAt: now + windowMs });
    return 0;
  }

  async release(key: string): Promise<void> {
    const entry = this.#entries.get(key);
    if (entry && entry.count > 0) entry.count -= 1;
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

  async reserve(key: string, limit: number, windowMs: number): Promise<number> {
    const reserved = await reserveLoginAttempt(this.#db, key, windowMs / 1000, limit);
    // Expired rows are swept now and then, so the table stays as small as the set of active attackers.
    if (Math.random() < 0.01) await sweepLoginFailures(this.#db);
    if (reserved) return 0;
    return Math.max(1, (await loginWindowSeconds(this.#db, key)) ?? 1);
  }

  async release(key: string): Promise<void> {
    await releaseLoginAttempt(this.#db, key);
  }

  async clear(key: string): Promise<void> {
    await clearLoginFailures(this.#db, key);
  }
}

export interface LoginGuard {
  /**
   * Runs `check` (which hashes the password) unless the user or the address is over its limit.
   * `user` names the account holder the typed login resolved to (or the typed login, lower-cased,
   * when it names nobody), so every alias of one user shares one count.
   */
  attempt<T>(user: string, address: string, check: () => Promise<T | undefined>): Promise<T | undefined>;
}

export function createLoginGuard(store: LoginFailureStore, limits: LoginLimits = DEFAULT_LOGIN_LIMITS): LoginGuard {
  return {
    async attempt<T>(user: string, address: string, check: () => Promise<T | undefined>): Promise<T | undefined> {
      const userKey = `user:${user.slice(0, 320)}`;
      const addressKey = `address:${address}`;
      const userWait = await store.reserve(userKey, limits.perLogin, limits.windowMs);
      if (userWait > 0) throw tooManyFailures(userWait);
      const addressWait = await store.reserve(addressKey, limits.perAddress, limits.windowMs);
      if (addressWait > 0) {
        await store.release(userKey);
        throw tooManyFailures(addressWait);
      }
      let result: T | undefined;
      try {
        result = await check();
      } catch (error) {
        // Never checked (the hashing queue was full): the attempt is given back.
        await Promise.all([store.release(userKey), store.release(addressKey)]);
        throw error;
      }
      if (result !== undefined) await Promise.all([store.clear(userKey), store.release(addressKey)]);
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
