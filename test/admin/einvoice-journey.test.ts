import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../helpers/chromium.js';
import { api, type Api } from '../helpers/http.js';
import { startTestService, type TestService } from '../helpers/service.js';
import { GERMAN_BUYER, SELLER } from '../einvoice/cases.js';
import { accountWithUser, signIn } from './support/session.js';
import { axeViolations, signedInContext } from './support/records-page.js';

/**
 * The e-invoice fields in the back office, in Chromium against the real service: the seller's
 * electronic address in the company settings, a customer's address, Leitweg-ID and preferred
 * format in the customers list, and the invoice page's downloads, which name what is missing in
 * the seller's words until it is set. axe finds nothing on any of them.
 */
let service: TestService;
let http: Api;
let browser: Browser;
let cookie: string;

beforeAll(async () => {
  service = await startTestService();
  const account = await accountWithUser(service, { prefix: 'fenster', login: 'jan', email: 'jan@fenster.example', password: 'okna i drzwi' });
  http = api({ url: service.url, apiToken: account.apiToken });
  cookie = (await signIn(service, 'jan', 'okna i drzwi')).cookie;
  browser = await launchChromium();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await service?.stop();
});

async function open(path: string): Promise<Page> {
  const page = await (await signedInContext(browser, service.url, cookie, { lang: 'en' })).newPage();
  await page.goto(`${service.url}${path}`);
  return page;
}

const texts = (page: Page, selector: string) => page.locator(selector).evaluateAll((nodes) => nodes.map((node) => (node.textContent ?? '').replace(/\s+/g, ' ').trim()));

describe('e-invoices in the back office', () => {
  it('sets the fields where the seller keeps them, and the invoice page offers the downloads once they are set', async () => {
    const { buyer_einvoice_address: _address, buyer_reference: _reference, ...buyer } = GERMAN_BUYER;
    const created = await http.post('/invoices.json', {
      invoice: { ...SELLER, ...buyer, issue_date: '2026-03-02', sell_date: '2026-03-02', payment_to: '2026-03-16', payment_type: 'transfer', positions: [{ name: 'Fenster', quantity: 1, tax: 23, price_net: '1000' }] },
    });
    expect(created.status, created.text).toBe(201);
    const { id, client_id: clientId } = created.body as { id: number; client_id: number };

    // The invoice page: CII and Factur-X can be made; UBL (Peppol) and XRechnung say what is missing.
    let page = await open(`/admin/invoices/${id}`);
    const invoice = page.locator('ik-admin-invoice');
    await expect.poll(() => texts(page, 'ik-admin-invoice [data-einvoice="ubl"] li'), { timeout: 15_000 }).toEqual([
      'the client’s electronic address (Peppol ID), set on the customer',
      'your electronic address, set in the company settings',
      'the buyer reference (Leitweg-ID), set on the customer',
    ]);
    expect(await texts(page, 'ik-admin-invoice [data-einvoice="xrechnung"] li')).toEqual([
      'the client’s electronic address (Peppol ID), set on the customer',
      'your electronic address, set in the company settings',
      'the buyer reference (Leitweg-ID), set on the customer',
    ]);
    expect(await invoice.locator('[data-einvoice="cii"] a').getAttribute('href')).toBe(`/admin/api/invoices/${id}/einvoice.xml?syntax=cii&profile=en16931`);
    expect(await invoice.locator('[data-einvoice="facturx"] a').getAttribute('href')).toBe(`/admin/api/invoices/${id}.pdf?format=facturx`);
    expect(await axeViolations(page, 'ik-admin-invoice')).toEqual([]);
    await page.context().close();

    // The company settings: the seller's electronic address, refused when malformed.
    page = await open('/admin/settings/company');
    const company = page.locator('ik-admin-company-settings');
    const address = company.getByLabel('Electronic address for e-invoices');
    await address.fill('PL5252248481');
    await company.getByRole('button', { name: 'Save' }).first().click();
    await expect.poll(() => company.locator('#einvoice_address-error').textContent()).toBe('must be a scheme and an identifier, such as 0208:0123456789 or EM:invoices@example.com');
    await address.fill('9945:PL5252248481');
    await company.getByRole('button', { name: 'Save' }).first().click();
    await expect.poll(() => company.locator('[role="status"]').first().textContent()).toContain('The company details were saved.');
    expect(await axeViolations(page, 'ik-admin-settings')).toEqual([]);
    await page.context().close();

    // The customers list: the client's address, Leitweg-ID and preferred format.
    page = await open('/admin/customers');
    const editor = page.locator(`ik-admin-customers details[data-einvoice="${clientId}"]`);
    await editor.locator('summary').click();
    await editor.getByLabel('Electronic address (Peppol ID)').fill('9930:DE123456789');
    await editor.getByLabel('Buyer reference (Leitweg-ID)').fill('04011000-12345-34');
    await editor.getByLabel('Sent by e-mail as').selectOption('xrechnung');
    await editor.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => editor.locator('[role="status"]').textContent()).toBe('Saved.');
    expect(await axeViolations(page, 'ik-admin-customers')).toEqual([]);
    await page.context().close();
    expect((await http.get(`/clients/${clientId}.json`)).body).toMatchObject({ einvoice_address: '9930:DE123456789', buyer_reference: '04011000-12345-34', einvoice_format: 'xrechnung' });

    // Now every download is offered, and each answers its document through the back office's API.
    page = await open(`/admin/invoices/${id}`);
    const links = page.locator('ik-admin-invoice [data-field="einvoices"] a');
    await expect.poll(() => links.count(), { timeout: 15_000 }).toBe(4);
    expect(await links.evaluateAll((nodes) => nodes.map((node) => [node.textContent, node.getAttribute('download')]))).toEqual([
      ['UBL (Peppol BIS)', '1-03-2026-peppol-ubl.xml'],
      ['CII (EN 16931)', '1-03-2026-en16931-cii.xml'],
      ['XRechnung', '1-03-2026-xrechnung-ubl.xml'],
      ['Factur-X / ZUGFeRD (PDF)', '1-03-2026-factur-x.pdf'],
    ]);
    const answers = await links.evaluateAll((nodes) =>
      Promise.all(nodes.map(async (node) => {
        const response = await fetch((node as HTMLAnchorElement).href, { credentials: 'same-origin' });
        const body = await response.text();
        return [response.status, response.headers.get('content-type'), body.slice(0, 5)];
      })),
    );
    expect(answers).toEqual([
      [200, 'application/xml; charset=utf-8', '<?xml'],
      [200, 'application/xml; charset=utf-8', '<?xml'],
      [200, 'application/xml; charset=utf-8', '<?xml'],
      [200, 'application/pdf', '%PDF-'],
    ]);
    expect(await axeViolations(page, 'ik-admin-invoice')).toEqual([]);
    await page.context().close();
  }, 180_000);
});
