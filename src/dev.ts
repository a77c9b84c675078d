import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { serve, type ServerType } from '@hono/node-server';
import { serveStatic } from '@hono/node-server/serve-static';
import { Hono } from 'hono';
import { createInvoicingClient } from './api/index.js';
import { createBff, issuePortalToken } from './bff/index.js';
import { startService } from './service/server.js';

/**
 * `invoicekit dev` (`npm start`): the demo on the embedded service. One command starts
 *  - the invoicing service on its own port, with a seeded demo account in `./.invoicekit/data`;
 *  - the demo site, built once at start from the production build of the elements, whose server
 *    plays the shop's own backend: it mounts the BFF at `/bff` and mints portal tokens for the
 *    signed-in customer at `/demo-api/session`.
 * The default ports (4700 for the site, 4701 for the service) stay clear of the usual dev servers.
 */
export const DEFAULT_DEMO_PORT = 4700;
export const DEFAULT_SERVICE_PORT = 4701;

const DEMO_ROOT = fileURLToPath(new URL('../demo', import.meta.url));

export async function runDev(argv: string[]): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: {
      port: { type: 'string', default: process.env.INVOICEKIT_DEMO_PORT ?? process.env.PORT ?? String(DEFAULT_DEMO_PORT) },
      host: { type: 'string', default: '127.0.0.1' },
      'service-port': { type: 'string', default: process.env.INVOICEKIT_SERVICE_PORT ?? String(DEFAULT_SERVICE_PORT) },
      'data-dir': { type: 'string', default: './.invoicekit/data' },
    },
  });
  const host = values.host;
  const buildDir = await mkdtemp(join(tmpdir(), 'invoicekit-demo-site-'));
  const building = buildDemoSite(buildDir);
  // A failed build must not leave the service running; the rejection is awaited below.
  building.catch(() => undefined);

  const service = await startService({
    port: Number(values['service-port']),
    host,
    dataDir: values['data-dir'],
    databaseUrl: process.env.DATABASE_URL || undefined,
    apiToken: process.env.INVOICEKIT_API_TOKEN || undefined,
    integrationToken: process.env.INVOICEKIT_INTEGRATION_TOKEN || undefined,
    smtpUrl: process.env.SMTP_URL || undefined,
    seed: true,
  });
  console.log(`invoicing service listening on ${service.url}`);

  const portalSecret = process.env.INVOICEKIT_PORTAL_SECRET || randomBytes(32).toString('base64url');
  const client = createInvoicingClient({ baseUrl: service.url, apiToken: service.apiToken });
  try {
    await building;
  } catch (error) {
    await service.close();
    throw error;
  }
  // The site listens first, so that a port of 0 is known before the BFF learns its allowed origins.
  let handle: (request: Request) => Response | Promise<Response> = () => new Response('starting', { status: 503 });
  const server = await new Promise<ServerType>((resolve, reject) => {
    const s = serve({ fetch: (request) => handle(request), port: Number(values.port), hostname: host }, () => resolve(s));
    s.once('error', reject);
  });
  const port = (server.address() as AddressInfo).port;
  const siteUrl = `http://${host}:${port}`;
  const bff = createBff({
    client,
    portalSecret,
    allowedOrigins: [siteUrl, `http://localhost:${port}`, `http://127.0.0.1:${port}`],
    signup: true,
    logger: false,
  });

  const site = new Hono();
  site.all('/bff', (c) => bff.fetch(c.req.raw));
  site.all('/bff/*', (c) => bff.fetch(c.req.raw));
  site.get('/demo-api/config', (c) => c.json({ serviceUrl: service.url, outboxUrl: `${service.url}/outbox` }, 200, { 'cache-control': 'no-store' }));
  site.get('/demo-api/customers', async (c) => {
    const customers = await client.clients.list({ per_page: 100 });
    return c.json(
      customers.filter((customer) => customer.external_id).map((customer) => ({ id: customer.external_id, name: customer.name, email: customer.email })),
      200,
      { 'cache-control': 'no-store' },
    );
  });
  // The shop's own sign-in, reduced to picking a customer: a real host mints the token after its login.
  site.get('/demo-api/session', async (c) => {
    const externalId = c.req.query('customer') ?? 'cust-1001';
    const customer = await client.clients.findByExternalId(externalId);
    if (!customer) return c.json({ error: { code: 'not_found', message: 'No such demo customer.' } }, 404);
    const token = await issuePortalToken({ clientId: customer.id, ttlSeconds: 3600 }, portalSecret);
    return c.json({ token, customer: { id: customer.external_id, name: customer.name, email: customer.email } }, 200, { 'cache-control': 'no-store' });
  });
  site.all('/demo-api/*', (c) => c.json({ error: { code: 'not_found', message: 'Not found.' } }, 404));
  site.onError((error, c) => c.json({ error: { code: 'service_unavailable', message: error.message } }, 502));
  site.use('/*', serveStatic({ root: buildDir }));
  site.notFound((c) => c.html('<!doctype html><title>Not found</title><p>Not found. <a href="/">Back to the demo</a></p>', 404));
  handle = site.fetch;
  console.log(`invoicekit demo on ${siteUrl} (shop, customer portal, account page)`);
  console.log(
    [
      '',
      `  Demo site        ${siteUrl}/`,
      `  Shop             ${siteUrl}/shop.html`,
      `  Customer portal  ${siteUrl}/portal.html`,
      `  Account          ${siteUrl}/account.html`,
      `  How it is wired  ${siteUrl}/how-it-works.html`,
      `  BFF              ${siteUrl}/bff (mounted in the demo site's backend)`,
      `  Service          ${service.url} (api token ${service.apiToken})`,
      `  Outbox           ${service.url}/outbox`,
      '',
      'Press Ctrl-C to stop.',
    ].join('\n'),
  );

  let closing = false;
  const stop = () => {
    if (closing) return;
    closing = true;
    server.close();
    (server as { closeAllConnections?: () => void }).closeAllConnections?.();
    Promise.allSettled([service.close(), rm(buildDir, { recursive: true, force: true })]).finally(() => process.exit(0));
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

/**
 * Builds the demo pages with Vite, as a host's production build would: Lit's production build and
 * the elements' production modules, without the development warnings.
 */
async function buildDemoSite(outDir: string): Promise<void> {
  const { build } = await import('vite');
  const pages = (await readdir(DEMO_ROOT)).filter((name) => name.endsWith('.html'));
  await build({
    root: DEMO_ROOT,
    configFile: false,
    logLevel: 'warn',
    mode: 'production',
    plugins: [
      {
        name: 'invoicekit:production-elements',
        load(id) {
          return /\/src\/elements\/shared\/dev-mode\.ts$/.test(id) ? 'export const DEV = false;' : null;
        },
      },
    ],
    build: {
      outDir,
      emptyOutDir: true,
      target: 'es2022',
      reportCompressedSize: false,
      rolldownOptions: { input: Object.fromEntries(pages.map((page) => [page.replace(/\.html$/, ''), join(DEMO_ROOT, page)])) },
    },
  });
}
