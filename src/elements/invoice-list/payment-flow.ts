import { html, nothing } from 'lit';
import type { BffClient, PaymentOutcomeStatus, PortalInvoice } from '../shared/bff-client.js';
import { catalogLanguage, type Language } from '../shared/i18n.js';
import { payOutcomeStyles } from './invoice-list-pay-outcome.styles.js';
import { PAYMENT_KEY, type PaymentResult } from './payment.js';

/**
 * The pay flow: starting a payment, asking how it ended when the customer comes back, and saying so.
 * A module of its own, loaded when a row's Pay is about to be used (the pointer or the focus on it), or
 * when the list finds a payment waiting for the customer's return (docs/decisions/invoice-list-weight.md).
 */

/** What the pay flow says, in every language the list speaks: a few hundred bytes that come with the flow, not with the list. */
const words: Record<Language, { payFailed: (number: string) => string; payOutcome: Record<PaymentOutcomeStatus, (number: string) => string>; payAgain: string; dismiss: string }> = {
  en: {
    payFailed: (number) => `Could not start paying invoice ${number}.`,
    payOutcome: {
      paid: (number) => `Payment for ${number} received. Thank you!`,
      declined: (number) => `Payment for ${number} declined: nothing was charged. Try again?`,
      cancelled: (number) => `Payment for ${number} cancelled: nothing was charged. Try again?`,
      pending: (number) => `Payment for ${number} is being processed. The list updates once it is confirmed.`,
    },
    payAgain: 'Pay again',
    dismiss: 'Dismiss',
  },
  pl: {
    payFailed: (number) => `Nie udało się rozpocząć płatności za fakturę ${number}.`,
    payOutcome: {
      paid: (number) => `Płatność za ${number} przyjęta. Dziękujemy!`,
      declined: (number) => `Płatność za ${number} odrzucona: nic nie pobrano. Spróbować ponownie?`,
      cancelled: (number) => `Płatność za ${number} anulowana: nic nie pobrano. Spróbować ponownie?`,
      pending: (number) => `Płatność za ${number} jest przetwarzana. Lista odświeży się po jej potwierdzeniu.`,
    },
    payAgain: 'Zapłać ponownie',
    dismiss: 'Zamknij',
  },
};

const wordsFor = (locale: string) => words[catalogLanguage(locale) ?? 'en'];

/**
 * Asks the BFF where the customer pays what is left on `invoice` and comes back to `returnUrl`, and
 * keeps the attempt for the page they come back to. Answers where to go: the payment page the BFF
 * named, else the invoice's own, which still takes the payment (only the way back is lost), with a
 * word why through `announce`.
 */
export async function startPayment(client: BffClient, invoice: PortalInvoice, returnUrl: string, locale: string, announce: (text: string) => void): Promise<string | null> {
  try {
    const answer = await client.payment(invoice.id, returnUrl);
    if (answer.attempt) sessionStorage.setItem(PAYMENT_KEY, JSON.stringify({ attempt: answer.attempt, invoice }));
    return answer.redirectUrl ?? invoice.payment_url;
  } catch {
    announce(wordsFor(locale).payFailed(invoice.number));
    return invoice.payment_url;
  }
}

/**
 * Back from the payment page: asks the BFF how the payment ended (the return address proves
 * nothing). A payment the provider has not settled yet is asked about a few more times, and
 * `paidLate` is called when it settles as paid meanwhile. Nothing when no payment was waiting. The
 * client is made only then: a server rendering the list has no page to make one for.
 */
export async function paymentOnReturn(client: () => BffClient, paidLate: () => void): Promise<PaymentResult | undefined> {
  let pending: { attempt: string; invoice: PortalInvoice } | undefined;
  try {
    pending = JSON.parse(sessionStorage.getItem(PAYMENT_KEY) ?? 'null') ?? undefined;
    sessionStorage.removeItem(PAYMENT_KEY);
  } catch {
    // storage blocked or a value not ours: nothing to report
  }
  if (typeof pending?.attempt !== 'string' || typeof pending.invoice?.number !== 'string') return undefined;
  let status: PaymentOutcomeStatus = 'pending';
  for (let round = 0; round < 4 && status === 'pending'; round += 1) {
    if (round) await new Promise((resolve) => setTimeout(resolve, 1000 * round));
    status = (await client().paymentOutcome(pending.attempt).catch(() => undefined))?.status ?? status;
    if (round && status === 'paid') paidLate();
  }
  return { status, invoice: pending.invoice };
}

/** How the payment ended, in words: the outcome's text, and what the list's live region says. */
export const outcomeText = ({ status, invoice }: PaymentResult, locale: string) => wordsFor(locale).payOutcome[status](invoice.number);

/** How the payment ended, with a way to pay again after a decline or cancel. Its styles come with it. */
export function payOutcome(result: PaymentResult, locale: string, payAgain: (event: Event) => void, dismiss: () => void) {
  const w = wordsFor(locale);
  const { status } = result;
  return html`<div class="pay-outcome ${status}" part="pay-outcome pay-outcome-${status}">
    <style>
      ${payOutcomeStyles.cssText}
    </style>
    <p>${outcomeText(result, locale)}</p>
    ${status === 'declined' || status === 'cancelled' ? html`<button type="button" part="pay-again-button" @click=${payAgain}>${w.payAgain}</button>` : nothing}
    <button type="button" class="dismiss" @click=${dismiss}>${w.dismiss}</button>
  </div>`;
}
