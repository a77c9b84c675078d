import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createInvoicingClient } from '../../src/api/index.js';
import { api, type Api, secondAccount } from '../helpers/http.js';
import { startTestService, type TestService } from '../helpers/service.js';
import { type SmtpSink, startSmtpSink } from '../helpers/smtp.js';

/**
 * An invoice's e-mail history (`GET /invoices/{id}/emails.json`): every message sent or tried over
 * SMTP, with the mail server's words when it refused, and the overview's "e-mails that keep
 * failing" read from it. The outbox (no SMTP) logs its messages the same way.
 */
let smtp: SmtpSink;
let service: TestService;
let http: Api;
/** What the mail server answers the message's data: nothing (accepted) or a refusal. */
let refusal: { code: number; text: string } | null = null;
const delivered: string[][] = [];

beforeAll(async () => {
  smtp = await startSmtpSink(({ to }) => {
    if (refusal) return refusal;
    delivered.push(to);
  });
  service = await startTestService({ smtpUrl: smtp.url() });
  http = api({ url: service.url, apiToken: service.apiToken });
}, 60_000);
afterAll(async () => {
  await service?.stop();
  await smtp.close();
});

async function createInvoice(buyer: string): Promise<{ id: number; number: string }> {
  const reply = await http.post('/invoices.json', {
    invoice: { kind: 'vat', buyer_name: buyer, buyer_email: 'ksiegowosc@klient.example', positions: [{ name: 'Usługa', tax: 23, total_price_gross: '123.00', quantity: 1 }] },
  });
  expect(reply.status).toBe(201);
  return reply.body;
}

describe("an invoice's e-mail history", () => {
  it('records each e-mail sent and each the mail server refused, the newest first, and the overview counts two failures in a row', async () => {
    const invoice = await createInvoice('Klient Sp. z o.o.');
    expect((await http.get(`/invoices/${invoice.id}/emails.json`)).body).toEqual([]);

    expect((await http.post(`/invoices/${invoice.id}/send_by_email.json`, { email_to: 'ksiegowosc@klient.example' })).status).toBe(200);
    expect(delivered).toEqual([['ksiegowosc@klient.example']]);

    refusal = { code: 452, text: 'Mailbox full, try again later' };
    const failed = await http.post(`/invoices/${invoice.id}/send_by_email.json`, { email_to: 'szef@klient.example' });
    expect(failed.status).toBe(502);
    expect(failed.body).toEqual({ code: 'error', message: 'The e-mail could not be sent: 452 Mailbox full, try again later' });
    // One failure is not yet "keeps failing".
    expect((await http.get('/account/attention.json')).body.items.filter((item: { kind: string }) => item.kind === 'email_failing')).toEqual([]);

    expect((await http.post(`/invoices/${invoice.id}/send_by_email.json`, { email_to: 'szef@klient.example' })).status).toBe(502);
    refusal = null;

    const reply = await http.get(`/invoices/${invoice.id}/emails.json`);
    expect(reply.status).toBe(200);
    expect(reply.headers.get('cache-control')).toBe('no-store');
    const history = reply.body as { id: number; time: string; subject: string }[];
    expect(history.map(({ id: _id, time: _time, ...rest }) => rest)).toEqual([
      { to: ['szef@klient.example'], cc: [], subject: history[0]!.subject, transport: 'smtp', status: 'failed', error: '452 Mailbox full, try again later' },
      { to: ['szef@klient.example'], cc: [], subject: history[0]!.subject, transport: 'smtp', status: 'failed', error: '452 Mailbox full, try again later' },
      { to: ['ksiegowosc@klient.example'], cc: [], subject: history[0]!.subject, transport: 'smtp', status: 'sent', error: null },
    ]);
    expect(history[0]!.subject).toContain(invoice.number);
    expect(history[0]!.id).toBeGreaterThan(history[1]!.id);
    expect(Date.parse(history[2]!.time)).toBeLessThanOrEqual(Date.parse(history[0]!.time));

    const failing = (await http.get('/account/attention.json')).body.items.filter((item: { kind: string }) => item.kind === 'email_failing');
    expect(failing).toEqual([
      { kind: 'email_failing', id: invoice.id, invoice_id: invoice.id, number: invoice.number, message: '452 Mailbox full, try again later', webhook_id: null, since: expect.any(String) },
    ]);
    expect(Date.parse(failing[0].since)).toBe(Date.parse(history[1]!.time));

    // Delivered again: the invoice no longer keeps failing.
    expect((await http.post(`/invoices/${invoice.id}/send_by_email.json`, { email_to: 'szef@klient.example' })).status).toBe(200);
    expect((await http.get('/account/attention.json')).body.items.filter((item: { kind: string }) => item.kind === 'email_failing')).toEqual([]);
  });

  it('is read through the typed client', async () => {
    const invoice = await createInvoice('Hurtownia Wisła');
    await http.post(`/invoices/${invoice.id}/send_by_email.json`, { email_to: 'biuro@wisla.example' });
    const client = createInvoicingClient({ baseUrl: service.url, apiToken: service.apiToken });
    const emails = await client.seller.invoiceEmails(invoice.id);
    expect(emails.map((email) => [email.to, email.status, email.transport, email.error])).toEqual([[['biuro@wisla.example'], 'sent', 'smtp', null]]);
  });

  it("answers 404 with the reference's body for another account's invoice and for no invoice", async () => {
    const invoice = await createInvoice('Piekarnia Mazurek');
    const stranger = await secondAccount(service, 'obcy');
    const foreign = await stranger.get(`/invoices/${invoice.id}/emails.json`);
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({ code: 'error', message: expect.any(String) });
    expect((await http.get('/invoices/999999/emails.json')).status).toBe(404);
    expect((await http.get('/invoices/abc/emails.json')).status).toBe(404);
  });
});

describe('the outbox', () => {
  let outboxService: TestService;
  beforeAll(async () => {
    outboxService = await startTestService();
  }, 60_000);
  afterAll(() => outboxService?.stop());

  it('logs the messages it keeps as sent to the outbox', async () => {
    const outbox = api({ url: outboxService.url, apiToken: outboxService.apiToken });
    const created = await outbox.post('/invoices.json', { invoice: { kind: 'vat', buyer_name: 'Kwiaciarnia', positions: [{ name: 'Bukiet', tax: 8, total_price_gross: '108.00', quantity: 1 }] } });
    expect((await outbox.post(`/invoices/${created.body.id}/send_by_email.json`, { email_to: 'anna@kwiaciarnia.example' })).status).toBe(200);
    const emails = (await outbox.get(`/invoices/${created.body.id}/emails.json`)).body as Record<string, unknown>[];
    expect(emails.map(({ to, status, transport, error }) => ({ to, status, transport, error }))).toEqual([
      { to: ['anna@kwiaciarnia.example'], status: 'sent', transport: 'outbox', error: null },
    ]);
  });
});
