import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * The demo as `npm start` runs it (the `invoicekit dev` command on a fresh data dir), driven in
 * Chromium as a shopper and a customer would use it.
 */
let demo: ChildProcess;
let dataDir: string;
let demoUrl: string;
let serviceUrl: string;
let browser: Browser;
/** The account's token, so the test can read what the demo saved through the service's own API. */
const apiToken = `demo-test-${Date.now().toString(36)}`;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'invoicekit-demo-'));
  demo = spawn(process.execPath, ['--import', 'tsx', 'src/cli.ts', 'dev', '--port', '0', '--service-port', '0', '--data-dir', dataDir], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, INVOICEKIT_API_TOKEN: apiToken },
  });
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the demo did not start:\n${output}`)), 90_000);
    demo.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      serviceUrl ??= /invoicing service listening on (\S+)/.exec(output)?.[1] as string;
      const match = /invoicekit demo on (\S+)/.exec(output);
      if (match) {
        demoUrl = match[1]!;
        clearTimeout(timer);
        resolve();
      }
    });
    demo.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    demo.once('exit', (code) => reject(new Error(`the demo exited with ${code}:\n${output}`)));
  });
  browser = await chromium.launch({
    executablePath: process.env.CHROME_PATH || '/usr/bin/chromium',
    args: ['--no-sandbox', '--headless', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking'],
  });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  demo?.kill('SIGTERM');
  await new Promise((resolve) => (demo?.exitCode !== null ? resolve(undefined) : demo.once('exit', resolve)));
  await rm(dataDir, { recursive: true, force: true });
});

describe('the demo', () => {
  it('sells a product: checkout through the BFF, the payment page, back to the shop, the invoice e-mailed', async () => {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(`${demoUrl}/shop.html`, { waitUntil: 'networkidle' });
    await expect.poll(() => page.locator('article.card').count()).toBe(6);
    expect(await page.locator('article.card').first().textContent()).toContain('1,845.00');
    await page.getByRole('button', { name: 'Buy now' }).first().click();
    await page.fill('input[name=email]', 'shopper@example.com');
    await page.fill('input[name=name]', 'Shopper Ltd');
    await page.click('#pay');
    await page.waitForURL(/\/banking\/payments\/pay\//);
    expect(await page.locator('.total').textContent()).toMatch(/^PLN\s1,845\.00$/);
    expect(await page.locator('.buyer-email').textContent()).toBe('shopper@example.com');
    await page.getByRole('button', { name: /^Pay PLN/ }).click();
    await page.waitForURL(/shop\.html\?paid=1/);
    await expect.poll(() => page.locator('#status').textContent()).toContain('Thank you');
    // One click on the demo's Outbox link opens the demo account's outbox, where the invoice landed.
    await page.waitForFunction(() => (document.querySelector<HTMLAnchorElement>('#outbox-link')?.href ?? '').includes('key='));
    await page.click('#outbox-link');
    await page.waitForURL(/\/outbox$/);
    const row = page.locator('tbody tr', { hasText: 'shopper@example.com' });
    await expect.poll(() => row.count()).toBe(1);
    expect(await row.locator('td.files').innerText()).toBe('1 file');
    // Nobody else reads it: without the link's session the outbox is closed.
    expect((await fetch(`${serviceUrl}/outbox.json`)).status).toBe(401);
    expect(errors).toEqual([]);
    // The browser never saw the account's api_token.
    expect(await page.content()).not.toMatch(/api_token/);
    await page.close();
  });

  it('shows the signed-in customer their invoices in the portal, and their details on the account page', async () => {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(`${demoUrl}/portal.html`, { waitUntil: 'networkidle' });
    const rows = page.locator('invoice-list [part~="row"]');
    await expect.poll(() => rows.count(), { timeout: 15_000 }).toBeGreaterThan(3);
    expect(await rows.first().textContent()).toMatch(/\d+\/\d{2}\/\d{4}/);
    await page.goto(`${demoUrl}/account.html`, { waitUntil: 'networkidle' });
    const field = (name: string) => page.locator(`client-form [name="client[${name}]"]`);
    await expect.poll(() => field('name').inputValue()).toBe('Zażółć Gęślą Jaźń Sp. z o.o.');
    expect(await field('country').inputValue()).toBe('PL');
    // A wrong post code is explained at its field, in a sentence.
    await field('post_code').fill('31042');
    await page.getByRole('button', { name: 'Save details' }).click();
    await expect.poll(() => page.getByText('Enter the post code as 00-950.').isVisible()).toBe(true);
    await field('post_code').fill('31-042');
    await field('city').fill('Kraków-Podgórze');
    await page.getByRole('button', { name: 'Save details' }).click();
    await expect.poll(() => page.locator('#status').textContent()).toContain('Saved');
    const stored = (await (await fetch(`${serviceUrl}/clients.json?external_id=cust-1001&api_token=${apiToken}`)).json()) as { city: string }[];
    expect(stored[0]?.city).toBe('Kraków-Podgórze');
    expect(errors).toEqual([]);
    await page.close();
  });
});
