import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startKsefDouble, type RunningKsefDouble } from '../../src/service/ksef/double/server.js';
import { launchChromium } from '../helpers/chromium.js';
import { api, type Api } from '../helpers/http.js';
import { startTestService, type TestService } from '../helpers/service.js';
import { makePng } from '../service/support/images.js';
import { Przelewy24StandIn } from '../service/support/przelewy24-standin.js';
import { StripeStandIn } from '../service/support/stripe-standin.js';
import { accountWithUser, signIn } from './support/session.js';
import { axeViolations, signedInContext, until, type Width } from './support/records-page.js';

/**
 * The back office's settings in Chromium against the real service: a Stripe stand-in connected
 * with write-only keys and "Test connection", the company's NIP and KSeF set and its "Test
 * connection" authenticating against the bundled double, a webhook's
 * failed delivery sent again, the API token rotated (the old one 401 at once, the new one working),
 * and axe on every section in both languages at desktop and phone width.
 */

const STRIPE_KEY = 'sk_test_51LedgerShopKey';
const sellerNip = '5252248481';

let stripe: StripeStandIn;
let przelewy24: Przelewy24StandIn;
const P24 = { merchantId: 731204, posId: 731204, crc: 'a1b2c3d4e5f60718', apiKey: 'b6f1e2d3c4a5968778695a4b3c2d1e0f' };
let ksef: RunningKsefDouble;
let service: TestService;
let http: Api;
let browser: Browser;
let cookie: string;
let subscriber: Server;
let subscriberUrl: string;
/** What the subscriber answers next: it fails until a test lets it through. */
let subscriberStatus = 503;

beforeAll(async () => {
  stripe = new StripeStandIn([STRIPE_KEY]);
  await stripe.server.start();
  process.env.INVOICEKIT_STRIPE_API_URL = stripe.url;
  przelewy24 = new Przelewy24StandIn(P24);
  await przelewy24.server.start();
  process.env.INVOICEKIT_P24_API_URL = przelewy24.url;
  subscriber = createServer((request, response) => {
    request.resume();
    request.on('end', () => response.writeHead(subscriberStatus).end());
  });
  await new Promise<void>((resolve) => subscriber.listen(0, '127.0.0.1', resolve));
  subscriberUrl = `http://127.0.0.1:${(subscriber.address() as AddressInfo).port}/hooks`;
  ksef = await startKsefDouble();
  service = await startTestService({ ksef: { localOrigin: ksef.origin }, webhooks: { allowPrivate: true, pollMs: 50, maxAttempts: 1 } });
  const account = await accountWithUser(service, { prefix: 'atelier', login: 'owner', email: 'owner@atelier.example', password: 'correct horse battery', company: 'Atelier Sp. z o.o.' });
  http = api({ url: service.url, apiToken: account.apiToken });
  cookie = (await signIn(service, 'owner', 'correct horse battery')).cookie;
  browser = await launchChromium();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await service?.stop();
  await ksef?.close();
  await stripe?.server.stop();
  await przelewy24?.server.stop();
  delete process.env.INVOICEKIT_P24_API_URL;
  await new Promise((resolve) => subscriber?.close(resolve));
  delete process.env.INVOICEKIT_STRIPE_API_URL;
});

async function open(path: string, options: { lang?: 'en' | 'pl'; width?: Width } = {}): Promise<Page> {
  const context = await signedInContext(browser, service.url, cookie, options);
  const page = await context.newPage();
  await page.goto(`${service.url}${path}`);
  return page;
}

describe('an invoice while KSeF is off', () => {
  it('offers no sending to KSeF and says where to turn it on', async () => {
    const created = await http.post('/invoices.json', { invoice: { buyer_name: 'Sklep Nowak', positions: [{ name: 'Konsultacja', quantity: 1, total_price_gross: 123, tax: 23 }] } });
    expect(created.status, created.text).toBe(201);
    const page = await open(`/admin/invoices/${created.body.id}`);
    const view = page.locator('ik-admin-invoice');
    await expect.poll(() => view.locator('[data-field="ksef-state"]').textContent()).toBe('Not sent');
    await expect.poll(() => view.locator('[data-field="ksef-off"]').textContent()).toBe('KSeF is off for this account: nothing is sent to it. KSeF settings');
    await view.locator('summary', { hasText: 'Correct the invoice' }).click();
    expect(await view.getByRole('button', { name: /KSeF/ }).count()).toBe(0);
    expect(await view.getByRole('button', { name: 'Save', exact: true }).count()).toBe(1);
    await view.getByRole('link', { name: 'KSeF settings' }).click();
    await expect.poll(() => page.locator('ik-admin-settings h1').textContent()).toBe('Settings');
    expect(new URL(page.url()).pathname).toBe('/admin/settings/ksef');
    await page.context().close();
  });
});

describe('the payment provider', () => {
  it('connects a Stripe stand-in: keys write-only, test mode said plainly, and "Test connection" asks Stripe', async () => {
    const page = await open('/admin/settings/payments');
    const section = page.locator('ik-admin-payment-settings');
    // The service's default here is the test provider: said as test mode before anything is chosen.
    await expect.poll(async () => (await section.locator('[data-field="live-sales"]').textContent())?.replace(/\s+/g, ' ').trim()).toBe(
      'Test mode Buyers see Pay and Decline pages and no money moves. Do not sell this way.',
    );
    await section.getByRole('radio', { name: 'Stripe' }).check();
    await section.getByLabel('Secret key (sk_test_… or sk_live_…) (not set)').fill(STRIPE_KEY);
    await section.getByLabel('Webhook signing secret (whsec_…) (not set)').fill('whsec_ledgerSigningSecret');
    await section.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => section.locator('[role="status"]').textContent()).toContain('The payment settings were saved.');
    expect((await section.locator('[data-field="live-sales"]').textContent())?.replace(/\s+/g, ' ').trim()).toBe(
      'Test mode Stripe test keys take test cards only, and no money moves.',
    );
    // Write-only: the field is empty again, and the key is nowhere on the page.
    expect(await section.getByLabel('Secret key (sk_test_… or sk_live_…) (set)').inputValue()).toBe('');
    expect(await section.locator('input').evaluateAll((inputs) => (inputs as HTMLInputElement[]).filter((input) => input.value.startsWith('sk_')).length)).toBe(0);
    expect((await http.get('/account/payments.json')).body.payments).toMatchObject({ provider: 'stripe', test_mode: true, stripe: { secret_key_set: true, key_mode: 'test' } });

    const before = stripe.apiRequests.length;
    await section.getByRole('button', { name: 'Test connection' }).click();
    await expect.poll(() => section.locator('[role="status"] .notice').textContent()).toMatch(/connected/i);
    expect(await section.locator('[role="status"] .notice').getAttribute('data-tone')).toBe('ok');
    expect((await section.locator('[role="status"] .notice').textContent())?.trim()).toBe(
      "Connected to Stripe (test mode). Stripe accepted the key and read the account's balance (test mode).",
    );
    expect(stripe.apiRequests.slice(before).map((request) => `${request.method} ${request.path}`)).toEqual(['GET /v1/balance']);

    await page.context().close();
  });
});

describe('Przelewy24', () => {
  it('takes its keys write-only, in its sandbox said to be test mode, and "Test connection" asks testAccess', async () => {
    const page = await open('/admin/settings/payments');
    const section = page.locator('ik-admin-payment-settings');
    await section.getByRole('radio', { name: 'Przelewy24' }).check();
    await section.getByLabel('Merchant ID').fill(String(P24.merchantId));
    await section.getByLabel('POS ID').fill(String(P24.posId));
    await section.getByLabel('CRC key (not set)').fill(P24.crc);
    await section.getByLabel('API key (not set)').fill(P24.apiKey);
    await section.getByLabel("Use Przelewy24's sandbox (no money moves)").check();
    await section.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => section.locator('[role="status"]').textContent()).toContain('The payment settings were saved.');
    expect((await section.locator('[data-field="live-sales"]').textContent())?.replace(/\s+/g, ' ').trim()).toBe(
      "Test mode Payments go to Przelewy24's sandbox, and no money moves.",
    );
    expect(await section.getByLabel('API key (set)').inputValue()).toBe('');
    expect((await http.get('/account/payments.json')).body.payments).toMatchObject({
      provider: 'przelewy24',
      test_mode: true,
      przelewy24: { merchant_id: P24.merchantId, pos_id: P24.posId, crc_set: true, api_key_set: true, sandbox: true },
    });

    const before = przelewy24.server.requests.length;
    await section.getByRole('button', { name: 'Test connection' }).click();
    await expect.poll(() => section.locator('[role="status"] .notice').textContent()).toMatch(/connected/i);
    expect((await section.locator('[role="status"] .notice').textContent())?.trim()).toBe(
      'Connected to Przelewy24 (test mode). Przelewy24 accepted the POS id and API key (sandbox).',
    );
    expect(przelewy24.server.requests.slice(before).map((request) => `${request.method} ${request.path}`)).toEqual(['GET /api/v1/testAccess']);
    await page.context().close();
  });
});

describe('KSeF', () => {
  it('is connected after the company\'s NIP and logo are set: test mode said plainly, and "Test connection" authenticates with the token', async () => {
    const page = await open('/admin/settings/company');
    const company = page.locator('ik-admin-company-settings');
    await company.getByLabel('Tax number (NIP)').fill(sellerNip);
    await company.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => company.locator('[role="status"]').textContent()).toContain('The company details were saved.');
    const [main] = (await http.get('/departments.json')).body;
    expect([main.name, main.tax_no]).toEqual(['Atelier Sp. z o.o.', sellerNip]);

    await company.getByLabel('Logo file (PNG or JPEG, up to 2 MB)').setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: makePng(120, 40) });
    await company.getByRole('button', { name: 'Upload the logo' }).click();
    await expect.poll(() => company.locator('[role="status"]').textContent()).toContain('The logo was saved; new invoices carry it.');
    const logo = company.getByRole('img', { name: 'The current logo' });
    await expect.poll(() => logo.evaluate((image) => (image as HTMLImageElement).complete && (image as HTMLImageElement).naturalWidth)).toBe(120);
    expect((await http.get('/departments.json')).body[0].logo_url).toMatch(/\/departments\/\d+\/logo/);

    await page.locator('ik-admin-settings nav').getByRole('link', { name: 'KSeF' }).click();
    const section = page.locator('ik-admin-ksef-settings');
    await expect.poll(async () => (await section.locator('[data-field="live-sales"]').textContent())?.replace(/\s+/g, ' ').trim()).toBe(
      'KSeF off Nothing is sent to KSeF. Invoices to Polish companies are not legally issued until they are in KSeF.',
    );
    await section.getByLabel('Environment').selectOption('local');
    await section.getByLabel('KSeF token (not set)').fill(ksef.issueToken(sellerNip));
    await section.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => section.locator('[role="status"]').textContent()).toContain('The KSeF settings were saved.');
    expect((await section.locator('[data-field="live-sales"]').textContent())?.replace(/\s+/g, ' ').trim()).toBe(
      'Test mode Invoices go to a KSeF test environment and have no legal force.',
    );
    expect(await section.getByLabel('KSeF token (set)').inputValue()).toBe('');
    expect((await http.get('/account/ksef.json')).body.ksef).toMatchObject({ environment: 'local', token_set: true });

    await section.getByRole('button', { name: 'Test connection' }).click();
    await expect.poll(() => section.locator('[role="status"] .notice').textContent(), { timeout: 15_000 }).toMatch(/connected/i);
    expect(await section.locator('[role="status"] .notice').getAttribute('data-tone')).toBe('ok');
    expect((await section.locator('[role="status"] .notice').textContent())?.trim()).toBe(
      `Connected to KSeF (test mode). KSeF (local) accepted the token for NIP ${sellerNip}.`,
    );
    await page.context().close();
  });
});

describe('webhooks', () => {
  it("show each delivery's result, and a failed one sent again is delivered", async () => {
    const hook = await http.post('/webhooks.json', { webhook: { kind: 'client:create', url: subscriberUrl } });
    expect(hook.status, hook.text).toBe(201);
    expect((await http.post('/clients.json', { client: { name: 'Sklep Kowalski' } })).status).toBe(201);
    const [failed] = await until(
      async () => (await http.get(`/webhooks/${hook.body.id}/deliveries.json`)).body,
      (deliveries) => deliveries[0]?.status === 'failed',
    );
    expect([failed.status, failed.last_status]).toEqual(['failed', 503]);

    const page = await open('/admin/settings/webhooks');
    const row = page.locator(`ik-admin-webhook-settings tr[data-delivery="${failed.id}"]`);
    await expect.poll(() => row.locator('.badge').textContent()).toBe('Failed');
    expect((await row.locator('td').nth(3).textContent())?.trim()).toBe(`503 ${failed.last_error ?? ''}`.trim());
    subscriberStatus = 200;
    await row.getByRole('button', { name: `Send again (delivery ${failed.id})` }).click();
    const delivered = await until(
      async () => (await http.get(`/webhooks/${hook.body.id}/deliveries.json`)).body[0],
      (delivery) => delivery.status === 'delivered',
    );
    expect([delivered.id, delivered.status, delivered.last_status]).toEqual([failed.id, 'delivered', 200]);
    await page.reload();
    await expect.poll(() => page.locator(`ik-admin-webhook-settings tr[data-delivery="${failed.id}"] .badge`).textContent()).toBe('Delivered');
    await page.context().close();
  });
});

describe('the e-mail sender', () => {
  it("sets the address buyers' replies go to, shown with the company's name", async () => {
    const page = await open('/admin/settings/email');
    const section = page.locator('ik-admin-email-settings');
    await section.getByLabel('Replies go to (Atelier Sp. z o.o.)').fill('biuro@atelier.example');
    await section.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => section.locator('[role="status"]').textContent()).toContain('The reply address was saved; the next e-mail uses it.');
    const [main] = (await http.get('/departments.json')).body;
    expect([main.main, main.email]).toEqual([true, 'biuro@atelier.example']);
    await page.reload();
    expect(await page.locator('ik-admin-email-settings').getByLabel('Replies go to (Atelier Sp. z o.o.)').inputValue()).toBe('biuro@atelier.example');
    await page.context().close();
  });
});

describe('the API token', () => {
  it('is rotated and shown once: the old one answers 401 at once, the new one works', async () => {
    const old = http.token;
    const page = await open('/admin/settings/api-token');
    const section = page.locator('ik-admin-api-token-settings');
    await section.getByRole('button', { name: 'Rotate the API token' }).click();
    await section.getByRole('button', { name: 'Yes, stop the old token now' }).click();
    const shown = section.locator('[data-field="new-token"]');
    await shown.waitFor();
    const token = (await shown.textContent())!.trim();
    expect(token).not.toBe(old);
    expect(token.length).toBeGreaterThan(20);

    const refused = await http.get('/invoices.json', {}, { token: old });
    expect([refused.status, refused.body]).toEqual([401, { code: 'error', message: 'You must be logged in to gain access to the site' }]);
    expect((await http.get('/invoices.json', {}, { token })).status).toBe(200);
    http = api({ url: service.url, apiToken: token });

    // Shown once: the page read again has no token on it, and the back office still works.
    await page.reload();
    await section.getByRole('button', { name: 'Rotate the API token' }).waitFor();
    expect(await section.locator('[data-field="new-token"]').count()).toBe(0);
    await page.context().close();
  });
});

describe('axe', () => {
  const sections = ['company', 'payments', 'ksef', 'webhooks', 'email', 'api-token'] as const;
  for (const lang of ['en', 'pl'] as const) {
    for (const width of ['desktop', 'phone'] as const) {
      it(`finds nothing on any settings section, ${lang}, ${width}`, async () => {
        const context = await signedInContext(browser, service.url, cookie, { lang, width });
        const page = await context.newPage();
        const found: Record<string, string[]> = {};
        for (const section of sections) {
          await page.goto(`${service.url}/admin/settings/${section}`);
          await page.locator('ik-admin-settings section h2').first().waitFor();
          await expect.poll(() => page.locator('ik-admin-settings section p[role="status"]').count()).toBe(0);
          found[section] = await axeViolations(page, 'ik-admin-settings');
        }
        expect(found).toEqual(Object.fromEntries(sections.map((section) => [section, []])));
        await context.close();
      });
    }
  }
});
