import { html, type TemplateResult } from 'lit';
import type { CheckoutOutcome, CheckoutStatus, SaleClient } from '../shared/sale-client.js';
import { readyCatalog, type Language } from '../shared/i18n.js';
import { catalogs, type PayButtonMessages } from './messages.js';
import { outcome } from './sale-requests.js';
import { PayCancelEvent, PaySuccessEvent } from './events.js';
import type { PendingAttempt } from './attempt.js';

/** What the button shows of an attempt: asked about, or how it ended. */
export interface ShownOutcome {
  status: 'checking' | CheckoutStatus;
  outcome?: CheckoutOutcome | undefined;
}

/**
 * How the attempt ended, as the server records it: a provider may report a moment after the buyer is
 * back, so it asks a few times before calling it unfinished. Loads with the dialog's module.
 */
export async function askOutcome(client: SaleClient, attempt: string, signal: AbortSignal): Promise<CheckoutOutcome | undefined> {
  let answer: CheckoutOutcome | undefined;
  for (let i = 0; i < 4 && (answer?.status ?? 'pending') === 'pending'; i += 1) {
    answer = await new Promise((resolve) => setTimeout(resolve, 900 * i)).then(() => outcome(client, attempt, signal)).catch(() => answer);
    if (signal.aborted) return undefined;
  }
  return answer;
}

/** How an attempt the button asked about ended: what its status line shows, and the event it fires (`pay-success`, else `pay-cancel`). */
export function settled(pending: PendingAttempt, answer: CheckoutOutcome | undefined): [ShownOutcome, PaySuccessEvent | PayCancelEvent] {
  // A BLIK payment that failed ended as a declined one does: nothing was charged.
  const status = answer?.status === 'failed' ? 'declined' : (answer?.status ?? 'pending');
  return [{ status, outcome: answer }, status === 'paid' ? new PaySuccessEvent({ ...pending, invoice: answer!.invoice }) : new PayCancelEvent({ ...pending, reason: status })];
}

/** The link to the issued invoice, once it has an address. */
export const invoiceLink = (m: PayButtonMessages, invoice: CheckoutOutcome['invoice'] | undefined): TemplateResult | string =>
  invoice?.view_url ? html`<a part="invoice-link" href=${invoice.view_url} target="_blank">${m.viewInvoice(invoice.number)}</a>` : '';

/** The button's status line for an attempt, in `language`: checking, paid with the invoice, or declined or unfinished with a retry. */
export function outcomeStatus(language: Language, { status, outcome: answer }: ShownOutcome, retry: () => void): TemplateResult | string {
  const m = readyCatalog(catalogs, language) ?? catalogs.en;
  const invoice = answer?.invoice;
  return status === 'checking'
    ? m.checking
    : status === 'paid'
      ? html`<span class="ok">${m.paid(invoice?.number)}</span>
          ${invoiceLink(m, invoice)}`
      : html`<span class="error">${status === 'declined' ? m.declined : m.cancelled}</span>
          <button part="retry-button" type="button" @click=${retry}>${m.retry}</button>`;
}
