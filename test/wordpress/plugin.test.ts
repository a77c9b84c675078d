import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { launchChromium, startJourney } from '../e2e/support/demo.js';
import { type Api, type Seed, PORTAL_SECRET, PRODUCT_TOKEN, seed, type Service, startService, startTestBff, type TestBff } from '../bff/support.js';
import { freePort, type RunningWordPress, startWordPress } from './support/wordpress.js';

/**
 * The plugin's zip installed in Debian's WordPress (Apache, mod_php, MariaDB), in front of the real
 * service and BFF, used in Chromium by customers, guests and an administrator. One site for every
 * journey: they run in order and each leaves the site as the next expects.
 */
const ZIP = fileURLToPath(new URL('../../dist/wordpress/invoicekit.zip', import.meta.url));
vi.setConfig({ testTimeout: 90_000 });

let service: Service;
let api: Api;
let data: Seed;
let bff: TestBff;
let wp: RunningWordPress;
let browser: Browser;
let pages: Record<'invoices' | 'details' | 'shop' | 'polish', string>;
const PASSWORD = 'customer-password-1';

beforeAll(async () => {
  if (!existsSync(ZIP)) throw new Error('dist/wordpress/invoicekit.zip is missing: run npm run build first');
  ({ service, api } = await startService());
  data = await seed(api);
  // The site's port is chosen first, so the BFF can allow its origin (return addresses of payments).
  const port = await freePort();
  bff = await startTestBff(service, {
    allowedOrigins: [`http://127.0.0.1:${port}`],
    signup: { portalToken: { scopes: ['client:read', 'client:write'] } },
    logger: false,
  });
  [wp, browser] = await Promise.all([
    startWordPress({
      port,
      pluginZip: ZIP,
      constants: { INVOICEKIT_SERVICE_URL: service.url, INVOICEKIT_API_TOKEN: service.apiToken },
      proxies: { '/bff': `${bff.url}/bff` },
    }),
    launchChromium(),
  ]);
  const ids = JSON.parse(
    await wp.php(`
update_option('invoicekit_portal_secret', '${PORTAL_SECRET}');
update_option('invoicekit_bff_url', '/bff');
$users = [];
foreach (['alpha' => ${data.clientA}, 'beta' => ${data.clientB}, 'stranger' => 0, 'newcomer' => 0] as $login => $client) {
  $id = wp_insert_user(['user_login' => $login, 'user_pass' => '${PASSWORD}', 'user_email' => "$login@shop.example", 'role' => 'subscriber']);
  if ($client) update_user_meta($id, 'invoicekit_client_id', $client);
  $users[$login] = $id;
}
$page = fn($title, $content) => wp_insert_post(['post_type' => 'page', 'post_status' => 'publish', 'post_title' => $title, 'post_content' => $content]);
echo wp_json_encode([
  'users' => $users,
  'invoices' => $page('Your invoices', '[invoicekit_invoices per_page="10"]'),
  'details' => $page('Your details', '[invoicekit_client_form]'),
  'shop' => $page('Shop', '[invoicekit_pay_button product="${PRODUCT_TOKEN}"]'),
  'polish' => $page('Po polsku', '[invoicekit_invoices locale="pl"]'),
]);`),
  ) as { users: Record<string, number> } & Record<string, number>;
  pages = {
    invoices: `${wp.url}/?page_id=${ids['invoices']}`,
    details: `${wp.url}/?page_id=${ids['details']}`,
    shop: `${wp.url}/?page_id=${ids['shop']}`,
    polish: `${wp.url}/?page_id=${ids['polish']}`,
  };
}, 180_000);

afterAll(async () => {
  await browser?.close().catch(() => undefined);
  await wp?.stop();
  await bff?.close();
  await service?.stop();
});

/** A browser context whose requests never leave 127.0.0.1, as a customer, guest or administrator. */
async function journey(name: string) {
  const started = await startJourney({ browser }, `wordpress-${name}`);
  await started.context.route('**/*', (route) => (new URL(route.request().url()).hostname === '127.0.0.1' ? route.continue() : route.abort()));
  const requests: string[] = [];
  started.page.on('request', (request) => requests.push(request.url()));
  return { ...started, requests };
}

/** Signs in through wp-login.php and lands on the site's front page. */
async function signIn(page: Page, login: string, password = PASSWORD): Promise<void> {
  await page.goto(`${wp.url}/wp-login.php?redirect_to=${encodeURIComponent(`${wp.url}/`)}`, { waitUntil: 'load' });
  await page.fill('#user_login', login);
  await page.fill('#user_pass', password);
  await Promise.all([page.waitForURL((url) => !url.pathname.endsWith('wp-login.php')), page.click('#wp-submit')]);
}

const rowNumbers = (page: Page) =>
  page.locator('invoice-list [part~="row"] [part~="number"]').allTextContents().then((all) => all.map((text) => text.trim()).sort());

describe('the plugin in WordPress 6.1', () => {
  it('installed from its zip and activated, the site stays up and its pages answer', async () => {
    const active = await wp.php("echo wp_json_encode([get_bloginfo('version'), is_plugin_active('invoicekit/invoicekit.php'), WP_Block_Type_Registry::get_instance()->is_registered('invoicekit/invoices')]);");
    expect(JSON.parse(active)).toEqual([expect.stringMatching(/^6\.1/), true, true]);
    for (const url of [wp.url, ...Object.values(pages)]) {
      const response = await fetch(url);
      expect(response.status, url).toBe(200);
      expect(await response.text()).not.toMatch(/critical error|Fatal error/i);
    }
  });

  it('shows a logged-out visitor no token and nothing private, with a sign-in link', async () => {
    const { page, errors, context, requests } = await journey('visitor');
    for (const url of [pages.invoices, pages.details]) {
      await page.goto(url, { waitUntil: 'networkidle' });
      const html = await page.content();
      expect(html).not.toContain('portal-token');
      expect(html).not.toMatch(/ALPHA|BETA/);
      expect(await page.locator('invoice-list, client-form').count()).toBe(0);
      expect(await page.locator('.invoicekit-notice a').getAttribute('href')).toContain('wp-login.php');
    }
    expect(await page.locator('.invoicekit-notice').textContent()).toContain('Sign in to see your billing details.');
    expect(requests.filter((url) => url.includes('/bff/'))).toEqual([]);
    expect(errors.join('\n')).toBe('');
    await context.close();
  });

  it('shows a signed-in user without a customer record no token and nothing private', async () => {
    const { page, errors, context, requests } = await journey('unlinked');
    await signIn(page, 'stranger');
    for (const url of [pages.invoices, pages.details]) {
      await page.goto(url, { waitUntil: 'networkidle' });
      expect(await page.content()).not.toContain('portal-token');
      expect(await page.locator('invoice-list, client-form').count()).toBe(0);
      expect(await page.locator('.invoicekit-notice').textContent()).toContain('not linked to a customer record');
    }
    expect(requests.filter((url) => url.includes('/bff/'))).toEqual([]);
    expect(errors.join('\n')).toBe('');
    await context.close();
  });

  it('shows a linked customer exactly their invoices; they download a PDF, pay one and come back to it paid', async () => {
    const { page, errors, context } = await journey('customer');
    await signIn(page, 'alpha');
    await page.goto(pages.invoices, { waitUntil: 'load' });
    await expect.poll(() => rowNumbers(page), { timeout: 20_000 }).toEqual(['ALPHA-001', 'ALPHA-002', 'ALPHA-003', 'ALPHA-004']);
    const list = page.locator('invoice-list');
    expect(await list.getAttribute('locale')).toBe('en-US');
    expect(await list.getAttribute('per-page')).toBe('10');
    // The list's token reads invoices and nothing else: it cannot change the customer's record.
    const token = (await list.getAttribute('portal-token'))!;
    const write = await fetch(`${bff.url}/bff/client`, { method: 'PUT', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: '{"phone":"+48 111 111 111"}' });
    expect(write.status).toBe(403);
    expect((await fetch(`${bff.url}/bff/invoices/${data.invoices['BETA-001']!.id}`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(404);

    const row = (number: string) => page.locator('invoice-list [part~="row"]', { hasText: number });
    const download = page.waitForEvent('download');
    await row('ALPHA-003').locator('[part~="download-button"]').click();
    const bytes = await readFile((await (await download).path())!);
    expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');

    await row('ALPHA-003').locator('[part~="pay-link"]').click();
    await page.waitForURL(/\/banking\/payments\/pay\//, { timeout: 20_000 });
    await page.getByRole('button', { name: /^Pay / }).click();
    await page.waitForURL((url) => url.href.startsWith(pages.invoices), { timeout: 20_000, waitUntil: 'commit' });
    await expect.poll(() => row('ALPHA-003').locator('[part~="status-paid"]').count(), { timeout: 20_000 }).toBe(1);
    expect((await api.invoices.get(data.invoices['ALPHA-003']!.id)).status).toBe('paid');
    expect(errors.join('\n')).toBe('');
    await context.close();
  });

  it('lets a customer change their billing details: a new phone number is saved', async () => {
    const { page, errors, context } = await journey('details');
    await signIn(page, 'beta');
    await page.goto(pages.details, { waitUntil: 'load' });
    const field = (name: string) => page.locator(`client-form [name="client[${name}]"]`);
    await expect.poll(() => field('name').inputValue(), { timeout: 20_000 }).toBe('Beta GmbH');
    // A company is invoiced with its tax number: the form asks for it before it saves anything.
    await field('tax_no').fill('DE136695976');
    await field('phone').fill('+48 600 100 200');
    await page.locator('client-form [part~="submit-button"]').click();
    await expect.poll(async () => (await api.clients.get(data.clientB)).phone, { timeout: 20_000 }).toBe('+48 600 100 200');
    await expect.poll(() => page.locator('client-form [part~="status"]').textContent()).toMatch(/Saved/);
    expect(errors.join('\n')).toBe('');
    await context.close();
  });

  it('sells to a guest through the pay button, with no sign-in and no token', async () => {
    const { page, errors, context } = await journey('guest');
    await page.goto(pages.shop, { waitUntil: 'load' });
    const button = page.locator(`product-pay-button[product="${PRODUCT_TOKEN}"]`);
    expect(await button.getAttribute('portal-token')).toBeNull();
    await expect.poll(() => button.locator('[part~="price"]').count(), { timeout: 20_000 }).toBe(1);
    await button.locator('[part~="button"]').click();
    const dialog = button.locator('[part~="dialog"]');
    await dialog.locator('input[name="email"]').fill('guest@shop.example');
    await dialog.locator('input[name="name"]').fill('Guest Shopper Ltd');
    await dialog.locator('[part~="continue-button"]').click();
    await page.waitForURL(/\/banking\/payments\/pay\//, { timeout: 20_000 });
    await page.getByRole('button', { name: /^Pay / }).click();
    await page.waitForURL((url) => url.href.startsWith(pages.shop), { timeout: 20_000, waitUntil: 'commit' });
    await expect.poll(() => button.locator('[part~="invoice-link"]').count(), { timeout: 20_000 }).toBe(1);
    const payments = (await (await fetch(`${service.url}/banking/payments.json?per_page=100&api_token=${service.apiToken}`)).json()) as { email: string; paid: boolean }[];
    expect(payments.filter((payment) => payment.email === 'guest@shop.example')).toEqual([expect.objectContaining({ paid: true })]);
    expect(errors.join('\n')).toBe('');
    await context.close();
  });
});
