import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startKsefDouble, type RunningKsefDouble } from '../../src/service/ksef/double/server.js';
import { launchChromium } from '../helpers/chromium.js';
import { api, type Api } from '../helpers/http.js';
import { startTestService, type TestService } from '../helpers/service.js';
import { accountWithUser, signIn } from './support/session.js';
import { axeViolations, signedInContext, until, type Width } from './support/records-page.js';

/**
 * The back office's invoices and customers in Chromium against the real service and the bundled
 * KSeF double: a KSeF refusal read in the seller's words, corrected and sent again until KSeF numbers
 * it; a payment recorded, the invoice e-mailed, a correction issued; a customer's invoices; and axe on
 * each view in both languages at desktop and phone width.
 */

const sellerNip = '5252248481';
const seller = { seller_name: 'Pracownia Ledger Sp. z o.o.', seller_tax_no: sellerNip, seller_street: 'ul. Prosta 51', seller_post_code: '00-838', seller_city: 'Warszawa', seller_country: 'PL' };
const buyer = { buyer_name: 'Klient ABC Sp. z o.o.', buyer_tax_no: '9876543210', buyer_company: true, buyer_street: 'ul. Testowa 5', buyer_post_code: '00-002', buyer_city: 'Kraków', buyer_country: 'PL', buyer_email: 'ksiegowosc@klient-abc.example' };
const line = { name: 'Usługa programistyczna', quantity: 10, total_price_gross: 1845, tax: 23 };

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

let ksef: RunningKsefDouble;
let service: TestService;
let http: Api;
let browser: Browser;
let cookie: string;
let refused: { id: number; number: string; client_id: number };

beforeAll(async () => {
  ksef = await startKsefDouble();
  service = await startTestService({ ksef: { localOrigin: ksef.origin } });
  const account = await accountWithUser(service, { prefix: 'ledger', login: 'owner', email: 'owner@ledger.example', password: 'correct horse battery', company: seller.seller_name });
  http = api({ url: service.url, apiToken: account.apiToken });
  expect((await http.put('/account/ksef.json', { ksef: { environment: 'local', token: ksef.issueToken(sellerNip) } })).status).toBe(200);
  // Dated tomorrow: KSeF refuses an issue date later than the day it receives the invoice.
  const created = await http.post('/invoices.json', { gov_save_and_send: true, invoice: { issue_date: day(1), sell_date: day(0), payment_to_kind: 14, ...seller, ...buyer, positions: [line] } });
  expect(created.status, created.text).toBe(201);
  refused = created.body;
  const settled = await until(
    async () => (await http.get(`/invoices/${refused.id}.json`)).body,
    (invoice) => invoice.gov_status === 'demo_send_error',
  );
  expect(settled.gov_error_messages).toEqual(['450 Błąd weryfikacji semantyki dokumentu faktury', 'Data wystawienia faktury (P_1) nie może być późniejsza niż data jej przyjęcia.']);
  cookie = (await signIn(service, 'owner', 'correct horse battery')).cookie;
  browser = await launchChromium();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await service?.stop();
  await ksef?.close();
});

async function open(path: string, options: { lang?: 'en' | 'pl'; width?: Width } = {}): Promise<Page> {
  const context = await signedInContext(browser, service.url, cookie, options);
  const page = await context.newPage();
  await page.goto(`${service.url}${path}`);
  return page;
}

describe('an invoice KSeF refused', () => {
  it('is listed as refused, explained in the seller\'s words, corrected and sent again until KSeF numbers it', async () => {
    const page = await open('/admin/invoices');
    const row = page.locator(`ik-admin-invoices tr[data-id="${refused.id}"]`);
    await expect.poll(() => row.locator('td[data-ksef]').textContent()).toBe('Refused by KSeF (test)');
    await row.getByRole('link', { name: refused.number }).click();

    const view = page.locator('ik-admin-invoice');
    await expect.poll(() => view.locator('h1').textContent()).toBe(`Invoice ${refused.number}`);
    expect(await view.locator('h1').evaluate((heading) => heading.matches(':focus'))).toBe(true);
    const refusal = view.locator('[data-field="ksef-refusal"]');
    expect(await refusal.locator('li').allTextContents()).toEqual([
      'KSeF found a problem in what the invoice says. Correct the data below and send it again.',
      '450 Błąd weryfikacji semantyki dokumentu faktury',
      'Data wystawienia faktury (P_1) nie może być późniejsza niż data jej przyjęcia.',
    ]);

    await view.getByLabel('Issue date').fill(day(0));
    await view.getByRole('button', { name: 'Save and send to KSeF' }).click();
    const notice = view.locator('[role="status"] .notice');
    await expect.poll(() => notice.textContent(), { timeout: 20_000 }).toMatch(/^\s*KSeF accepted/);
    const accepted = (await http.get(`/invoices/${refused.id}.json`)).body;
    expect([accepted.issue_date, accepted.gov_status, accepted.gov_error_messages]).toEqual([day(0), 'demo_ok', null]);
    expect((await notice.textContent())?.trim()).toBe(`KSeF accepted the invoice: ${accepted.gov_id}.`);
    expect(await view.locator('[data-field="ksef-number"]').textContent()).toBe(accepted.gov_id);
    expect(await view.locator('[data-field="ksef-state"]').textContent()).toBe('In KSeF (test)');
    expect(await view.locator('[data-field="ksef-refusal"]').count()).toBe(0);

    const upo = await view.getByRole('link', { name: 'UPO (KSeF receipt)' }).getAttribute('href');
    const receipt = await page.evaluate(async (href) => {
      const response = await fetch(href!);
      return { status: response.status, type: response.headers.get('content-type'), text: await response.text() };
    }, upo);
    expect([receipt.status, receipt.type]).toEqual([200, 'text/xml; charset=utf-8']);
    expect(receipt.text).toContain(accepted.gov_id);
    await page.context().close();
  });
});

describe('an invoice not sent yet', () => {
  it('is sent to KSeF from its page and numbered', async () => {
    const created = await http.post('/invoices.json', { invoice: { issue_date: day(0), ...seller, ...buyer, positions: [line] } });
    expect([created.status, created.body.gov_status]).toEqual([201, null]);
    const page = await open(`/admin/invoices/${created.body.id}`);
    const view = page.locator('ik-admin-invoice');
    await expect.poll(() => view.locator('[data-field="ksef-state"]').textContent()).toBe('Not sent');
    await view.getByRole('button', { name: 'Send to KSeF' }).click();
    const notice = view.locator('[role="status"] .notice');
    await expect.poll(() => notice.textContent(), { timeout: 20_000 }).toMatch(/^\s*KSeF accepted/);
    const sent = (await http.get(`/invoices/${created.body.id}.json`)).body;
    expect(sent.gov_status).toBe('demo_ok');
    expect((await notice.textContent())?.trim()).toBe(`KSeF accepted the invoice: ${sent.gov_id}.`);
    expect(await view.getByRole('button', { name: /KSeF/ }).count()).toBe(0);
    await page.context().close();
  });
});

describe('an invoice\'s actions', () => {
  it('records a payment, e-mails the invoice and issues a correction', async () => {
    const page = await open(`/admin/invoices/${refused.id}`);
    const view = page.locator('ik-admin-invoice');
    const notice = view.locator('[role="status"] .notice');

    await view.locator('section[aria-labelledby="lines"] tbody tr').first().waitFor();
    expect(await view.locator('section[aria-labelledby="lines"] tbody td').allTextContents()).toEqual(['Usługa programistyczna', '10', '23%', 'PLN\u00a01,845.00']);
    await view.locator('summary', { hasText: 'Record a payment' }).click();
    expect(await view.getByLabel('Amount').inputValue()).toBe('1845.00');
    await view.getByRole('button', { name: 'Record a payment' }).click();
    await expect.poll(() => notice.textContent()).toContain('The payment was recorded.');
    await expect.poll(() => view.locator('[data-field="status"]').textContent()).toBe('Paid');
    expect(await view.locator('[data-field="paid"]').textContent()).toBe('PLN\u00a01,845.00');
    const payments = (await http.get(`/invoices/${refused.id}.json`, { 'additional_fields[invoice]': 'connected_payments' })).body.connected_payments;
    expect(payments.map((payment: Record<string, unknown>) => [payment.price, payment.paid, payment.paid_date])).toEqual([['1845.0', true, day(0)]]);

    await view.getByRole('button', { name: 'E-mail the invoice' }).click();
    await expect.poll(() => notice.textContent(), { timeout: 30_000 }).toContain('E-mailed:');
    expect((await notice.textContent())?.trim()).toBe(
      `E-mailed: Invoice ${refused.number} was sent to ${buyer.buyer_email} (kept in the outbox: no SMTP server is configured)`,
    );

    await view.locator('summary', { hasText: 'Issue a correction' }).click();
    await view.getByLabel('Reason').fill('Zła ilość');
    await view.getByLabel('Quantity after').fill('5');
    await view.getByLabel('Gross total after').fill('922.50');
    await view.getByRole('button', { name: 'Issue the correction' }).click();
    await expect.poll(() => notice.textContent()).toContain('was issued');
    const [correction] = (await http.get('/invoices.json', { from_invoice_id: refused.id, kind: 'correction' })).body;
    expect([correction.kind, correction.price_gross, correction.correction_reason]).toEqual(['correction', '-922.5', 'Zła ilość']);
    expect((await notice.textContent())?.replace(/\s+/g, ' ').trim()).toBe(`Correction ${correction.number} was issued. Open the correction`);
    await view.getByRole('link', { name: 'Open the correction' }).click();
    await expect.poll(() => page.locator('ik-admin-invoice h1').textContent()).toBe(`Invoice ${correction.number}`);
    expect(new URL(page.url()).pathname).toBe(`/admin/invoices/${correction.id}`);
    await page.context().close();
  });
});

describe('by keyboard alone', () => {
  /** The element that has the focus, looked for through shadow roots: its tag and text. */
  const focused = (page: Page) =>
    page.evaluate(() => {
      let active = document.activeElement;
      while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
      return `${active?.tagName.toLowerCase()} ${active?.textContent?.trim() ?? ''}`;
    });

  it('filters the list to corrections, opens one, and lands on its heading', async () => {
    const [correction] = (await http.get('/invoices.json', { from_invoice_id: refused.id, kind: 'correction' })).body;
    const page = await open('/admin/invoices');
    const list = page.locator('ik-admin-invoices');
    await list.locator('tbody tr').first().waitFor();
    await list.getByLabel('Kind').focus();
    await page.keyboard.press('c');
    await expect.poll(() => new URL(page.url()).search).toBe('?kind=correction');
    await expect.poll(() => list.locator('tbody th').allTextContents()).toEqual([correction.number]);
    for (let step = 0; step < 10 && (await focused(page)) !== `a ${correction.number}`; step++) await page.keyboard.press('Tab');
    expect(await focused(page)).toBe(`a ${correction.number}`);
    await page.keyboard.press('Enter');
    await expect.poll(() => focused(page)).toBe(`h1 Invoice ${correction.number}`);
    expect(new URL(page.url()).pathname).toBe(`/admin/invoices/${correction.id}`);
    await page.context().close();
  });
});

describe('customers', () => {
  it("lead to the customer's invoices", async () => {
    const page = await open('/admin/customers');
    const row = page.locator(`ik-admin-customers tr[data-id="${refused.client_id}"]`);
    await expect.poll(() => row.locator('th').textContent()).toBe(buyer.buyer_name);
    await row.getByRole('link', { name: `Invoices of ${buyer.buyer_name}` }).click();
    const listed = (await http.get('/invoices.json', { client_id: refused.client_id })).body.map((invoice: { number: string }) => invoice.number);
    expect(listed).toContain(refused.number);
    await expect.poll(() => page.locator('ik-admin-invoices tbody th').allTextContents()).toEqual(listed);
    expect(new URL(page.url()).search).toBe(`?client_id=${refused.client_id}`);
    await expect.poll(() => page.locator('ik-admin-invoices [data-field="customer"]').textContent()).toBe(buyer.buyer_name);
    await page.context().close();
  });
});

describe("another account's user", () => {
  it("sees nothing of this account: its invoice is not found, and its lists hold none of this account's records", async () => {
    await accountWithUser(service, { prefix: 'rival', login: 'rival', email: 'owner@rival.example', password: 'another horse battery' });
    const rival = (await signIn(service, 'rival', 'another horse battery')).cookie;
    const context = await signedInContext(browser, service.url, rival);
    const page = await context.newPage();
    await page.goto(`${service.url}/admin/invoices/${refused.id}`);
    const view = page.locator('ik-admin-invoice');
    await expect.poll(() => view.locator('[role="alert"]').textContent()).toContain('The invoice could not be loaded: Not found');
    expect(await view.locator('h1').textContent()).toBe('Invoice ');
    await page.goto(`${service.url}/admin/invoices`);
    await expect.poll(() => page.locator('ik-admin-invoices [role="status"]').textContent()).toBe('No invoices match these filters.');
    await page.goto(`${service.url}/admin/customers`);
    await expect.poll(() => page.locator('ik-admin-customers [role="status"]').textContent()).toBe('No customers match.');
    await context.close();
  });
});

describe('axe', () => {
  const views = [
    { name: 'invoices', tag: 'ik-admin-invoices', path: '/admin/invoices', ready: 'ik-admin-invoices tbody tr' },
    { name: 'invoice', tag: 'ik-admin-invoice', path: () => `/admin/invoices/${refused.id}`, ready: 'ik-admin-invoice [data-field="ksef-state"]' },
    { name: 'customers', tag: 'ik-admin-customers', path: '/admin/customers', ready: 'ik-admin-customers tbody tr' },
  ];
  for (const lang of ['en', 'pl'] as const) {
    for (const width of ['desktop', 'phone'] as const) {
      it(`finds nothing on the invoices, an invoice and customers, ${lang}, ${width}`, async () => {
        const context = await signedInContext(browser, service.url, cookie, { lang, width });
        const page = await context.newPage();
        const found: Record<string, string[]> = {};
        for (const view of views) {
          await page.goto(`${service.url}${typeof view.path === 'string' ? view.path : view.path()}`);
          await page.locator(view.ready).first().waitFor();
          expect(await page.evaluate(() => document.documentElement.lang)).toBe(lang);
          found[view.name] = await axeViolations(page, view.tag);
        }
        expect(found).toEqual({ invoices: [], invoice: [], customers: [] });
        await context.close();
      });
    }
  }
});
