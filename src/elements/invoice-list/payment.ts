import { html, nothing } from 'lit';
import type { BffClient, PaymentOutcomeStatus, PortalInvoice } from '../shared/bff-client.js';
import type { InvoiceListMessages } from './messages.js';

/** Where a payment waits while the customer is on the payment page; the list they come back to reads it. */
const PAYMENT_KEY = 'invoicekit-invoice-payment';

/** How a payment the customer came back from ended. */
export interface PaymentResult {
  status: PaymentOutcomeStatus;
  invoice: PortalInvoice;
}

/** A link's own navigation, as a click on it would have made; `download` saves instead of opening. */
export function follow(href: string, download = false): void {
  const anchor = document.createElement('a');
  anchor.href = href;
  if (download) anchor.download = '';
  anchor.click();
}

/**
 * Asks the BFF where the customer pays what is left on `invoice` and comes back to `returnUrl`, and
 * keeps the attempt for the page they come back to. Answers the payment page, if the BFF named one.
 */
export async function startPayment(client: BffClient, invoice: PortalInvoice, returnUrl: string): Promise<string | null> {
  const answer = await client.payment(invoice.id, returnUrl);
  if (answer.attempt) sessionStorage.setItem(PAYMENT_KEY, JSON.stringify({ attempt: answer.attempt, invoice }));
  return answer.redirectUrl;
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

/** How the payment ended, with a way to pay again after a decline or cancel. */
export function payOutcome({ status, invoice }: PaymentResult, m: InvoiceListMessages, payAgain: (event: Event) => void, dismiss: () => void) {
  const again = status === 'declined' || status === 'cancelled';
  return html`<div class="pay-outcome ${status}" part="pay-outcome pay-outcome-${status}">
    <p>${m.payOutcome[status](invoice.number)}</p>
    ${again ? html`<button type="button" part="pay-again-button" @click=${payAgain}>${m.payAgain}</button>` : nothing}
    <button type="button" class="dismiss" @click=${dismiss}>${m.dismiss}</button>
  </div>`;
}
