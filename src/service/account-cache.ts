import type { Database } from './db.js';
import { ANY_TABLE } from './kept-reads.js';
import type { Account } from './account.js';
import { BoundedMap } from '../server-kit/bounded-map.js';

/** How long an account found by its token may be used without asking the database again. */
export const ACCOUNT_CACHE_MAX_AGE_MS = 10_000;
/** Notified by a trigger on every change or removal of an account (migration 20). */
const CHANNEL = 'invoicekit_accounts';
const NAMES_ACCOUNTS = /\baccounts\b/i;

/**
 * Accounts by api_token, kept so that an authenticated request needs no query for it. A change to
 * an account clears the cache of the process that makes it before that change is answered (the
 * database tells of each write it is about to make and has made), and every other process's cache
 * through a database notification, which arrives a moment later; while
 * a process is not sure to hear them (before listening, or after its listening connection broke) it
 * keeps nothing. An entry is dropped after `ACCOUNT_CACHE_MAX_AGE_MS` in any case, which bounds how
 * long a changed token could keep working should a notification be lost.
 */
export class AccountCache {
  readonly #entries = new BoundedMap<string, { account: Account; at: number }>();
  #listening = false;
  /** Moves on every clear, so that an answer read before a change is never kept after it. */
  #generation = 0;

  static async open(db: Database): Promise<AccountCache> {
    const cache = new AccountCache();
    // This process's own change is seen before its answer leaves, not when its notification arrives.
    db.onWrite((text) => {
      if (text === ANY_TABLE || NAMES_ACCOUNTS.test(text)) cache.#clear(cache.#listening);
    });
    await db.listen(
      CHANNEL,
      () => cache.#clear(true),
      () => cache.#clear(false),
    );
    // Listening from here on: every later change will be heard.
    cache.#clear(true);
    return cache;
  }

  get generation(): number {
    return this.#generation;
  }

  get(token: string): Account | undefined {
    const entry = this.#entries.get(token);
    if (!entry) return undefined;
    if (Date.now() - entry.at > ACCOUNT_CACHE_MAX_AGE_MS) {
      this.#entries.delete(token);
      return undefined;
    }
    return entry.account;
  }

  /** Keeps an account read while the cache was at `generation`, unless something changed since. */
  set(token: string, account: Account, generation: number): void {
    if (!this.#listening || generation !== this.#generation) return;
    this.#entries.set(token, { account, at: Date.now() });
  }

  #clear(listening: boolean): void {
    this.#listening = listening;
    this.#generation += 1;
    this.#entries.clear();
  }
}

const caches = new WeakMap<Database, Promise<AccountCache | undefined>>();

/** The cache of one database connection, listening from its first use on. */
export function accountCacheOf(db: Database): Promise<AccountCache | undefined> {
  let cache = caches.get(db);
  if (!cache) {
    cache = AccountCache.open(db).catch(() => undefined);
    caches.set(db, cache);
  }
  return cache;
}
