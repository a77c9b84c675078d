import type { Database } from '../db.js';
import { byToken } from '../data/public-records.js';
import type { PaymentData } from '../application/payments.js';
import { updateRow } from '../store.js';
import type { PaymentProvider, PaymentStart, ProviderPayment } from './provider.js';

/** What a provider is told about a payment: its token, exact total, line, buyer and the service's return addresses. */
export function providerPaymentOf(publicUrl: string, payment: PaymentData, locale: 'en' | 'pl'): ProviderPayment {
  const checkoutUrl = `${publicUrl}/banking/payments/pay/${payment.token}`;
  return {
    token: payment.token,
    amount: payment.price,
    currency: payment.currency,
    description: String(payment.description ?? payment.name),
    buyerEmail: (payment.email as string | null) ?? null,
    returnUrl: `${checkoutUrl}/return`,
    checkoutUrl,
    locale,
  };
}

/**
 * Starts the payment at its provider. A provider that sends the buyer to its page has the provider and
 * its reference kept on the payment, so the return asks it about this very session. Throws when the
 * provider cannot be reached: the payment then stays pending, and Pay can be pressed again.
 */
export async function startPayment(db: Database, provider: PaymentProvider, payment: ProviderPayment, choice: string): Promise<PaymentStart> {
  const start = await provider.start(payment, choice);
  if ('redirectUrl' in start) {
    await db.transaction(async (tx) => {
      const found = await byToken<PaymentData>(tx, 'payments', payment.token, true);
      await updateRow(tx, 'payments', found.account.id, found.row.id, { ...found.row.data, provider: provider.id, provider_title: start.reference });
    });
  }
  return start;
}

/**
 * For a provider with a page of its own, where a new checkout sends the buyer straight away (as
 * Stripe's Buy Button does): that page's address, or `undefined` when the provider decides on the
 * service's checkout page (the test provider) or cannot be reached now (the checkout page offers Pay again).
 */
export async function providerPageOf(db: Database, provider: PaymentProvider, payment: ProviderPayment): Promise<string | undefined> {
  if (!provider.redirects) return undefined;
  const start = await startPayment(db, provider, payment, 'pay').catch(() => undefined);
  return start && 'redirectUrl' in start ? start.redirectUrl : undefined;
}
