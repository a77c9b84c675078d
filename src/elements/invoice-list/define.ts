import { InvoiceList } from './invoice-list.js';

export { InvoiceList };
export * from './events.js';

// Only where there is a registry: importing in Node (server rendering, unit tests) defines nothing.
if (typeof customElements !== 'undefined' && !customElements.get('invoice-list')) customElements.define('invoice-list', InvoiceList);

declare global {
  interface HTMLElementTagNameMap {
    'invoice-list': InvoiceList;
  }
}
