import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { getRequestListener } from '@hono/node-server';
import { Hono } from 'hono';
import { createBff, renderInvoiceList } from '../../src/bff/index.js';
import { keepAliveFetch } from '../../src/bff/node-fetch.js';
import { followServiceWrites } from '../../src/bff/node-write-feed.js';
import { staticTable } from '../static-table.js';

/**
 * The BFF in its own process, in front of the benchmark's service, as `invoicekit bff` runs it
 * (rate limits off: the load is one address; following the service's write count, as it does for a
 * service on the same host). It also serves the page the browser figures use, from
 * the same origin, so the elements call `/bff` as they do in a real portal, and two whole pages for
 * first contentful paint: one printing the server-rendered list (rendered for each request, or the
 * last rendering served again), one a static table.
 */
// As `startBff` follows a service on the same host: the write count, so held pages need no call.
const feed = followServiceWrites({ serviceUrl: process.env.BENCH_SERVICE_URL!, apiToken: process.env.BENCH_API_TOKEN! });
await feed.ready;
const bff = createBff({
  serviceUrl: process.env.BENCH_SERVICE_URL!,
  apiToken: process.env.BENCH_API_TOKEN!,
  portalSecret: process.env.BENCH_PORTAL_SECRET!,
  rateLimit: false,
  logger: false,
  // The shop the checkout figure sends its buyers back to, as a real shop's configuration names it.
  returnUrlOrigins: ['https://shop.example'],
  // As `startBff` (the CLI) calls the service: over kept Node connections.
  serviceFetch: keepAliveFetch(),
  serviceWriteCount: feed.writeCount,
});
const app = new Hono();
app.get('/bench/page.html', (c) => c.html('<!doctype html><meta charset="utf-8"><title>bench</title><body></body>'));
app.get('/bench/kit.js', async (c) =>
  c.body(await readFile(process.env.BENCH_KIT_PATH!, 'utf8'), 200, { 'content-type': 'text/javascript; charset=utf-8' }),
);
// Each element bundled with code splitting (`bench/sizes.ts`): its entry and chunks, as a shop page fetches them.
app.get('/bench/split/:element/:file', async (c) => {
  const { element, file } = c.req.param();
  if (!/^[a-z-]+$/.test(element) || !/^[\w-]+\.js$/.test(file) || !process.env.BENCH_SPLIT_DIR) return c.notFound();
  const code = await readFile(join(process.env.BENCH_SPLIT_DIR, element, file), 'utf8').catch(() => undefined);
  return code === undefined ? c.notFound() : c.body(code, 200, { 'content-type': 'text/javascript; charset=utf-8' });
});
const page = (body: string) => `<!doctype html><html lang="en"><meta charset="utf-8"><title>Your invoices</title><body><h1>Your invoices</h1>${body}`;
app.get('/bench/static-page.html', (c) => c.html(page(staticTable(25))));
/** The last fragment rendered for each token: `&pasted` serves it as a file would be, without rendering. */
const fragments = new Map<string, string>();
app.get('/bench/server-rendered.html', async (c) => {
  const token = c.req.query('token') ?? '';
  const cached = c.req.query('pasted') !== undefined ? fragments.get(token) : undefined;
  const fragment = cached ?? (await renderInvoiceList({ bff, portalToken: token }));
  fragments.set(token, fragment);
  return c.html(page(`${fragment}<script type="module" src="/bench/kit.js"></script>`));
});
app.all('*', (c) => bff.fetch(c.req.raw));
const server = createServer(getRequestListener(app.fetch));
server.listen(0, '127.0.0.1', () => {
  process.send!({ type: 'ready', url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` });
});
process.on('message', (message: { id: number; type: string }) => {
  if (message.type === 'stop') {
    process.send!({ id: message.id, result: {} });
    server.close();
    process.exit(0);
  }
});
