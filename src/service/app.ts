import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { HTTPException } from 'hono/http-exception';
import { randomBytes } from 'node:crypto';
import { queryTokenBeforeBody, requireAccount } from './auth.js';
import { createOutboxAccess } from './documents/outbox-access.js';
import { createLoginGuard, type LoginFailureStore, MemoryLoginFailureStore, SqlLoginFailureStore } from './login-guard.js';
import { idempotentPost } from './idempotency.js';
import type { Database } from './db.js';
import { ApiError, apiErrorOf, errorResponse, parseRequest, routePath, type ServiceEnv } from './http.js';
import { isUniqueViolation } from './invoicing/invoices.js';
import { PdfBusyError } from './documents/pdf-pool.js';
import { mountInvoiceDocuments } from './documents/routes.js';
import { mountHealth } from './health.js';
import { HOSTED_EXTRA_PATHS, mountHostedExtras } from './hosted-extras.js';
import { mountIntegrations } from './integrations.js';
import { openApiDocument } from './openapi.js';
import { selectPaymentProvider, type PaymentProvider } from './payments/provider.js';
import { mountPaymentNotifications } from './payments/notifications.js';
import { mountCheckoutPage } from './public/checkout.js';
import { mountPublicPages } from './public/pages.js';
import { mountWidget } from './public/widget.js';
import { uploadKeyFirst } from './resources/attachments.js';
import { mountDepartmentLogo } from './resources/department-logo.js';
import { mountCatalog } from './resources/catalog.js';
import { mountClients } from './resources/clients.js';
import { mountDepartments } from './resources/departments.js';
import type { KsefRuntime } from './ksef/invoices.js';
import { mountKsef } from './ksef/routes.js';
import { mountInvoiceSummary } from './resources/invoice-summary.js';
import { mountInvoices } from './resources/invoices.js';
import { mountPayments } from './resources/payments.js';
import { mountProducts } from './resources/products.js';
import { mountWarehouseDocuments } from './resources/warehouse-documents.js';
import { routePatchAsPut } from './routing.js';

export interface ServiceAppOptions {
  db: Database;
  integrationToken: string;
  /**
   * Public base URL for links in answers, pages and e-mail (`https://invoices.example.com`). A
   * function is read per request (the listening address, known once the server listens).
   */
  publicUrl: string | (() => string);
  /**
   * Hosts (`shop.example:8443`) whose `Host` header may name the links' origin; any other `Host`
   * gets `publicUrl`. Empty by default: links never follow an untrusted `Host`.
   */
  trustedHosts?: readonly string[] | undefined;
  log?: (entry: Record<string, unknown>) => void;
  /** Sends invoice e-mail through this SMTP server; without it, messages are kept in the outbox. */
  smtpUrl?: string | undefined;
  /** Turns on the test payment provider (Pay and Decline pages that record payments). Default off. */
  testPayments?: boolean | undefined;
  /** Signs outbox links and sessions. Default: a random secret for this process. */
  signingSecret?: string | undefined;
  /** Where failed logins are counted. Default: in memory, or the database on PostgreSQL. */
  loginFailures?: LoginFailureStore | undefined;
  /** True once the process is shutting down; `/readyz` then fails. */
  draining?: () => boolean;
  /** Lets webhook URLs point at loopback and private addresses (local development and tests only). */
  allowPrivateWebhooks?: boolean;
  /** Who takes checkout payments; `null` turns online payment off. Default: the test provider. */
  paymentProvider?: PaymentProvider | null | undefined;
  /** The clock that recurring schedules and payment notifications' signatures are checked by (tests move it). Default: the real one. */
  clock?: (() => Date) | undefined;
  /** KSeF: the local double, the clock and the sender. Default: no local KSeF, nothing sent in the background. */
  ksef?: KsefRuntime | undefined;
  /** How many proxies in front append to `X-Forwarded-For`; the widget's rate limits then count the buyer's address. Default 0. */
  trustProxy?: number | undefined;
}

const MiB = 1024 * 1024;
/** Paths of account-level operations: each needs the account's api_token (spec §5). */
const ACCOUNT_PATHS = [
  '/invoices', '/account/ksef', '/products', '/clients', '/banking', '/categories', '/warehouses', '/warehouse_documents', '/departments',
  ...HOSTED_EXTRA_PATHS,
];

/**
 * The invoicing service as a Hono app: every operation of the interface, in JSON and XML. Routes are
 * written without their extension (`/invoices/:id`); the extension selects the representation.
 */
export function createServiceApp(options: ServiceAppOptions): Hono<ServiceEnv> {
  const app = new Hono<ServiceEnv>({ getPath: routePath });
  const log = options.log ?? (() => undefined);
  const paymentProvider = selectPaymentProvider({ paymentProvider: options.paymentProvider, testPayments: options.testPayments ?? false });

  const ksef: KsefRuntime = options.ksef ?? { localOrigin: () => undefined, clock: () => new Date(), kick: () => undefined };
  const loginGuard = createLoginGuard(
    options.loginFailures ?? (options.db.kind === 'postgres' ? new SqlLoginFailureStore(options.db) : new MemoryLoginFailureStore()),
  );
  const clock = options.clock ?? (() => new Date());
  const trustedHosts = new Set((options.trustedHosts ?? []).map((host) => host.trim().toLowerCase()).filter(Boolean));
  const configuredUrl = typeof options.publicUrl === 'function' ? options.publicUrl : () => options.publicUrl as string;
  /** The configured address, or the request's own origin when its `Host` is one of the trusted hosts. */
  const publicUrlOf = (request: Request) => {
    const url = new URL(request.url);
    if (trustedHosts.has(url.host.toLowerCase())) return url.origin;
    return configuredUrl().replace(/\/+$/, '');
  };

  app.use('*', async (c, next) => {
    c.set('db', options.db);
    c.set('config', {
      publicUrl: publicUrlOf(c.req.raw),
      integrationToken: options.integrationToken,
      loginGuard,
      testPayments: options.testPayments ?? false,
      paymentProvider,
      clock,
      ksef,
      trustProxy: options.trustProxy ?? 0,
    });
    await next();
    // Every answer, pages, files and errors included, is taken only as the type it declares.
    c.res.headers.set('x-content-type-options', 'nosniff');
  });

  const tooLarge = (limit: number) =>
    bodyLimit({
      maxSize: limit,
      onError: (c) => errorResponse(c, new ApiError(413, `The request body is larger than ${limit / MiB} MiB`)),
    });
  // A department logo may be up to 2 MiB; its route checks the file itself.
  app.on(['PUT', 'PATCH'], '/departments/:id', queryTokenBeforeBody, tooLarge(4 * MiB));
  // An invoice attachment may be up to 10 MiB; its routes check the file itself.
  app.post('/attachments/uploads', uploadKeyFirst, tooLarge(11 * MiB));
  app.post('/invoices/:id/add_attachment', queryTokenBeforeBody, tooLarge(11 * MiB));
  app.use('*', async (c, next) =>
    (/^(PUT|PATCH)$/.test(c.req.method) && /^\/departments\//.test(routePath(c.req.raw))) ||
    (c.req.method === 'POST' && /^\/(attachments\/uploads|invoices\/[^/]+\/add_attachment)$/.test(routePath(c.req.raw)))
      ? next()
      : tooLarge(MiB)(c, next));
  app.use('*', parseRequest);

  mountHealth(app, { db: options.db, draining: options.draining });
  app.get('/openapi', (c) => c.json(openApiDocument(c.get('config').publicUrl)));
  mountPublicPages(app);
  mountCheckoutPage(app);
  mountPaymentNotifications(app, { clock: options.clock });
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
  mountInvoiceSummary(app);
  mountInvoiceDocuments(app, {
    smtpUrl: options.smtpUrl,
    outboxAccess: createOutboxAccess(options.signingSecret ?? randomBytes(32).toString('base64url')),
    db: options.db,
    ksef,
  });
  mountKsef(app, ksef);
  mountInvoices(app);
  mountProducts(app);
  mountClients(app);
  mountPayments(app);
  mountCatalog(app);
  mountWarehouseDocuments(app);
  mountDepartmentLogo(app);
  mountDepartments(app);
  mountHostedExtras(app, { allowPrivateWebhooks: options.allowPrivateWebhooks ?? false, smtpUrl: options.smtpUrl });
  routePatchAsPut(app);

  app.notFound((c) => errorResponse(c, new ApiError(404, 'Not found')));
  app.onError((error, c) => {
    const answer = apiErrorOf(error);
    if (answer) return errorResponse(c, answer);
    if (error instanceof PdfBusyError) return errorResponse(c, new ApiError(503, error.message, undefined, { 'retry-after': '5' }));
    if (isUniqueViolation(error)) return errorResponse(c, new ApiError(422, 'Validation failed', { base: ['conflicts with an existing record'] }));
    if (error instanceof HTTPException && error.status < 500) {
      return errorResponse(c, new ApiError(error.status === 413 ? 413 : 400, error.message || 'Bad request'));
    }
    log({ level: 'error', message: 'unhandled error', path: new URL(c.req.url).pathname, error: String(error) });
    return c.json({ code: 'error', message: 'Internal server error' }, 500);
  });
  return app;
}
