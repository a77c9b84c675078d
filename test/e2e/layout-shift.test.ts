import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import { build } from 'esbuild';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createInvoicingClient } from '../../src/api/client.js';
import { createBff, issuePortalToken } from '../../src/bff/index.js';
import { PORTAL_SECRET, type Service } from '../bff/support.js';
import { launchChromium } from '../helpers/chromium.js';
import { startTestService } from '../helpers/service.js';
import { stopHostPage } from './support/host-page.js';

/**
 * Nothing moves while an element's data arrives: each element on a host page, defined before it is
 * parsed, with every answer of the BFF held until the page has painted the element's loading state.
 * Then the answers go, the data shows, and the page's layout shifts (the browser's own measure,
 * Lighthouse's CLS) add up to at most 0.02, at a phone's width and a laptop's.
 */
vi.setConfig({ testTimeout: 30_000 });

let service: Service;
let server: Server;
let origin: string;
let browser: Browser;
let elementsScript = '';
let token = '';

/** The BFF's answers wait for this while a test holds them. */
let held: Promise<void> = Promise.resolve();
let release = () => {};
const heldPaths: string[] = [];

const PAGES = {
  button: '<product-pay-button endpoint="/bff" product="logo-design"></product-pay-button>',
  list: () => `<invoice-list endpoint="/bff" portal-token="${token}" locale="en"></invoice-list>`,
  form: () => `<client-form endpoint="/bff" portal-token="${token}" locale="en"></client-form>`,
} as const;
type Kind = keyof typeof PAGES;

function page(kind: Kind): string {
  const element = typeof PAGES[kind] === 'string' ? PAGES[kind] : PAGES[kind]();
  // A classic script in the head: the elements are defined before the body is parsed, so what moves is the element's own doing.
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Layout</title>
<style>body { margin: 0; padding: 1rem; font: 16px/1.5 system-ui, sans-serif; } p { margin: 1rem 0; }</style>
<script src="/elements.js"></script></head>
<body><h1>A host page</h1>${element}<p id="below">The host's own text, right below the element, where a shift would show.</p></body></html>`;
}

async function answer(req: IncomingMessage, res: ServerResponse, bff: (req: IncomingMessage, res: ServerResponse) => void): Promise<void> {
  const url = new URL(req.url ?? '/', origin);
  if (url.pathname.startsWith('/bff/')) {
    heldPaths.push(url.pathname);
    await held;
    return bff(req, res);
  }
  if (url.pathname === '/elements.js') {
    res.writeHead(200, { 'content-type': 'text/javascript' });
    return void res.end(elementsScript);
  }
  const kind = url.pathname.slice(1);
  if (!(kind in PAGES)) return void res.writeHead(404).end();
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
  res.end(page(kind as Kind));
}

beforeAll(async () => {
  service = await startTestService({ seed: true });
  const api = createInvoicingClient({ baseUrl: service.url, apiToken: service.apiToken, retry: 0 });
  const customer = await api.clients.create({ name: 'Steady Layout Sp. z o.o.', tax_no: '5252248481', email: 'steady@example.com', street: 'Prosta 1', post_code: '00-001', city: 'Warszawa', country: 'PL' });
  // More than a page (25), so the list shows a full page and its pager.
  for (let batch = 0; batch < 30; batch += 6) {
    await Promise.all(
      Array.from({ length: 6 }, (_, i) => batch + i).map((i) =>
        api.invoices.create({
          client_id: customer.id,
          number: `STEADY-${String(i + 1).padStart(3, '0')}`,
          issue_date: `2026-01-${String(i + 1).padStart(2, '0')}`,
          payment_to_kind: 'other_date',
          payment_to: '2099-12-31',
          currency: 'PLN',
          positions: [{ name: 'Work', tax: '23', quantity: '1', total_price_gross: `${200 + i}.00` }],
        }),
      ),
    );
  }
  token = await issuePortalToken({ clientId: customer.id, ttlSeconds: 900 }, PORTAL_SECRET);
  const bundle = await build({
    stdin: {
      contents: ["import './src/elements/product-pay-button/define.ts';", "import './src/elements/invoice-list/define.ts';", "import './src/elements/client-form/define.ts';"].join('\n'),
      resolveDir: process.cwd(),
      loader: 'ts',
    },
    bundle: true,
    minify: true,
    format: 'iife',
    write: false,
    logLevel: 'silent',
  });
  elementsScript = bundle.outputFiles[0]!.text;
  server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const bff = getRequestListener(
    createBff({ serviceUrl: service.url, apiToken: service.apiToken, portalSecret: PORTAL_SECRET, allowedOrigins: [origin], rateLimit: false, logger: false, checkout: { testMode: true } }).fetch,
  );
  server.on('request', (req, res) => void answer(req, res, bff).catch((error: unknown) => res.writeHead(500).end(String(error))));
  browser = await launchChromium();
}, 60_000);

afterAll(() => stopHostPage({ browser, server, service }));

/** Whether the element shows what the BFF answered. */
function loaded(kind: Kind): boolean {
  const element = document.querySelector('product-pay-button, invoice-list, client-form');
  if (kind === 'button') return !!element?.shadowRoot?.querySelector('[part~="price"]')?.textContent;
  if (kind === 'list') return (element?.shadowRoot?.querySelectorAll('tr.row').length ?? 0) > 0;
  return !!element?.querySelector<HTMLInputElement>('[data-field="name"]')?.value;
}

/**
 * The page's layout shifts so far, as Lighthouse sums them (shifts right after input do not count),
 * and what moved. A buffered observer holds every shift of the page in its records at once.
 */
const shifts = (tab: Page) =>
  tab.evaluate(() => {
    const observer = new PerformanceObserver(() => {});
    observer.observe({ type: 'layout-shift', buffered: true });
    const entries = observer.takeRecords() as (PerformanceEntry & { value: number; hadRecentInput: boolean; sources: { node?: Node; previousRect: DOMRectReadOnly; currentRect: DOMRectReadOnly }[] })[];
    observer.disconnect();
    const counted = entries.filter((entry) => !entry.hadRecentInput);
    const box = ({ x, y, width, height }: DOMRectReadOnly) => `${Math.round(x)},${Math.round(y)} ${Math.round(width)}×${Math.round(height)}`;
    return {
      sum: Math.round(counted.reduce((sum, entry) => sum + entry.value, 0) * 10_000) / 10_000,
      moved: counted.flatMap((entry) => entry.sources.map((source) => `${(source.node as Element | null)?.localName ?? 'a node in a shadow root'} ${box(source.previousRect)} → ${box(source.currentRect)}`)),
    };
  });

async function measure(kind: Kind, viewport: { width: number; height: number }): Promise<{ heldWhilePainted: boolean; sum: number; moved: string[] }> {
  held = new Promise((resolve) => (release = resolve));
  heldPaths.length = 0;
  const context = await browser.newContext({ viewport });
  try {
    const tab = await context.newPage();
    await tab.goto(`${origin}/${kind}`, { waitUntil: 'load' });
    // The loading state is on screen: painted, with the element's request waiting at the BFF.
    await tab.waitForFunction(() => performance.getEntriesByName('first-contentful-paint').length > 0);
    await expect.poll(() => heldPaths.length).toBeGreaterThan(0);
    await tab.evaluate(() => new Promise((painted) => requestAnimationFrame(() => requestAnimationFrame(painted))));
    const heldWhilePainted = !(await tab.evaluate(loaded, kind));
    release();
    await tab.waitForFunction(loaded, kind);
    await tab.evaluate(() => new Promise((painted) => requestAnimationFrame(() => requestAnimationFrame(painted))));
    return { heldWhilePainted, ...(await shifts(tab)) };
  } finally {
    release();
    await context.close();
  }
}

describe.each([
  ['a phone', { width: 412, height: 823 }],
  ['a laptop', { width: 1280, height: 800 }],
])('on %s, while its data arrives', (_, viewport) => {
  it.each(['button', 'list', 'form'] as const)('the %s moves nothing', async (kind) => {
    const { heldWhilePainted, sum, moved } = await measure(kind, viewport);
    expect(heldWhilePainted).toBe(true);
    expect(sum, `shifted: ${moved.join(', ')}`).toBeLessThanOrEqual(0.02);
  });
});
