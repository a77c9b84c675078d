import type { Bff, BffContext } from './context.js';

const KEY = 'payments:test-mode';

/**
 * Whether products say `test_mode`: as `checkout.testMode` says, or with `'service'` as the service
 * says for the account (`GET /account/payments`), remembered like products. A service that cannot
 * say is taken as live: the badge never claims that no money moves when that is not known.
 */
export async function paymentsTestMode(bff: Bff, c: BffContext): Promise<boolean> {
  const configured = bff.checkout.testMode ?? false;
  if (configured !== 'service') return configured;
  const account = bff.client.account;
  if (!account) return false;
  const kept = await bff.cache.get(KEY);
  if (typeof kept === 'boolean') return kept;
  const testMode = await bff
    .service(c, 'account.paymentSettings', (signal) => account.paymentSettings({ signal }))
    .then((settings) => settings.test_mode, () => false);
  await bff.cache.set(KEY, testMode, bff.options.productCacheMs ?? 30_000);
  return testMode;
}
