import type { PortalInvoice } from '../shared/bff-client.js';

export interface InvoiceEventDetail {
  readonly invoice: PortalInvoice;
}

export interface InvoicePayEventDetail extends InvoiceEventDetail {
  /** Where the customer pays this invoice. */
  readonly paymentUrl: string;
}

/** What the three events share: they bubble out of the shadow root and can be cancelled. */
abstract class InvoiceEvent<D extends InvoiceEventDetail> extends Event {
  readonly detail: D;
  constructor(type: string, detail: D) {
    super(type, { bubbles: true, composed: true, cancelable: true });
    this.detail = detail;
  }
}

/**
 * The customer chose to open an invoice (the View action or a click on its row). Cancel it with
 * `preventDefault()` to show the invoice in your own page instead of opening its `view_url` in a new tab.
 */
export class InvoiceSelectEvent extends InvoiceEvent<InvoiceEventDetail> {
  constructor(invoice: PortalInvoice) {
    super('invoice-select', { invoice });
  }
}

/** The customer asked for an invoice's PDF. Cancel it to handle the download yourself. */
export class InvoiceDownloadEvent extends InvoiceEvent<InvoiceEventDetail> {
  constructor(invoice: PortalInvoice) {
    super('invoice-download', { invoice });
  }
}

/** The customer chose to pay an invoice. Cancel it to run your own checkout instead of `payment_url`. */
export class InvoicePayEvent extends InvoiceEvent<InvoicePayEventDetail> {
  constructor(invoice: PortalInvoice) {
    super('invoice-pay', { invoice, paymentUrl: invoice.payment_url ?? '' });
  }
}

declare global {
  interface GlobalEventHandlersEventMap {
    'invoice-select': InvoiceSelectEvent;
    'invoice-download': InvoiceDownloadEvent;
    'invoice-pay': InvoicePayEvent;
  }
}
