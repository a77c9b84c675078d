import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { launchChromium } from '../helpers/chromium.js';
import { addUser } from '../helpers/http.js';
import { startTestService, type TestService } from '../helpers/service.js';
import { overflowingElements, startJourney } from '../e2e/support/demo.js';

/**
 * The seller's journey through the back office in Chromium, against the real service: sign-in
 * (a wrong password first, by keyboard alone), a new product, its embed code copied into a page on
 * another origin, a sale made there with the test provider, and that sale back in the back office.
 */
let service: TestService;
let shop: Server;
let shopOrigin: string;
/** What the shop's page holds: the code the seller pasted. */
let pasted = '';
let browser: Browser;
// Polls wait as long as a busy machine needs (vitest's default is a second): they end as soon as the page is there.
vi.setConfig({ testTimeout: 120_000, expect: { poll: { timeout: 15_000 } } });

const PASSWORD = 'kubki-i-talerze-7';
/** Chromium logs every answer of 4xx: the session's check while signed out, a wrong password, a product the API refused. */
const EXPECTED_ANSWER = /Failed to load resource: the server responded with a status of (401 \(Unauthorized\)|422 \(Unprocessable Entity\))$/;

beforeAll(async () => {
  service = await startTestService({ seed: true, testPayments: true });
  await addUser(service, 'ewa', PASSWORD);
  shop = createServer((request, response) => {
    if (request.url?.startsWith('/favicon')) return void response.writeHead(204).end();
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(`<!doctype html><html lang="pl"><title>Sklep z kubkami</title><main><h1>Kubek</h1>\n${pasted}\n</main></html>`);
  });
  await new Promise<void>((resolve) => shop.listen(0, '127.0.0.1', resolve));
  shopOrigin = `http://127.0.0.1:${(shop.address() as AddressInfo).port}`;
  browser = await launchChromium();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  shop?.closeAllConnections();
  await new Promise((resolve) => shop?.close(resolve));
  await service?.stop();
});

/** The focused element's tag and text, through shadow roots. */
function focused(page: Page): Promise<{ tag: string; text: string; name: string | null }> {
  return page.evaluate(() => {
    let at: Element | null = document.activeElement;
    while (at?.shadowRoot?.activeElement) at = at.shadowRoot.activeElement;
    return { tag: at?.tagName.toLowerCase() ?? '', text: at?.textContent?.trim() ?? '', name: at?.getAttribute('name') ?? null };
  });
}

async function tabTo(page: Page, name: string): Promise<void> {
  for (let presses = 0; presses < 12; presses++) {
    await page.keyboard.press('Tab');
    if ((await focused(page)).name === name) return;
  }
  throw new Error(`Tab never reached the field ${name}`);
}

describe('the seller in the back office', () => {
  it('signs in by keyboard, makes a product, pastes its code on another origin, and sees the sale', async () => {
    const { page, errors, context } = await startJourney({ browser }, 'admin-journey');
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: service.url });
    await page.goto(`${service.url}/admin/`);
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Sign in');

    await tabTo(page, 'login');
    await page.keyboard.type('ewa');
    await page.keyboard.press('Tab');
    await page.keyboard.type('not-her-password');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByRole('alert').textContent()).toBe('Wrong login or password.');
    expect(await focused(page)).toMatchObject({ tag: 'input', name: 'password' });
    await page.keyboard.type(PASSWORD);
    await page.keyboard.press('Enter');
    await expect.poll(() => focused(page)).toEqual({ tag: 'h1', text: 'Overview', name: null });

    await page.getByRole('navigation').getByRole('link', { name: 'Products' }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => focused(page)).toEqual({ tag: 'h1', text: 'Products', name: null });
    expect(new URL(page.url()).pathname).toBe('/admin/products');
    expect(await page.title()).toBe('Products · Back office · invoicekit');

    await page.getByRole('link', { name: 'New product' }).click();
    await expect.poll(() => focused(page)).toEqual({ tag: 'h1', text: 'New product', name: null });
    await page.getByRole('button', { name: 'Create product' }).click();
    await expect.poll(() => page.locator('#name-error').textContent()).toBe("can't be blank");
    expect(await page.getByLabel('Name').getAttribute('aria-invalid')).toBe('true');
    await page.getByLabel('Name').fill('Kubek z logo');
    await page.getByLabel('Price (gross)').fill('49,20');
    await page.getByLabel('VAT rate').selectOption('23');
    await page.getByRole('button', { name: 'Create product' }).click();
    await expect.poll(() => focused(page)).toEqual({ tag: 'h1', text: 'Embed code', name: null });
    const productId = /^\/admin\/products\/(\d+)\/embed$/.exec(new URL(page.url()).pathname)?.[1];
    expect(productId).toMatch(/^\d+$/);
    const product = (await (await fetch(`${service.url}/products/${productId}.json?api_token=${service.apiToken}`)).json()) as { token: string; price_gross: string };
    expect(product.price_gross).toBe('49.2');

    // The preview is the real button, in the theme, language and label chosen.
    await page.getByLabel('Theme').selectOption('dark');
    await page.locator('ik-admin-embed-builder').getByLabel('Language', { exact: true }).selectOption('pl');
    await page.getByLabel('Button text').fill('Kup kubek');
    const preview = page.locator('ik-admin-embed-builder product-pay-button');
    await expect.poll(() => preview.locator('[part~="button"]').textContent(), { timeout: 20_000 }).toBe('Kup kubek');
    expect(await preview.getAttribute('theme')).toBe('dark');
    expect(await preview.locator('[part~="price"]').textContent()).toMatch(/^49,20\szł$/);
    // The account pays through the test provider, which takes BLIK codes, and the product is in PLN.
    expect(await page.locator('ik-admin-embed-builder [data-blik]').textContent()).toBe('BLIK on the page: on. Buyers type their BLIK code in the dialog and confirm in their bank app.');
    // So the live preview's dialog offers the code field beside "Przejdź do płatności".
    await preview.locator('[part~="button"]').click();
    await expect.poll(() => preview.locator('[part~="blik-code"]').getAttribute('autocomplete'), { timeout: 20_000 }).toBe('one-time-code');
    expect(await preview.locator('fieldset [part~="blik-button"]').textContent()).toBe('Zapłać BLIKIEM');
    await page.keyboard.press('Escape');
    await expect.poll(() => preview.locator('[part~="dialog"]').evaluate((dialog) => (dialog as HTMLDialogElement).open)).toBe(false);

    await page.getByLabel('Origin').fill(`${shopOrigin}/any/page`);
    await page.getByRole('button', { name: 'Add origin' }).click();
    await expect.poll(() => page.getByRole('status').filter({ hasText: 'Added' }).textContent()).toBe(`Added ${shopOrigin}.`);
    const origins = async () => ((await (await fetch(`${service.url}/departments.json?api_token=${service.apiToken}`)).json()) as { widget_origins: string[] }[])[0]!.widget_origins;
    expect(await origins()).toEqual([shopOrigin]);
    // A wrong address is said beside the field; another origin is added, then removed again.
    await page.getByLabel('Origin').fill('ftp://files.example');
    await page.getByRole('button', { name: 'Add origin' }).click();
    await expect.poll(() => page.locator('#origin-problem').textContent()).toBe('Enter an address such as https://shop.example.');
    await page.getByLabel('Origin').fill('https://second.example');
    await page.getByRole('button', { name: 'Add origin' }).click();
    await expect.poll(() => page.getByRole('status').filter({ hasText: 'Added' }).textContent()).toBe('Added https://second.example.');
    expect(await origins()).toEqual([shopOrigin, 'https://second.example']);
    await page.getByRole('button', { name: 'Remove https://second.example' }).click();
    await expect.poll(() => page.getByRole('status').filter({ hasText: 'Removed' }).textContent()).toBe('Removed https://second.example.');
    expect(await origins()).toEqual([shopOrigin]);

    // Each form's Copy copies exactly the code shown.
    for (const [key, title] of [['element', 'Element'], ['shortcode', 'WordPress shortcode'], ['block', 'WordPress block'], ['react', 'React']]) {
      await page.locator(`[data-copy="${key}"]`).click();
      await expect.poll(() => page.getByRole('status').filter({ hasText: 'Copied' }).textContent()).toBe(`Copied: ${title}.`);
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(await page.locator(`[data-code="${key}"]`).textContent());
    }
    const elementCode = await page.locator('[data-code="element"]').textContent();
    expect(await page.locator('[data-code="shortcode"]').textContent()).toBe(`[invoicekit_pay_button product="${product.token}" theme="dark" locale="pl" label="Kup kubek"]`);

    const widgetScript = `<script src="${service.url}/a/${service.prefix}/p/${product.token}.js" data-theme="dark" data-locale="pl" data-label="Kup kubek" async></script>`;
    expect(await page.locator('[data-code="widgetScript"]').textContent()).toBe(widgetScript);
    await page.locator('[data-copy="widgetScript"]').click();
    await expect.poll(() => page.getByRole('status').filter({ hasText: 'Copied' }).textContent()).toBe('Copied: Widget script.');
    pasted = await page.evaluate(() => navigator.clipboard.readText());
    expect(pasted).toBe(widgetScript);

    const shopPage = await context.newPage();
    await shopPage.goto(`${shopOrigin}/kubek`);
    const button = shopPage.locator('product-pay-button');
    await expect.poll(() => button.locator('[part~="button"]').textContent(), { timeout: 20_000 }).toBe('Kup kubek');
    await button.locator('[part~="button"]').click();
    const dialog = button.locator('[part~="dialog"]');
    await dialog.locator('input[name="email"]').fill('kupujacy@sklep.example');
    await dialog.locator('input[name="name"]').fill('Jan Kowalski');
    await dialog.locator('[part~="continue-button"]').click();
    await shopPage.waitForURL(/\/banking\/payments\/pay\//, { timeout: 20_000 });
    // "Zapłać 49,20 zł", not the page's "Zapłać BLIKIEM".
    await shopPage.getByRole('button', { name: /^Zapłać \d/ }).click();
    await shopPage.waitForURL((url) => url.origin === shopOrigin, { timeout: 20_000 });
    await expect.poll(() => button.locator('[part~="status"]').textContent(), { timeout: 20_000 }).toMatch(/Faktura \d+\/\d{2}\/\d{4}/);
    const number = /Faktura (\d+\/\d{2}\/\d{4})/.exec((await button.locator('[part~="status"]').textContent())!)![1]!;

    // The back office sees the sale through its session: the invoice, paid, for the product.
    const invoices = await page.evaluate(async () => (await fetch('/admin/api/invoices.json?period=all')).json());
    expect(invoices).toContainEqual(expect.objectContaining({ number, buyer_name: 'Jan Kowalski', status: 'paid', price_gross: '49.2' }));
    // And in its invoices, opened from the list.
    await page.getByRole('navigation').getByRole('link', { name: 'Invoices' }).click();
    const sale = page.getByRole('row').filter({ has: page.getByRole('link', { name: number, exact: true }) });
    await expect.poll(() => sale.textContent()).toContain('Jan Kowalski');
    await sale.getByRole('link', { name: number, exact: true }).click();
    await expect.poll(() => focused(page)).toEqual({ tag: 'h1', text: `Invoice ${number}`, name: null });

    // The element form of the code, pasted instead, shows the same button.
    pasted = elementCode!;
    await shopPage.goto(`${shopOrigin}/kubek-element`);
    await expect.poll(() => shopPage.locator('product-pay-button [part~="price"]').textContent(), { timeout: 20_000 }).toMatch(/^49,20\szł$/);
    expect(await shopPage.locator('product-pay-button [part~="button"]').textContent()).toBe('Kup kubek');

    // Listed, and edited.
    await page.getByRole('navigation').getByRole('link', { name: 'Products' }).click();
    const row = page.getByRole('row').filter({ hasText: 'Kubek z logo' });
    await expect.poll(() => row.getByRole('cell').allTextContents()).toEqual(['PLN\u00a049.20', '23%', product.token, 'Embed code']);
    await row.getByRole('link', { name: 'Edit Kubek z logo' }).click();
    await expect.poll(() => focused(page)).toEqual({ tag: 'h1', text: 'Edit Kubek z logo', name: null });
    await page.getByLabel('Name').fill('Kubek z logo, duży');
    await page.getByLabel('Price (gross)').fill('59.00');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => page.getByRole('status').filter({ hasText: 'Saved' }).textContent()).toBe('Saved.');
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Edit Kubek z logo, duży');
    const edited = (await (await fetch(`${service.url}/products/${productId}.json?api_token=${service.apiToken}`)).json()) as { name: string; price_gross: string; token: string };
    expect(edited).toMatchObject({ name: 'Kubek z logo, duży', price_gross: '59.0', token: product.token });
    // The browser's Back and Forward move through the back office's pages.
    await page.goBack();
    await expect.poll(() => focused(page)).toEqual({ tag: 'h1', text: 'Products', name: null });
    await page.goForward();
    await expect.poll(() => focused(page)).toEqual({ tag: 'h1', text: 'Edit Kubek z logo, duży', name: null });

    expect(await page.content()).not.toContain(service.apiToken);
    expect(errors.filter((error) => !EXPECTED_ANSWER.test(error))).toEqual([]);
    await context.close();
  });
});

describe('the overview', () => {
  it('lists what needs the seller by group, each item linked to where it is fixed; a session ended elsewhere asks to sign in again', async () => {
    const created = await fetch(`${service.url}/invoices.json`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        api_token: service.apiToken,
        invoice: { kind: 'vat', buyer_name: 'Hotel Bristol', issue_date: '2026-01-05', sell_date: '2026-01-05', payment_to: '2026-01-19', positions: [{ name: 'Kubki', tax: 23, total_price_gross: '123.00', quantity: 1 }] },
      }),
    });
    const overdue = (await created.json()) as { id: number; number: string };
    expect(created.status).toBe(201);
    const { page, errors, context } = await startJourney({ browser }, 'admin-overview');
    await page.goto(`${service.url}/admin/`);
    await page.locator('input[name="login"]').fill('ewa@example.com');
    await page.locator('input[name="password"]').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    const group = page.getByRole('region', { name: /^Overdue invoices/ });
    const link = group.getByRole('link', { name: `Invoice ${overdue.number}` });
    await expect.poll(() => link.getAttribute('href')).toBe(`/admin/invoices/${overdue.id}`);
    expect(await link.locator('xpath=..').textContent()).toMatch(new RegExp(`^\\s*Invoice ${overdue.number.replace(/\//g, '\\/')}: Overdue\\s*$`));
    await link.click();
    await expect.poll(() => focused(page)).toEqual({ tag: 'h1', text: `Invoice ${overdue.number}`, name: null });
    expect(new URL(page.url()).pathname).toBe(`/admin/invoices/${overdue.id}`);

    // The session ended elsewhere (signed out in another tab): the next call shows the sign-in, which
    // then comes back to the same page.
    const ended = await page.evaluate(async () => {
      const { csrf } = (await (await fetch('/admin/session')).json()) as { csrf: string };
      return (await fetch('/admin/session', { method: 'DELETE', headers: { 'x-csrf-token': csrf } })).status;
    });
    expect(ended).toBe(204);
    await page.getByRole('navigation').getByRole('link', { name: 'Products' }).click();
    await expect.poll(() => focused(page)).toEqual({ tag: 'h1', text: 'Sign in', name: null });
    await page.locator('input[name="login"]').fill('ewa');
    await page.locator('input[name="password"]').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => focused(page)).toEqual({ tag: 'h1', text: 'Products', name: null });
    expect(new URL(page.url()).pathname).toBe('/admin/products');
    expect(errors.filter((error) => !EXPECTED_ANSWER.test(error))).toEqual([]);
    await context.close();
  });
});

const AXE = readFile(new URL('../../node_modules/axe-core/axe.min.js', import.meta.url), 'utf8');

/** axe's violations on the page as it stands (its shadow roots included), as `rule: targets`. */
async function axeViolations(page: Page): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(`${await AXE};true`);
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(context: Document, options: object): Promise<{ violations: { id: string; nodes: { target: unknown[] }[] }[] }> } }).axe;
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return result.violations.map((violation) => `${violation.id}: ${JSON.stringify(violation.nodes.map((node) => node.target))}`);
  });
}

/** Waits until the view under `path` shows its heading and nothing is loading any more. */
async function openView(page: Page, path: string, heading: string): Promise<void> {
  await page.goto(`${service.url}${path}`);
  await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe(heading);
  await expect.poll(() => page.getByRole('status').filter({ hasText: /Loading|Wczytywanie/ }).count()).toBe(0);
}

describe('every view of the back office', () => {
  it('has no axe violations and fits a phone, in English and Polish', async () => {
    const { page, errors, context } = await startJourney({ browser }, 'admin-axe');
    const [seeded] = (await (await fetch(`${service.url}/products.json?api_token=${service.apiToken}`)).json()) as { id: number; name: string }[];
    const headings = {
      en: { copy: 'Copy', nav: ['Overview', 'Products'], signOut: 'Sign out', wrong: 'Wrong login or password.', signIn: 'Sign in', overview: 'Overview', products: 'Products', new: 'New product', edit: `Edit ${seeded!.name}`, embed: 'Embed code', missing: 'Page not found' },
      pl: { copy: 'Kopiuj', nav: ['Przegląd', 'Produkty'], signOut: 'Wyloguj', wrong: 'Nieprawidłowy login lub hasło.', signIn: 'Zaloguj się', overview: 'Przegląd', products: 'Produkty', new: 'Nowy produkt', edit: `Edycja: ${seeded!.name}`, embed: 'Kod do osadzenia', missing: 'Nie ma takiej strony' },
    };
    // The back office paints within a second (first contentful paint), its script once bundled.
    await page.goto(`${service.url}/admin/`);
    await page.goto(`${service.url}/admin/`);
    await expect.poll(() => page.getByRole('heading', { level: 1 }).count()).toBe(1);
    const paint = await page.evaluate(() => performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? Infinity);
    expect(paint).toBeLessThan(1000);
    const found: Record<string, string[]> = {};
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 900 });
      for (const lang of ['en', 'pl'] as const) {
        const words = headings[lang];
        // The language switch, remembered across loads.
        await page.goto(`${service.url}/admin/`);
        await page.locator('ik-admin-app select#language').selectOption(lang);
        await openView(page, '/admin/', words.signIn);
        expect(await page.evaluate(() => [document.documentElement.lang, localStorage.getItem('invoicekit-admin-lang')])).toEqual([lang, lang]);
        // The wrong-password state, then signed in.
        await page.locator('input[name="login"]').fill('ewa');
        await page.locator('input[name="password"]').fill('wrong-password');
        await page.getByRole('button', { name: words.signIn }).click();
        await expect.poll(() => page.getByRole('alert').textContent()).toBe(words.wrong);
        found[`${width} ${lang} sign-in`] = await axeViolations(page);
        await page.locator('input[name="password"]').fill(PASSWORD);
        await page.getByRole('button', { name: words.signIn }).click();
        await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe(words.overview);
        const views: [string, string][] = [
          ['/admin/', words.overview],
          ['/admin/products', words.products],
          ['/admin/products/new', words.new],
          [`/admin/products/${seeded!.id}`, words.edit],
          [`/admin/products/${seeded!.id}/embed`, words.embed],
          ['/admin/no-such-page', words.missing],
        ];
        for (const [path, heading] of views) {
          await openView(page, path, heading);
          if (path.endsWith('/embed')) {
            await expect.poll(() => page.locator('product-pay-button [part~="price"]').count(), { timeout: 20_000 }).toBe(1);
            expect(await page.getByRole('button', { name: words.copy, exact: true }).count()).toBe(5);
          }
          if (path === '/admin/') {
            const links = await page.getByRole('navigation').getByRole('link').allTextContents();
            expect(links.slice(0, 2)).toEqual(words.nav);
            expect(await page.getByRole('button', { name: words.signOut, exact: true }).count()).toBe(1);
          }
          const problems = await axeViolations(page);
          if (width === 390) problems.push(...(await overflowingElements(page)).map((element) => `overflow: ${element}`));
          found[`${width} ${lang} ${path}`] = problems;
        }
        await page.getByRole('button', { name: words.signOut }).click();
        await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe(words.signIn);
      }
    }
    expect(Object.entries(found).filter(([, problems]) => problems.length > 0)).toEqual([]);
    expect(errors.filter((error) => !EXPECTED_ANSWER.test(error))).toEqual([]);
    await context.close();
  });
});
