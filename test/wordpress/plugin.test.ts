import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startJourney } from '../e2e/support/demo.js';
import { launchChromium } from '../helpers/chromium.js';
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
// Avatars come from gravatar.com, which the browser may not reach here.
update_option('show_avatars', 0);
$users = [];
foreach (['alpha' => ${data.clientA}, 'beta' => ${data.clientB}, 'stranger' => 0, 'newcomer' => 0] as $login => $client) {
  $id = wp_insert_user(['user_login' => $login, 'user_pass' => '${PASSWORD}', 'user_email' => "$login@shop.example", 'role' => 'subscriber']);
  if ($client) update_user_meta($id, 'invoicekit_client_id', $client);
  $users[$login] = $id;
}
$page = fn($title, $content) => get_permalink(wp_insert_post(['post_type' => 'page', 'post_status' => 'publish', 'post_title' => $title, 'post_content' => $content]));
echo wp_json_encode([
  'users' => $users,
  'invoices' => $page('Your invoices', '[invoicekit_invoices per_page="10"]'),
  'details' => $page('Your details', '[invoicekit_client_form]'),
  'shop' => $page('Shop', '[invoicekit_pay_button product="${PRODUCT_TOKEN}"]'),
  'polish' => $page('Po polsku', '[invoicekit_invoices locale="pl"]'),
]);`),
  ) as typeof pages & { users: Record<string, number> };
  pages = { invoices: ids.invoices, details: ids.details, shop: ids.shop, polish: ids.polish };
}, 180_000);

afterAll(async () => {
  await browser?.close().catch(() => undefined);
  await wp?.stop();
  await bff?.close();
  await service?.stop();
}, 60_000);

/** A browser context whose requests never leave 127.0.0.1, as a customer, guest or administrator. */
async function journey(name: string) {
  const started = await startJourney({ browser }, `wordpress-${name}`);
  await started.context.route('**/*', (route) => (new URL(route.request().url()).hostname === '127.0.0.1' ? route.continue() : route.abort()));
  const requests: string[] = [];
  started.page.on('request', (request) => requests.push(request.url()));
  return { ...started, requests };
}

/**
 * Signs in through wp-login.php and lands on the site's front page. WordPress's own form came back
 * now and then in full runs, with both cores busy (twice in five, never alone or replayed with the
 * same order); these tests are about the plugin, so the form is filled once more before the page's
 * text is reported.
 */
async function signIn(page: Page, login: string, password = PASSWORD): Promise<void> {
  for (let attempt = 1; ; attempt += 1) {
    await page.goto(`${wp.url}/wp-login.php?redirect_to=${encodeURIComponent(`${wp.url}/`)}`, { waitUntil: 'load' });
    await page.fill('#user_login', login);
    await page.fill('#user_pass', password);
    try {
      await Promise.all([page.waitForURL((url) => !url.pathname.endsWith('wp-login.php'), { timeout: 20_000 }), page.click('#wp-submit')]);
      return;
    } catch (error) {
      if (attempt < 2) continue;
      const text = await page.locator('body').innerText().catch(() => '');
      throw new Error(`${login} was not signed in; wp-login.php answered: ${text.replace(/\s+/g, ' ').slice(0, 500)}`, { cause: error });
    }
  }
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
    expect(errors).toEqual([]);
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
    expect(errors).toEqual([]);
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
    // Chromium now and then cancels a download that starts while the page is still busy: ask again then.
    const downloadPdf = async (): Promise<Buffer | undefined> => {
      const download = page.waitForEvent('download');
      await row('ALPHA-003').locator('[part~="download-button"]').click();
      const file = await download;
      return (await file.failure()) ? undefined : readFile((await file.path())!);
    };
    const bytes = (await downloadPdf()) ?? (await downloadPdf())!;
    expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');

    await row('ALPHA-003').locator('[part~="pay-link"]').click();
    await page.waitForURL(/\/banking\/payments\/pay\//, { timeout: 20_000 });
    await page.getByRole('button', { name: /^Pay (?!with BLIK)/ }).click();
    await expect.poll(() => page.url().startsWith(pages.invoices), { timeout: 20_000 }).toBe(true);
    await expect.poll(() => row('ALPHA-003').locator('[part~="status-paid"]').count(), { timeout: 20_000 }).toBe(1);
    expect((await api.invoices.get(data.invoices['ALPHA-003']!.id)).status).toBe('paid');
    expect(errors).toEqual([]);
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
    await expect.poll(() => page.locator('client-form [part~="status"]').textContent()).toMatch(/saved/);
    expect(errors).toEqual([]);
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
    await page.getByRole('button', { name: /^Pay (?!with BLIK)/ }).click();
    await expect.poll(() => page.url().startsWith(pages.shop), { timeout: 20_000 }).toBe(true);
    await expect.poll(() => button.locator('[part~="invoice-link"]').count(), { timeout: 20_000 }).toBe(1);
    const payments = (await (await fetch(`${service.url}/banking/payments.json?per_page=100&api_token=${service.apiToken}`)).json()) as { email: string; paid: boolean }[];
    expect(payments.filter((payment) => payment.email === 'guest@shop.example')).toEqual([expect.objectContaining({ paid: true })]);
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe('in the site language', () => {
  it('follows the site: the notices and the elements read in Polish', async () => {
    await wp.php("update_option('WPLANG', 'pl_PL');");
    try {
      const { page, errors, context } = await journey('polish');
      await page.goto(pages.invoices, { waitUntil: 'load' });
      expect(await page.locator('.invoicekit-notice').textContent()).toContain('Zaloguj się, aby zobaczyć swoje faktury.');
      await signIn(page, 'alpha');
      await page.goto(pages.invoices, { waitUntil: 'load' });
      expect(await page.locator('invoice-list').getAttribute('locale')).toBe('pl-PL');
      await expect.poll(() => page.locator('invoice-list [part~="pagination"]').textContent(), { timeout: 20_000 }).toMatch(/z 4/);
      expect(errors).toEqual([]);
      await context.close();
    } finally {
      await wp.php("update_option('WPLANG', '');");
    }
  });
});

describe('for administrators', () => {
  async function asAdmin(name: string) {
    const started = await journey(name);
    await signIn(started.page, 'admin', 'admin-password-1');
    return started;
  }

  it('inserts each block in the editor, with a preview and its settings; the published page renders the list', async () => {
    const { page, errors, context } = await asAdmin('editor');
    await page.goto(`${wp.url}/wp-admin/post-new.php?post_type=page`, { waitUntil: 'load' });
    const welcome = page.getByRole('dialog', { name: /welcome/i });
    await welcome.waitFor({ timeout: 10_000 }).then(() => page.keyboard.press('Escape'), () => undefined);
    await page.locator('.editor-post-title__input, [aria-label="Add title"]').first().fill('Account');
    const toggle = page.getByRole('button', { name: 'Toggle block inserter' });
    /** Opens or closes the inserter by its pressed state, whichever it was in: a click never toggles it the wrong way. */
    const inserter = async (open: boolean) => {
      if ((await welcome.isVisible()) && open) await page.keyboard.press('Escape');
      if (((await toggle.getAttribute('aria-pressed')) === 'true') !== open) await toggle.click();
      await expect.poll(() => toggle.getAttribute('aria-pressed')).toBe(open ? 'true' : 'false');
    };
    const insert = async (title: string, setting: string) => {
      await inserter(true);
      await page.getByPlaceholder('Search').fill(title);
      await page.getByRole('option', { name: title }).first().click();
      await inserter(false);
      const settings = page.locator('.edit-post-header').getByRole('button', { name: 'Settings', exact: true });
      if ((await settings.getAttribute('aria-pressed')) !== 'true') await settings.click();
      const preview = page.locator('.invoicekit-block-preview').last();
      await expect.poll(() => preview.textContent()).toContain(title);
      // A range control labels both its slider and its number field.
      await expect.poll(() => page.locator('.interface-complementary-area').getByLabel(setting).count()).toBeGreaterThan(0);
      return page.locator('.interface-complementary-area').getByLabel(setting).last();
    };
    await (await insert('Customer invoices', 'Invoices per page')).fill('5');
    await insert('Billing details', 'Language');
    await (await insert('Pay button', 'Product token')).fill(PRODUCT_TOKEN);
    await expect.poll(() => page.locator('.invoicekit-block-preview').last().textContent()).toContain(PRODUCT_TOKEN);
    await page.getByRole('button', { name: 'Publish', exact: true }).click();
    await page.locator('.editor-post-publish-panel').getByRole('button', { name: 'Publish', exact: true }).click();
    await expect.poll(() => page.locator('.post-publish-panel__postpublish').count(), { timeout: 20_000 }).toBe(1);
    const id = await page.evaluate(() => (window as unknown as { wp: { data: { select(store: string): { getCurrentPostId(): number } } } }).wp.data.select('core/editor').getCurrentPostId());
    const content = await wp.php(`echo get_post(${id})->post_content;`);
    expect(content).toContain('<!-- wp:invoicekit/invoices {"perPage":5} /-->');
    expect(content).toContain('<!-- wp:invoicekit/client-form /-->');
    expect(content).toContain(`<!-- wp:invoicekit/pay-button {"product":"${PRODUCT_TOKEN}"} /-->`);
    // The editor never holds a customer's token.
    expect(await page.content()).not.toContain('portal-token=');
    expect(errors.filter((error) => /invoicekit/i.test(error))).toEqual([]);
    await context.close();

    const customer = await journey('block-front');
    await signIn(customer.page, 'alpha');
    await customer.page.goto(`${wp.url}/?page_id=${id}`, { waitUntil: 'load' });
    const list = customer.page.locator('.wp-block-invoicekit-invoices invoice-list');
    expect(await list.getAttribute('per-page')).toBe('5');
    await expect.poll(() => rowNumbers(customer.page), { timeout: 20_000 }).toHaveLength(4);
    await expect.poll(() => customer.page.locator('.wp-block-invoicekit-client-form client-form [name="client[name]"]').inputValue(), { timeout: 20_000 }).toBe('Alpha Sp. z o.o.');
    expect(await customer.page.locator('.wp-block-invoicekit-pay-button product-pay-button').getAttribute('portal-token')).toBeTruthy();
    expect(customer.errors).toEqual([]);
    await customer.context.close();
  });

  it('keeps the secret off the settings page, and the connection test says whether the BFF accepts it', async () => {
    const { page, errors, context } = await asAdmin('settings');
    await page.goto(`${wp.url}/wp-admin/options-general.php?page=invoicekit`, { waitUntil: 'load' });
    expect(await page.content()).not.toContain(PORTAL_SECRET);
    expect(await page.content()).not.toContain(service.apiToken);
    await page.getByRole('button', { name: 'Test the connection' }).click();
    await expect.poll(() => page.locator('#invoicekit-connection-result').textContent()).toContain('The BFF is ready and accepts the portal secret.');

    // A wrong secret, typed in the settings: the test and every admin screen say so; the site stays up.
    await page.fill('#invoicekit_portal_secret', 'a-wrong-secret-that-is-long-enough-0123456789');
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await page.getByRole('button', { name: 'Test the connection' }).click();
    await expect.poll(() => page.locator('#invoicekit-connection-result').textContent()).toContain('refuses the portal secret');
    await page.goto(`${wp.url}/wp-admin/`, { waitUntil: 'load' });
    expect(await page.locator('#invoicekit-secret-notice').textContent()).toContain('refused the portal secret');

    // No secret at all: a notice, never a fatal error, and customers see a sentence instead of data.
    await wp.php("delete_option('invoicekit_portal_secret');");
    await page.goto(`${wp.url}/wp-admin/`, { waitUntil: 'load' });
    expect(await page.locator('#invoicekit-secret-notice').textContent()).toContain('has no portal secret');
    await wp.php(`update_user_meta(1, 'invoicekit_client_id', ${data.clientA});`);
    await page.goto(pages.invoices, { waitUntil: 'load' });
    expect(await page.locator('.invoicekit-notice').textContent()).toContain('cannot be shown right now');
    expect(await page.locator('invoice-list').count()).toBe(0);

    await wp.php(`delete_user_meta(1, 'invoicekit_client_id'); update_option('invoicekit_portal_secret', '${PORTAL_SECRET}');`);
    await page.goto(`${wp.url}/wp-admin/options-general.php?page=invoicekit`, { waitUntil: 'load' });
    await page.getByRole('button', { name: 'Test the connection' }).click();
    await expect.poll(() => page.locator('#invoicekit-connection-result').textContent()).toContain('accepts the portal secret');
    expect(await page.locator('#invoicekit-secret-notice').count()).toBe(0);
    expect(errors.filter((error) => /invoicekit/i.test(error))).toEqual([]);
    await context.close();
  });

  it('links a user to a customer found by the search on the profile screen; the api_token stays on the server', async () => {
    const { page, errors, context, requests } = await asAdmin('link');
    const stranger = (await wp.php("echo get_user_by('login', 'stranger')->ID;")).trim();
    await page.goto(`${wp.url}/wp-admin/user-edit.php?user_id=${stranger}`, { waitUntil: 'load' });
    await page.fill('#invoicekit_client_search', 'Beta');
    await page.click('#invoicekit_client_search_button');
    await page.locator('#invoicekit_client_results button', { hasText: 'Beta GmbH' }).click();
    expect(await page.inputValue('#invoicekit_client_id')).toBe(String(data.clientB));
    await page.getByRole('button', { name: 'Update User' }).click();
    await page.waitForLoadState('load');
    expect((await wp.php(`echo get_user_meta(${stranger}, 'invoicekit_client_id', true);`)).trim()).toBe(String(data.clientB));
    expect(requests.filter((url) => url.includes(service.apiToken))).toEqual([]);
    expect(await page.content()).not.toContain(service.apiToken);
    // A customer cannot ask the search: it is for those who may edit users.
    const search = await fetch(`${wp.url}/wp-admin/admin-ajax.php?action=invoicekit_search_clients&search=Beta`);
    expect(await search.text()).not.toContain('Beta GmbH');
    await wp.php(`delete_user_meta(${stranger}, 'invoicekit_client_id');`);
    expect(errors.filter((error) => /invoicekit/i.test(error))).toEqual([]);
    await context.close();
  });
});

describe('sign-up', () => {
  it('creates and links a customer record when a user without one first saves the billing details', async () => {
    await wp.php("update_option('invoicekit_signup', 1);");
    try {
      const { page, errors, context } = await journey('signup');
      await signIn(page, 'newcomer');
      await page.goto(pages.details, { waitUntil: 'load' });
      expect(await page.locator('client-form').getAttribute('mode')).toBe('create');
      expect(await page.locator('client-form').getAttribute('portal-token')).toBeNull();
      const field = (name: string) => page.locator(`client-form [name="client[${name}]"]`);
      await field('name').fill('Newcomer Trading GmbH');
      await field('tax_no').fill('DE136695976');
      await field('email').fill('newcomer@shop.example');
      await page.locator('client-form [part~="submit-button"]').click();
      await expect.poll(() => page.locator('client-form').getAttribute('mode'), { timeout: 20_000 }).toBe('edit');
      await expect.poll(() => field('name').inputValue(), { timeout: 20_000 }).toBe('Newcomer Trading GmbH');
      const linked = Number((await wp.php("echo get_user_meta(get_user_by('login', 'newcomer')->ID, 'invoicekit_client_id', true);")).trim());
      expect((await api.clients.get(linked)).name).toBe('Newcomer Trading GmbH');
      expect(errors).toEqual([]);
      await context.close();
    } finally {
      await wp.php("update_option('invoicekit_signup', 0);");
    }
  });
});

describe('PHP', () => {
  it('completes a server-rendered list fragment with the attributes it lacks, keeping its own', async () => {
    const fragment = await wp.php(`
$complete = new ReflectionMethod('Invoicekit_Elements', 'with_attributes');
$complete->setAccessible(true);
echo $complete->invoke(null, '<invoice-list locale="pl"><template shadowrootmode="open"><p>rows</p></template></invoice-list>', 'invoice-list', ['endpoint' => '/bff', 'portal-token' => 'a"b', 'locale' => 'en']);`);
    expect(fragment).toBe('<invoice-list locale="pl" endpoint="/bff" portal-token="a&quot;b"><template shadowrootmode="open"><p>rows</p></template></invoice-list>');
  });

  it('logged no notice, warning or error from the plugin on any of these pages', async () => {
    const log = await wp.debugLog();
    expect(log.split('\n').filter((line) => /invoicekit\/|invoicekit\.php/.test(line))).toEqual([]);
  });
});
