import type { ServiceContext } from '../http.js';
import type { RateLimitRule } from '../data/rate-limits.js';
import { countAttempt } from './caller.js';

const BLIK_TOO_MANY = 'Too many BLIK attempts. Try again later.';

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

/** One BLIK attempt from `address` (when the caller knows it) for `product` of the account. */
export async function countBlikAttempt(c: ServiceContext, attempt: { accountId: number; address?: string | undefined; product?: string | number | null | undefined }): Promise<void> {
  if (attempt.address !== undefined) await countAttempt(c, BLIK_RATE_LIMITS.address, `blik-address:${attempt.address}`, BLIK_TOO_MANY);
  if (attempt.product != null) await countAttempt(c, BLIK_RATE_LIMITS.product, `blik-product:${attempt.accountId}:${attempt.product}`, BLIK_TOO_MANY);
}
