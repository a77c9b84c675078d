import type { CacheStore } from '../cache.js';
import type { IdempotencyStore } from '../idempotency.js';
import type { RateLimitStore } from '../rate-limit.js';

/**
 * Everything the BFF keeps between requests, in one place that several BFF processes can share:
 * `createBff({ stores })`. Memory is the default; `redisStores` and `postgresStores` share them.
 */
export interface BffStores {
  readonly kind: string;
  idempotency: IdempotencyStore;
  rateLimit: RateLimitStore;
  cache: CacheStore;
  /** Resolves when the backing server answers; `/readyz` calls it. */
  ping(): Promise<void>;
  /** Closes connections the stores opened themselves. */
  close(): Promise<void>;
}

export interface SharedStoreOptions {
  /** How long a checkout answer is remembered per `Idempotency-Key`. Default 24 hours. */
  idempotencyRetentionMs?: number;
  /**
   * How long a claimed key stays locked when its request never finishes (the process died). Default
   * 60 s: longer than any checkout takes, short enough that the buyer's retry goes through.
   */
  idempotencyLockMs?: number;
  /** How often a request that finds its key in progress looks again. Default 50 ms. */
  pollMs?: number;
}

export const SHARED_STORE_DEFAULTS = {
  idempotencyRetentionMs: 24 * 60 * 60 * 1000,
  idempotencyLockMs: 60_000,
  pollMs: 50,
} as const satisfies Required<SharedStoreOptions>;

/** Polls `read` until it gives an answer or the key is gone; `undefined` then lets the caller claim again. */
export async function pollSettled<T>(read: () => Promise<{ answer?: T; gone?: boolean }>, pollMs: number, timeoutMs: number): Promise<T | undefined> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, pollMs));
    const state = await read();
    if (state.answer !== undefined) return state.answer;
    if (state.gone) return undefined;
  }
  return undefined;
}
