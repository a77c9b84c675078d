import { Hono } from 'hono';
import { resolveBff, type BffApp, type BffContext, type Env } from './context.js';
import { answerErrors, cors, limitBody, requestLog } from './middleware.js';
import type { BffOptions } from './options.js';
import { checkoutRoutes } from './routes/checkout.js';
import { clientCheckRoutes } from './routes/client-check.js';
import { companyRoutes, resolveRegistries } from './routes/company.js';
import { eventRoutes } from './routes/events.js';
import { checkoutOutcomeRoutes } from './routes/checkout-outcome.js';
import { healthRoutes } from './routes/health.js';
import { portalClientRoutes } from './routes/portal-client.js';
import { portalInvoiceRoutes } from './routes/portal-invoices.js';
import { portalPaymentRoutes } from './routes/portal-payment.js';
import { productLookup, productRoutes } from './routes/products.js';
import { renderRoutes } from './routes/render.js';
import { noteBasePath } from './render-invoice-list.js';
import { signupRoutes } from './routes/signup.js';
import { viesCheck } from './vies-check.js';

export type { BffApp } from './context.js';
export type { BffOptions, BffRegistryOptions, BffServiceClient, CheckoutOptions, SignupOptions } from './options.js';

/**
 * The backend-for-frontend: a Hono app, that is a standard `fetch(Request)` handler, holding the
 * api_token and answering the elements through narrow routes. Nothing here needs Node, so it runs
 * in Node `http`, Express, Fastify, Next.js route handlers and edge runtimes alike.
 *
 * Each route group is a module under `routes/` returning a Hono sub-app; this factory only resolves
 * the shared settings and stores once, applies the middleware every request passes, and mounts them.
 */
export function createBff(options: BffOptions): BffApp {
  const bff = resolveBff(options);
  const findProduct = productLookup(bff);
  const { registries, lookupRateLimit } = resolveRegistries(options.registries);
  const vies = viesCheck(bff, registries);

  const app = new Hono<Env>();
  app.use('*', requestLog(bff));
  app.use('*', cors(bff));
  app.use('*', limitBody(bff));

  const routes = new Hono<Env>();
  const health = healthRoutes(bff);
  routes.route('/', health);
  routes.route('/', productRoutes(bff, findProduct, vies));
  routes.route('/', checkoutRoutes(bff, findProduct, vies));
  routes.route('/', companyRoutes(bff, registries, lookupRateLimit));
  routes.route('/', clientCheckRoutes(bff));
  routes.route('/', checkoutOutcomeRoutes({ client: bff.client, key: bff.secretKey, call: (c, what, run) => bff.service(c as BffContext, what, run) }));
  routes.route('/', portalInvoiceRoutes(bff));
  routes.route('/', portalPaymentRoutes(bff));
  routes.route('/', portalClientRoutes(bff));
  routes.route('/', renderRoutes(bff));
  if (bff.signup) routes.route('/', signupRoutes(bff, bff.signup));
  if (options.webhooks) routes.route('/', eventRoutes(bff, options.webhooks));

  app.route(bff.basePath || '/', routes);
  // Also at the root, where a load balancer probes a BFF running alone.
  if (bff.basePath) app.route('/', health);
  answerErrors(bff, app);
  noteBasePath(app, bff.basePath);
  return app;
}
