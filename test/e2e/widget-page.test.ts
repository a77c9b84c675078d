import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestService, type TestService } from '../helpers/service.js';
import { launchChromium } from '../helpers/chromium.js';
import { startJourney } from './support/demo.js';

/**
 * The one-tag install: a plain HTML page on a shop's own origin that holds nothing but the product
 * widget's script tag. The script renders `<product-pay-button>` in direct mode, with no BFF, and a
 * buyer completes a purchase through the service's test payment page and back.
 */
let service: TestService;
let shop: Server;
let shopUrl: string;
let browser: Browser;
vi.setConfig({ testTimeout: 120_000 });

beforeAll(async () => {
  service = await startTestService({ seed: true, testPayments: true });
  const widget = `${service.url}/a/${service.prefix}/p/logo-design.js`;
  shop = createServer((request, response) => {
    if (request.url?.startsWith('/favicon')) return void response.writeHead(204).end();
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    // Nothing but the tag (so it ends up in <head>), or the tag pasted into a page's text.
    response.end(
      request.url === '/in-text'
        ? `<!doctype html><html lang="en"><title>A shop</title><h1>Logo design</h1><p id="offer">Order now: <script src="${widget}"></script></p></html>`
        : `<script src="${widget}"></script>`,
    );
  });
  await new Promise<void>((resolve) => shop.listen(0, '127.0.0.1', resolve));
  shopUrl = `http://127.0.0.1:${(shop.address() as AddressInfo).port}/product`;
  // The shop registers its origin: the only place the widget's checkout sends buyers back to.
  const [department] = (await (await fetch(`${service.url}/departments.json?api_token=${service.apiToken}`)).json()) as { id: number }[];
  const registered = await fetch(`${service.url}/departments/${department!.id}.json?api_token=${service.apiToken}`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ department: { widget_origins: [new URL(shopUrl).origin] } }),
  });
  if (!registered.ok) throw new Error(`registering the shop's origin failed: ${registered.status}`);
  browser = await launchChromium();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => shop?.close(resolve));
  await service?.stop();
});

async function paymentsFor(email: string) {
  const response = await fetch(`${service.url}/banking/payments.json?per_page=100&api_token=${service.apiToken}`);
  return ((await response.json()) as { email: string; paid: boolean; invoice_id: number | null; price: string }[]).filter((p) => p.email === email);
}

describe('a page holding only the widget script tag', () => {
  it('shows the button with the price, and completes a purchase with no BFF', async () => {
    const { page, errors, context } = await startJourney({ browser }, 'widget-page');
    await page.goto(shopUrl, { waitUntil: 'load' });
    const button = page.locator('product-pay-button');
    await expect.poll(() => button.locator('[part~="price"]').textContent(), { timeout: 20_000 }).toMatch(/^PLN\s1,845\.00$/);
    expect(await button.getAttribute('app-url')).toBe(service.url);
    expect(await button.locator('[part~="test-badge"]').textContent()).toBe('Test mode');

    await button.locator('[part~="button"]').click();
    const dialog = button.locator('[part~="dialog"]');
    await dialog.locator('input[name="email"]').fill('one-tag@shop.example');
    await dialog.locator('input[name="name"]').fill('Grace Hopper');
    await dialog.locator('[part~="continue-button"]').click();
    await page.waitForURL(/\/banking\/payments\/pay\//, { timeout: 20_000 });
    await page.getByRole('button', { name: /^Pay (?!with BLIK)/ }).click();
    await page.waitForURL((url) => url.href.startsWith(shopUrl), { timeout: 20_000 });

    await expect.poll(() => button.locator('[part~="status"]').textContent(), { timeout: 20_000 }).toMatch(/Payment received.*Invoice \d+\/\d{2}\/\d{4}/);
    const [payment, ...more] = await paymentsFor('one-tag@shop.example');
    expect(more).toEqual([]);
    expect(payment).toMatchObject({ paid: true, price: '1845.0' });
    const invoice = await (await fetch(`${service.url}/invoices/${payment!.invoice_id}.json?api_token=${service.apiToken}`)).json();
    expect(invoice).toMatchObject({ status: 'paid', price_gross: '1845.0', buyer_name: 'Grace Hopper' });
    expect(errors).toEqual([]);
    expect(await page.content()).not.toContain(service.apiToken);
    await context.close();
  });
});

describe('the widget script pasted into a page', () => {
  it('renders the button right where its tag stands', async () => {
    const { page, errors, context } = await startJourney({ browser }, 'widget-in-text');
    await page.goto(shopUrl.replace(/\/product$/, '/in-text'), { waitUntil: 'load' });
    await expect.poll(() => page.locator('#offer > product-pay-button [part~="price"]').count(), { timeout: 20_000 }).toBe(1);
    expect(await page.locator('#offer > product-pay-button + script').count()).toBe(1);
    expect(await page.locator('product-pay-button').count()).toBe(1);
    expect(errors).toEqual([]);
    await context.close();
  });
});
