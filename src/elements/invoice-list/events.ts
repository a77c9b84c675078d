import type { ListFilter, PortalInvoice } from '../shared/bff-client.js';
import type { ListOrder, ListPeriod } from './invoice-list.js';
export { TokenExpiredEvent, type TokenProvider } from '../shared/token-renewal.js';

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

/** The list's query after the customer changed it: the values of the element's properties of the same names. */
export interface InvoiceQueryChangeDetail {
  readonly status: ListFilter | '';
  readonly period: ListPeriod;
  readonly search: string;
  readonly order: ListOrder;
  /** The page shown, from 1; a changed filter, search or sort goes back to page 1. */
  readonly page: number;
}

/**
 * The customer changed the list's query: its status filter, period, search, sort or page. Fired on the
 * customer's action only, never when code sets a property, so a page can keep the query in its URL
 * (push a history entry here, set the properties back on `popstate`). It bubbles and is not cancelable.
 */
export class InvoiceQueryChangeEvent extends Event {
  readonly detail: InvoiceQueryChangeDetail;
  constructor(detail: InvoiceQueryChangeDetail) {
    super('invoice-query-change', { bubbles: true, composed: true });
    this.detail = detail;
  }
}

declare global {
  interface GlobalEventHandlersEventMap {
    'invoice-select': InvoiceSelectEvent;
    'invoice-download': InvoiceDownloadEvent;
    'invoice-pay': InvoicePayEvent;
    'invoice-query-change': InvoiceQueryChangeEvent;
  }
}
