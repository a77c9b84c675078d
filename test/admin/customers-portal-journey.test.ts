import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../helpers/chromium.js';
import { api, type Api } from '../helpers/http.js';
import { startTestService, type TestService } from '../helpers/service.js';
import { accountWithUser, signIn } from './support/session.js';
import { axeViolations, signedInContext } from './support/records-page.js';

/**
 * A customer's portal view from the back office, in Chromium against the real service: without a
 * portal address the customers list says where to set one; the address is set in the company
 * settings (refused without `{client_id}`), and each customer's "Open portal view" opens the host's
 * portal for that customer. The host's portal is a local page that shows whom it was asked to show.
 */
let service: TestService;
let http: Api;
let browser: Browser;
let cookie: string;
let host: Server;
let hostUrl: string;
let customer: { id: number; name: string };

beforeAll(async () => {
  host = createServer((request, response) => {
    const asked = new URL(request.url ?? '/', 'http://host.invalid').searchParams.get('customer') ?? '';
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(`<!doctype html><title>Portal</title><p id="viewing">${asked.replace(/\D/g, '')}</p>`);
  });
  await new Promise<void>((resolve) => host.listen(0, '127.0.0.1', resolve));
  hostUrl = `http://127.0.0.1:${(host.address() as AddressInfo).port}`;
  service = await startTestService();
  const account = await accountWithUser(service, { prefix: 'drukarnia', login: 'ewa', email: 'ewa@drukarnia.example', password: 'papier i farba' });
  http = api({ url: service.url, apiToken: account.apiToken });
  const created = await http.post('/clients.json', { client: { name: 'Księgarnia Pod Globusem', tax_no: '5213003700', email: 'globus@ksiegarnia.example' } });
  expect(created.status).toBe(201);
  customer = created.body;
  cookie = (await signIn(service, 'ewa', 'papier i farba')).cookie;
  browser = await launchChromium();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await service?.stop();
  await new Promise<void>((resolve) => host.close(() => resolve()));
});

async function open(path: string, lang: 'en' | 'pl' = 'en'): Promise<Page> {
  const page = await (await signedInContext(browser, service.url, cookie, { lang })).newPage();
  await page.goto(`${service.url}${path}`);
  return page;
}

describe("a customer's portal view", () => {
  it('is offered once the portal address is set in the company settings, and opens the host\'s portal for that customer', async () => {
    const page = await open('/admin/customers');
    const customers = page.locator('ik-admin-customers');
    const row = customers.locator(`tr[data-id="${customer.id}"]`);
    await expect.poll(() => row.locator('th').textContent()).toBe(customer.name);
    const hint = customers.locator('[data-field="portal-hint"]');
    await expect.poll(async () => (await hint.textContent())?.replace(/\s+/g, ' ').trim()).toBe(
      'To open a customer’s portal view from here, set your customer portal’s address in the company settings.',
    );
    expect(await row.getByRole('link', { name: /portal view/ }).count()).toBe(0);

    await hint.getByRole('link', { name: 'the company settings' }).click();
    const company = page.locator('ik-admin-company-settings');
    const field = company.getByLabel('Customer portal address');
    await field.fill('https://shop.example/account/invoices');
    await company.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => company.locator('#portal_url-error').textContent()).toBe("must contain {client_id} where the customer's id goes");
    expect((await http.get('/departments.json')).body[0].portal_url).toBeNull();

    const portal = `${hostUrl}/account/invoices?customer={client_id}`;
    await field.fill(portal);
    await company.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => company.locator('[role="status"]').textContent()).toContain('The company details were saved.');
    expect((await http.get('/departments.json')).body[0].portal_url).toBe(portal);

    await page.locator('ik-admin-app').getByRole('link', { name: 'Customers' }).first().click();
    const link = customers.locator(`tr[data-id="${customer.id}"]`).getByRole('link', { name: `Open the portal view of ${customer.name} (new tab)` });
    await expect.poll(() => link.textContent()).toBe('Open portal view');
    expect(await link.getAttribute('href')).toBe(`${hostUrl}/account/invoices?customer=${customer.id}`);
    expect(await customers.locator('[data-field="portal-hint"]').count()).toBe(0);
    expect(await axeViolations(page, 'ik-admin-customers')).toEqual([]);

    const [opened] = await Promise.all([page.context().waitForEvent('page'), link.click()]);
    await opened.waitForLoadState();
    expect(opened.url()).toBe(`${hostUrl}/account/invoices?customer=${customer.id}`);
    expect(await opened.locator('#viewing').textContent()).toBe(String(customer.id));
    await page.context().close();

    const polish = await open('/admin/customers', 'pl');
    const polishLink = polish.locator(`ik-admin-customers tr[data-id="${customer.id}"] a[data-portal]`);
    await expect.poll(() => polishLink.textContent()).toBe('Otwórz widok klienta');
    expect(await polishLink.getAttribute('aria-label')).toBe(`Otwórz widok klienta ${customer.name} (nowa karta)`);
    await polish.context().close();
  });
});
