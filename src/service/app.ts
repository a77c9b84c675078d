import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { HTTPException } from 'hono/http-exception';
import { requireAccount } from './auth.js';
import { idempotentPost } from './idempotency.js';
import type { Database } from './db.js';
import { ApiError, errorResponse, parseRequest, routePath, type ServiceEnv } from './http.js';
import { isUniqueViolation } from './invoicing/invoices.js';
import { mountInvoiceDocuments } from './documents/routes.js';
import { mountIntegrations } from './integrations.js';
import { openApiDocument } from './openapi.js';
import { selectPaymentProvider, type PaymentProvider } from './payments/provider.js';
import { mountCheckoutPage } from './public/checkout.js';
import { mountPublicPages } from './public/pages.js';
import { mountWidget } from './public/widget.js';
import { mountDepartmentLogo } from './resources/department-logo.js';
import { mountCatalog } from './resources/catalog.js';
import { mountClients } from './resources/clients.js';
import { mountDepartments } from './resources/departments.js';
import { mountInvoices } from './resources/invoices.js';
import { mountPayments } from './resources/payments.js';
import { mountProducts } from './resources/products.js';
import { mountWarehouseDocuments } from './resources/warehouse-documents.js';

export interface ServiceAppOptions {
  db: Database;
  integrationToken: string;
  /** Public base URL for links; by default the origin each request arrived on. */
  publicUrl?: string | undefined;
  log?: (entry: Record<string, unknown>) => void;
  /** Sends invoice e-mail through this SMTP server; without it, messages are kept in the outbox. */
  smtpUrl?: string | undefined;
  /** Who takes checkout payments; `null` turns online payment off. Default: the test provider. */
  paymentProvider?: PaymentProvider | null | undefined;
}

const MiB = 1024 * 1024;
/** Paths of account-level operations: each needs the account's api_token (spec §5). */
const ACCOUNT_PATHS = [
  '/invoices', '/products', '/clients', '/banking', '/categories', '/warehouses', '/warehouse_documents', '/departments',
];

/**
 * The invoicing service as a Hono app: every operation of the interface, in JSON and XML. Routes are
 * written without their extension (`/invoices/:id`); the extension selects the representation.
 */
export function createServiceApp(options: ServiceAppOptions): Hono<ServiceEnv> {
  const app = new Hono<ServiceEnv>({ getPath: routePath });
  const log = options.log ?? (() => undefined);
  const paymentProvider = selectPaymentProvider(options);

  app.use('*', async (c, next) => {
    c.set('db', options.db);
    c.set('config', {
      publicUrl: (options.publicUrl ?? new URL(c.req.url).origin).replace(/\/$/, ''),
      integrationToken: options.integrationToken,
      paymentProvider,
    });
    await next();
  });

  const tooLarge = (limit: number) =>
    bodyLimit({
      maxSize: limit,
      onError: (c) => errorResponse(c, new ApiError(413, `The request body is larger than ${limit / MiB} MiB`)),
    });
  // A department logo may be up to 2 MiB; its route checks the file itself.
  app.put('/departments/:id', tooLarge(4 * MiB));
  app.use('*', async (c, next) => (c.req.method === 'PUT' && /^\/departments\//.test(routePath(c.req.raw)) ? next() : tooLarge(MiB)(c, next)));
  app.use('*', parseRequest);

  app.get('/openapi', (c) => c.json(openApiDocument(c.get('config').publicUrl)));
  mountPublicPages(app);
  mountCheckoutPage(app);
  mountWidget(app);
  mountIntegrations(app);
  for (const prefix of ACCOUNT_PATHS) {
    app.use(prefix, requireAccount);
    app.use(`${prefix}/*`, (c, next) =>
      // The buyer's checkout page of a payment is public: its token is the capability.
      prefix === '/banking' && routePath(c.req.raw).startsWith('/banking/payments/pay/') ? next() : requireAccount(c, next),
    );
    app.use(prefix, idempotentPost);
    app.use(`${prefix}/*`, idempotentPost);
  }
  mountInvoiceDocuments(app, { smtpUrl: options.smtpUrl });
  mountInvoices(app);
  mountProducts(app);
  mountClients(app);
  mountPayments(app);
  mountCatalog(app);
  mountWarehouseDocuments(app);
  mountDepartmentLogo(app);
  mountDepartments(app);

  app.notFound((c) => errorResponse(c, new ApiError(404, 'Not found')));
  app.onError((error, c) => {
    if (error instanceof ApiError) return errorResponse(c, error);
    if (isUniqueViolation(error)) return errorResponse(c, new ApiError(422, 'Validation failed', { base: ['conflicts with an existing record'] }));
    if (error instanceof HTTPException && error.status < 500) {
      return errorResponse(c, new ApiError(error.status === 413 ? 413 : 400, error.message || 'Bad request'));
    }
    log({ level: 'error', message: 'unhandled error', path: new URL(c.req.url).pathname, error: String(error) });
    return c.json({ code: 'error', message: 'Internal server error' }, 500);
  });
  return app;
}
