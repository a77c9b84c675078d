import type { RateLimitHit, RateLimitStore } from '../../server-kit/rate-limit.js';
import type { Sql } from '../db.js';

/**
 * Fixed-window rate limits for the service's public, credential-less routes (the product widget).
 * Several service processes share one database, so the default store counts there; a process-local
 * store would let each process allow the full limit. The store contract is the one the BFF counts through too.
 */
export type { RateLimitHit, RateLimitRule, RateLimitStore } from '../../server-kit/rate-limit.js';

/** Counts in the `rate_limits` table: one upsert per request, shared by every process on the database. */
export class SqlRateLimitStore implements RateLimitStore {
  readonly #sql: Sql;
  #sinceSweep = 0;

  constructor(sql: Sql) {
    this.#sql = sql;
  }

  async hit(key: string, windowMs: number): Promise<RateLimitHit> {
    const seconds = Math.max(1, Math.round(windowMs / 1000));
    const rows = await this.#sql.query<{ count: number; reset_ms: string }>(
      `insert into rate_limits (key, window_end, count) values ($1, now() + make_interval(secs => $2), 1)
       on conflict (key) do update set
         count = case when rate_limits.window_end <= now() then 1 else rate_limits.count + 1 end,
         window_end = case when rate_limits.window_end <= now() then now() + make_interval(secs => $2) else rate_limits.window_end end
       returning count, (extract(epoch from window_end) * 1000)::bigint::text as reset_ms`,
      [key, seconds],
    );
    // Old windows are removed now and then, so the table holds only recent callers.
    if ((this.#sinceSweep += 1) >= 500) {
      this.#sinceSweep = 0;
      await this.#sql.query(`delete from rate_limits where window_end < now() - interval '1 hour'`);
    }
    return { count: Number(rows[0]!.count), resetAt: Number(rows[0]!.reset_ms) };
  }
}
