import { Hono } from 'hono';
import { resolveBff, type BffApp, type Env } from './context.js';
import { answerErrors, cors, limitBody, requestLog } from './middleware.js';
import type { BffOptions } from './options.js';
import { checkoutRoutes } from './routes/checkout.js';
import { healthRoutes } from './routes/health.js';
import { portalClientRoutes } from './routes/portal-client.js';
import { portalInvoiceRoutes } from './routes/portal-invoices.js';
import { productLookup, productRoutes } from './routes/products.js';
import { signupRoutes } from './routes/signup.js';

export type { BffApp } from './context.js';
export type { BffOptions, BffServiceClient, CheckoutOptions, SignupOptions } from './options.js';

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

  const app = new Hono<Env>();
  app.use('*', requestLog(bff));
  app.use('*', cors(bff));
  app.use('*', limitBody(bff));

  const routes = new Hono<Env>();
  routes.route('/', healthRoutes());
  routes.route('/', productRoutes(bff, findProduct));
  routes.route('/', checkoutRoutes(bff, findProduct));
  routes.route('/', portalInvoiceRoutes(bff));
  routes.route('/', portalClientRoutes(bff));
  if (bff.signup) routes.route('/', signupRoutes(bff, bff.signup));

  app.route(bff.basePath || '/', routes);
  answerErrors(bff, app);
  return app;
}
