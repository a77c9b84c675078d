import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailTransportUrl } from '../../src/service/documents/mailer.js';
import { startService } from '../../src/service/server.js';
import { startTestService, type TestService } from '../helpers/service.js';
import { type SmtpSink, startSmtpSink } from '../helpers/smtp.js';
import { secondAccount } from '../helpers/http.js';

interface Received {
  from: string;
  to: string[];
  raw: string;
}

let smtp: SmtpSink;
let smtpPort: number;
let service: TestService;
const received: Received[] = [];

beforeAll(async () => {
  smtp = await startSmtpSink((mail) => {
    received.push({ from: mail.from, to: mail.to, raw: mail.raw.toString('utf8') });
  });
  smtpPort = smtp.port;
  service = await startTestService({
    smtpUrl: smtp.url({ perHour: '5' }),
  });
});
afterAll(async () => {
  await service?.stop();
  await smtp.close();
});

async function createInvoice(fields: Record<string, unknown>): Promise<{ id: number; number: string }> {
  const response = await fetch(`${service.url}/invoices.json`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      api_token: service.apiToken,
      invoice: {
        kind: 'vat',
        buyer_name: 'Klient Sp. z o.o.',
        buyer_tax_no: '5213003700',
        buyer_email: 'ksiegowosc@klient.example',
        positions: [{ name: 'Usługa', tax: 23, total_price_gross: '123.00', quantity: 1 }],
        ...fields,
      },
    }),
  });
  expect(response.status).toBe(201);
  return (await response.json()) as { id: number; number: string };
}

function sendByEmail(id: number, fields: Record<string, unknown>): Promise<Response> {
  return fetch(`${service.url}/invoices/${id}/send_by_email.json`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ api_token: service.apiToken, ...fields }),
  });
}

/** A header as the message carries it, folded lines joined. */
function header(raw: string, name: string): string | undefined {
  const head = raw.split(/\r?\n\r?\n/)[0]!.replace(/\r?\n[ \t]+/g, ' ');
  return new RegExp(`^${name}: (.*)$`, 'mi').exec(head)?.[1];
}

/** An RFC 2047 Q-encoded header as text. */
function decodeHeader(value: string): string {
  return value.replace(/\?=\s+=\?UTF-8\?Q\?/gi, '').replace(/=\?UTF-8\?Q\?([^?]*)\?=/gi, (_, text: string) =>
    Buffer.from(text.replace(/_/g, ' ').replace(/=([0-9A-F]{2})/gi, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16))), 'latin1').toString('utf8'),
  );
}

describe('mail goes out as the operator', () => {
  it('sends a seller posing as a bank from the operator, with the seller only in Reply-To and a checked subject', async () => {
    const number = 'PILNE: zweryfikuj konto https://pkobp-weryfikacja.example/login';
    const seller = `PKO Bank Polski Security Team ${'x'.repeat(200)}`;
    const invoice = await createInvoice({
      lang: 'en',
      number,
      seller_name: seller,
      seller_email: 'security@pkobp.pl',
    });
    const response = await sendByEmail(invoice.id, {});
    expect(response.status).toBe(200);
    const mail = received.at(-1)!;
    expect(mail.from).toBe('invoices@operator.example');
    expect(mail.to).toEqual(['ksiegowosc@klient.example']);
    expect(header(mail.raw, 'From')).toBe('Invoicing <invoices@operator.example>');
    // The name is cut to 70 characters.
    expect(decodeHeader(header(mail.raw, 'Reply-To')!)).toBe(`${seller.slice(0, 69)}… <security@pkobp.pl>`);
    expect(header(mail.raw, 'Sender')).toBeUndefined();
    // The subject is cut to 150 characters, ending in an ellipsis (RFC 2047 encoded for it).
    const subject = header(mail.raw, 'Subject')!;
    const decoded = decodeHeader(subject);
    expect([...decoded]).toHaveLength(150);
    expect(decoded).toBe(`VAT invoice ${number} from ${seller}`.slice(0, 149) + '…');
  });

  it('strips control and line-separator characters from the Reply-To name and the subject', async () => {
    const invoice = await createInvoice({
      lang: 'en',
      number: 'FV/7/2026',
      seller_name: 'Sklep\u2028Bcc: victim@example.com\u202E"<evil>"',
      seller_email: 'sklep@sklep.example',
    });
    expect((await sendByEmail(invoice.id, {})).status).toBe(200);
    const mail = received.at(-1)!;
    expect(mail.to).toEqual(['ksiegowosc@klient.example']);
    expect(mail.raw.split(/\r?\n\r?\n/)[0]).not.toMatch(/^Bcc:/m);
    expect(header(mail.raw, 'Reply-To')).toBe('"Sklep Bcc: victim@example.com evil" <sklep@sklep.example>');
    expect(decodeHeader(header(mail.raw, 'Subject')!)).toBe('VAT invoice FV/7/2026 from Sklep Bcc: victim@example.com "<evil>"');
  });

  it('limits the recipients an account sends to per hour, with 429 and Retry-After past it', async () => {
    const sentBefore = received.length;
    // Two sent above; three more recipients reach the limit of five.
    const invoice = await createInvoice({ number: 'FV/8/2026' });
    const allowed = await sendByEmail(invoice.id, { email_to: 'a@klient.example, b@klient.example, c@klient.example' });
    expect(allowed.status).toBe(200);
    const refused = await sendByEmail(invoice.id, { email_to: 'd@klient.example' });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(3500);
    expect(Number(refused.headers.get('retry-after'))).toBeLessThanOrEqual(3600);
    expect(await refused.json()).toEqual({
      code: 'error',
      message: `The account has sent e-mail to 5 recipients in the last hour, the most it may: try again in ${refused.headers.get('retry-after')} s`,
    });
    expect(received.length).toBe(sentBefore + 1);
    // Another account's limit is its own.
    const other = await secondAccount(service, 'mail-other');
    const created = await other.post('/invoices.json', {
      invoice: { kind: 'vat', buyer_name: 'Klient', buyer_email: 'k@klient.example', positions: [{ name: 'Usługa', tax: 23, total_price_gross: '10.00', quantity: 1 }] },
    });
    expect(created.status).toBe(201);
    const theirs = await other.post(`/invoices/${(created.body as { id: number }).id}/send_by_email.json`, {});
    expect(theirs.status).toBe(200);
    expect(received.at(-1)!.to).toEqual(['k@klient.example']);
    expect(received.at(-1)!.from).toBe('invoices@operator.example');
  });
});

describe('starting with SMTP', () => {
  it('refuses to start without the operator’s sender, and says why', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'invoicekit-mail-'));
    try {
      await expect(startService({ port: 0, dataDir, smtpUrl: `smtp://127.0.0.1:${smtpPort}` })).rejects.toThrow(
        'SMTP is configured without a sender: set INVOICEKIT_MAIL_FROM (or ?from= on SMTP_URL) to the address mail goes out from, such as invoices@your-domain.example. ' +
          'Invoices are sent as that address, with the seller in Reply-To; without it the relay would send mail in any seller’s name.',
      );
      // Refused before the data folder was opened.
      expect(await readdir(dataDir)).toEqual([]);
      await expect(startService({ port: 0, dataDir, smtpUrl: `smtp://127.0.0.1:${smtpPort}?from=not-an-address` })).rejects.toThrow(
        'The mail sender "not-an-address" is not an e-mail address: set INVOICEKIT_MAIL_FROM to one, such as invoices@your-domain.example',
      );
      await expect(startService({ port: 0, dataDir, smtpUrl: `smtp://127.0.0.1:${smtpPort}?from=a@b.example&per_hour=0` })).rejects.toThrow(
        'The mail limit per account "0" is not a whole number of recipients per hour: set INVOICEKIT_MAIL_PER_HOUR to one, such as 500',
      );
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it('takes the sender from the environment unless the URL names one', () => {
    expect(mailTransportUrl('smtp://u:p@mail.example:587', { from: 'invoices@operator.example' })).toBe('smtp://u:p@mail.example:587?from=invoices%40operator.example');
    expect(mailTransportUrl('smtp://mail.example?from=a@b.example', { from: 'invoices@operator.example', perHour: '50' })).toBe('smtp://mail.example?from=a%40b.example&per_hour=50');
    expect(mailTransportUrl(undefined, { from: 'invoices@operator.example' })).toBeUndefined();
  });
});
