import { define } from '../shared/registry.js';
import { InvoiceList } from './invoice-list.js';

export { InvoiceList };
export * from './events.js';

define('invoice-list', InvoiceList);

declare global {
  interface HTMLElementTagNameMap {
    'invoice-list': InvoiceList;
  }
}
