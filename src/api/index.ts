export { createInvoicingClient, type InvoicingClient, type InvoicingClientOptions } from './client.js';
export {
  createTransport,
  type CallOptions,
  type Format,
  type HttpMethod,
  type Operation,
  type RetryPolicy,
  type Transport,
  type TransportOptions,
} from './transport.js';
export * from './errors.js';
export { invoicesApi, type EInvoiceOptions, type InvoiceField, type InvoiceFields, type InvoicesApi, type PdfOptions, type SendByEmailOptions } from './resources/invoices.js';
export { productsApi, type ProductReadOptions, type ProductsApi } from './resources/products.js';
export { clientsApi, type ClientsApi } from './resources/clients.js';
export { paymentsApi, type PaymentsApi } from './resources/payments.js';
export { categoriesApi, type CategoriesApi } from './resources/categories.js';
export { warehousesApi, type WarehousesApi } from './resources/warehouses.js';
export { warehouseDocumentsApi, type WarehouseDocumentsApi } from './resources/warehouse-documents.js';
export { departmentsApi, type DepartmentsApi } from './resources/departments.js';
export { integrationsApi, type Credentials, type IntegrationsApi, type NewAccount, type NewUser } from './resources/integrations.js';
export { webhooksApi, type WebhooksApi } from './resources/webhooks.js';
export { recurringsApi, type RecurringsApi } from './resources/recurrings.js';
export { priceListsApi, type PriceListsApi } from './resources/price-lists.js';
export { warehouseActionsApi, type WarehouseActionsApi } from './resources/warehouse-actions.js';
export { issuersApi, type IssuersApi } from './resources/issuers.js';
export { attachmentsApi, type AttachmentsApi } from './resources/attachments.js';
export { accountApi, type AccountApi } from './resources/account.js';
export { sellerApi, type SellerApi } from './resources/seller.js';
export { collect, type Id } from './resources/shared.js';
export * from './schemas/index.js';
// The client's callers add and round the decimal strings it returns: the kernel's exact money comes
// with it, as `money` here and as `invoicekit/api/money.js` (docs/decisions/shared-kernel.md).
export * as money from '../kernel/money.js';
