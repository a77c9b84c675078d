import { clientIp } from '../../kernel/checkout.js';
import type { Database } from '../db.js';
import { ApiError, type ServiceContext } from '../http.js';
import { type RateLimitRule, SqlRateLimitStore } from '../data/rate-limits.js';

/** The caller's address behind the configured proxies, by the checkout core's rule (shared with the BFF). */
export function clientAddressOf(c: ServiceContext): string {
  const incoming = (c.env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined)?.incoming;
  return clientIp(c.req.header('x-forwarded-for'), incoming?.socket?.remoteAddress, c.get('config').trustProxy);
}

/** Who is paying, as Przelewy24's `chargeByCode` asks: the buyer's address and browser, never stored. */
export function buyerClientOf(c: ServiceContext): { ip: string; userAgent: string } {
  return { ip: clientAddressOf(c), userAgent: (c.req.header('user-agent') ?? '').slice(0, 512) };
}

const stores = new WeakMap<Database, SqlRateLimitStore>();

/** Counts one attempt against `rule` under `key`; over the limit, 429 saying `message`, with `Retry-After`. */
export async function countAttempt(c: ServiceContext, rule: RateLimitRule, key: string, message: string): Promise<void> {
  const db = c.get('db');
  let store = stores.get(db);
  if (!store) stores.set(db, (store = new SqlRateLimitStore(db)));
  const hit = await store.hit(key, rule.windowMs);
  if (hit.count <= rule.limit) return;
  const reset = Math.max(1, Math.ceil((hit.resetAt - Date.now()) / 1000));
  throw new ApiError(429, message, undefined, { 'retry-after': String(reset) });
}
