import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../helpers/chromium.js';
import { api, type Api } from '../helpers/http.js';
import { startTestService, type TestService } from '../helpers/service.js';
import { type SmtpSink, startSmtpSink } from '../helpers/smtp.js';
import { accountWithUser, signIn } from './support/session.js';
import { axeViolations, signedInContext } from './support/records-page.js';

/**
 * An invoice's e-mail history on its page, in Chromium against the real service and a local SMTP
 * server: a message the server refuses is listed as failed in the server's words, the next one as
 * sent, the newest first, in English and Polish.
 */
let smtp: SmtpSink;
let service: TestService;
let http: Api;
let browser: Browser;
let cookie: string;
let refusal: string | null = null;

beforeAll(async () => {
  smtp = await startSmtpSink(() => (refusal ? { code: 550, text: refusal } : undefined));
  service = await startTestService({ smtpUrl: smtp.url() });
  const account = await accountWithUser(service, { prefix: 'zegarmistrz', login: 'jan', email: 'jan@zegarmistrz.example', password: 'tik tak tik tak' });
  http = api({ url: service.url, apiToken: account.apiToken });
  cookie = (await signIn(service, 'jan', 'tik tak tik tak')).cookie;
  browser = await launchChromium();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await service?.stop();
  await smtp.close();
});

async function open(path: string, lang: 'en' | 'pl' = 'en'): Promise<Page> {
  const page = await (await signedInContext(browser, service.url, cookie, { lang })).newPage();
  await page.goto(`${service.url}${path}`);
  return page;
}

describe("an invoice's e-mails on its page", () => {
  it('lists a refused e-mail in the mail server\'s words and the next one sent, the newest first', async () => {
    const created = await http.post('/invoices.json', {
      invoice: { kind: 'vat', buyer_name: 'Antykwariat Lamus', buyer_email: 'lamus@antykwariat.example', positions: [{ name: 'Naprawa zegara', tax: 23, total_price_gross: '246.00', quantity: 1 }] },
    });
    expect(created.status).toBe(201);
    const { id, number } = created.body as { id: number; number: string };

    const page = await open(`/admin/invoices/${id}`);
    const view = page.locator('ik-admin-invoice');
    const history = view.locator('[data-field="email-history"]');
    await expect.poll(() => history.textContent()).toBe('No e-mail has been sent or tried for this invoice.');

    refusal = 'Mailbox unavailable: lamus@antykwariat.example does not exist';
    await view.getByRole('button', { name: 'E-mail the invoice' }).click();
    const rows = history.locator('tbody tr');
    await expect.poll(() => rows.count(), { timeout: 30_000 }).toBe(1);
    expect(await view.locator('.notice[data-tone="error"]').textContent()).toContain('550 Mailbox unavailable: lamus@antykwariat.example does not exist');

    refusal = null;
    await view.getByRole('button', { name: 'E-mail the invoice' }).click();
    await expect.poll(() => rows.count(), { timeout: 30_000 }).toBe(2);
    // Each row but its time: recipients, subject, result.
    const cells = await Promise.all((await rows.all()).map(async (row) => (await row.locator('td').allTextContents()).slice(1).map((text) => text.replace(/\s+/g, ' ').trim())));
    expect(cells).toEqual([
      ['lamus@antykwariat.example', expect.stringContaining(number), 'Sent'],
      ['lamus@antykwariat.example', expect.stringContaining(number), 'Failed 550 Mailbox unavailable: lamus@antykwariat.example does not exist'],
    ]);
    expect(await rows.first().getAttribute('data-status')).toBe('sent');
    expect(await rows.first().locator('time').getAttribute('datetime')).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    expect(await axeViolations(page, 'ik-admin-invoice')).toEqual([]);
    await page.context().close();

    const polish = await open(`/admin/invoices/${id}`, 'pl');
    const polishRows = polish.locator('ik-admin-invoice [data-field="email-history"] tbody tr');
    await expect.poll(() => polishRows.count()).toBe(2);
    expect(await polish.locator('ik-admin-invoice h3#email-history').textContent()).toBe('E-maile tej faktury');
    expect((await polishRows.locator('td:last-child').allTextContents()).map((text) => text.replace(/\s+/g, ' ').trim())).toEqual([
      'Wysłany',
      'Nieudany 550 Mailbox unavailable: lamus@antykwariat.example does not exist',
    ]);
    await polish.context().close();
  });
});
