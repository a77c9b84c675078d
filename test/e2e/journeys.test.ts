import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { catalogs } from '../../demo/src/i18n.js';
import { isValidKsefNumber } from '../../src/service/ksef/gateway.js';
import { qrCodesOfPdf } from '../service/ksef/support.js';
import { overflowingElements, type RunningDemo, startDemo, startJourney } from './support/demo.js';

/**
 * Every journey a newcomer takes through `npm start`, in Chromium, on one demo started for this file.
 */
let demo: RunningDemo;
vi.setConfig({ testTimeout: 120_000 });

beforeAll(async () => {
  demo = await startDemo();
}, 180_000);

afterAll(async () => {
  await demo?.stop();
});

const PAGES = ['/', '/shop.html', '/portal.html', '/account.html', '/how-it-works.html'];

describe('every demo page', () => {
  for (const width of [375, 1280]) {
    it(`loads at ${width} px without console errors and with nothing wider than the viewport`, async () => {
      const { page, errors, context } = await startJourney(demo, `pages-${width}`, { width, height: 800 });
      for (const path of PAGES) {
        await page.goto(`${demo.url}${path}`, { waitUntil: 'load' });
        // The elements have rendered their data, not a skeleton, before the layout is measured.
        await page.waitForFunction(() => !document.querySelector('invoice-list') || document.querySelector('invoice-list')!.shadowRoot?.querySelector('[part~="row"]'));
        expect(await page.title()).toMatch(/invoicekit demo/);
        expect(await overflowingElements(page), `${path} at ${width} px`).toEqual([]);
      }
      expect(errors).toEqual([]);
      await context.close();
    });
  }

  it('reads in Polish, page and elements alike', async () => {
    const { page, errors, context } = await startJourney(demo, 'polish');
    await page.goto(`${demo.url}/portal.html`, { waitUntil: 'load' });
    await page.selectOption('#language', 'pl');
    await expect.poll(() => page.locator('h1').textContent()).toBe('Twoje konto');
    await expect.poll(() => page.locator('invoice-list').getAttribute('locale')).toBe('pl');
    await page.goto(`${demo.url}/`, { waitUntil: 'load' });
    expect(await page.locator('html').getAttribute('lang')).toBe('pl');
    expect(await page.locator('nav a[href="/shop.html"]').textContent()).toBe('Sklep');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('switches the account page, the header and How it works between Polish and English with one switch, leaving no heading or label in the other language', async () => {
    const { page, errors, context } = await startJourney(demo, 'translated');
    // The page's headings, labels, links, buttons and title, as a reader meets them.
    const words = () =>
      page.evaluate(() => {
        const texts = [document.title];
        for (const node of document.querySelectorAll('h1, h2, h3, label, legend, nav a, a.skip-link, .badge, button, p.lead, [data-i18n]')) {
          // A label's own words, without the choices of the select inside it.
          const own = [...node.childNodes].filter((child) => child.nodeName !== 'SELECT').map((child) => child.textContent ?? '').join('');
          texts.push(own.trim());
        }
        for (const node of document.querySelectorAll('[aria-label]')) texts.push(node.getAttribute('aria-label')!.trim());
        return texts.filter(Boolean);
      });
    for (const [language, other] of [['pl', 'en'], ['en', 'pl']] as const) {
      // Only the words that differ between the languages tell them apart ("Demo" reads the same in both).
      const foreign = new Set(Object.entries(catalogs[other]).filter(([key, text]) => catalogs[language][key as keyof (typeof catalogs)['en']] !== text).map(([, text]) => text));
      const own = new Set(Object.values(catalogs[language]));
      await page.goto(`${demo.url}/account.html`, { waitUntil: 'load' });
      await page.selectOption('#language', language);
      for (const path of ['/account.html', '/how-it-works.html']) {
        await page.goto(`${demo.url}${path}`, { waitUntil: 'load' });
        await expect.poll(() => page.locator('html').getAttribute('lang')).toBe(language);
        const texts = await words();
        expect(texts.filter((text) => foreign.has(text)), `${path} in ${language}`).toEqual([]);
        // Every heading is one of the page's own words in this language: none was left out of the catalog.
        const headings = await page.locator('main h1, main h2').allTextContents();
        expect(headings.filter((text) => !own.has(text.trim())), `${path} headings in ${language}`).toEqual([]);
        expect(await page.locator('#language').count(), `${path}: one language switch`).toBe(1);
      }
      // The account page's form speaks the page's language.
      await page.goto(`${demo.url}/account.html`, { waitUntil: 'load' });
      await expect.poll(() => page.locator('client-form').getAttribute('locale'), { timeout: 20_000 }).toBe(language);
    }
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe('the customer portal', () => {
  it('shows one customer only their own invoices, and what they owe', async () => {
    const { page, errors, context } = await startJourney(demo, 'isolation');
    await page.goto(`${demo.url}/portal.html`, { waitUntil: 'load' });
    const numbers = () =>
      page.locator('invoice-list [part~="row"] [part~="number"]').allTextContents().then((all) => all.map((text) => text.trim()));
    await expect.poll(numbers, { timeout: 20_000 }).not.toEqual([]);
    const first = await numbers();
    await expect.poll(() => page.locator('.owed-card, .settled').count()).toBeGreaterThan(0);

    const customers = await page.locator('#customer option').evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value));
    expect(customers.length).toBeGreaterThan(2);
    await page.selectOption('#customer', customers[1]!);
    await expect.poll(async () => (await numbers()).join(), { timeout: 20_000 }).not.toBe(first.join());
    const second = await numbers();
    expect(second.filter((number) => first.includes(number))).toEqual([]);

    // Each portal token reaches only its own customer's invoices, whatever the page asks for.
    const session = async (customer: string) =>
      (await (await fetch(`${demo.url}/demo-api/session?customer=${customer}`)).json()) as { token: string };
    const [a, b] = await Promise.all([session(customers[0]!), session(customers[1]!)]);
    const list = async (token: string) =>
      (await (await fetch(`${demo.url}/bff/invoices?per_page=100`, { headers: { authorization: `Bearer ${token}` } })).json()) as {
        data: { id: number }[];
      };
    const ofA = (await list(a.token)).data.map((invoice) => invoice.id);
    for (const id of ofA.slice(0, 5)) {
      const response = await fetch(`${demo.url}/bff/invoices/${id}`, { headers: { authorization: `Bearer ${b.token}` } });
      expect(response.status).toBe(404);
    }
    expect(errors).toEqual([]);
    await context.close();
  });

  it('has a customer with enough invoices to page through', async () => {
    const { page, errors, context } = await startJourney(demo, 'paging');
    await page.goto(`${demo.url}/portal.html`, { waitUntil: 'load' });
    await page.selectOption('#customer', 'cust-1006');
    const status = page.locator('invoice-list').locator('[part~="summary"], [part~="pagination"]').first();
    await expect.poll(() => status.textContent(), { timeout: 20_000 }).toMatch(/of (6[0-9]|[7-9][0-9])/);
    expect(errors).toEqual([]);
    await context.close();
  });
});

interface StoredPayment {
  id: number;
  paid: boolean;
  email: string;
  invoice_id: number | null;
}

async function serviceJson<T>(path: string): Promise<T> {
  const url = new URL(path, demo.serviceUrl);
  url.searchParams.set('api_token', demo.apiToken);
  return (await (await fetch(url)).json()) as T;
}

/** Opens the pay button's dialog for `product` and, for a guest, fills it; then continues to the service's checkout page. */
async function checkout(page: Page, product: string, guestEmail?: string): Promise<void> {
  const button = page.locator(`product-pay-button[product="${product}"]`);
  await expect.poll(() => button.locator('[part~="price"]').count(), { timeout: 20_000 }).toBe(1);
  await button.locator('[part~="button"]').click();
  const dialog = button.locator('[part~="dialog"]');
  if (guestEmail) {
    await dialog.locator('input[name="email"]').fill(guestEmail);
    await dialog.locator('input[name="name"]').fill('Shopper Ltd');
  }
  await dialog.locator('[part~="continue-button"]').click();
  await page.waitForURL(/\/banking\/payments\/pay\//, { timeout: 20_000 });
}

/** The text of a PDF, as pdftotext reads it. */
async function pdfText(bytes: Buffer): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'invoicekit-pdf-'));
  try {
    await writeFile(join(dir, 'invoice.pdf'), bytes);
    return (await promisify(execFile)('pdftotext', ['-enc', 'UTF-8', join(dir, 'invoice.pdf'), '-'])).stdout;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

describe('buying in the shop', () => {
  it('buys as a signed-in customer, pays, returns to the shop; the invoice reaches the local KSeF; the portal lists it as paid with its KSeF number, its PDF has the total, the KSeF number and the QR code, the e-mail is in the outbox', async () => {
    const { page, errors, context } = await startJourney(demo, 'buy');
    await page.goto(`${demo.url}/shop.html`, { waitUntil: 'load' });
    const logo = page.locator('product-pay-button[product="logo-design"] [part~="price"]');
    await expect.poll(() => logo.textContent(), { timeout: 20_000 }).toMatch(/1,845\.00/);
    // A zero-decimal currency is shown in its own minor units.
    await expect.poll(() => page.locator('product-pay-button[product="logo-licence-jpy"] [part~="price"]').textContent()).toMatch(/15,000(?!\.)/);

    // Signed in as the shop's customer (the same one the portal then shows), the dialog asks nothing.
    const signedIn = page.waitForResponse((response) => response.url().includes('/demo-api/session?customer=cust-1003'));
    await page.selectOption('#customer', 'cust-1003');
    const { token } = (await (await signedIn).json()) as { token: string };
    await expect.poll(() => page.locator('product-pay-button[product="logo-design"]').getAttribute('portal-token')).toBe(token);
    await checkout(page, 'logo-design');
    expect(await page.locator('body').innerText()).toContain('kontakt@podlipami.example');
    await page.getByRole('button', { name: /^Pay (?!with BLIK)/ }).click();
    await page.waitForURL(/\/shop\.html/, { timeout: 20_000 });
    await expect.poll(() => page.locator('#status').textContent(), { timeout: 20_000 }).toMatch(/Thank you.*\d+\/\d{2}\/\d{4}/);
    const number = /(\d+\/\d{2}\/\d{4})/.exec((await page.locator('#status').textContent())!)![1]!;
    // The success notice links the invoice's public page.
    expect(await page.locator('#status').getByRole('link', { name: 'View the invoice' }).getAttribute('href')).toMatch(/^http/);

    const payments = await serviceJson<StoredPayment[]>('/banking/payments.json?per_page=100');
    const mine = payments.filter((payment) => payment.email === 'kontakt@podlipami.example');
    expect(mine).toHaveLength(1);
    expect(mine[0]!.paid).toBe(true);
    const invoice = await serviceJson<{ number: string; status: string; price_gross: string; buyer_name: string }>(`/invoices/${mine[0]!.invoice_id}.json`);
    expect(invoice).toMatchObject({ number, status: 'paid', price_gross: '1845.0', buyer_name: 'Kawiarnia pod Lipami' });

    // `npm start` runs the local KSeF and sends every invoice of the demo account: this one reaches it
    // and is given a KSeF number in the official form.
    type Sent = { gov_status: string; gov_id: string | null; gov_verification_link: string | null };
    const sent = () => serviceJson<Sent>(`/invoices/${mine[0]!.invoice_id}.json`);
    await expect.poll(async () => (await sent()).gov_status, { timeout: 30_000 }).toBe('demo_ok');
    const ksef = await sent();
    const ksefNumber = ksef.gov_id!;
    expect(ksefNumber).toMatch(/^\d{10}-\d{8}-[0-9A-F]{12}-[0-9A-F]{2}$/);
    expect(isValidKsefNumber(ksefNumber)).toBe(true);
    expect(ksef.gov_verification_link).toMatch(/^https?:\/\/[^/]+\/qr\/invoice\/\d{10}\//);

    // In the portal, as the same customer, the new invoice is listed as paid with its KSeF number, and its
    // PDF carries the total, the KSeF number and the QR code that opens its verification.
    await page.goto(`${demo.url}/portal.html`, { waitUntil: 'load' });
    const row = page.locator('invoice-list [part~="row"]', { hasText: number });
    await expect.poll(() => row.locator('[part~="status-paid"]').count(), { timeout: 20_000 }).toBe(1);
    await expect.poll(() => row.locator('[part~="ksef-number"]').textContent()).toContain(ksefNumber);
    const download = page.waitForEvent('download');
    await row.locator('[part~="download-button"]').click();
    const file = await download;
    const bytes = await readFile((await file.path())!);
    expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
    const text = (await pdfText(bytes)).replace(/\s+/g, ' ');
    expect(text).toContain(number);
    // Bought on the English shop page, so the invoice reads in English (one language through the journey).
    expect(text).toContain('VAT invoice');
    expect(text).toMatch(/1,845\.00/);
    expect(text).toContain(ksefNumber);
    expect(await qrCodesOfPdf(bytes)).toContain(ksef.gov_verification_link);

    // One click on the header's Outbox link opens the demo account's outbox beside the demo, where the
    // invoice landed; on a phone the subject that opens the message is on screen.
    const outbox = page.locator('a[data-service-link="outbox"]').first();
    await expect.poll(() => outbox.getAttribute('href')).toContain('key=');
    const opened = context.waitForEvent('page');
    await outbox.click();
    const tab = await opened;
    await tab.setViewportSize({ width: 375, height: 800 });
    await tab.waitForURL(/\/outbox/);
    const message = tab.locator('tbody tr', { hasText: 'kontakt@podlipami.example' });
    await expect.poll(() => message.count()).toBe(1);
    expect(await overflowingElements(tab)).toEqual([]);
    expect(await message.getByRole('link').isVisible()).toBe(true);
    await message.getByRole('link').click();
    await tab.waitForURL(/\/outbox\/[^/]+$/);
    expect(await tab.locator('h2').textContent()).toContain(number);
    expect(page.url()).toMatch(/\/portal\.html/);
    expect(errors).toEqual([]);
    expect(await page.content()).not.toContain(demo.apiToken);
    await context.close();
  });

  it('sells to a guest, who types an e-mail and name, and the invoice goes to no registered customer', async () => {
    const { page, errors, context } = await startJourney(demo, 'guest');
    await page.goto(`${demo.url}/shop.html`, { waitUntil: 'load' });
    await page.selectOption('#customer', '');
    // The default customer's sign-in may still be on its way; the guest choice, made later, must win.
    await page.waitForLoadState('networkidle');
    expect(await page.locator('product-pay-button[product="coffee-beans"]').getAttribute('portal-token')).toBeNull();
    await checkout(page, 'coffee-beans', 'guest@shop.example');
    expect(await page.locator('body').innerText()).toContain('guest@shop.example');
    await page.getByRole('button', { name: /^Pay (?!with BLIK)/ }).click();
    await page.waitForURL(/\/shop\.html/, { timeout: 20_000 });
    await expect.poll(() => page.locator('#status').textContent(), { timeout: 20_000 }).toMatch(/Thank you/);
    const [payment] = (await serviceJson<StoredPayment[]>('/banking/payments.json?per_page=100')).filter((p) => p.email === 'guest@shop.example');
    const invoice = await serviceJson<{ buyer_name: string; client_id: number }>(`/invoices/${payment!.invoice_id}.json`);
    expect(invoice.buyer_name).toBe('Shopper Ltd');
    const registered = await serviceJson<{ id: number; external_id: string | null }[]>('/clients.json?per_page=100');
    expect(registered.filter((client) => client.external_id).map((client) => client.id)).not.toContain(invoice.client_id);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('leaves no invoice when the payment is declined', async () => {
    const { page, errors, context } = await startJourney(demo, 'decline');
    await page.goto(`${demo.url}/shop.html`, { waitUntil: 'load' });
    await page.selectOption('#customer', '');
    // The default customer's sign-in may still be on its way; the guest choice, made later, must win.
    await page.waitForLoadState('networkidle');
    expect(await page.locator('product-pay-button[product="coffee-beans"]').getAttribute('portal-token')).toBeNull();
    await checkout(page, 'website-audit', 'decliner@shop.example');
    await page.getByRole('button', { name: 'Decline payment' }).click();
    await page.waitForURL(/\/shop\.html/, { timeout: 20_000 });
    await expect.poll(() => page.locator('#status').textContent(), { timeout: 20_000 }).toContain('Payment declined: nothing was charged. Try again?');
    await page.locator('#status').getByRole('button', { name: 'Try again' }).click();
    await expect.poll(() => page.getByRole('dialog').isVisible()).toBe(true);
    const payments = await serviceJson<StoredPayment[]>('/banking/payments.json?per_page=100');
    const mine = payments.filter((payment) => payment.email === 'decliner@shop.example');
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({ paid: false, invoice_id: null });
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe('paying from the portal', () => {
  it('tells the customer back in the portal how the payment ended, declined then paid, and offers Pay again', async () => {
    const { page, errors, context } = await startJourney(demo, 'portal-outcome');
    await page.goto(`${demo.url}/portal.html`, { waitUntil: 'load' });
    const payLinks = page.locator('invoice-list [part~="pay-link"]');
    await expect.poll(() => payLinks.count(), { timeout: 20_000 }).toBeGreaterThan(0);
    const row = page.locator('invoice-list [part~="row"]', { has: page.locator('[part~="pay-link"]') }).first();
    const number = (await row.locator('[part~="number"]').textContent())!.trim();
    await payLinks.first().click();
    await page.waitForURL(/\/banking\/payments\/pay\//, { timeout: 20_000 });
    await page.getByRole('button', { name: 'Decline payment' }).click();
    await page.waitForURL(/\/portal\.html/, { timeout: 20_000 });
    const outcome = page.locator('invoice-list [part~="pay-outcome"]');
    await expect.poll(() => outcome.textContent(), { timeout: 20_000 }).toContain(`Payment for ${number} declined: nothing was charged. Try again?`);
    // Said to screen readers too, in the list's live region.
    await expect.poll(() => page.locator('invoice-list [role="status"][aria-live="polite"]', { hasText: `Payment for ${number} declined` }).count()).toBe(1);

    await outcome.getByRole('button', { name: 'Pay again' }).click();
    await page.waitForURL(/\/banking\/payments\/pay\//, { timeout: 20_000 });
    await page.getByRole('button', { name: /^Pay (?!with BLIK)/ }).click();
    await page.waitForURL(/\/portal\.html/, { timeout: 20_000 });
    await expect.poll(() => outcome.textContent(), { timeout: 20_000 }).toContain(`Payment for ${number} received`);
    await expect.poll(() => page.locator('invoice-list [part~="row"]', { hasText: number }).locator('[part~="status-paid"]').count(), { timeout: 20_000 }).toBe(1);
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe('billing details', () => {
  it('are edited in <client-form>, and an invoice issued through the API afterwards carries them', async () => {
    const { page, errors, context } = await startJourney(demo, 'details');
    await page.goto(`${demo.url}/account.html`, { waitUntil: 'load' });
    const field = (name: string) => page.locator(`client-form [name="client[${name}]"]`);
    await expect.poll(() => field('name').inputValue(), { timeout: 20_000 }).toBe('Zażółć Gęślą Jaźń Sp. z o.o.');
    // A wrong post code is explained at its field, in a sentence.
    await field('post_code').fill('31042');
    await page.getByRole('button', { name: 'Save details' }).click();
    await expect.poll(() => page.getByText('Enter the post code as 00-950.').isVisible()).toBe(true);
    await field('post_code').fill('31-043');
    await field('street').fill('ul. Floriańska 7');
    await page.getByRole('button', { name: 'Save details' }).click();
    await expect.poll(() => page.locator('#status').textContent()).toContain('Saved');

    const [client] = await serviceJson<{ id: number; street: string }[]>('/clients.json?external_id=cust-1001');
    expect(client!.street).toBe('ul. Floriańska 7');
    const created = await fetch(`${demo.serviceUrl}/invoices.json`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ api_token: demo.apiToken, invoice: { kind: 'vat', client_id: client!.id, positions: [{ name: 'Consulting', tax: 23, total_price_gross: '123.00', quantity: 1 }] } }),
    });
    expect(created.status).toBe(201);
    expect(await created.json()).toMatchObject({ buyer_street: 'ul. Floriańska 7', buyer_post_code: '31-043' });
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe('the demo portal opened for one customer', () => {
  // `npm start` points the demo account's portal address at the demo portal, which views as the
  // customer a `?customer=<client id>` names: the back office's "Open portal view" lands there.
  it("is the demo account's portal address, and views as the customer the link names", async () => {
    const { url, serviceUrl, apiToken } = demo;
    const departments = (await (await fetch(`${serviceUrl}/departments.json?api_token=${apiToken}`)).json()) as { main: boolean; portal_url: string | null }[];
    expect(departments.find((department) => department.main)?.portal_url).toBe(`${url}/portal.html?customer={client_id}`);

    const customers = (await (await fetch(`${url}/demo-api/customers`)).json()) as { id: string; client_id: number; name: string }[];
    expect(customers.length).toBeGreaterThan(1);
    const last = customers.at(-1)!;

    const { page, errors, context } = await startJourney(demo, 'portal-link');
    await page.goto(`${url}/portal.html?customer=${last.client_id}`, { waitUntil: 'load' });
    await expect.poll(() => page.locator('#customer').inputValue()).toBe(last.id);
    expect(await page.locator('#customer option:checked').textContent()).toBe(last.name);
    // The choice stays: the portal opened again without the link still views as that customer.
    await page.goto(`${url}/portal.html`, { waitUntil: 'load' });
    await expect.poll(() => page.locator('#customer').inputValue()).toBe(last.id);
    expect(errors).toEqual([]);
    await context.close();
  });
});
