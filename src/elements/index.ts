/** Every invoicekit element, registered: the entry of the single-file bundle for a script tag. */
export * from './invoice-list/define.js';
export * from './client-form/define.js';
export * from './product-pay-button/define.js';
