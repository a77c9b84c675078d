import type { CacheStore } from '../cache.js';
import type { IdempotencyClaim, IdempotencyStore, StoredAnswer } from '../idempotency.js';
import type { RateLimitHit, RateLimitStore } from '../rate-limit.js';

/**
 * Every key a BFF keeps in its stores carries its account: two shops' BFFs sharing one Redis or
 * one PostgreSQL never read, claim or count each other's entries (`portal-list:<clientId>`, a
 * product by token, the seller's country, a buyer's `Idempotency-Key`, a rate window).
 */

/**
 * The account a BFF works for, as its stores' keys name it: a SHA-256 of the api_token, which names
 * the account whichever of the service's processes or addresses a BFF calls (replicas behind a
 * load balancer, each BFF beside its own service), so every BFF of one account shares its keys, and
 * the id gives away nothing of the token.
 */
export async function bffAccountId(apiToken: string): Promise<string> {
  const text = `invoicekit-bff-account\n${apiToken}`;
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return [...new Uint8Array(digest).slice(0, 12)].map((byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** What prefixes an account's keys: `acct:<id>:`, worked out once on first use. */
export type AccountNamespace = () => Promise<string>;

export function accountNamespace(account: string | (() => Promise<string>)): AccountNamespace {
  let prefix: Promise<string> | undefined;
  return () => (prefix ??= (typeof account === 'string' ? Promise.resolve(account) : account()).then((id) => `acct:${id}:`));
}

export function accountScopedCache(store: CacheStore, namespace: AccountNamespace): CacheStore {
  return {
    get: async (key) => store.get(`${await namespace()}${key}`),
    set: async (key, value, ttlMs) => store.set(`${await namespace()}${key}`, value, ttlMs),
    delete: async (key) => store.delete(`${await namespace()}${key}`),
  };
}

export function accountScopedIdempotency(store: IdempotencyStore, namespace: AccountNamespace): IdempotencyStore {
  return {
    claim: async (key, fingerprint): Promise<IdempotencyClaim> => store.claim(`${await namespace()}${key}`, fingerprint),
    complete: async (key, answer: StoredAnswer) => store.complete(`${await namespace()}${key}`, answer),
    release: async (key) => store.release(`${await namespace()}${key}`),
  };
}

export function accountScopedRateLimit(store: RateLimitStore, namespace: AccountNamespace): RateLimitStore {
  return { hit: async (key, windowMs): Promise<RateLimitHit> => store.hit(`${await namespace()}${key}`, windowMs) };
}
