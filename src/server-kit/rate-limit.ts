/**
 * The fixed-window rate-limit store contract that both servers count through: the BFF per client
 * IP and portal token, the service on its credential-less public routes. A store shared by several
 * processes (Redis INCR + EXPIRE, a database upsert) implements `hit`.
 */

export interface RateLimitHit {
  /** Requests counted in the current window, this one included. */
  count: number;
  /** When the current window ends, in ms since the epoch. */
  resetAt: number;
}

export interface RateLimitStore {
  hit(key: string, windowMs: number): Promise<RateLimitHit>;
}

export interface RateLimitRule {
  /** Requests allowed per window. */
  limit: number;
  windowMs: number;
}
