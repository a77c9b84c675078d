import { Hono, type MiddlewareHandler } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { randomBytes } from 'node:crypto';
import { authenticatesFirst, requireAccount } from './auth.js';
import { createOutboxAccess } from './documents/outbox-access.js';
import { createLoginGuard, type LoginFailureStore, MemoryLoginFailureStore, SqlLoginFailureStore } from './login-guard.js';
import { idempotentPost } from './idempotency.js';
import type { Database } from './db.js';
import { ApiError, apiErrorOf, errorResponse, MiB, readsBody, routePath, type ServiceEnv } from './http.js';
import { isUniqueViolation } from './invoicing/invoices.js';
import { PdfBusyError } from './documents/pdf-pool.js';
import { mountInvoiceDocuments } from './documents/routes.js';
import { mountHealth } from './health.js';
import { mountAccountOperations } from './account-operations.js';
import { createAdminApp } from './admin/routes.js';
import { sellerApiRoutes } from './admin/api-routes.js';
import { mountInvoiceEmails } from './admin/invoice-emails.js';
import { mountKsefResend } from './admin/ksef-resend.js';
import { mountIntegrations } from './integrations.js';
import { openApiDocument } from './openapi.js';
import { selectPaymentProvider, type PaymentProvider, testPaymentProvider } from './payments/provider.js';
import { withTestBlik } from './payments/test-blik.js';
import { type BlikSettings, DEFAULT_BLIK_SETTINGS } from './application/blik.js';
import { mountPaymentNotifications } from './payments/notifications.js';
import { mountPaymentSettings } from './payments/settings.js';
import { mountCheckoutPage } from './public/checkout.js';
import { mountFrontPage } from './public/front-page.js';
import { mountPublicPages } from './public/pages.js';
import { mountWidget } from './public/widget.js';
import { mountAttachmentUploads, mountInvoiceAttachments, uploadKeyFirst } from './resources/attachments.js';
import { mountDepartmentLogo } from './resources/department-logo.js';
import { mountCategories, mountWarehouses } from './resources/catalog.js';
import { mountClients } from './resources/clients.js';
import { mountDepartments } from './resources/departments.js';
import type { KsefRuntime } from './ksef/runtime.js';
import { mountKsef } from './ksef/routes.js';
import { mountEInvoices } from './einvoice/routes.js';
import { mountInvoiceSummary } from './resources/invoice-summary.js';
import { mountInvoices } from './resources/invoices.js';
import { mountPayments } from './resources/payments.js';
import { mountPaymentBlik, mountPaymentMethods } from './resources/payment-blik.js';
import { mountProducts } from './resources/products.js';
import { mountWarehouseDocuments } from './resources/warehouse-documents.js';
import { mountWarehouseActions } from './resources/warehouse-actions.js';
import { mountIssuers } from './resources/issuers.js';
import { mountPriceLists } from './resources/price-lists.js';
import { mountRecurrings } from './resources/recurrings.js';
import { mountWebhooks } from './webhooks/routes.js';
import { mountWriteFeed, writesOfAccount } from './write-feed.js';
import { routePatchAsPut } from './routing.js';
import { REQUEST_ID_HEADER, requestIdOf } from '../server-kit/request-id.js';
import { createIssuing } from './application/composition.js';
import { nbpRates } from './application/exchange-rates.js';
import type { Issuing } from './application/issuing.js';
import { createRegistries, type Registries } from '../server-kit/registries/index.js';

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
  /** BLIK: how long a code lives (default 120 s) and how long the test provider's bank app takes to answer (default 2 s). */
  blik?: Partial<BlikSettings> | undefined;
  /** The clock that recurring schedules and payment notifications' signatures are checked by (tests move it). Default: the real one. */
  clock?: (() => Date) | undefined;
  /** KSeF: the local double, the clock and the sender. Default: no local KSeF, nothing sent in the background. */
  ksef?: KsefRuntime | undefined;
  /** How many proxies in front append to `X-Forwarded-For`; the widget's rate limits then count the buyer's address. Default 0. */
  trustProxy?: number | undefined;
  /** The issuing step's run-time parts (`createIssuing`); made here from the options above when not given. */
  issuing?: Issuing | undefined;
  /** The tax registers' clients (NBP, VIES, the white list). Default: at their public addresses. */
  registries?: Registries | undefined;
}

/** The body an invoice attachment's routes read: a file of up to 10 MiB and its form. */
const ATTACHMENT_BODY = 11 * MiB;
/** The body a department's update reads: a logo of up to 2 MiB, sent as a form. */
const LOGO_BODY = 4 * MiB;
/** The body of a public route (pages, checkouts, sign-ups, provider notifications) and of payment keys. */
const PUBLIC_BODY = MiB / 4;

/**
 * The invoicing service as a Hono app: every operation of the interface, in JSON and XML. Routes are
 * written without their extension (`/invoices/:id`); the extension selects the representation.
 */
export function createServiceApp(options: ServiceAppOptions): Hono<ServiceEnv> {
  const app = new Hono<ServiceEnv>({ getPath: routePath });
  const log = options.log ?? (() => undefined);
  const ksef: KsefRuntime = options.ksef ?? { localOrigin: () => undefined, clock: () => new Date(), kick: () => undefined };
  const loginGuard = createLoginGuard(
    options.loginFailures ?? (options.db.kind === 'postgres' ? new SqlLoginFailureStore(options.db) : new MemoryLoginFailureStore()),
  );
  const clock = options.clock ?? (() => new Date());
  const blik: BlikSettings = { ...DEFAULT_BLIK_SETTINGS, ...options.blik };
  const testProvider = withTestBlik(testPaymentProvider, { approvalMs: blik.testApprovalMs, clock });
  const paymentProvider = selectPaymentProvider({ paymentProvider: options.paymentProvider, testPayments: options.testPayments ?? false, test: testProvider });
  const registries = options.registries ?? createRegistries({ clock });
  const trustedHosts = new Set((options.trustedHosts ?? []).map((host) => host.trim().toLowerCase()).filter(Boolean));
  const configuredUrl = typeof options.publicUrl === 'function' ? options.publicUrl : () => options.publicUrl as string;
  const issuing =
    options.issuing ??
    createIssuing({ db: options.db, smtpUrl: options.smtpUrl, ksef, clock, publicUrl: () => configuredUrl().replace(/\/+$/, ''), rates: nbpRates(registries.nbp) }).issuing;
  /** The configured address, or the request's own origin when its `Host` is one of the trusted hosts. */
  const publicUrlOf = (request: Request) => {
    const url = new URL(request.url);
    if (trustedHosts.has(url.host.toLowerCase())) return url.origin;
    return configuredUrl().replace(/\/+$/, '');
  };

  // First of all, so that every answer carries the id: errors, early refusals and pages alike.
  app.use('*', async (c, next) => {
    const requestId = requestIdOf(c.req.header(REQUEST_ID_HEADER), (options.trustProxy ?? 0) > 0);
    c.set('requestId', requestId);
    await next();
    c.res.headers.set(REQUEST_ID_HEADER, requestId);
  });
  app.use('*', async (c, next) => {
    c.set('db', options.db);
    c.set('config', {
      publicUrl: publicUrlOf(c.req.raw),
      integrationToken: options.integrationToken,
      loginGuard,
      testPayments: options.testPayments ?? false,
      paymentProvider,
      testPaymentProvider: testProvider,
      blik,
      clock,
      ksef,
      trustProxy: options.trustProxy ?? 0,
      issuing,
      registries,
    });
    await next();
    // Every answer, pages, files and errors included, is taken only as the type it declares.
    c.res.headers.set('x-content-type-options', 'nosniff');
  });

  // Every group reads its requests' bodies (1 MiB unless it says otherwise) and adds its own guards.
  // A route that takes files puts its own reader, with its larger limit, ahead of its group's.
  /** Operations of an account: its api_token (spec §5), checked before the body is read, then `Idempotency-Key` on POSTs. */
  const ofAccount = [readsBody(MiB, authenticatesFirst), requireAccount, writesOfAccount, idempotentPost];
  /** Public routes: each checks its own capability (a token in the path, a signature, the integration token). */
  const open = [readsBody(PUBLIC_BODY)];

  mountHealth(app, { db: options.db, draining: options.draining });
  mountFrontPage(app);
  app.get('/openapi', (c) => c.json(openApiDocument(c.get('config').publicUrl)));

  app.route('/invoice', group(open, mountPublicPages));
  // The buyer's checkout page of a payment is public, its token the capability: it answers before
  // the `/banking` group asks for the account's token.
  app.route('/banking/payments/pay', group(open, mountCheckoutPage));
  app.route('/payments', group(open, (payments) => mountPaymentNotifications(payments, { clock: options.clock })));
  const shop = group(open);
  const script = group(open);
  mountWidget({ shop, script });
  app.route('/a/:prefix', shop);
  app.route('/widget', script);

  const users = group(open);
  const login = group(open);
  const account = group(open);
  const accountKsef = group(ofAccount);
  const invoices = new Hono<ServiceEnv>();
  // An invoice's attachment may be up to 10 MiB; its route checks the file itself.
  invoices.post('/:id/add_attachment', readsBody(ATTACHMENT_BODY, authenticatesFirst));
  invoices.use(...ofAccount);
  const outbox = group(open);
  mountIntegrations({ users, login, account });
  mountAccountOperations(account, { smtpUrl: options.smtpUrl });
  mountInvoiceSummary(invoices);
  mountInvoiceDocuments({ invoices, outbox }, {
    mail: issuing.mail,
    outboxAccess: createOutboxAccess(options.signingSecret ?? randomBytes(32).toString('base64url')),
    db: options.db,
    ksef,
  });
  mountKsef({ invoices, settings: accountKsef }, ksef);
  mountKsefResend(invoices, ksef);
  mountInvoiceEmails(invoices);
  mountEInvoices(invoices);
  mountInvoices(invoices);
  mountInvoiceAttachments(invoices);
  // The form upload of an attachment: its unguessable key, read before the body, is the permission.
  const uploads = new Hono<ServiceEnv>();
  uploads.post('/uploads', uploadKeyFirst, readsBody(ATTACHMENT_BODY));
  mountAttachmentUploads(uploads);
  const departments = new Hono<ServiceEnv>();
  // A department logo may be up to 2 MiB; its route checks the file itself.
  departments.on(['PUT', 'PATCH'], '/:id', readsBody(LOGO_BODY, authenticatesFirst));
  departments.use(...ofAccount);
  mountDepartmentLogo(departments);
  mountDepartments(departments);

  app.route('/users', users);
  app.route('/login', login);
  app.route('/account/ksef', accountKsef);
  // Payment keys: the account's token, and no idempotency (a PUT alone).
  app.route('/account/payments', group([readsBody(PUBLIC_BODY, authenticatesFirst), requireAccount, writesOfAccount], mountPaymentSettings));
  // What the back office needs of the API (token rotation, the overview, connection tests), ahead of `/account`'s open group.
  for (const [path, mount] of sellerApiRoutes) app.route(path, group(ofAccount, mount));
  // Whether the account's payments take BLIK on the page, for a BFF.
  app.route('/account/payment_methods', group(ofAccount, mountPaymentMethods));
  app.route('/account', account);
  app.route('/invoices', invoices);
  app.route('/outbox', outbox);
  app.route('/attachments', uploads);
  app.route('/products', group(ofAccount, mountProducts));
  app.route('/clients', group(ofAccount, mountClients));
  app.route('/banking', group(ofAccount, (banking) => {
    mountPaymentBlik(banking);
    mountPayments(banking);
  }));
  app.route('/categories', group(ofAccount, mountCategories));
  app.route('/warehouses', group(ofAccount, mountWarehouses));
  app.route('/warehouse_documents', group(ofAccount, mountWarehouseDocuments));
  app.route('/departments', departments);
  // The hosted service's resources beyond the interface's seed.
  app.route('/webhooks', group(ofAccount, (webhooks) => mountWebhooks(webhooks, { allowPrivate: options.allowPrivateWebhooks ?? false })));
  app.route('/recurrings', group(ofAccount, mountRecurrings));
  app.route('/price_lists', group(ofAccount, mountPriceLists));
  app.route('/warehouse_actions', group(ofAccount, mountWarehouseActions));
  app.route('/issuers', group(ofAccount, mountIssuers));
  // A BFF in another process follows the write count instead of asking again (PGlite only).
  app.route('/changes', group(ofAccount, (changes) => mountWriteFeed(changes, options.db)));
  // The seller's back office: its API calls are answered by this app, in this process.
  app.route('/admin', createAdminApp((request, env) => app.fetch(request, env)));
  // A path no group claims still has its body read, so a hostile body is refused there as anywhere.
  app.use(...open);
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
    log({ level: 'error', message: 'unhandled error', request_id: c.get('requestId'), path: new URL(c.req.url).pathname, error: String(error) });
    return c.json({ code: 'error', message: 'Internal server error' }, 500);
  });
  return app;
}

/** A resource group: a sub-app behind `middleware`, its routes added by `mount`. */
function group(middleware: MiddlewareHandler<ServiceEnv>[], mount?: (group: Hono<ServiceEnv>) => void): Hono<ServiceEnv> {
  const sub = new Hono<ServiceEnv>();
  sub.use(...middleware);
  mount?.(sub);
  return sub;
}
