import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { serve, type ServerType } from '@hono/node-server';
import { serveStatic } from '@hono/node-server/serve-static';
import { Hono } from 'hono';
import { compress } from 'hono/compress';
import { createInvoicingClient, type InvoicingClient } from './api/index.js';
import { createBff, issuePortalToken, subscribeBffToWebhooks } from './bff/index.js';
import { withPortFlag } from './bff/listen-errors.js';
import { connectAccountToLocalKsef, localKsefRefusal, startLocalKsef } from './service/ksef/local.js';
import { mailTransportUrl } from './service/documents/mailer.js';
import { startService } from './service/server.js';
import { backOfficeLine } from './service/admin/announce.js';
import { startRegistryDoubles } from './service/registries/doubles/index.js';
import { portalPage } from './dev-portal-page.js';

/**
 * `invoicekit dev` (`npm start`): the demo on the embedded service. One command starts
 *  - the invoicing service on its own port, with a seeded demo account in `./.invoicekit/data`;
 *  - the demo site, served from the production build of the elements, whose server plays the
 *    shop's own backend: it mounts the BFF at `/bff` and mints portal tokens for the signed-in
 *    customer at `/demo-api/session`.
 *  - the local KSeF (the bundled test double), to which the demo account sends its invoices.
 * The default ports (4700 for the site, 4701 for the service, 4702 for the local KSeF) stay clear of
 * the usual dev servers.
 */
export const DEFAULT_DEMO_PORT = 4700;
export const DEFAULT_SERVICE_PORT = 4701;
export const DEFAULT_KSEF_LOCAL_PORT = 4702;

export async function runDev(argv: string[]): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: {
      port: { type: 'string', default: process.env.INVOICEKIT_DEMO_PORT || process.env.PORT || String(DEFAULT_DEMO_PORT) },
      host: { type: 'string', default: '127.0.0.1' },
      'service-port': { type: 'string', default: process.env.INVOICEKIT_SERVICE_PORT || String(DEFAULT_SERVICE_PORT) },
      'data-dir': { type: 'string', default: './.invoicekit/data' },
      'ksef-local-port': { type: 'string', default: process.env.INVOICEKIT_KSEF_LOCAL_PORT || undefined },
    },
  });
  const host = values.host;
  const building = demoSite();
  // A failed build must not leave the service running; the rejection is awaited below.
  building.catch(() => undefined);

  // With an ephemeral service port (tests, several demos at once) the local KSeF takes one too.
  const ksefPort = values['ksef-local-port'] ?? (Number(values['service-port']) === 0 ? '0' : String(DEFAULT_KSEF_LOCAL_PORT));
  // The service starts first, so that a data folder in use stops a second demo before anything listens.
  let localKsef: Awaited<ReturnType<typeof startLocalKsef>> | undefined = undefined;
  // NBP, VIES and the VAT white list: the addresses configured, else stand-ins on this machine,
  // seeded with demo companies and recent NBP tables, so the demo works offline.
  const configured = registryUrlsFromEnv();
  const standIns = configured ? undefined : await startRegistryDoubles();
  const registries = configured ?? { nbpApiUrl: standIns!.nbpApiUrl, viesApiUrl: standIns!.viesApiUrl, mfWhitelistUrl: standIns!.mfWhitelistUrl };
  const closeStandIns = () => standIns?.close();
  const service = await withPortFlag(startService({
    registries,
    ksef: { localOrigin: () => localKsef?.origin },
    port: Number(values['service-port']),
    host,
    dataDir: values['data-dir'],
    databaseUrl: process.env.DATABASE_URL || undefined,
    apiToken: process.env.INVOICEKIT_API_TOKEN || undefined,
    integrationToken: process.env.INVOICEKIT_INTEGRATION_TOKEN || undefined,
    smtpUrl: mailTransportUrl(process.env.SMTP_URL || undefined, { from: process.env.INVOICEKIT_MAIL_FROM, perHour: process.env.INVOICEKIT_MAIL_PER_HOUR }),
    // The demo shop is paid through the test provider's Pay page.
    testPayments: true,
    seed: true,
    // The demo's BFF subscribes to webhooks on this machine.
    webhooks: { allowPrivate: true },
  }), '--service-port', values['service-port']);
  console.log(`invoicing service listening on ${service.url}`);
  console.log(await backOfficeLine(service, { seed: true }));
  if (standIns) console.log(`NBP, VIES and VAT white list stand-ins at ${standIns.nbpApiUrl}, ${standIns.viesApiUrl}, ${standIns.mfWhitelistUrl}`);
  const refusal = await localKsefRefusal(service.db);
  if (refusal) {
    await service.close();
    throw new Error(refusal);
  }
  localKsef = await withPortFlag(startLocalKsef({ dataDir: values['data-dir'], port: Number(ksefPort) }), '--ksef-local-port', ksefPort);
  // Every invoice of the demo shop goes to the local KSeF, as a Polish shop's would go to KSeF.
  await connectAccountToLocalKsef(service.url, service.apiToken, localKsef, { auto_send_mode: 'all' });

  /** A short-lived link to the demo account's outbox (none with SMTP), made with its api_token. */
  async function outboxLink(): Promise<string | null> {
    const response = await fetch(`${service.url}/outbox/links.json`, {
      method: 'POST',
      headers: { authorization: `Bearer ${service.apiToken}`, accept: 'application/json' },
    });
    if (response.status === 404) return null;
    if (!response.ok) throw new Error(`the outbox link could not be made: ${response.status}`);
    return ((await response.json()) as { url: string }).url;
  }

  let root: string;
  try {
    root = await building;
  } catch (error) {
    await service.close();
    await localKsef?.close();
    await closeStandIns();
    throw error;
  }
  // The site listens first, so that a port of 0 is known before the BFF learns its allowed origins.
  let handle: (request: Request) => Response | Promise<Response> = () => new Response('starting', { status: 503 });
  let server: ServerType;
  try {
    server = await withPortFlag(
      new Promise<ServerType>((resolve, reject) => {
        const s = serve({ fetch: (request) => handle(request), port: Number(values.port), hostname: host }, () => resolve(s));
        s.once('error', reject);
      }),
      '--port',
      values.port,
    );
  } catch (error) {
    await service.close();
    throw error;
  }
  const port = (server.address() as AddressInfo).port;
  const siteUrl = `http://${host}:${port}`;

  const portalSecret = process.env.INVOICEKIT_PORTAL_SECRET || randomBytes(32).toString('base64url');
  // The BFF and the service share this process: the BFF's calls are answered in-process, no socket.
  const client = createInvoicingClient({ baseUrl: service.url, apiToken: service.apiToken, fetch: service.fetch });
  // The BFF receives the service's signed webhooks, so the portal sees a payment land without polling.
  const webhookSecret = `whsec_${randomBytes(24).toString('base64url')}`;
  const bff = createBff({
    client,
    ...(service.writeCount ? { serviceWriteCount: service.writeCount } : {}),
    portalSecret,
    allowedOrigins: [...new Set([siteUrl, `http://localhost:${port}`, `http://127.0.0.1:${port}`])],
    signup: true,
    logger: false,
    webhooks: { secret: webhookSecret },
    checkout: { testMode: true },
    registries,
  });

  const site = new Hono();
  site.all('/bff', (c) => bff.fetch(c.req.raw));
  site.all('/bff/*', (c) => bff.fetch(c.req.raw));
  // Each page load gets a fresh outbox link for the demo account only, never the api_token.
  site.get('/demo-api/config', async (c) => c.json({ serviceUrl: service.url, outboxUrl: await outboxLink() }, 200, { 'cache-control': 'no-store' }));
  site.get('/demo-api/customers', async (c) => {
    const customers = await client.clients.list({ per_page: 100 });
    return c.json(
      customers
        .filter((customer) => customer.external_id)
        .map((customer) => ({ id: customer.external_id, client_id: customer.id, name: customer.name, email: customer.email })),
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
  // The site's own files and pages go compressed, and the build's hashed files are kept for a year, as a
  // host's production server sends them (the BFF and the demo's API above answer as they do).
  site.use('/*', compress());
  site.use('/assets/*', async (c, next) => {
    await next();
    if (c.res.ok) c.res.headers.set('cache-control', 'public, max-age=31536000, immutable');
  });
  // The portal prints the customer's list on the server, as a host's page would (src/dev-portal-page.ts).
  const portal = portalPage({ root, bff, client, portalSecret });
  site.get('/portal.html', (c) => portal(c.req.raw));
  site.use('/*', serveStatic({ root }));
  site.notFound((c) => c.html('<!doctype html><title>Not found</title><p>Not found. <a href="/">Back to the demo</a></p>', 404));
  handle = site.fetch;

  await subscribeBffToWebhooks(client, `${siteUrl}/bff/webhooks`, webhookSecret);
  await pointPortalAtDemo(client, `${siteUrl}${DEMO_PORTAL}`);
  const firstOutbox = await outboxLink();
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
      `  Local KSeF       ${localKsef?.origin} (test double; tokens: POST ${localKsef?.origin}/local/tokens)`,
      `  Outbox           ${firstOutbox ?? 'none: e-mail goes through SMTP_URL'}${firstOutbox ? ' (link valid for 15 minutes; the site always links a fresh one)' : ''}`,
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
    Promise.allSettled([service.close().finally(() => localKsef?.close()), closeStandIns()]).finally(() => process.exit(0));
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

/**
 * The folder the demo site is served from: its production build. From the sources (`npm start`)
 * it is built as a host's production build would be, so the pages load Lit's production build and
 * the elements' production modules, once per version of the sources (`dist/demo-dev/<hash>/`); the
 * published package ships it prebuilt in `demo/`.
 */
async function demoSite(): Promise<string> {
  if (import.meta.url.endsWith('.ts')) {
    // From the sources: the site as they are now, built once per version of them (scripts/build-demo.mjs).
    const { demoSiteOfSources } = (await import(pathToFileURL(fileURLToPath(new URL('../scripts/build-demo.mjs', import.meta.url))).href)) as {
      demoSiteOfSources: () => Promise<string>;
    };
    return `${await demoSiteOfSources()}/`;
  }
  const root = fileURLToPath(new URL('../demo/', import.meta.url));
  if (!existsSync(root)) throw new Error(`The demo site is missing from ${root}: run npm run build.`);
  return root;
}

/** The demo portal's address for one customer (`?customer=` takes the service's client id). */
const DEMO_PORTAL = '/portal.html?customer={client_id}';

/**
 * Points the main department's `portal_url` at the demo portal, so the back office's "Open portal
 * view" opens it; a portal address the seller set to another site is left as it is.
 */
async function pointPortalAtDemo(client: InvoicingClient, portalUrl: string): Promise<void> {
  const main = (await client.departments.list()).find((department) => department.main);
  const current = main?.portal_url ?? null;
  if (!main || current === portalUrl || (current && !current.endsWith(DEMO_PORTAL))) return;
  await client.departments.update(main.id, { portal_url: portalUrl });
}

/** The registers' addresses the environment gives (`INVOICEKIT_NBP_API_URL`, …), or none when it gives none. */
function registryUrlsFromEnv(): { nbpApiUrl?: string; viesApiUrl?: string; mfWhitelistUrl?: string } | undefined {
  const urls = {
    nbpApiUrl: process.env.INVOICEKIT_NBP_API_URL || undefined,
    viesApiUrl: process.env.INVOICEKIT_VIES_API_URL || undefined,
    mfWhitelistUrl: process.env.INVOICEKIT_MF_WHITELIST_URL || undefined,
  };
  return Object.values(urls).some(Boolean) ? urls : undefined;
}
