'use client';

/**
 * Every element as a React component. A page that uses one element imports it alone
 * (`@invoicekit/elements/react/product-pay-button.js`), so it loads no other element.
 */
export { ClientForm } from './react/client-form.js';
export { InvoiceList } from './react/invoice-list.js';
export { ProductPayButton } from './react/product-pay-button.js';
