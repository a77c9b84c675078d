import * as z from 'zod';
import * as schemas from '../api/schemas/index.js';

/**
 * The OpenAPI 3.1 description of the interface, generated from the same zod schemas that validate
 * requests here and parse answers in the typed client, so the three cannot drift apart. Served at
 * `{base_url}/openapi.json`.
 */

type JsonSchema = Record<string, unknown>;
type Ext = 'json' | 'xml';

/** Component name → schema, and whether it describes what is sent (`input`) or answered (`output`). */
const COMPONENTS: Record<string, [z.ZodType, 'input' | 'output']> = {
  Invoice: [schemas.invoice, 'output'],
  InvoiceList: [schemas.invoiceList, 'output'],
  InvoiceSummary: [schemas.invoiceSummary, 'output'],
  InvoiceCreateInput: [schemas.invoiceCreateInput, 'input'],
  InvoiceUpdateInput: [schemas.invoiceUpdateInput, 'input'],
  CancelInvoiceInput: [schemas.cancelInvoiceInput, 'input'],
  SendByEmailResult: [schemas.sendByEmailResult, 'output'],
  Product: [schemas.product, 'output'],
  ProductList: [schemas.productList, 'output'],
  ProductCreateInput: [schemas.productCreateInput, 'input'],
  ProductUpdateInput: [schemas.productUpdateInput, 'input'],
  Client: [schemas.client, 'output'],
  ClientList: [schemas.clientList, 'output'],
  ClientCreateInput: [schemas.clientCreateInput, 'input'],
  ClientUpdateInput: [schemas.clientUpdateInput, 'input'],
  Payment: [schemas.payment, 'output'],
  PaymentList: [schemas.paymentList, 'output'],
  PaymentCreateInput: [schemas.paymentCreateInput, 'input'],
  BlikCodeInput: [schemas.blikCodeInput, 'input'],
  PaymentMethods: [schemas.paymentMethods, 'output'],
  Category: [schemas.category, 'output'],
  CategoryList: [schemas.categoryList, 'output'],
  CategoryCreateInput: [schemas.categoryCreateInput, 'input'],
  Warehouse: [schemas.warehouse, 'output'],
  WarehouseList: [schemas.warehouseList, 'output'],
  WarehouseCreateInput: [schemas.warehouseCreateInput, 'input'],
  WarehouseDocument: [schemas.warehouseDocument, 'output'],
  WarehouseDocumentList: [schemas.warehouseDocumentList, 'output'],
  WarehouseDocumentCreateInput: [schemas.warehouseDocumentCreateInput, 'input'],
  WarehouseDocumentUpdateInput: [schemas.warehouseDocumentUpdateInput, 'input'],
  Department: [schemas.department, 'output'],
  DepartmentList: [schemas.departmentList, 'output'],
  AddUserInput: [schemas.addUserInput, 'input'],
  LoginInput: [schemas.loginInput, 'input'],
  CreateAccountInput: [schemas.createAccountInput, 'input'],
  UserResult: [schemas.userResult, 'output'],
  LoginResult: [schemas.loginResult, 'output'],
  AccountResult: [schemas.accountResult, 'output'],
  KsefSettings: [schemas.ksefSettings, 'output'],
  KsefSettingsInput: [schemas.ksefSettingsBody, 'input'],
  AccountInfo: [schemas.accountInfo, 'output'],
  PaymentSettingsResult: [schemas.paymentSettingsResult, 'output'],
  PaymentSettingsInput: [schemas.paymentSettingsInput, 'input'],
  Webhook: [schemas.webhook, 'output'],
  WebhookList: [schemas.webhookList, 'output'],
  WebhookCreateInput: [schemas.webhookCreateInput, 'input'],
  WebhookUpdateInput: [schemas.webhookUpdateInput, 'input'],
  WebhookDelivery: [schemas.webhookDelivery, 'output'],
  WebhookDeliveryList: [schemas.webhookDeliveryList, 'output'],
  Recurring: [schemas.recurring, 'output'],
  RecurringList: [schemas.recurringList, 'output'],
  RecurringCreateInput: [schemas.recurringCreateInput, 'input'],
  RecurringUpdateInput: [schemas.recurringUpdateInput, 'input'],
  PriceList: [schemas.priceList, 'output'],
  PriceListList: [schemas.priceListList, 'output'],
  PriceListCreateInput: [schemas.priceListCreateInput, 'input'],
  PriceListUpdateInput: [schemas.priceListUpdateInput, 'input'],
  WarehouseAction: [schemas.warehouseActionRecord, 'output'],
  WarehouseActionList: [schemas.warehouseActionRecordList, 'output'],
  Issuer: [schemas.issuer, 'output'],
  IssuerList: [schemas.issuerList, 'output'],
  IssuerCreateInput: [schemas.issuerCreateInput, 'input'],
  IssuerUpdateInput: [schemas.issuerUpdateInput, 'input'],
  DepartmentInput: [schemas.departmentInput, 'input'],
  PaymentUpdateInput: [schemas.paymentUpdateInput, 'input'],
  AttachmentCredentials: [schemas.attachmentCredentials, 'output'],
  Attachment: [schemas.attachment, 'output'],
  AttachmentList: [schemas.attachmentList, 'output'],
  AccountAddUserInput: [schemas.accountAddUserInput, 'input'],
  AccountUnlinkInput: [schemas.accountUnlinkInput, 'input'],
  AccountOperationResult: [schemas.accountOperationResult, 'output'],
  ErrorBody: [schemas.errorBody, 'output'],
  SuccessBody: [schemas.successBody, 'output'],
  ApiTokenRotation: [schemas.apiTokenRotation, 'output'],
  AttentionOverview: [schemas.attentionOverview, 'output'],
  ConnectionTest: [schemas.connectionTest, 'output'],
  InvoiceEmailList: [schemas.invoiceEmailList, 'output'],
};

function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as JsonSchema;
  return rest;
}

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/** A list of query parameters from an object schema. */
function queryParameters(schema: z.ZodType): JsonSchema[] {
  const converted = jsonSchema(schema, 'input');
  const properties = (converted['properties'] ?? {}) as Record<string, JsonSchema>;
  const required = new Set((converted['required'] as string[] | undefined) ?? []);
  return Object.entries(properties).map(([name, property]) => ({
    name,
    in: 'query',
    required: required.has(name) && !('default' in property),
    ...(typeof property['description'] === 'string' ? { description: property['description'] } : {}),
    schema: property,
  }));
}

interface OperationSpec {
  id: string;
  tag: string;
  summary: string;
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  /** The path without extension, e.g. `/invoices/{id}`; or one path per format. */
  path: string | Record<Ext, string>;
  formats?: readonly Ext[];
  query?: z.ZodType;
  /** The wrapper key and the component of a resource body. */
  body?: [wrapper: string, component: string];
  /** A body without wrapper (integrations). */
  plainBody?: string;
  multipart?: boolean;
  status?: '200' | '201';
  response: string | 'pdf' | 'javascript' | 'zip' | 'xml' | 'einvoice';
  security?: 'account' | 'integration' | 'account+integration' | 'none';
  notFound?: boolean;
  /** Headers of the success answer, by name. */
  headers?: Record<string, JsonSchema>;
}

const BOTH: readonly Ext[] = ['json', 'xml'];
const JSON_ONLY: readonly Ext[] = ['json'];

/** Read, update and delete by id, list and create: the shape most resources share. */
function crud(
  tag: string,
  path: string,
  wrapper: string,
  names: { one: string; list: string; create: string; update?: string; query?: z.ZodType },
  operations: readonly ('list' | 'create' | 'get' | 'update' | 'delete')[],
): OperationSpec[] {
  const title = tag.replace(/s$/, '');
  const specs: Record<string, OperationSpec> = {
    list: { id: `list${tag}`, tag, summary: `List ${tag.toLowerCase()} (one page)`, method: 'get', path, ...(names.query ? { query: names.query } : {}), response: names.list },
    create: { id: `create${title}`, tag, summary: `Create a ${title.toLowerCase()}`, method: 'post', path, body: [wrapper, names.create], status: '201', response: names.one },
    get: { id: `get${title}`, tag, summary: `Read a ${title.toLowerCase()}`, method: 'get', path: `${path}/{id}`, response: names.one, notFound: true },
    update: { id: `update${title}`, tag, summary: `Update a ${title.toLowerCase()}`, method: 'put', path: `${path}/{id}`, body: [wrapper, names.update ?? names.create], response: names.one, notFound: true },
    delete: { id: `delete${title}`, tag, summary: `Delete a ${title.toLowerCase()}`, method: 'delete', path: `${path}/{id}`, response: 'SuccessBody', notFound: true },
  };
  return operations.map((operation) => specs[operation]!);
}

/** The list's summary, when asked with `summary=true` (an extension of this service). */
const LIST_SUMMARY_HEADER: JsonSchema = {
  description: 'With `summary=true` only: the summary of the same query (count, and what is due and overdue per currency) as JSON, the answer of GET /invoices/summary. Absent from services without this extension.',
  schema: { type: 'string', contentMediaType: 'application/json', contentSchema: ref('InvoiceSummary') },
};

const OPERATIONS: OperationSpec[] = [
  ...crud('Invoices', '/invoices', 'invoice', { one: 'Invoice', list: 'InvoiceList', create: 'InvoiceCreateInput', update: 'InvoiceUpdateInput', query: schemas.invoiceListQuery }, ['list', 'create', 'update', 'delete']).map((spec) =>
    spec.id === 'listInvoices' ? { ...spec, headers: { 'X-Invoicekit-Summary': LIST_SUMMARY_HEADER } } : spec,
  ),
  {
    id: 'getInvoice', tag: 'Invoices', summary: 'Read an invoice with its positions and nested parts', method: 'get', path: '/invoices/{id}',
    query: z.object({
      'additional_fields[invoice]': z.string().optional().describe(`Comma-separated extra keys: ${schemas.INVOICE_ADDITIONAL_FIELDS.join(', ')}`),
    }),
    response: 'Invoice', notFound: true,
  },
  {
    id: 'getInvoicePdf', tag: 'Invoices', summary: 'The invoice as a PDF document', method: 'get', path: '/invoices/{id}', formats: [],
    query: z.object({ print_option: z.enum(['original', 'copy']).optional(), format: z.enum(['facturx']).optional() }), response: 'pdf', notFound: true,
  },
  { id: 'getInvoiceSummary', tag: 'Invoices', summary: 'Count and amounts due of the invoices a list query selects, per currency (extension of this service)', method: 'get', path: '/invoices/summary', query: schemas.invoiceListQuery, response: 'InvoiceSummary' },
  { id: 'sendInvoiceByEmail', tag: 'Invoices', summary: 'Send the invoice to the buyer by e-mail', method: 'post', path: '/invoices/{id}/send_by_email', query: schemas.sendByEmailInput, response: 'SendByEmailResult', notFound: true },
  { id: 'changeInvoiceStatus', tag: 'Invoices', summary: 'Change the status of an invoice (also from `invoice.status` in the body; `paid_date` with `paid`)', method: 'post', path: '/invoices/{id}/change_status', query: schemas.changeStatusInput, response: 'Invoice', notFound: true },
  { id: 'cancelInvoice', tag: 'Invoices', summary: 'Cancel an invoice; `additional_fields[invoice]=cancel_reason` reads the reason back', method: 'post', path: '/invoices/cancel', plainBody: 'CancelInvoiceInput', response: 'Invoice', notFound: true },
  ...crud('Products', '/products', 'product', { one: 'Product', list: 'ProductList', create: 'ProductCreateInput', update: 'ProductUpdateInput', query: schemas.productListQuery }, ['list', 'create', 'update', 'delete']),
  { id: 'getProduct', tag: 'Products', summary: 'Read a product (with stock in one warehouse)', method: 'get', path: '/products/{id}', query: schemas.productReadQuery, response: 'Product', notFound: true },
  ...crud('Clients', '/clients', 'client', { one: 'Client', list: 'ClientList', create: 'ClientCreateInput', update: 'ClientUpdateInput', query: schemas.clientListQuery }, ['list', 'create', 'get', 'update', 'delete']),
  ...crud('Payments', '/banking/payments', 'banking_payment', { one: 'Payment', list: 'PaymentList', create: 'PaymentCreateInput', query: schemas.paymentListQuery }, ['list', 'create', 'delete']),
  {
    id: 'getPayment', tag: 'Payments', summary: 'Read a payment (singular path in JSON, plural in XML)', method: 'get',
    path: { json: '/banking/payment/{id}', xml: '/banking/payments/{id}' }, response: 'Payment', notFound: true,
  },
  {
    id: 'sendPaymentBlikCode', tag: 'Payments', method: 'post', path: '/banking/payments/{id}/blik', formats: JSON_ONLY, plainBody: 'BlikCodeInput', status: '201', response: 'Payment', notFound: true,
    summary: 'Send the buyer’s BLIK code for an unpaid payment, once; answers the payment with its `blik` state. 409 when it is paid, already had a code or cannot take BLIK (extension of this service)',
  },
  { id: 'getPaymentMethods', tag: 'Payments', summary: "Who takes the account's payments and whether its checkouts take BLIK codes (extension of this service)", method: 'get', path: '/account/payment_methods', formats: JSON_ONLY, response: 'PaymentMethods' },
  ...crud('Categories', '/categories', 'category', { one: 'Category', list: 'CategoryList', create: 'CategoryCreateInput', query: schemas.pageQuery }, ['list', 'create', 'get', 'delete']),
  ...crud('Warehouses', '/warehouses', 'warehouse', { one: 'Warehouse', list: 'WarehouseList', create: 'WarehouseCreateInput', query: schemas.pageQuery }, ['list', 'create', 'get', 'delete']),
  ...crud('WarehouseDocuments', '/warehouse_documents', 'warehouse_document', { one: 'WarehouseDocument', list: 'WarehouseDocumentList', create: 'WarehouseDocumentCreateInput', update: 'WarehouseDocumentUpdateInput', query: schemas.warehouseDocumentListQuery }, ['list', 'create', 'get', 'update', 'delete']),
  { id: 'getPaymentSettings', tag: 'Payments', summary: "The account's payment provider and its public settings; secrets are write-only and read back only as `*_set` (extension of this service)", method: 'get', path: '/account/payments', formats: JSON_ONLY, response: 'PaymentSettingsResult' },
  {
    id: 'updatePaymentSettings', tag: 'Payments', method: 'put', path: '/account/payments', formats: JSON_ONLY, body: ['payments', 'PaymentSettingsInput'], response: 'PaymentSettingsResult',
    summary: 'Choose the payment provider (`test`, `stripe`, `przelewy24`, `none`) and set its keys; a secret left out keeps the stored one, `null` removes it (extension of this service)',
  },
  { id: 'listDepartments', tag: 'Departments', summary: 'List the departments (seller entities)', method: 'get', path: '/departments', response: 'DepartmentList' },
  {
    id: 'setDepartmentLogo', tag: 'Departments', summary: 'Update a department, or upload its logo as multipart (PNG or JPEG, up to 2 MiB)', method: 'put',
    path: '/departments/{id}', body: ['department', 'DepartmentInput'], multipart: true, response: 'Department', notFound: true,
  },
  { id: 'getDepartment', tag: 'Departments', summary: 'Read a department', method: 'get', path: '/departments/{id}', response: 'Department', notFound: true },
  { id: 'createDepartment', tag: 'Departments', summary: 'Create a department', method: 'post', path: '/departments', body: ['department', 'DepartmentInput'], status: '201', response: 'Department' },
  { id: 'deleteDepartment', tag: 'Departments', summary: 'Delete a department (not the default one)', method: 'delete', path: '/departments/{id}', response: 'SuccessBody', notFound: true },
  { id: 'updatePayment', tag: 'Payments', summary: 'Update a payment; a paid amount moves its invoice', method: 'put', path: '/banking/payments/{id}', body: ['banking_payment', 'PaymentUpdateInput'], response: 'Payment', notFound: true },
  ...crud('Webhooks', '/webhooks', 'webhook', { one: 'Webhook', list: 'WebhookList', create: 'WebhookCreateInput', update: 'WebhookUpdateInput', query: schemas.pageQuery }, ['list', 'create', 'get', 'update', 'delete']),
  { id: 'listWebhookDeliveries', tag: 'Webhooks', summary: 'The delivery log of a webhook, newest first', method: 'get', path: '/webhooks/{id}/deliveries', query: schemas.webhookDeliveryListQuery, response: 'WebhookDeliveryList', notFound: true },
  { id: 'redeliverWebhookDelivery', tag: 'Webhooks', summary: 'Queue a delivery again', method: 'post', path: '/webhooks/{id}/deliveries/{delivery}/redeliver', response: 'WebhookDelivery', notFound: true },
  ...crud('Recurrings', '/recurrings', 'recurring', { one: 'Recurring', list: 'RecurringList', create: 'RecurringCreateInput', update: 'RecurringUpdateInput', query: schemas.pageQuery }, ['list', 'create', 'get', 'update', 'delete']),
  ...crud('PriceLists', '/price_lists', 'price_list', { one: 'PriceList', list: 'PriceListList', create: 'PriceListCreateInput', update: 'PriceListUpdateInput', query: schemas.pageQuery }, ['list', 'create', 'get', 'update', 'delete']),
  { id: 'listWarehouseActions', tag: 'WarehouseActions', summary: 'Stock movements, as they follow from the warehouse documents', method: 'get', path: '/warehouse_actions', query: schemas.warehouseActionListQuery, response: 'WarehouseActionList' },
  ...crud('Issuers', '/issuers', 'issuer', { one: 'Issuer', list: 'IssuerList', create: 'IssuerCreateInput', update: 'IssuerUpdateInput', query: schemas.pageQuery }, ['list', 'create', 'get', 'update', 'delete']),
  { id: 'getNewAttachmentCredentials', tag: 'Attachments', summary: 'Where and with which form fields to upload a file for an invoice', method: 'get', path: '/invoices/{id}/get_new_attachment_credentials', response: 'AttachmentCredentials', notFound: true },
  {
    id: 'addAttachment', tag: 'Attachments', summary: 'Attach the uploaded file named `file_name`, or the multipart `file` itself (up to 10 MiB)', method: 'post',
    path: '/invoices/{id}/add_attachment', query: z.object({ file_name: z.string().optional() }), status: '201', response: 'Attachment', notFound: true,
  },
  { id: 'listAttachments', tag: 'Attachments', summary: 'The attachments of an invoice', method: 'get', path: '/invoices/{id}/attachments', response: 'AttachmentList', notFound: true },
  { id: 'getAttachmentsZip', tag: 'Attachments', summary: 'Every attachment of an invoice in one ZIP archive', method: 'get', path: '/invoices/{id}/attachments_zip', formats: JSON_ONLY, response: 'zip', notFound: true },
  { id: 'getKsefSettings', tag: 'KSeF', summary: "The account's KSeF settings (the token and the Offline certificate's key only as whether they are set)", method: 'get', path: '/account/ksef', formats: JSON_ONLY, response: 'KsefSettings' },
  {
    id: 'updateKsefSettings', tag: 'KSeF', summary: 'Turn KSeF on or off and set its token (write-only), automatic sending, validation on save and the Offline certificate for KOD II (its key write-only)', method: 'put',
    path: '/account/ksef', formats: JSON_ONLY, plainBody: 'KsefSettingsInput', response: 'KsefSettings',
  },
  {
    id: 'getInvoiceGovAttachment', tag: 'KSeF', summary: 'The FA(3) XML exactly as sent to KSeF (`kind=gov`) or its UPO (`kind=gov_upo`), as text/xml', method: 'get',
    path: '/invoices/{id}/attachment', formats: JSON_ONLY, query: z.object({ kind: z.enum(['gov', 'gov_upo']) }), response: 'xml', notFound: true,
  },
  {
    id: 'getInvoiceEinvoice', tag: 'Invoices', summary: 'The invoice as an EN 16931 e-invoice: UBL 2.1 (Peppol BIS Billing 3.0) or CII D16B, under EN 16931, Peppol or XRechnung 3.0 (extension of this service)', method: 'get',
    path: '/invoices/{id}/einvoice', formats: ['xml'], query: schemas.einvoiceQuery, response: 'einvoice', notFound: true,
  },
  { id: 'accountAddUser', tag: 'Integrations', summary: 'Add a user to the account (api_token and integration_token)', method: 'post', path: '/account/add_user', formats: JSON_ONLY, plainBody: 'AccountAddUserInput', status: '201', response: 'UserResult', security: 'account+integration' },
  { id: 'accountDelete', tag: 'Integrations', summary: "E-mail the owner a link that deletes the account", method: 'post', path: '/account/delete', formats: JSON_ONLY, response: 'SuccessBody' },
  { id: 'accountUnlink', tag: 'Integrations', summary: 'Detach client accounts from this partner account', method: 'patch', path: '/account/unlink', formats: JSON_ONLY, plainBody: 'AccountUnlinkInput', response: 'AccountOperationResult' },
  { id: 'addUser', tag: 'Integrations', summary: 'Add a user (on {app_url})', method: 'post', path: '/users', formats: JSON_ONLY, plainBody: 'AddUserInput', status: '201', response: 'UserResult', security: 'integration' },
  { id: 'login', tag: 'Integrations', summary: "A user's data, including the API token (on {app_url})", method: 'post', path: '/login', formats: JSON_ONLY, plainBody: 'LoginInput', response: 'LoginResult', security: 'integration' },
  { id: 'createAccount', tag: 'Integrations', summary: 'Create an account, optionally with owner and company data (on {app_url})', method: 'post', path: '/account', formats: JSON_ONLY, plainBody: 'CreateAccountInput', status: '201', response: 'AccountResult', security: 'integration' },
  { id: 'getAccount', tag: 'Integrations', summary: 'The account the API token belongs to', method: 'get', path: '/account', formats: JSON_ONLY, response: 'AccountInfo', security: 'account+integration' },
  // The seller's back office's operations (extensions of this service), usable with the api_token too.
  { id: 'rotateApiToken', tag: 'Seller', summary: 'Replace the api_token: the new one is answered this once, and the old one is refused at once (extension of this service)', method: 'post', path: '/account/api_token/rotate', formats: JSON_ONLY, response: 'ApiTokenRotation' },
  { id: 'getAttention', tag: 'Seller', summary: 'What needs the seller now: KSeF refusals and waits, overdue invoices, failed or waiting payments, failing webhooks and e-mails (extension of this service)', method: 'get', path: '/account/attention', formats: JSON_ONLY, response: 'AttentionOverview' },
  { id: 'testPaymentConnection', tag: 'Seller', summary: "Ask the account's payment provider with the stored keys whether they work (extension of this service)", method: 'post', path: '/account/connection_tests/payments', formats: JSON_ONLY, response: 'ConnectionTest' },
  { id: 'testKsefConnection', tag: 'Seller', summary: "Authenticate once in the account's KSeF environment with the stored token or certificate (extension of this service)", method: 'post', path: '/account/connection_tests/ksef', formats: JSON_ONLY, response: 'ConnectionTest' },
  { id: 'sendInvoiceToKsef', tag: 'KSeF', summary: 'Send one invoice to KSeF again, after a refusal or when it was never sent (extension of this service)', method: 'post', path: '/invoices/{id}/send_to_ksef', formats: JSON_ONLY, response: 'Invoice', notFound: true },
  { id: 'listInvoiceEmails', tag: 'Seller', summary: "Every e-mail sent or tried for the invoice, the newest first, with the mail server's words when one failed (extension of this service)", method: 'get', path: '/invoices/{id}/emails', formats: JSON_ONLY, response: 'InvoiceEmailList', notFound: true },
];

const MEDIA: Record<Ext, string> = { json: 'application/json', xml: 'application/xml' };

function errorResponse(description: string) {
  return {
    description,
    content: { 'application/json': { schema: ref('ErrorBody') }, 'application/xml': { schema: { ...ref('ErrorBody'), xml: { name: 'error' } } } },
  };
}

/** Every answer's id, errors included, as the service's log lines name it. */
const REQUEST_ID_HEADER: JsonSchema = {
  description: "The request's id, also on the service's log lines about it: a random UUID, or the id a trusted proxy sent (1 to 128 of `A-Z a-z 0-9 . _ : -`).",
  schema: { type: 'string', pattern: '^[A-Za-z0-9._:-]{1,128}$' },
};

/** The refusal of a key used before with another request: its own code, not the reference's `error`. */
const IDEMPOTENCY_KEY_REUSED: JsonSchema = {
  type: 'object',
  required: ['code', 'message'],
  properties: { code: { const: 'idempotency_key_reused' }, message: { type: 'string' } },
};

const IDEMPOTENCY_KEY_PARAMETER: JsonSchema = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description:
    'Makes a retry safe: for 24 hours the same key with the same request gets the first answer again (`Idempotent-Replayed: true`), with another request a 422 `idempotency_key_reused`, and while the first still runs a 409.',
  schema: { type: 'string', pattern: '^[\\x21-\\x7e]{1,255}$' },
};

/** Adds `X-Request-Id` to every answer of every operation. */
function withRequestIds(paths: Record<string, Record<string, unknown>>): void {
  for (const item of Object.values(paths)) {
    for (const operation of Object.values(item) as { responses: Record<string, { headers?: Record<string, unknown> }> }[]) {
      for (const response of Object.values(operation.responses)) {
        response.headers = { ...response.headers, 'X-Request-Id': { $ref: '#/components/headers/RequestId' } };
      }
    }
  }
}

function content(component: string, ext: Ext, wrapper?: string) {
  if (ext === 'xml') return { [MEDIA.xml]: { schema: { ...ref(component), ...(wrapper ? { xml: { name: wrapper } } : {}) } } };
  return { [MEDIA.json]: { schema: ref(component) } };
}

function security(kind: OperationSpec['security']) {
  if (kind === 'none') return [];
  if (kind === 'integration') return [{ integrationToken: [] }];
  if (kind === 'account+integration') return [{ apiToken: [], integrationToken: [] }];
  return [{ apiToken: [] }, { bearer: [] }];
}

function operationObject(spec: OperationSpec, ext: Ext | 'pdf') {
  const parameters: JsonSchema[] = [];
  const path = typeof spec.path === 'string' ? spec.path : spec.path[ext as Ext];
  if (path.includes('{id}')) parameters.push({ name: 'id', in: 'path', required: true, schema: { type: 'integer', minimum: 1 } });
  if (path.includes('{delivery}')) parameters.push({ name: 'delivery', in: 'path', required: true, schema: { type: 'integer', minimum: 1 } });
  if (spec.query) parameters.push(...queryParameters(spec.query));
  const operation: JsonSchema = {
    operationId: ext === 'json' || ext === 'pdf' ? spec.id : `${spec.id}Xml`,
    tags: [spec.tag],
    summary: spec.summary,
    parameters,
    security: security(spec.security),
  };
  if (spec.body) {
    const [wrapper, component] = spec.body;
    operation['requestBody'] = {
      required: true,
      content:
        ext === 'xml'
          ? content(component, 'xml', wrapper)
          : {
              [MEDIA.json]: {
                schema: {
                  type: 'object',
                  required: [wrapper],
                  properties: { api_token: { type: 'string', description: 'The account API token (or use the query or a Bearer header).' }, [wrapper]: ref(component) },
                },
              },
            },
    };
  } else if (spec.plainBody) {
    operation['requestBody'] = { required: true, content: content(spec.plainBody, 'json') };
  }
  if (spec.multipart) {
    const given = (operation['requestBody'] as { content?: Record<string, unknown> } | undefined)?.content ?? {};
    operation['requestBody'] = {
      required: true,
      content: {
        ...given,
        'multipart/form-data': {
          schema: {
            type: 'object',
            required: ['department[logo]'],
            properties: { api_token: { type: 'string' }, 'department[logo]': { type: 'string', contentMediaType: 'application/octet-stream' } },
          },
          encoding: { 'department[logo]': { contentType: 'image/png, image/jpeg' } },
        },
      },
    };
  }
  const success =
    spec.response === 'pdf'
      ? { description: 'The PDF document', content: { 'application/pdf': { schema: { type: 'string', contentMediaType: 'application/pdf' } } } }
      : spec.response === 'zip'
        ? { description: 'A ZIP archive', content: { 'application/zip': { schema: { type: 'string', contentMediaType: 'application/zip' } } } }
        : spec.response === 'xml'
          ? { description: 'The XML document', content: { 'text/xml': { schema: { type: 'string', contentMediaType: 'text/xml' } } } }
          : spec.response === 'einvoice'
            ? { description: 'The e-invoice (`Invoice` or `CreditNote` in UBL, `CrossIndustryInvoice` in CII)', content: { 'application/xml': { schema: { type: 'string', contentMediaType: 'application/xml' } } } }
          : { description: 'Success', content: content(spec.response, ext as Ext), ...(spec.headers ? { headers: spec.headers } : {}) };
  const responses: Record<string, unknown> = { [spec.status ?? '200']: success, '401': errorResponse('Missing or wrong token') };
  if (spec.notFound) responses['404'] = errorResponse('No such record in this account');
  if (spec.body || spec.plainBody || spec.multipart || spec.query) responses['422'] = errorResponse('Invalid data; `message` maps each field to its messages');
  // Every POST of an account's API honours `Idempotency-Key`.
  if (spec.method === 'post' && (spec.security ?? 'account') === 'account') {
    parameters.push(IDEMPOTENCY_KEY_PARAMETER);
    const either = { oneOf: [ref('ErrorBody'), ref('IdempotencyKeyReused')] };
    responses['422'] = {
      description: 'Invalid data (`message` maps each field to its messages), or `idempotency_key_reused`: the key was used with another request',
      content: { 'application/json': { schema: either }, 'application/xml': { schema: { ...either, xml: { name: 'error' } } } },
    };
    responses['409'] = errorResponse('A request with this Idempotency-Key is still running: retry shortly');
  }
  if (spec.multipart) responses['413'] = errorResponse('The file is larger than 2 MiB');
  operation['responses'] = responses;
  return operation;
}

let components: Record<string, JsonSchema> | undefined;
function componentSchemas(): Record<string, JsonSchema> {
  components ??= Object.fromEntries(Object.entries(COMPONENTS).map(([name, [schema, io]]) => [name, jsonSchema(schema, io)]));
  return components;
}

/** The OpenAPI 3.1 document of the interface served at `baseUrl`. */
export function openApiDocument(baseUrl: string): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  const add = (path: string, method: string, operation: unknown) => {
    (paths[path] ??= {})[method] = operation;
  };
  for (const spec of OPERATIONS) {
    if (spec.response === 'pdf') {
      add(`${spec.path as string}.pdf`, spec.method, operationObject(spec, 'pdf'));
      continue;
    }
    for (const ext of spec.formats ?? BOTH) {
      const path = typeof spec.path === 'string' ? spec.path : spec.path[ext];
      add(`${path}.${ext}`, spec.method, operationObject(spec, ext));
      // PATCH is accepted wherever PUT is, as Rails-style clients send it.
      if (spec.method === 'put') {
        const operation = operationObject(spec, ext);
        add(`${path}.${ext}`, 'patch', { ...operation, operationId: `${String(operation['operationId'])}Patch` });
      }
    }
  }
  add('/a/{prefix}/p/{token}.js', 'get', {
    operationId: 'getProductWidget',
    tags: ['Products'],
    summary: "The product's payment widget script (on {app_url})",
    security: [],
    parameters: [
      { name: 'prefix', in: 'path', required: true, schema: { type: 'string' } },
      { name: 'token', in: 'path', required: true, schema: { type: 'string' } },
    ],
    responses: {
      '200': { description: 'JavaScript that renders the order form where its script tag stands', content: { 'application/javascript': { schema: { type: 'string' } } } },
      '404': { description: 'No such account or product' },
    },
  });

  const notification = (id: string, summary: string, header?: string) => ({
    operationId: id,
    tags: ['Payments'],
    summary,
    security: [],
    parameters: [
      { name: 'prefix', in: 'path', required: true, schema: { type: 'string' }, description: "The account's prefix" },
      ...(header ? [{ name: header, in: 'header', required: true, schema: { type: 'string' } }] : []),
    ],
    requestBody: { required: true, content: { 'application/json': { schema: { type: 'object' } } } },
    responses: {
      '200': { description: 'Received (a repeated notification changes nothing)' },
      '400': errorResponse('Forged, stale or altered: nothing changed'),
      '503': errorResponse('Not settled yet (the provider could not confirm it); the provider delivers it again'),
    },
  });
  add('/payments/stripe/{prefix}/webhook', 'post', notification('receiveStripeEvent', "Stripe's events of the account's Checkout Sessions, signed with its webhook secret", 'Stripe-Signature'));
  add('/payments/przelewy24/{prefix}/notify', 'post', notification('receivePrzelewy24Notification', "Przelewy24's transaction notifications (`urlStatus`), signed with the account's CRC key"));
  withRequestIds(paths);

  return {
    openapi: '3.1.0',
    info: {
      title: 'Invoicing service',
      version: '1',
      description: [
        'Invoices, products, clients, payments, warehouse documents, categories, warehouses, departments and integrations.',
        'Every operation answers in JSON or XML by the path extension. The `api_token` goes in the query for GET and DELETE,',
        'at the top level of JSON bodies for POST and PUT, in `Authorization: Bearer` for XML bodies and as a form field in',
        'multipart requests. Money, quantities and rates are decimal strings (`"58.32"`). Lists are bare arrays paged by',
        '`page` and `per_page` (default 25, at most 100); a page shorter than `per_page` is the last. Every answer carries',
        'its request id in `X-Request-Id`; a POST may carry an `Idempotency-Key`.',
      ].join(' '),
    },
    servers: [{ url: baseUrl.replace(/\/+$/, ''), description: 'The account base address; integration endpoints are on the application address' }],
    tags: [
      'Invoices', 'Products', 'Clients', 'Payments', 'Categories', 'Warehouses', 'WarehouseDocuments', 'WarehouseActions', 'Departments',
      'Issuers', 'PriceLists', 'Recurrings', 'Attachments', 'Webhooks', 'KSeF', 'Integrations', 'Seller',
    ].map((name) => ({ name })),
    paths,
    components: {
      schemas: { ...componentSchemas(), IdempotencyKeyReused: IDEMPOTENCY_KEY_REUSED },
      headers: { RequestId: REQUEST_ID_HEADER },
      securitySchemes: {
        apiToken: { type: 'apiKey', in: 'query', name: 'api_token', description: 'Query for GET and DELETE; the same token goes at the top level of JSON bodies of POST and PUT.' },
        bearer: { type: 'http', scheme: 'bearer', description: 'The API token, for XML requests.' },
        integrationToken: { type: 'apiKey', in: 'query', name: 'integration_token', description: 'Issued by the provider; in the body of integration POSTs, in the query of GET /account.json.' },
      },
    },
  };
}
