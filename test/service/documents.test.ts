import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { type AddressInfo, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../helpers/chromium.js';
import { startTestService, type TestService } from '../helpers/service.js';
import { type SmtpSink, startSmtpSink } from '../helpers/smtp.js';
import { makePng } from './support/images.js';

const run = promisify(execFile);
const BUYER = 'Zażółć Gęślą Jaźń Sp. z o.o.';
const POSITIONS = [
  { name: 'Projekt identyfikacji wizualnej – księga znaku', tax: 23, total_price_gross: '1845.00', quantity: 1 },
  { name: 'Hosting strony www (12 mies.)', tax: 8, total_price_gross: '647.88', quantity: 12, quantity_unit: 'mies.' },
  { name: 'Szkolenie „Żółta łódź”', tax: 'zw', total_price_gross: '500', quantity: 1 },
];

let service: TestService;
let workDir: string;

beforeAll(async () => {
  [service, workDir] = await Promise.all([startTestService(), mkdtemp(join(tmpdir(), 'invoicekit-pdf-'))]);
});
afterAll(async () => {
  await service?.stop();
  await rm(workDir, { recursive: true, force: true });
});

interface Invoice {
  id: number;
  number: string;
  status: string;
  sent_time: string | null;
  price_gross: string;
  department_id: number | null;
  view_url: string;
  payment_url: string;
  token: string;
}

async function createInvoice(fields: Record<string, unknown>, target = service): Promise<Invoice> {
  const response = await fetch(`${target.url}/invoices.json`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      api_token: target.apiToken,
      invoice: { kind: 'vat', buyer_name: BUYER, buyer_tax_no: '5213003700', buyer_email: 'ksiegowosc@zazolc.example', positions: POSITIONS, ...fields },
    }),
  });
  expect(response.status).toBe(201);
  return (await response.json()) as Invoice;
}

async function getInvoice(id: number, target = service): Promise<Invoice> {
  return (await (await fetch(`${target.url}/invoices/${id}.json?api_token=${target.apiToken}`)).json()) as Invoice;
}

let fileCount = 0;
async function saveFile(bytes: Uint8Array, extension = 'pdf'): Promise<string> {
  const path = join(workDir, `${(fileCount += 1)}.${extension}`);
  await writeFile(path, bytes);
  return path;
}

/**
 * The text of a PDF as pdftotext reads it, in reading order with every run of white space made one
 * plain space (a long position name wraps in its cell), or with `layout` line by line as printed.
 */
async function pdfText(bytes: Uint8Array, options: { layout?: boolean } = {}): Promise<string> {
  const { stdout } = await run('pdftotext', [...(options.layout ? ['-layout'] : []), '-enc', 'UTF-8', await saveFile(bytes), '-']);
  return options.layout ? stdout.replace(/[\u00a0\u202f]/g, ' ') : stdout.replace(/\s+/g, ' ');
}

/** Rows of `pdfimages -list`: the images embedded in the PDF with their pixel sizes. */
async function pdfImages(bytes: Uint8Array): Promise<{ width: number; height: number }[]> {
  const { stdout } = await run('pdfimages', ['-list', await saveFile(bytes)]);
  return stdout
    .split('\n')
    .slice(2)
    .filter((line) => line.trim())
    .map((line) => line.trim().split(/\s+/))
    .map((columns) => ({ width: Number(columns[3]), height: Number(columns[4]) }));
}

async function fetchPdf(path: string): Promise<{ response: Response; bytes: Uint8Array }> {
  const response = await fetch(`${service.url}${path}`);
  return { response, bytes: new Uint8Array(await response.arrayBuffer()) };
}

describe('GET /invoices/<id>.pdf', () => {
  it('is a real document whose text holds the number, the buyer, each position and the gross total', async () => {
    const invoice = await createInvoice({ lang: 'pl', payment_type: 'transfer', place: 'Kraków' });
    expect(invoice.price_gross).toBe('2992.88');
    const { response, bytes } = await fetchPdf(`/invoices/${invoice.id}.pdf?api_token=${service.apiToken}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/pdf');
    const fileName = `Faktura-VAT-${invoice.number.replace(/\//g, '-')}.pdf`;
    expect(response.headers.get('content-disposition')).toBe(`inline; filename="${fileName}"; filename*=UTF-8''${fileName}`);
    expect(new TextDecoder().decode(bytes.slice(0, 5))).toBe('%PDF-');

    const text = await pdfText(bytes);
    expect(text).toContain(invoice.number);
    expect(text).toContain(BUYER);
    for (const position of POSITIONS) expect(text).toContain(position.name);
    // Polish groups thousands only from five digits on: 2992,88 but 12 345,00.
    expect(text).toContain('2992,88 zł');
    expect(text).toContain('Faktura VAT');
    expect(text).toContain('ORYGINAŁ');
    for (const label of ['SPRZEDAWCA', 'NABYWCA', 'Data wystawienia', 'Data sprzedaży', 'Termin płatności', 'PODSUMOWANIE VAT']) {
      expect(text).toContain(label);
    }
    // The seller is the account's department, with its bank account; the payment is by transfer.
    expect(text).toContain('Demo Studio Sp. z o.o.');
    expect(text).toContain('PL61 1090 1014 0000 0712 1981 2874');
    expect(text).toContain('przelew');
    // The positions table and the VAT summary by rate, line by line as printed.
    const layout = await pdfText(bytes, { layout: true });
    expect(layout).toMatch(/2\s+Hosting strony www \(12 mies\.\)\s+12\s+mies\.\s+49,99\s+8%\s+599,89\s+47,99\s+647,88/);
    expect(layout).toMatch(/^\s+23%\s+1500,00\s+345,00\s+1845,00$/m);
    expect(layout).toMatch(/^\s+8%\s+599,89\s+47,99\s+647,88$/m);
    expect(layout).toMatch(/^\s+zw\s+500,00\s+0,00\s+500,00$/m);
    expect(layout).toMatch(/Razem\s+2599,89\s+392,99\s+2992,88/);
    expect(layout).toMatch(/Zapłacono\s+0,00 zł/);
    expect(layout).toMatch(/Pozostało do zapłaty\s+2992,88 zł/);
  });

  it('marks a copy, and speaks the invoice’s language', async () => {
    const invoice = await createInvoice({ lang: 'en', currency: 'EUR', kind: 'proforma' });
    const copy = await pdfText((await fetchPdf(`/invoices/${invoice.id}.pdf?print_option=copy&api_token=${service.apiToken}`)).bytes);
    expect(copy).toContain('Proforma invoice');
    expect(copy).toContain('COPY');
    expect(copy).not.toContain('ORIGINAL');
    expect(copy).toContain('€2,992.88');
    expect(copy).toContain('Balance due');
    expect(copy).toContain(BUYER);
  });

  it('lays out a document the same way however many were rendered before it in the process', async () => {
    // Words are shaped once per process; pdfkit scales what it is given in place, so a shaped word
    // used a second time must come out exactly as the first time.
    const { renderInvoicePdf } = await import('../../src/service/documents/pdf.js');
    const [first, second] = await Promise.all([createInvoice({}), createInvoice({ lang: 'en', buyer_name: 'Another Buyer Ltd' })]);
    const dataOf = async (id: number) => (await service.db.query<{ data: Parameters<typeof renderInvoicePdf>[0] }>(`select data from invoices where id = $1`, [id]))[0]!.data;
    const [a, b] = await Promise.all([dataOf(first.id), dataOf(second.id)]);
    /** The document without what differs on every render: the creation date and the file identifier. */
    const stable = (pdf: Buffer) => pdf.toString('latin1').replace(/\(D:\d+Z\)/g, '').replace(/\/ID \[<[0-9a-f]+> <[0-9a-f]+>\]/g, '');
    const once = await renderInvoicePdf(a);
    await renderInvoicePdf(b);
    const again = await renderInvoicePdf(a);
    expect(stable(again)).toBe(stable(once));
    expect(await pdfText(again)).toContain(BUYER);
  });

  it('keeps every letter of its text, whatever glyphs the process met before', async () => {
    // A glyph first met as a component of another (the "c" inside "ć", when an earlier document's
    // subset was written) is asked for by id alone. Every letter's glyph is met that way first here.
    const { renderInvoicePdf } = await import('../../src/service/documents/pdf.js');
    const { documentFonts } = await import('../../src/service/documents/pdf-fonts.js');
    const { create } = await import('fontkit');
    const { createRequire } = await import('node:module');
    const { readFileSync } = await import('node:fs');
    const fontFile = (name: string) => readFileSync(createRequire(import.meta.url).resolve(`dejavu-fonts-ttf/ttf/${name}`));
    const letters = [...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZąćęłńóśźżĄĆĘŁŃÓŚŹŻ0123456789'];
    const fonts = documentFonts() as unknown as Record<'regular' | 'bold', { getGlyph(id: number): unknown }>;
    for (const [style, file] of [['regular', 'DejaVuSans.ttf'], ['bold', 'DejaVuSans-Bold.ttf']] as const) {
      const fresh = create(fontFile(file)) as unknown as { glyphForCodePoint(codePoint: number): { id: number } };
      for (const letter of letters) fonts[style].getGlyph(fresh.glyphForCodePoint(letter.codePointAt(0)!).id);
    }
    const invoice = await createInvoice({});
    const data = (await service.db.query<{ data: Parameters<typeof renderInvoicePdf>[0] }>(`select data from invoices where id = $1`, [invoice.id]))[0]!.data;
    const text = await pdfText(await renderInvoicePdf(data));
    expect(text).toContain(BUYER);
    expect(text).toContain('Data wystawienia');
    expect(text).toContain('Pozostało do zapłaty');
    expect(text).toContain(`Faktura VAT nr ${invoice.number}`);
  });

  it('embeds the department logo when one is set', async () => {
    const invoice = await createInvoice({});
    expect(invoice.department_id).toEqual(expect.any(Number));
    const before = (await fetchPdf(`/invoices/${invoice.id}.pdf?api_token=${service.apiToken}`)).bytes;
    expect(await pdfImages(before)).toEqual([]);

    const accounts = await service.db.query<{ id: number }>(`select id from accounts where prefix = $1`, [service.prefix]);
    await service.db.query(
      `insert into department_logos (department_id, account_id, content_type, content) values ($1, $2, 'image/png', $3)
       on conflict (department_id) do update set content = excluded.content, content_type = excluded.content_type`,
      [invoice.department_id, accounts[0]!.id, makePng(120, 48)],
    );
    const after = (await fetchPdf(`/invoices/${invoice.id}.pdf?api_token=${service.apiToken}`)).bytes;
    expect(new TextDecoder('latin1').decode(after)).toContain('/Subtype /Image');
    expect(await pdfImages(after)).toEqual([{ width: 120, height: 48 }]);
    expect(await pdfText(after)).toContain(BUYER);
    await service.db.query(`delete from department_logos where department_id = $1`, [invoice.department_id]);
  });

  it('refuses a bad print_option, an unknown id and a missing token', async () => {
    const invoice = await createInvoice({});
    const bad = await fetchPdf(`/invoices/${invoice.id}.pdf?print_option=draft&api_token=${service.apiToken}`);
    expect(bad.response.status).toBe(422);
    expect(JSON.parse(new TextDecoder().decode(bad.bytes))).toMatchObject({ code: 'error', message: { print_option: [expect.any(String)] } });
    expect((await fetchPdf(`/invoices/999999.pdf?api_token=${service.apiToken}`)).response.status).toBe(404);
    expect((await fetchPdf(`/invoices/${invoice.id}.pdf`)).response.status).toBe(401);
  });
});

interface OutboxEntry {
  token: string;
  invoice_id: number;
  from: string;
  reply_to: string | null;
  to: string[];
  cc: string[];
  subject: string;
  created_at: string;
  attachments: number;
}

interface OutboxMessage extends Omit<OutboxEntry, 'attachments'> {
  text_body: string;
  html_body: string | null;
  attachments: { id: number; filename: string; content_type: string; size: number; url: string }[];
}

/** The outbox is the account's own: read with its api_token. */
function outboxFetch(path: string, target = service): Promise<Response> {
  return fetch(`${target.url}${path}`, { headers: { authorization: `Bearer ${target.apiToken}` } });
}

async function outbox(): Promise<OutboxEntry[]> {
  return (await (await outboxFetch('/outbox.json')).json()) as OutboxEntry[];
}

function sendByEmail(id: number, query: Record<string, string> = {}, format = 'json', target = service) {
  const params = new URLSearchParams({ api_token: target.apiToken, ...query });
  return fetch(`${target.url}/invoices/${id}/send_by_email.${format}?${params}`, { method: 'POST' });
}

describe('POST /invoices/<id>/send_by_email', () => {
  it('keeps the message with the PDF attached in the outbox and marks the invoice sent', async () => {
    const invoice = await createInvoice({ lang: 'pl' });
    expect(invoice.status).toBe('issued');
    const response = await sendByEmail(invoice.id, { email_cc: 'biuro@zazolc.example' });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      status: 'ok',
      message: `Invoice ${invoice.number} was sent to ksiegowosc@zazolc.example, biuro@zazolc.example (kept in the outbox: no SMTP server is configured)`,
    });

    const updated = await getInvoice(invoice.id);
    expect(updated.status).toBe('sent');
    expect(updated.sent_time).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?[+-]\d\d:\d\d$/);

    const entry = (await outbox()).find((m) => m.invoice_id === invoice.id)!;
    expect(entry).toMatchObject({
      to: ['ksiegowosc@zazolc.example'],
      cc: ['biuro@zazolc.example'],
      from: 'no-reply@127.0.0.1',
      reply_to: '"Demo Studio Sp. z o.o." <billing@demo-studio.example>',
      subject: `Faktura VAT ${invoice.number} od Demo Studio Sp. z o.o.`,
      attachments: 1,
    });
    const message = (await (await outboxFetch(`/outbox/${entry.token}.json`)).json()) as OutboxMessage;
    expect(message.text_body).toContain(invoice.view_url);
    expect(message.text_body).toContain(invoice.payment_url);
    expect(message.text_body).toContain('Kwota do zapłaty: 2992,88\u00a0zł');
    expect(message.html_body).toContain(`href="${invoice.view_url}"`);
    expect(message.attachments).toEqual([
      { id: expect.any(Number), filename: `Faktura-VAT-${invoice.number.replace(/\//g, '-')}.pdf`, content_type: 'application/pdf', size: expect.any(Number), url: expect.any(String) },
    ]);

    const attachment = await outboxFetch(`/outbox/${message.attachments[0]!.url}`);
    expect(attachment.status).toBe(200);
    expect(attachment.headers.get('content-type')).toBe('application/pdf');
    const pdf = new Uint8Array(await attachment.arrayBuffer());
    expect(pdf.length).toBe(message.attachments[0]!.size);
    const text = await pdfText(pdf);
    expect(text).toContain(invoice.number);
    expect(text).toContain(BUYER);
  });

  it('sends to email_to instead of the buyer, without the PDF when email_pdf is off, answering in XML', async () => {
    const invoice = await createInvoice({});
    const response = await sendByEmail(invoice.id, { email_to: 'zarzad@zazolc.example; prezes@zazolc.example', email_pdf: 'false' }, 'xml');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('application/xml');
    const xml = await response.text();
    expect(xml).toContain('<result>');
    expect(xml).toContain('<status>ok</status>');
    const entry = (await outbox()).find((m) => m.invoice_id === invoice.id)!;
    expect(entry.to).toEqual(['zarzad@zazolc.example', 'prezes@zazolc.example']);
    expect(entry.attachments).toBe(0);
  });

  it('keeps a paid invoice paid while recording when it was sent', async () => {
    const invoice = await createInvoice({});
    const paid = await fetch(`${service.url}/invoices/${invoice.id}/change_status.json?status=paid&api_token=${service.apiToken}`, { method: 'POST' });
    expect(paid.status).toBe(200);
    expect((await sendByEmail(invoice.id)).status).toBe(200);
    const updated = await getInvoice(invoice.id);
    expect(updated.status).toBe('paid');
    expect(updated.sent_time).not.toBeNull();
  });

  it('answers 422 when there is no address to send to, or a bad one, and changes nothing', async () => {
    const invoice = await createInvoice({ buyer_email: null });
    const none = await sendByEmail(invoice.id);
    expect(none.status).toBe(422);
    expect(await none.json()).toEqual({
      code: 'error',
      message: { email: ['there is no address to send the invoice to: the buyer has no e-mail and no email_to was given'] },
    });
    const bad = await sendByEmail(invoice.id, { email_to: 'someone@example.com\r\nBcc: spy@example.com' });
    expect(bad.status).toBe(422);
    expect(((await bad.json()) as { message: Record<string, string[]> }).message).toHaveProperty('email_to');
    const unchanged = await getInvoice(invoice.id);
    expect(unchanged.status).toBe('issued');
    expect(unchanged.sent_time).toBeNull();
    expect((await outbox()).some((m) => m.invoice_id === invoice.id)).toBe(false);
    expect((await sendByEmail(999_999, { email_to: 'a@example.com' })).status).toBe(404);
  });
});

describe('GET /outbox', () => {
  it('lists messages newest first and shows each one, escaping what the invoice holds', async () => {
    const hostile = '<script>alert("x")</script> & Co';
    const invoice = await createInvoice({ seller_name: hostile, buyer_email: 'kupiec@zazolc.example' });
    expect((await sendByEmail(invoice.id)).status).toBe(200);

    const list = await outboxFetch('/outbox');
    expect(list.status).toBe(200);
    expect(list.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(list.headers.get('content-security-policy')).toContain("default-src 'none'");
    const html = await list.text();
    expect(html).not.toContain('<script>');
    expect(html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; Co');
    const entries = await outbox();
    expect(entries[0]!.invoice_id).toBe(invoice.id);
    const times = entries.map((m) => Date.parse(m.created_at));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    expect(html.indexOf(entries[0]!.token)).toBeLessThan(html.indexOf(entries[1]!.token));

    const page = await outboxFetch(`/outbox/${entries[0]!.token}`);
    expect(page.status).toBe(200);
    const pageHtml = await page.text();
    expect(pageHtml).not.toContain('<script>');
    expect(pageHtml).toContain('kupiec@zazolc.example');
    expect(pageHtml).toMatch(/href="[^"]+\/attachments\/\d+">Faktura-VAT-/);
    const body = await outboxFetch(`/outbox/${entries[0]!.token}/body`);
    expect(body.headers.get('content-security-policy')).toMatch(/^sandbox /);
    const bodyHtml = await body.text();
    expect(bodyHtml).not.toContain('<script>');
    expect(bodyHtml).toContain(`href="${invoice.view_url}"`);

    expect((await outboxFetch('/outbox/not-a-real-token-at-all')).status).toBe(404);
    expect((await outboxFetch(`/outbox/${entries[0]!.token}/attachments/999999`)).status).toBe(404);
  });
});

describe('the outbox in Chromium', () => {
  it('opens a message from the list and shows its body and attachment as the buyer would see them', async () => {
    const invoice = await createInvoice({ lang: 'en', buyer_email: 'reader@zazolc.example' });
    expect((await sendByEmail(invoice.id)).status).toBe(200);
    const browser = await launchChromium();
    try {
      const page = await browser.newPage();
      const problems: string[] = [];
      page.on('console', (message) => {
        if (message.type() === 'error') problems.push(message.text());
      });
      page.on('pageerror', (error) => problems.push(error.message));
      // The way `npm start` opens it: a signed link for the account, kept as a session cookie.
      const link = await fetch(`${service.url}/outbox/links.json`, { method: 'POST', headers: { authorization: `Bearer ${service.apiToken}` } });
      expect(link.status).toBe(201);
      await page.goto(((await link.json()) as { url: string }).url);
      expect(new URL(page.url()).search).toBe('');
      expect(await page.title()).toBe('Outbox');
      const row = page.locator('tbody tr').first();
      expect(await row.locator('td.to').innerText()).toBe('reader@zazolc.example');
      await row.getByRole('link', { name: `VAT invoice ${invoice.number} from Demo Studio Sp. z o.o.` }).click();
      await page.waitForURL(/\/outbox\/[A-Za-z0-9_-]+$/);
      expect(await page.getByRole('heading', { level: 2 }).innerText()).toBe(`VAT invoice ${invoice.number} from Demo Studio Sp. z o.o.`);
      const body = page.frameLocator('iframe[title="The message as the buyer sees it"]');
      await expect.poll(() => body.getByRole('heading', { level: 1 }).innerText()).toBe(`VAT invoice No. ${invoice.number}`);
      expect(await body.getByRole('link', { name: 'View the invoice' }).getAttribute('href')).toBe(invoice.view_url);
      expect(await body.getByRole('link', { name: 'Pay online' }).getAttribute('href')).toBe(invoice.payment_url);
      const download = page.getByRole('link', { name: /^VAT-invoice-.+\.pdf$/ });
      const pdf = await page.request.get(new URL((await download.getAttribute('href'))!, page.url()).toString());
      expect(pdf.headers()['content-type']).toBe('application/pdf');
      expect(await pdfText(await pdf.body())).toContain(BUYER);
      expect(problems).toEqual([]);
    } finally {
      await browser.close();
    }
  });
});

describe('send_by_email through SMTP', () => {
  interface Received {
    from: string;
    to: string[];
    raw: string;
  }
  let smtp: SmtpSink;
  let smtpService: TestService;
  const received: Received[] = [];

  beforeAll(async () => {
    smtp = await startSmtpSink(
      (mail) => {
        received.push({ from: mail.from, to: mail.to, raw: mail.raw.toString('utf8') });
      },
      { onRecipient: (address) => (address.startsWith('nobody@') ? { code: 550, text: '5.1.1 No such user' } : undefined) },
    );
    smtpService = await startTestService({ smtpUrl: smtp.url({ from: 'invoices@invoicekit.example' }) });
  });
  afterAll(async () => {
    await smtpService?.stop();
    await smtp.close();
  });

  it('delivers the message with the PDF attached and marks the invoice sent', async () => {
    const invoice = await createInvoice({ lang: 'en' }, smtpService);
    const response = await sendByEmail(invoice.id, { email_cc: 'accounts@zazolc.example' }, 'json', smtpService);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      status: 'ok',
      message: `Invoice ${invoice.number} was sent to ksiegowosc@zazolc.example, accounts@zazolc.example`,
    });
    expect(received).toHaveLength(1);
    const mail = received[0]!;
    expect(mail.from).toBe('invoices@invoicekit.example');
    expect(mail.to).toEqual(['ksiegowosc@zazolc.example', 'accounts@zazolc.example']);
    expect(mail.raw).toMatch(/^From: invoices@invoicekit\.example\r?$/m);
    expect(mail.raw).toMatch(/^Reply-To: "Demo Studio Sp\. z o\.o\." <billing@demo-studio\.example>\r?$/m);
    expect(mail.raw).toMatch(/^Subject: VAT invoice .+ from Demo Studio Sp\. z o\.o\.\r?$/m);
    expect(mail.raw).toContain(invoice.view_url);
    const fileName = `VAT-invoice-${invoice.number.replace(/\//g, '-')}.pdf`;
    expect(mail.raw).toMatch(new RegExp(`Content-Type: application/pdf; name=${fileName}`));
    expect(mail.raw).toMatch(/Content-Disposition: attachment; filename=/);
    // The attachment is the PDF itself: base64 of "%PDF-".
    expect(mail.raw).toContain('JVBERi0');
    expect((await getInvoice(invoice.id, smtpService)).status).toBe('sent');
    // With SMTP there is no outbox at all.
    expect((await outboxFetch('/outbox.json', smtpService)).status).toBe(404);
  });

  it('answers 422 when the server refuses the recipient, and leaves the invoice as it was', async () => {
    const invoice = await createInvoice({}, smtpService);
    const response = await sendByEmail(invoice.id, { email_to: 'nobody@zazolc.example' }, 'json', smtpService);
    expect(response.status).toBe(422);
    const body = (await response.json()) as { code: string; message: { email: string[] } };
    expect(body.code).toBe('error');
    expect(body.message.email[0]).toContain('No such user');
    expect((await getInvoice(invoice.id, smtpService)).status).toBe('issued');
  });

  it('answers 502 when the SMTP server cannot be reached, and leaves the invoice as it was', async () => {
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const { port } = probe.address() as AddressInfo;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const unreachable = await startTestService({ smtpUrl: `smtp://127.0.0.1:${port}?from=invoices@invoicekit.example` });
    try {
      const invoice = await createInvoice({}, unreachable);
      const response = await sendByEmail(invoice.id, {}, 'json', unreachable);
      expect(response.status).toBe(502);
      const body = (await response.json()) as { code: string; message: string };
      expect(body.code).toBe('error');
      expect(body.message).toBe('The e-mail could not be sent: the mail server could not be reached');
      expect((await getInvoice(invoice.id, unreachable)).status).toBe('issued');
    } finally {
      await unreachable.stop();
    }
  });
});
