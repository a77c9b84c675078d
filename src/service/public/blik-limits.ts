import { clientIp } from '../../kernel/checkout.js';
import type { Database } from '../db.js';
import { ApiError, type ServiceContext } from '../http.js';
import { type RateLimitRule, SqlRateLimitStore } from '../data/rate-limits.js';

/**
 * BLIK attempts are counted per client address and per product, wherever a code comes in (the
 * widget's checkout, the order page, the checkout page, the API for a BFF): six digits are few, and
 * someone trying codes for a stranger's pending payment must run out long before finding one.
 */
export const BLIK_RATE_LIMITS = {
  /** Codes sent from one address. */
  address: { limit: 10, windowMs: 10 * 60_000 },
  /** Codes sent for one product, from any address. */
  product: { limit: 60, windowMs: 10 * 60_000 },
} as const satisfies Record<string, RateLimitRule>;

const stores = new WeakMap<Database, SqlRateLimitStore>();

/** Counts one request against `rule` under `key`; over the limit, 429 with `Retry-After`. */
export async function countAttempt(c: ServiceContext, rule: RateLimitRule, key: string): Promise<void> {
  const db = c.get('db');
  let store = stores.get(db);
  if (!store) stores.set(db, (store = new SqlRateLimitStore(db)));
  const hit = await store.hit(key, rule.windowMs);
  if (hit.count <= rule.limit) return;
  const reset = Math.max(1, Math.ceil((hit.resetAt - Date.now()) / 1000));
  throw new ApiError(429, 'Too many BLIK attempts. Try again later.', undefined, { 'retry-after': String(reset) });
}

/** One BLIK attempt from `address` (when the caller knows it) for `product` of the account. */
export async function countBlikAttempt(c: ServiceContext, attempt: { accountId: number; address?: string | undefined; product?: string | number | null | undefined }): Promise<void> {
  if (attempt.address !== undefined) await countAttempt(c, BLIK_RATE_LIMITS.address, `blik-address:${attempt.address}`);
  if (attempt.product != null) await countAttempt(c, BLIK_RATE_LIMITS.product, `blik-product:${attempt.accountId}:${attempt.product}`);
}

/** The buyer's address behind the configured proxies, by the checkout core's rule (as the widget counts it). */
export function clientAddressOf(c: ServiceContext): string {
  const incoming = (c.env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined)?.incoming;
  return clientIp(c.req.header('x-forwarded-for'), incoming?.socket?.remoteAddress, c.get('config').trustProxy);
}

/** Who is paying, as Przelewy24's `chargeByCode` asks: the buyer's address and browser, never stored. */
export function buyerClientOf(c: ServiceContext): { ip: string; userAgent: string } {
  return { ip: clientAddressOf(c), userAgent: (c.req.header('user-agent') ?? '').slice(0, 512) };
}
