import { InvoicingError } from '../api/errors.js';
import type { Bff, BffContext } from './context.js';

const KEY = 'payments:test-mode';
/** A service that answered with an error is asked again this soon, not after the whole cache time. */
const FAILURE_RETRY_MS = 5_000;
/** Statuses that mean the service has no `/account/payments` (the hosted service): it cannot say. */
const NO_ENDPOINT = new Set([404, 405, 501]);

/**
 * Whether products say `test_mode`. `checkout.testMode: true | false` decides outright. Otherwise
 * (unset, or `'service'`) the account decides: the service's `GET /account/payments` says whether
 * its provider moves no real money, remembered like products. A service without that endpoint (the
 * hosted one), or one that fails, is taken as live: the badge never claims that no money moves when
 * that is not known. A failure is remembered only briefly, so a blip does not hide test mode for long.
 */
export async function paymentsTestMode(bff: Bff, c: BffContext): Promise<boolean> {
  const configured = bff.checkout.testMode;
  if (typeof configured === 'boolean') return configured;
  const account = bff.client.account;
  if (!account) return false;
  const kept = await bff.cache.get(KEY);
  if (typeof kept === 'boolean') return kept;
  const ttlMs = bff.options.productCacheMs ?? 30_000;
  const answer = await bff
    .service(c, 'account.paymentSettings', (call) =>
      account.paymentSettings(call).then(
        (settings) => ({ testMode: settings.test_mode, ttlMs }),
        (error: unknown) => {
          if (error instanceof InvoicingError && NO_ENDPOINT.has(error.status)) return { testMode: false, ttlMs };
          throw error;
        },
      ),
    )
    .catch(() => ({ testMode: false, ttlMs: Math.min(ttlMs, FAILURE_RETRY_MS) }));
  await bff.cache.set(KEY, answer.testMode, answer.ttlMs);
  return answer.testMode;
}
