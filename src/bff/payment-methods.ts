import { InvoicingError } from '../api/errors.js';
import type { Bff, BffContext } from './context.js';

const KEY = 'payments:blik';
/** A service that answered with an error is asked again this soon, not after the whole cache time. */
const FAILURE_RETRY_MS = 5_000;

/**
 * Whether the checkout takes a BLIK code on the page. `checkout.blik: true | false` decides outright.
 * Otherwise the service's `GET /account/payment_methods` says whether the account's provider does
 * BLIK "level 0", remembered like products. A service without the route (the hosted one answers
 * 404), a client without the call, or any failure means no BLIK: the buyer then pays on the
 * provider's page as before. A failure is remembered only briefly.
 */
export async function blikOffered(bff: Bff, c: BffContext): Promise<boolean> {
  const configured = bff.checkout.blik;
  if (typeof configured === 'boolean') return configured;
  const account = bff.client.account;
  if (!account?.paymentMethods) return false;
  const kept = await bff.cache.get(KEY);
  if (typeof kept === 'boolean') return kept;
  const ttlMs = bff.options.productCacheMs ?? 30_000;
  const answer = await bff
    .service(c, 'account.paymentMethods', (call) =>
      account.paymentMethods!(call).then(
        (methods) => ({ blik: methods.blik, ttlMs }),
        (error: unknown) => {
          if (error instanceof InvoicingError && error.status === 404) return { blik: false, ttlMs };
          throw error;
        },
      ),
    )
    .catch(() => ({ blik: false, ttlMs: Math.min(ttlMs, FAILURE_RETRY_MS) }));
  await bff.cache.set(KEY, answer.blik, answer.ttlMs);
  return answer.blik;
}

/** BLIK is offered for a product: the account's provider takes codes on the page, and the product is sold in złoty. */
export async function blikFor(bff: Bff, c: BffContext, currency: string): Promise<boolean> {
  return currency.toUpperCase() === 'PLN' && (await blikOffered(bff, c));
}
