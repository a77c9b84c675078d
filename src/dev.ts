import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { getRequestListener } from '@hono/node-server';
import { createInvoicingClient } from './api/index.js';
import { createBff, issuePortalToken, subscribeBffToWebhooks } from './bff/index.js';
import { startService } from './service/server.js';

/**
 * `invoicekit dev` (`npm start`): the demo on the embedded service. One command starts
 *  - the invoicing service on its own port, with a seeded demo account in `./.invoicekit/data`;
 *  - the demo site, whose server plays the shop's own backend: it mounts the BFF at `/bff` and
 *    mints portal tokens for the signed-in customer at `/demo-api/session`.
 */
export async function runDev(argv: string[]): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: {
      port: { type: 'string', default: process.env.PORT ?? '8080' },
      host: { type: 'string', default: '127.0.0.1' },
      'service-port': { type: 'string', default: '8787' },
      'data-dir': { type: 'string', default: './.invoicekit/data' },
    },
  });
  const service = await startService({
    port: Number(values['service-port']),
    host: values.host,
    dataDir: values['data-dir'],
    databaseUrl: process.env.DATABASE_URL || undefined,
    apiToken: process.env.INVOICEKIT_API_TOKEN || undefined,
    integrationToken: process.env.INVOICEKIT_INTEGRATION_TOKEN || undefined,
    smtpUrl: process.env.SMTP_URL || undefined,
    seed: true,
    // The demo's BFF subscribes to webhooks on this machine.
    webhooks: { allowPrivate: true },
  });
  console.log(`invoicing service listening on ${service.url}`);

  const portalSecret = process.env.INVOICEKIT_PORTAL_SECRET || randomBytes(32).toString('base64url');
  const client = createInvoicingClient({ baseUrl: service.url, apiToken: service.apiToken });
  const port = Number(values.port);
  const origin = `http://${values.host}:${port}`;
  // The BFF receives the service's signed webhooks, so the portal sees a payment land without polling.
  const webhookSecret = `whsec_${randomBytes(24).toString('base64url')}`;
  const bff = createBff({
    client,
    portalSecret,
    allowedOrigins: [origin, `http://localhost:${port}`],
    signup: true,
    logger: false,
    webhooks: { secret: webhookSecret },
  });
  const bffListener = getRequestListener(bff.fetch);

  const { createServer: createVite } = await import('vite');
  const vite = await createVite({
    root: fileURLToPath(new URL('../demo', import.meta.url)),
    configFile: false,
    appType: 'mpa',
    logLevel: 'warn',
    server: { middlewareMode: true, hmr: false },
    optimizeDeps: { include: ['lit', 'lit/decorators.js', 'lit/directive-helpers.js'] },
  });

  /** The shop's own backend: who is signed in is the host's business; the BFF only trusts the token. */
  async function session(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', origin);
    const send = (status: number, body: unknown) => {
      response.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
      response.end(JSON.stringify(body));
    };
    if (url.pathname === '/demo-api/config') {
      send(200, { serviceUrl: service.url });
      return;
    }
    if (url.pathname === '/demo-api/customers') {
      const customers = await client.clients.list({ per_page: 100 });
      send(200, customers.filter((c) => c.external_id).map((c) => ({ id: c.external_id, name: c.name, email: c.email })));
      return;
    }
    if (url.pathname === '/demo-api/session') {
      const externalId = url.searchParams.get('customer') ?? 'cust-1001';
      const customer = await client.clients.findByExternalId(externalId);
      if (!customer) return send(404, { error: { code: 'not_found', message: 'No such demo customer.' } });
      const token = await issuePortalToken({ clientId: customer.id, ttlSeconds: 3600 }, portalSecret);
      send(200, { token, customer: { id: customer.external_id, name: customer.name, email: customer.email } });
      return;
    }
    send(404, { error: { code: 'not_found', message: 'Not found.' } });
  }

  const server = createServer((request, response) => {
    const path = request.url ?? '/';
    if (path === '/bff' || path.startsWith('/bff/')) return void bffListener(request, response);
    if (path.startsWith('/demo-api/')) {
      session(request, response).catch((error: unknown) => {
        response.writeHead(502, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ error: { code: 'service_unavailable', message: String(error) } }));
      });
      return;
    }
    vite.middlewares(request, response);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, values.host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  await subscribeBffToWebhooks(client, `http://${values.host}:${address.port}/bff/webhooks`, webhookSecret);
  console.log(`invoicekit demo on http://${values.host}:${address.port} (shop, customer portal, account page)`);

  let closing = false;
  const stop = () => {
    if (closing) return;
    closing = true;
    server.closeAllConnections();
    server.close();
    Promise.all([vite.close(), service.close()]).finally(() => process.exit(0));
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}
