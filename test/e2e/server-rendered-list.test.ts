import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import { build } from 'esbuild';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createBff, issuePortalToken, renderInvoiceList, type BffApp } from '../../src/bff/index.js';
import { PORTAL_SECRET, startService, type Api, type Service } from '../bff/support.js';
import { launchChromium } from '../helpers/chromium.js';
import { stopHostPage } from './support/host-page.js';

/**
 * A host page that prints the server-rendered `<invoice-list>` (through `renderInvoiceList`, in
 * process) and loads the element's script, in Chromium: what paints before the script, what the
 * element asks for when it takes over, and the page without JavaScript.
 */
vi.setConfig({ testTimeout: 60_000 });

let service: Service;
let api: Api;
let app: BffApp;
let server: Server;
let origin: string;
let browser: Browser;
let token: string;
let otherToken: string;
let elementScript = '';
/** Every request the page made to the BFF's list, as the BFF received it. */
const listRequests: string[] = [];
/** Set while the element's script is held back; released by the test. */
let holdScript: Promise<void> | undefined;

const numbers = Array.from({ length: 30 }, (_, i) => `SSR-${String(i + 1).padStart(3, '0')}`);

function page(fragment: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Your invoices</title></head><body><h1>Your invoices</h1>${fragment}<script type="module" src="/invoice-list.js"></script></body></html>`;
}

async function answer(req: IncomingMessage, res: ServerResponse, bff: (req: IncomingMessage, res: ServerResponse) => void): Promise<void> {
  const url = new URL(req.url ?? '/', origin);
  if (url.pathname.startsWith('/bff/')) {
    if (url.pathname === '/bff/invoices') listRequests.push(url.search);
    return bff(req, res);
  }
  if (url.pathname === '/invoice-list.js') {
    await holdScript;
    res.writeHead(200, { 'content-type': 'text/javascript' });
    return void res.end(elementScript);
  }
  if (url.pathname === '/invoices') {
    const portalToken = url.searchParams.get('customer') === 'other' ? otherToken : token;
    const fragment = await renderInvoiceList({ bff: app, portalToken, locale: url.searchParams.get('locale') ?? 'en' });
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    return void res.end(page(fragment));
  }
  res.writeHead(404).end();
}

beforeAll(async () => {
  ({ service, api } = await startService());
  const customer = await api.clients.create({ name: 'Server Rendered Ltd', email: 'ssr@example.com' });
  const other = await api.clients.create({ name: 'Someone Else' });
  for (const [i, number] of numbers.entries()) {
    const day = String(i + 1).padStart(2, '0');
    await api.invoices.create({
      client_id: customer.id,
      number,
      issue_date: `2026-01-${day}`,
      payment_to_kind: 'other_date',
      payment_to: '2099-12-31',
      currency: 'PLN',
      positions: [{ name: 'Work', tax: '23', quantity: '1', total_price_gross: `${100 + i}.00` }],
    });
  }
  await api.invoices.create({ client_id: other.id, number: 'OTHER-001', currency: 'PLN', positions: [{ name: 'Work', tax: '23', quantity: '1', total_price_gross: '1.00' }] });
  token = await issuePortalToken({ clientId: customer.id, ttlSeconds: 900 }, PORTAL_SECRET);
  otherToken = await issuePortalToken({ clientId: other.id, ttlSeconds: 900 }, PORTAL_SECRET);
  const bundle = await build({ entryPoints: ['src/elements/invoice-list/define.ts'], bundle: true, format: 'esm', write: false, logLevel: 'silent' });
  elementScript = bundle.outputFiles[0]!.text;
  server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // A PDF's first render starts a worker: on a loaded machine it can take longer than the default 10 s.
  app = createBff({ serviceUrl: service.url, apiToken: service.apiToken, portalSecret: PORTAL_SECRET, allowedOrigins: [origin], rateLimit: false, serviceTimeoutMs: 25_000 });
  const bff = getRequestListener(app.fetch);
  server.on('request', (req, res) => void answer(req, res, bff).catch((error) => res.writeHead(500).end(String(error))));
  browser = await launchChromium();
}, 120_000);

afterAll(() => stopHostPage({ browser, server, service }));

/** The rows' text in the list's shadow root, as the customer reads them. */
const rowTexts = () =>
  [...document.querySelector('invoice-list')!.shadowRoot!.querySelectorAll('tr.row')].map((row) => (row as HTMLElement).innerText.replace(/\s+/g, ' ').trim());

describe('a page printing the server-rendered list', () => {
  it('paints the first page before the script, and the element takes over without asking for it again', async () => {
    let release!: () => void;
    holdScript = new Promise((resolve) => (release = resolve));
    listRequests.length = 0;
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
    const tab = await context.newPage();
    const errors: string[] = [];
    tab.on('pageerror', (error) => errors.push(error.message));
    // The module script is held, so the document never finishes loading; its body is parsed all the same.
    await tab.goto(`${origin}/invoices`, { waitUntil: 'commit' });
    await tab.waitForFunction(() => document.querySelector('body > script'));

    // Before the script: the declarative shadow root alone holds the customer's first 25 rows.
    expect(await tab.evaluate(() => customElements.get('invoice-list'))).toBeUndefined();
    const before = await tab.evaluate(rowTexts);
    expect(before).toHaveLength(25);
    expect(before[0]).toMatch(/^SSR-030 Jan 30, 2026 Dec 31, 2099 .*PLN 129\.00 Unpaid/);
    expect(before.join(' ')).not.toContain('OTHER-001');
    const box = await tab.evaluate(() => document.querySelector('invoice-list')!.shadowRoot!.querySelector('table')!.getBoundingClientRect().toJSON());

    release();
    await tab.waitForFunction(() => customElements.get('invoice-list') && (document.querySelector('invoice-list') as unknown as { hasUpdated: boolean }).hasUpdated);
    await tab.evaluate(() => (document.querySelector('invoice-list') as unknown as { updateComplete: Promise<boolean> }).updateComplete);
    // Taken over: the same rows in the same place, no list request, no skeleton.
    expect(await tab.evaluate(rowTexts)).toEqual(before);
    expect(await tab.evaluate(() => document.querySelector('invoice-list')!.shadowRoot!.querySelector('table')!.getBoundingClientRect().toJSON())).toEqual(box);
    expect(await tab.evaluate(() => document.querySelector('invoice-list')!.shadowRoot!.querySelectorAll('tr.skeleton, script').length)).toBe(0);
    expect(await tab.evaluate(() => document.querySelectorAll('invoice-list > script').length)).toBe(0);
    expect(listRequests).toEqual([]);

    // Next asks the BFF for the following page, with the portal token the server printed.
    await tab.locator('invoice-list').locator('button[part~="page-button"]:not(.prev)').click();
    await expect.poll(() => tab.evaluate(rowTexts).then((rows) => rows.map((row) => row.split(' ')[0]))).toEqual(['SSR-005', 'SSR-004', 'SSR-003', 'SSR-002', 'SSR-001']);
    expect(listRequests).toEqual(['?page=2&per_page=25&order=issue_date.desc']);

    // A filter goes to the BFF too.
    await tab.locator('invoice-list').locator('input[type="search"]').fill('SSR-012');
    await tab.locator('invoice-list').locator('input[type="search"]').press('Enter');
    await expect.poll(() => tab.evaluate(rowTexts).then((rows) => rows.map((row) => row.split(' ')[0]))).toEqual(['SSR-012']);

    // PDF asks for a fresh link and downloads; Pay offers the host its event first.
    const row = tab.locator('invoice-list').locator('tr.row');
    const [download] = await Promise.all([tab.waitForEvent('download'), row.locator('a[part~="download-button"]').click()]);
    expect(download.suggestedFilename()).toBe('invoice-SSR-012.pdf');
    const paid = tab.evaluate(
      () =>
        new Promise<string>((resolve) =>
          document.querySelector('invoice-list')!.addEventListener('invoice-pay', (event) => {
            event.preventDefault();
            resolve((event as Event & { detail: { invoice: { number: string } } }).detail.invoice.number);
          }),
        ),
    );
    await row.locator('a[part~="pay-link"]').click();
    expect(await paid).toBe('SSR-012');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('takes over a Polish list without a flash of English', async () => {
    let release!: () => void;
    holdScript = new Promise((resolve) => (release = resolve));
    listRequests.length = 0;
    const context = await browser.newContext();
    const tab = await context.newPage();
    const errors: string[] = [];
    tab.on('pageerror', (error) => errors.push(error.message));
    await tab.goto(`${origin}/invoices?locale=pl`, { waitUntil: 'commit' });
    await tab.waitForFunction(() => document.querySelector('body > script'));
    const before = await tab.evaluate(rowTexts);
    expect(before[0]).toMatch(/^SSR-030 30 sty 2026 .*129,00 zł Nieopłacona/);
    release();
    await tab.waitForFunction(() => (document.querySelector('invoice-list') as unknown as { hasUpdated?: boolean }).hasUpdated);
    expect(await tab.evaluate(rowTexts)).toEqual(before);
    expect(listRequests).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('is readable without JavaScript, and its PDF links download the invoice', async () => {
    holdScript = undefined;
    const context = await browser.newContext({ javaScriptEnabled: false, acceptDownloads: true });
    const tab = await context.newPage();
    await tab.goto(`${origin}/invoices?customer=other`, { waitUntil: 'load' });
    const list = tab.locator('invoice-list');
    await expect.poll(() => list.locator('tr.row').count()).toBe(1);
    expect((await list.locator('tr.row').innerText()).replace(/\s+/g, ' ')).toMatch(/^OTHER-001 .*PLN\s1\.00/);
    expect(await list.locator('[part~="totals"]').innerText()).toMatch(/PLN\s1\.00/);
    const [download] = await Promise.all([tab.waitForEvent('download'), list.locator('a[part~="download-button"]').click()]);
    expect(download.suggestedFilename()).toBe('invoice-OTHER-001.pdf');
    const path = await download.path();
    const { readFile } = await import('node:fs/promises');
    expect((await readFile(path)).subarray(0, 5).toString()).toBe('%PDF-');
    await context.close();
  });
});
