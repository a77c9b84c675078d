import type { MiddlewareHandler } from 'hono';
import { claimIdempotencyKey, forgetOldIdempotencyKeys, keepAnswer, keptAnswer, releaseIdempotencyKey } from './data/idempotency-keys.js';
import { ApiError, type ServiceEnv } from './http.js';
import { keyedDigests, openSecret, sealSecret } from './secrets/keyring.js';

const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

/**
 * Whose keys a route's callers share: the account's own (callers holding its api_token) or the
 * public one (strangers on a public route of the account, such as the widget's checkout).
 */
export type IdempotencyCallers = 'account' | 'public';

/**
 * `Idempotency-Key` on a POST makes a retry safe: the first request with a key runs, every later
 * one with the same key and the same body gets the first answer again, and one with another body
 * is refused with its own error. A key still in flight answers 409, so concurrent duplicates never
 * both run.
 *
 * Public callers keep their keys apart from the account's: a stranger who sends the key the shop
 * will use next (`order-1001`) claims it only among strangers, never in the shop's own API. The
 * public namespace is a prefix with a space, which no key may contain, so the two never meet.
 */
export function idempotentPosts(callers: IdempotencyCallers): MiddlewareHandler<ServiceEnv> {
  return async (c, next) => {
    const sent = c.req.header('idempotency-key');
    const account = c.get('account') as ServiceEnv['Variables']['account'] | undefined;
    // A request that two mounts match (`/invoices` and `/invoices/*`) claims its key once.
    if (c.req.method !== 'POST' || sent === undefined || !account || claimedRequests.has(c.req.raw)) return next();
    claimedRequests.add(c.req.raw);
    if (!KEY_PATTERN.test(sent)) throw new ApiError(400, 'Idempotency-Key must be 1 to 255 visible ASCII characters');
    return remembered(c, next, account, callers === 'public' ? `public ${sent}` : sent);
  };
}

const claimedRequests = new WeakSet<Request>();

/**
 * A key sent again with another request (another path or body): 422 with its own code,
 * `{"code":"idempotency_key_reused","message":…}`, so that a client tells it from invalid data
 * (docs/decisions/idempotency-key-reuse.md).
 */
export class IdempotencyKeyReusedError extends ApiError {
  override readonly code = 'idempotency_key_reused';

  constructor() {
    super(422, 'This Idempotency-Key was used with a different request.');
    this.name = 'IdempotencyKeyReusedError';
  }
}

/** For the API's own routes, whose callers hold the account's api_token. */
export const idempotentPost = idempotentPosts('account');
/** For an account's public routes, called by strangers. */
export const publicIdempotentPost = idempotentPosts('public');

async function remembered(
  c: Parameters<MiddlewareHandler<ServiceEnv>>[0],
  next: () => Promise<void>,
  account: ServiceEnv['Variables']['account'],
  key: string,
): Promise<Response | void> {
  const db = c.get('db');
  // Keyed, so that no one who reads the table can guess what a short secret in the body was (a BLIK code).
  const fingerprints = keyedDigests('idempotency fingerprint', `${c.req.method} ${new URL(c.req.url).pathname}\n${await c.req.text()}`);
  const fingerprint = fingerprints[0]!;
  await forgetOldIdempotencyKeys(db, account.id);
  if (!(await claimIdempotencyKey(db, account.id, key, fingerprint))) {
    const stored = await keptAnswer(db, account.id, key);
    if (!stored) throw new ApiError(409, 'A request with this Idempotency-Key is in progress; retry shortly');
    if (!fingerprints.includes(stored.fingerprint)) throw new IdempotencyKeyReusedError();
    if (stored.status === 0) throw new ApiError(409, 'A request with this Idempotency-Key is in progress; retry shortly');
    return c.body(stored.body === null ? '' : openSecret(stored.body), stored.status as 200, {
      'content-type': stored.content_type ?? 'application/json',
      'idempotent-replayed': 'true',
    });
  }
  try {
    await next();
  } catch (error) {
    await releaseIdempotencyKey(db, account.id, key);
    throw error;
  }
  const response = c.res;
  if (response.status >= 500 || c.error) {
    await releaseIdempotencyKey(db, account.id, key);
    return;
  }
  // Kept sealed: an answer may carry a secret (a webhook's, an account's api_token).
  const body = sealSecret(await response.clone().text());
  await keepAnswer(db, account.id, key, { status: response.status, content_type: response.headers.get('content-type'), body });
}
