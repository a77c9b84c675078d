/**
 * Payment providers: who takes the buyer's money for a checkout. The service owns the checkout page
 * (seller, line, VAT, total, buyer) and the payment record; a provider only moves the money. Adding
 * real provider means implementing this interface, a notification route that ends in
 * `settlePayment` (settlement.ts), and a case in the account's settings (settings.ts). Stripe and
 * Przelewy24 are built so. See docs/payment-providers.md.
 */

import type { BlikFailureReason } from '../../contract/sale.js';

export type { BlikFailureReason };

/** What the service knows about a payment at the moment the buyer presses Pay. */
export interface ProviderPayment {
  /** The payment's unguessable token; use it as the provider's order reference. */
  token: string;
  /** Total to charge, an exact decimal string in the currency's minor units (`"1845.00"`, `"1500"`). */
  amount: string;
  /** ISO 4217 code. */
  currency: string;
  /** What the buyer buys, e.g. `2 × Logo design`. */
  description: string;
  buyerEmail: string | null;
  /**
   * Where the provider sends the buyer back when it is done. The service checks the outcome there with
   * `outcome`, never from the query alone.
   */
  returnUrl: string;
  /** The service's checkout page of the payment: where a buyer who cancels at the provider goes back to choose again. */
  checkoutUrl?: string | undefined;
  /** The buyer's language, for the provider's own page. */
  locale?: 'en' | 'pl' | undefined;
  /**
   * The buyer's connection, for a BLIK code sent from the shop's page: Przelewy24 wants the payer's
   * address and browser with such a transaction (its `additional.PSU`).
   */
  buyerClient?: { ip: string; userAgent: string } | undefined;
}

/** How a payment ended, as the provider reports it. */
export type PaymentOutcome = 'paid' | 'declined' | 'cancelled' | 'pending';

/**
 * Either the provider decided at once (the test provider), or the buyer goes to the provider's page
 * and comes back to `returnUrl`.
 */
export type PaymentStart = { outcome: PaymentOutcome; reference?: string } | { redirectUrl: string; reference: string };

/** A BLIK code sent to the provider: its reference for the transaction, or why it failed at once. */
export type BlikCharge = { reference: string } | { failed: BlikFailureReason; reference?: string };

/**
 * BLIK "level 0": the buyer types the six-digit code on the shop's page and confirms in the bank app.
 * `chargeByCode` sends the code with the transaction (Przelewy24's `paymentMethod/blik/chargeByCode`,
 * Stripe's PaymentIntent confirmed with `payment_method_options.blik.code`). It never keeps the code.
 * The outcome arrives later, by the provider's signed notification, which ends in `settlePayment`
 * (`outcome: 'paid'`, or `'declined'` with `failure`).
 */
export interface BlikCapability {
  chargeByCode(payment: ProviderPayment, code: string): Promise<BlikCharge>;
}

export interface PaymentProvider {
  /** Stored on the payment as `provider`: `"test"`, `"stripe"`, … */
  readonly id: string;
  /** True while no real money moves: the button and the checkout page then show a "test mode" badge. */
  readonly testMode: boolean;
  /**
   * True when Pay sends the buyer to the provider's own page (Stripe Checkout, Przelewy24): a new
   * checkout then goes there at once, without stopping at the service's checkout page.
   */
  readonly redirects?: boolean;
  /**
   * The buyer pressed a button of the checkout page. `choice` is the `value` of the pressed button
   * (`pay`, or for the test provider also `decline`).
   */
  start(payment: ProviderPayment, choice: string): Promise<PaymentStart>;
  /**
   * The buyer came back from the provider's page: what does the provider say about `reference`? Ask
   * the provider's API here; the return address can be forged.
   */
  outcome(reference: string, payment: ProviderPayment): Promise<PaymentOutcome>;
  /** Present when the provider takes a BLIK code on the shop's page (PLN only). */
  readonly blik?: BlikCapability;
}

/**
 * The test provider: the checkout page itself offers Pay and Decline, and whichever the buyer presses
 * is the outcome. No money moves, so every page that shows it says "test mode".
 */
export const testPaymentProvider: PaymentProvider = {
  id: 'test',
  testMode: true,
  async start(_payment, choice) {
    return { outcome: choice === 'decline' ? 'declined' : 'paid' };
  },
  async outcome() {
    return 'pending';
  },
};

/**
 * The provider a service uses: the one configured, else the test provider when test payments are
 * switched on, else none (the checkout page then says online payment is not available).
 */
export function selectPaymentProvider(options: {
  paymentProvider?: PaymentProvider | null | undefined;
  testPayments?: boolean | undefined;
  /** The test provider as the service runs it (with its BLIK); `testPaymentProvider` by default. */
  test?: PaymentProvider | undefined;
}): PaymentProvider | null {
  if (options.paymentProvider !== undefined) return options.paymentProvider;
  return options.testPayments === false ? null : (options.test ?? testPaymentProvider);
}
