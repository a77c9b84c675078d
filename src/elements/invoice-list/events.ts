import type { PortalInvoice } from '../shared/bff-client.js';

export interface InvoiceEventDetail {
  readonly invoice: PortalInvoice;
}

export interface InvoicePayEventDetail extends InvoiceEventDetail {
  /** Where the customer pays this invoice. */
  readonly paymentUrl: string;
}

const init = { bubbles: true, composed: true, cancelable: true } as const;

/**
 * The customer chose to open an invoice (the View action or a click on its row). Cancel it with
 * `preventDefault()` to show the invoice in your own page instead of opening its `view_url` in a new tab.
 */
export class InvoiceSelectEvent extends Event {
  readonly detail: InvoiceEventDetail;
  constructor(invoice: PortalInvoice) {
    super('invoice-select', init);
    this.detail = { invoice };
  }
}

/** The customer asked for an invoice's PDF. Cancel it to handle the download yourself. */
export class InvoiceDownloadEvent extends Event {
  readonly detail: InvoiceEventDetail;
  constructor(invoice: PortalInvoice) {
    super('invoice-download', init);
    this.detail = { invoice };
  }
}

/** The customer chose to pay an invoice. Cancel it to run your own checkout instead of `payment_url`. */
export class InvoicePayEvent extends Event {
  readonly detail: InvoicePayEventDetail;
  constructor(invoice: PortalInvoice) {
    super('invoice-pay', init);
    this.detail = { invoice, paymentUrl: invoice.payment_url ?? '' };
  }
}

declare global {
  interface GlobalEventHandlersEventMap {
    'invoice-select': InvoiceSelectEvent;
    'invoice-download': InvoiceDownloadEvent;
    'invoice-pay': InvoicePayEvent;
  }
}
