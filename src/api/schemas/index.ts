export * from './common.js';
export * from './invoice.js';
export * from './product.js';
export * from './client.js';
export * from './payment.js';
export * from './catalog.js';
export * from './warehouse-document.js';
export * from './account.js';
