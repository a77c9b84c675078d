import { createServer, type IncomingMessage, type ServerResponse, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import { build } from 'esbuild';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createBff, issuePortalToken } from '../../src/bff/index.js';
import { PORTAL_SECRET, startService, type Service } from '../bff/support.js';
import { launchChromium } from '../helpers/chromium.js';
import { stopHostPage } from './support/host-page.js';

/**
 * The page a host makes the plain way: the fragment `POST /bff/render/invoice-list` answers, pasted
 * into static HTML, with the element's script as a module in the head, at the end of the body, or not
 * at all. What the first frame holds, what the page asks for before the customer does anything, and
 * Next. How fast it paints against a static table is the bench's figure (`bench/browser-only.ts --ssr`).
 */
vi.setConfig({ testTimeout: 60_000 });

let service: Service;
let server: Server;
let origin: string;
let browser: Browser;
let fragment = '';
let elementScript = '';
/** Every request a page made of this origin, path and query, in order. */
const requests: string[] = [];

const numbers = Array.from({ length: 30 }, (_, i) => `PAINT-${String(i + 1).padStart(3, '0')}`);
const SCRIPT = '<script type="module" src="/invoice-list.js"></script>';

function page(script: 'head' | 'end' | 'none'): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Your invoices</title>${script === 'head' ? SCRIPT : ''}</head><body><h1>Your invoices</h1>${fragment}${script === 'end' ? SCRIPT : ''}</body></html>`;
}

/** Resolved when the element's script has been sent, for a page whose body waits for it. */
let scriptSent: Promise<void> = Promise.resolve();
let sendScript = () => {};

async function answer(req: IncomingMessage, res: ServerResponse, bff: (req: IncomingMessage, res: ServerResponse) => void): Promise<void> {
  const url = new URL(req.url ?? '/', origin);
  requests.push(url.pathname + url.search);
  if (url.pathname.startsWith('/bff/')) return bff(req, res);
  if (url.pathname === '/invoice-list.js') {
    res.writeHead(200, { 'content-type': 'text/javascript' });
    return void res.end(elementScript, sendScript);
  }
  const script = url.pathname.slice(1);
  if (script !== 'head' && script !== 'end' && script !== 'none') return void res.writeHead(404).end();
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
  const html = page(script);
  if (script !== 'head') return void res.end(html);
  // The head first, the body once the script is in: the element is defined the moment the list is parsed, before any frame.
  const body = html.indexOf('<body>');
  scriptSent = new Promise((resolve) => (sendScript = resolve));
  res.write(html.slice(0, body));
  await scriptSent;
  res.end(html.slice(body));
}

beforeAll(async () => {
  let api;
  ({ service, api } = await startService());
  const customer = await api.clients.create({ name: 'First Paint Ltd' });
  for (const [i, number] of numbers.entries()) {
    await api.invoices.create({
      client_id: customer.id,
      number,
      issue_date: `2026-01-${String(i + 1).padStart(2, '0')}`,
      payment_to_kind: 'other_date',
      payment_to: '2099-12-31',
      currency: 'PLN',
      positions: [{ name: 'Work', tax: '23', quantity: '1', total_price_gross: `${200 + i}.00` }],
    });
  }
  const token = await issuePortalToken({ clientId: customer.id, ttlSeconds: 900 }, PORTAL_SECRET);
  const bundle = await build({ entryPoints: ['src/elements/invoice-list/define.ts'], bundle: true, minify: true, format: 'esm', write: false, logLevel: 'silent' });
  elementScript = bundle.outputFiles[0]!.text;
  server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const bff = getRequestListener(
    createBff({ serviceUrl: service.url, apiToken: service.apiToken, portalSecret: PORTAL_SECRET, allowedOrigins: [origin], rateLimit: false, logger: false }).fetch,
  );
  server.on('request', (req, res) => void answer(req, res, bff).catch((error: unknown) => res.writeHead(500).end(String(error))));
  // As a host's server asks for it: over HTTP, with the customer's token.
  const rendered = await fetch(`${origin}/bff/render/invoice-list`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ locale: 'en' }),
  });
  expect(rendered.status).toBe(200);
  fragment = await rendered.text();
  browser = await launchChromium();
}, 120_000);

afterAll(() => stopHostPage({ browser, server, service }));

/**
 * Runs in the page from its first moment: what the list holds in each animation frame, until the
 * element has rendered. Animation frame callbacks run right before the frame is drawn.
 */
function recordFrames(): void {
  const frames: { rows: number; defined: boolean; updated: boolean }[] = [];
  (window as unknown as { frames_: typeof frames }).frames_ = frames;
  const tick = () => {
    const list = document.querySelector('invoice-list') as (Element & { hasUpdated?: boolean }) | null;
    const rows = list?.shadowRoot?.querySelectorAll('tr.row').length ?? 0;
    if (rows || list?.hasUpdated) frames.push({ rows, defined: customElements.get('invoice-list') !== undefined, updated: list?.hasUpdated === true });
    if (!list?.hasUpdated && frames.length < 1000) requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
}

/** The rows' invoice numbers in the list's shadow root. */
const rowNumbers = (tab: Page) =>
  tab.evaluate(() => [...document.querySelector('invoice-list')!.shadowRoot!.querySelectorAll('tr.row > th')].map((cell) => cell.textContent!.trim()));

async function open(script: 'head' | 'end' | 'none'): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1200, height: 900 } });
  const tab = await context.newPage();
  await tab.addInitScript(recordFrames);
  requests.length = 0;
  await tab.goto(`${origin}/${script}`, { waitUntil: 'load' });
  await tab.waitForFunction(() => performance.getEntriesByName('first-contentful-paint').length > 0);
  return tab;
}

const newest25 = numbers.slice(5).reverse();

describe('a static page holding the rendered fragment', () => {
  it('holds no resource that blocks its first paint', () => {
    expect(fragment).toMatch(/^<invoice-list [^>]*><template shadowroot="open" shadowrootmode="open"><style>/);
    expect(fragment).not.toMatch(/<link\b|<img\b|<iframe\b|<script\b(?![^>]*type="application\/json")|@import|url\(|@font-face/i);
  });

  it('paints the first 25 rows from the markup alone, and asks for nothing', async () => {
    const tab = await open('none');
    const frames = await tab.evaluate(() => (window as unknown as { frames_: { rows: number }[] }).frames_);
    expect(frames.some((frame) => frame.rows === 25)).toBe(true);
    expect(await rowNumbers(tab)).toEqual(newest25);
    // Nothing but the page (and the browser's own look for a favicon).
    const fetched = await tab.evaluate(() => performance.getEntriesByType('resource').map((entry) => new URL(entry.name).pathname));
    expect(fetched.filter((path) => path !== '/favicon.ico')).toEqual([]);
    expect(requests.filter((path) => path !== '/favicon.ico')).toEqual(['/none']);
    // The status filter shows All chosen, as the element does.
    expect(
      await tab.evaluate(() => [...document.querySelector('invoice-list')!.shadowRoot!.querySelectorAll<HTMLInputElement>('.chip input')].map((input) => input.checked)),
    ).toEqual([true, false, false, false]);
    await tab.context().close();
  });

  for (const script of ['head', 'end'] as const) {
    it(`with the element's script ${script === 'head' ? 'in the head' : 'after the list'}: paints the server's rows first, takes over without asking for them, and Next shows the following invoices`, async () => {
      const tab = await open(script);
      await tab.waitForFunction(() => (document.querySelector('invoice-list') as unknown as { hasUpdated: boolean }).hasUpdated);
      const frames = await tab.evaluate(() => (window as unknown as { frames_: { rows: number; defined: boolean; updated: boolean }[] }).frames_);
      // A frame was drawn with the server's 25 rows before the element rendered its own (on a busy
      // machine the parser may also yield before the list's end, and a frame show it in part).
      expect(frames.find((frame) => frame.rows === 25)).toMatchObject({ updated: false });
      expect(frames.at(-1)).toMatchObject({ updated: true });
      expect(await rowNumbers(tab)).toEqual(newest25);
      expect(requests.filter((path) => path.startsWith('/bff/'))).toEqual([]);

      await tab.locator('invoice-list').locator('button[part~="page-button"]:not(.prev)').click();
      await expect.poll(() => rowNumbers(tab)).toEqual(['PAINT-005', 'PAINT-004', 'PAINT-003', 'PAINT-002', 'PAINT-001']);
      expect(requests.filter((path) => path.startsWith('/bff/'))).toEqual(['/bff/invoices?page=2&per_page=25&order=issue_date.desc']);
      await tab.context().close();
    });
  }
});
