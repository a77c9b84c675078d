import { InvoiceList } from './invoice-list.js';

export { InvoiceList };
export * from './events.js';

if (!customElements.get('invoice-list')) customElements.define('invoice-list', InvoiceList);

declare global {
  interface HTMLElementTagNameMap {
    'invoice-list': InvoiceList;
  }
}
