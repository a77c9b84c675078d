import { accountApi, type AccountApi } from './resources/account.js';
import { attachmentsApi, type AttachmentsApi } from './resources/attachments.js';
import { categoriesApi, type CategoriesApi } from './resources/categories.js';
import { issuersApi, type IssuersApi } from './resources/issuers.js';
import { priceListsApi, type PriceListsApi } from './resources/price-lists.js';
import { recurringsApi, type RecurringsApi } from './resources/recurrings.js';
import { warehouseActionsApi, type WarehouseActionsApi } from './resources/warehouse-actions.js';
import { webhooksApi, type WebhooksApi } from './resources/webhooks.js';
import { clientsApi, type ClientsApi } from './resources/clients.js';
import { departmentsApi, type DepartmentsApi } from './resources/departments.js';
import { integrationsApi, type IntegrationsApi } from './resources/integrations.js';
import { invoicesApi, type InvoicesApi } from './resources/invoices.js';
import { paymentsApi, type PaymentsApi } from './resources/payments.js';
import { productsApi, type ProductsApi } from './resources/products.js';
import { sellerApi, type SellerApi } from './resources/seller.js';
import { warehouseDocumentsApi, type WarehouseDocumentsApi } from './resources/warehouse-documents.js';
import { warehousesApi, type WarehousesApi } from './resources/warehouses.js';
import { createTransport, type Transport, type TransportOptions } from './transport.js';

export type InvoicingClientOptions = TransportOptions;

export interface InvoicingClient {
  readonly transport: Transport;
  readonly invoices: InvoicesApi;
  readonly products: ProductsApi;
  readonly clients: ClientsApi;
  readonly payments: PaymentsApi;
  readonly categories: CategoriesApi;
  readonly warehouses: WarehousesApi;
  readonly warehouseDocuments: WarehouseDocumentsApi;
  readonly departments: DepartmentsApi;
  readonly integrations: IntegrationsApi;
  readonly webhooks: WebhooksApi;
  readonly recurrings: RecurringsApi;
  readonly priceLists: PriceListsApi;
  readonly warehouseActions: WarehouseActionsApi;
  readonly issuers: IssuersApi;
  readonly attachments: AttachmentsApi;
  readonly account: AccountApi;
  readonly seller: SellerApi;
}

/**
 * A client for every operation of the invoicing interface. For the smallest browser bundle, compose
 * only what you use instead: `invoicesApi(createTransport(options))`.
 */
export function createInvoicingClient(options: InvoicingClientOptions): InvoicingClient {
  const transport = createTransport(options);
  return {
    transport,
    invoices: invoicesApi(transport),
    products: productsApi(transport),
    clients: clientsApi(transport),
    payments: paymentsApi(transport),
    categories: categoriesApi(transport),
    warehouses: warehousesApi(transport),
    warehouseDocuments: warehouseDocumentsApi(transport),
    departments: departmentsApi(transport),
    integrations: integrationsApi(transport),
    webhooks: webhooksApi(transport),
    recurrings: recurringsApi(transport),
    priceLists: priceListsApi(transport),
    warehouseActions: warehouseActionsApi(transport),
    issuers: issuersApi(transport),
    attachments: attachmentsApi(transport),
    account: accountApi(transport),
    seller: sellerApi(transport),
  };
}
