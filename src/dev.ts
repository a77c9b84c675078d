import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFile } from 'node:fs/promises';
import { extname, join, normalize } from 'node:path';
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
    // The demo shop is paid through the test provider's Pay page.
    testPayments: true,
    seed: true,
    // The demo's BFF subscribes to webhooks on this machine.
    webhooks: { allowPrivate: true },
  });
  console.log(`invoicing service listening on ${service.url}`);

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
  const firstLink = await outboxLink();
  if (firstLink) console.log(`outbox of the demo account (link valid for 15 minutes): ${firstLink}`);

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

  const demo = await demoPages();

  /** The shop's own backend: who is signed in is the host's business; the BFF only trusts the token. */
  async function session(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', origin);
    const send = (status: number, body: unknown) => {
      response.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
      response.end(JSON.stringify(body));
    };
    if (url.pathname === '/demo-api/config') {
      // Each page load gets a fresh outbox link for the demo account only, never the api_token.
      send(200, { serviceUrl: service.url, outboxUrl: await outboxLink() });
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
    demo.handle(request, response);
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
    Promise.all([demo.close(), service.close()]).finally(() => process.exit(0));
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

interface DemoPages {
  handle(request: IncomingMessage, response: ServerResponse): void;
  close(): Promise<void>;
}

/**
 * From the sources (`npm start`) Vite serves the demo and rebuilds it on change. The published
 * package runs compiled, without Vite, and serves the demo `npm run build` wrote to `dist/demo/`.
 */
async function demoPages(): Promise<DemoPages> {
  if (import.meta.url.endsWith('.ts')) {
    const { createServer: createVite } = await import('vite');
    const vite = await createVite({
      root: fileURLToPath(new URL('../demo', import.meta.url)),
      configFile: false,
      appType: 'mpa',
      logLevel: 'warn',
      server: { middlewareMode: true, hmr: false },
      optimizeDeps: { include: ['lit', 'lit/decorators.js', 'lit/directive-helpers.js'] },
    });
    return { handle: (request, response) => vite.middlewares(request, response), close: () => vite.close() };
  }
  const root = fileURLToPath(new URL('../demo/', import.meta.url));
  return {
    handle(request, response) {
      const path = decodeURIComponent(new URL(request.url ?? '/', 'http://demo').pathname);
      const relative = normalize(path.endsWith('/') ? `${path}index.html` : path).replace(/^([/\\])+/, '');
      const file = join(root, relative);
      const send = (status: number, body: string | Buffer, type: string) => {
        response.writeHead(status, { 'content-type': type, 'x-content-type-options': 'nosniff' });
        response.end(body);
      };
      if (!file.startsWith(root)) return send(404, 'Not found', 'text/plain; charset=utf-8');
      readFile(file)
        .catch(() => (extname(file) ? Promise.reject(new Error('missing')) : readFile(`${file}.html`)))
        .then(
          (body) => send(200, body, DEMO_TYPES[extname(file) || '.html'] ?? 'application/octet-stream'),
          () => send(404, 'Not found', 'text/plain; charset=utf-8'),
        );
    },
    close: async () => undefined,
  };
}

const DEMO_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.json': 'application/json',
};
