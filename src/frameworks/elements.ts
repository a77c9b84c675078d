import type { InvoiceDownloadEvent, InvoicePayEvent, InvoiceQueryChangeEvent, InvoiceSelectEvent } from '../elements/invoice-list/events.js';
import type { TokenExpiredEvent } from '../elements/shared/token-renewal.js';
import type { InvoiceList } from '../elements/invoice-list/invoice-list.js';
import type { ClientForm } from '../elements/client-form/client-form.js';
import type { ClientChangeEvent, ClientErrorEvent, ClientSavedEvent } from '../elements/client-form/events.js';
import type { PayBeforeEvent, PayCancelEvent, PayErrorEvent, PayStartEvent, PaySuccessEvent } from '../elements/product-pay-button/events.js';
import type { ProductPayButton } from '../elements/product-pay-button/product-pay-button.js';

/**
 * Every invoicekit element by tag name: its class and the events it fires, by type. The Vue and
 * Svelte template typings are derived from this map, so a new element is one line here.
 */
export interface InvoicekitElements {
  'invoice-list': {
    element: InvoiceList;
    events: {
      'invoice-select': InvoiceSelectEvent;
      'invoice-download': InvoiceDownloadEvent;
      'invoice-pay': InvoicePayEvent;
      'invoice-query-change': InvoiceQueryChangeEvent;
      'token-expired': TokenExpiredEvent;
    };
  };
  'client-form': {
    element: ClientForm;
    events: { 'client-change': ClientChangeEvent; 'client-saved': ClientSavedEvent; 'client-error': ClientErrorEvent; 'token-expired': TokenExpiredEvent };
  };
  'product-pay-button': {
    element: ProductPayButton;
    events: { 'pay-before': PayBeforeEvent; 'pay-start': PayStartEvent; 'pay-success': PaySuccessEvent; 'pay-cancel': PayCancelEvent; 'pay-error': PayErrorEvent };
  };
}

type Fn = (...args: never[]) => unknown;

/** The properties a template may set: the element's own public fields, without its methods. */
export type ElementProperties<E> = Partial<{
  [K in keyof E as K extends keyof HTMLElement ? never : E[K] extends Fn ? never : K]: E[K];
}>;

/** `invoice-select` → `InvoiceSelect`. */
export type PascalEventName<S extends string> = S extends `${infer Head}-${infer Tail}` ? `${Capitalize<Head>}${PascalEventName<Tail>}` : Capitalize<S>;
