/**
 * Fixed-window rate limiting. The in-memory store suits one process; several BFF processes share a
 * store (Redis INCR + EXPIRE, for one) through `hit`.
 */

import type { RateLimitHit, RateLimitRule, RateLimitStore } from '../server-kit/rate-limit.js';

export type { RateLimitHit, RateLimitRule, RateLimitStore };

export interface RateLimitOptions {
  /** Every request, per client IP. Default 300 a minute. */
  ip?: RateLimitRule | false;
  /** Portal requests, per portal token subject, except list pages. Default 120 a minute. */
  token?: RateLimitRule | false;
  /**
   * Pages of the portal list (`GET /invoices`), per portal token subject. Default 600 a minute: a
   * page costs the service one indexed read, and a customer scrolling through thousands of
   * invoices asks for one page of 100 where the scroll rests.
   */
  list?: RateLimitRule | false;
  /** Checkout and sign-up, per client IP. Default 20 a minute. */
  create?: RateLimitRule | false;
  /**
   * Checkouts that send a BLIK code, per client IP and, at ten times the count, per product. Default 5
   * a minute: a buyer who mistypes tries again, but codes are not guessed by the hundred.
   */
  blik?: RateLimitRule | false;
  store?: RateLimitStore;
}

export const DEFAULT_RATE_LIMITS = {
  ip: { limit: 300, windowMs: 60_000 },
  token: { limit: 120, windowMs: 60_000 },
  list: { limit: 600, windowMs: 60_000 },
  create: { limit: 20, windowMs: 60_000 },
  blik: { limit: 5, windowMs: 60_000 },
} as const satisfies Record<string, RateLimitRule>;

export class MemoryRateLimitStore implements RateLimitStore {
  readonly #windows = new Map<string, RateLimitHit>();
  readonly #maxKeys: number;
  readonly #now: () => number;

  /** `now`: the clock windows are measured by, in ms since the epoch (tests move it); default `Date.now`. */
  constructor(options: { maxKeys?: number; now?: () => number } = {}) {
    this.#maxKeys = options.maxKeys ?? 100_000;
    this.#now = options.now ?? Date.now;
  }

  async hit(key: string, windowMs: number): Promise<RateLimitHit> {
    const now = this.#now();
    let window = this.#windows.get(key);
    if (!window || window.resetAt <= now) {
      this.#sweep(now);
      window = { count: 0, resetAt: now + windowMs };
      this.#windows.delete(key);
      this.#windows.set(key, window);
    }
    window.count += 1;
    return { ...window };
  }

  #sweep(now: number): void {
    for (const [key, window] of this.#windows) {
      if (window.resetAt > now && this.#windows.size < this.#maxKeys) break;
      this.#windows.delete(key);
    }
  }
}
