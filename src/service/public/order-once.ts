import { randomToken } from '../passwords.js';
import { claimIdempotencyKey, keepAnswer, keptAnswer, releaseIdempotencyKey } from '../data/idempotency-keys.js';
import { ApiError, type ServiceContext } from '../http.js';
import { keyedDigests, openSecret, sealSecret } from '../secrets/keyring.js';

/**
 * The order page's form carries a key made when the page was shown (`order_key`), as a script's
 * checkout carries its `Idempotency-Key`: the same form posted twice (a double click, the browser's
 * resubmission) makes one order, and so sends a BLIK code once. The second post goes where the first
 * went. Kept among the account's public keys, beside the widget's.
 */

export const ORDER_KEY_FIELD = 'order_key';

/** A new form's key. */
export const newOrderKey = (): string => randomToken(18);

const KEY = /^[A-Za-z0-9_-]{16,64}$/;

/**
 * Runs `order` once per form key and answers where the buyer goes next (the checkout page); a form
 * without a key (an older page) simply runs. A failed order gives its key up, so the corrected form
 * may be posted again.
 */
export async function orderOnce(c: ServiceContext, accountId: number, order: () => Promise<string>): Promise<string> {
  const sent = c.get('body')[ORDER_KEY_FIELD];
  if (typeof sent !== 'string' || !KEY.test(sent)) return order();
  const db = c.get('db');
  const key = `public order ${sent}`;
  const fingerprint = keyedDigests('order form', key)[0]!;
  if (!(await claimIdempotencyKey(db, accountId, key, fingerprint))) {
    const kept = await keptAnswer(db, accountId, key);
    if (!kept?.body || kept.status === 0) throw new ApiError(409, 'This order is being placed; wait a moment and reload the page');
    return openSecret(kept.body);
  }
  try {
    const next = await order();
    await keepAnswer(db, accountId, key, { status: 303, content_type: null, body: sealSecret(next) });
    return next;
  } catch (error) {
    await releaseIdempotencyKey(db, accountId, key);
    throw error;
  }
}
