import type { PaymentOutcomeStatus, PortalInvoice } from '../shared/bff-client.js';

/** Where a payment waits while the customer is on the payment page; the list they come back to reads it. */
export const PAYMENT_KEY = 'invoicekit-invoice-payment';

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

/** Whether a payment waits for the customer's return: only then does the list load the pay flow to ask how it ended. */
export function paymentWaiting(): boolean {
  try {
    return !!sessionStorage.getItem(PAYMENT_KEY);
  } catch {
    // storage blocked: nothing can be waiting
    return false;
  }
}
