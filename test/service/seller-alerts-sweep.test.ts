import { createHmac } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { type AddressInfo, createServer as createTcpServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, type Api } from '../helpers/http.js';
import { startTestService, type TestService } from '../helpers/service.js';
import { type SmtpSink, startSmtpSink } from '../helpers/smtp.js';
import { accountWithUser } from '../admin/support/session.js';

/**
 * The seller is told of the overview's other items: a payment the provider declined, a webhook whose
 * deliveries fail, an invoice whose last two e-mails failed. Each once per record and kind, by
 * e-mail to the account's address (a local SMTP server) and as a signed `account:attention`
 * webhook event (a local receiver), whose `deal` is the overview's item.
 */
interface Mail {
  to: string[];
  subject: string;
  /** The text body, quoted-printable decoded. */
  text: string;
}

function quotedPrintable(body: string): string {
  const bytes = body.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_match, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  return Buffer.from(bytes, 'latin1').toString('utf8');
}
interface Event {
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

let smtp: SmtpSink;
let receiver: Server;
let service: TestService;
let http: Api;
const mails: Mail[] = [];
const events: Event[] = [];
/** The buyer's mailbox the mail server refuses. */
const REFUSED = 'nie-istnieje@klient.example';

async function closedPort(): Promise<number> {
  const server = createTcpServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

beforeAll(async () => {
  smtp = await startSmtpSink(({ to, raw }) => {
    if (to.includes(REFUSED)) return { code: 550, text: 'Mailbox unavailable' };
    const [head = '', ...body] = raw.toString('utf8').split(/\r?\n\r?\n/);
    mails.push({ to, subject: /^Subject: (.*)$/m.exec(head)?.[1] ?? '', text: quotedPrintable(body.join('\n\n')).replace(/\r\n/g, '\n') });
  });
  receiver = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      events.push({ headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
      response.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  service = await startTestService({
    smtpUrl: smtp.url(),
    webhooks: { allowPrivate: true, maxAttempts: 1, pollMs: 3_600_000 },
  });
  const shop = await accountWithUser(service, { prefix: 'ceramika', login: 'ola', email: 'ola@ceramika.example', password: 'glina i szkliwo' });
  http = api({ url: service.url, apiToken: shop.apiToken });
}, 60_000);

afterAll(async () => {
  await service?.stop();
  await smtp.close();
  await new Promise<void>((resolve) => receiver.close(() => resolve()));
});

describe('the seller told of failed payments and failing webhooks and e-mails', () => {
  it('gets one e-mail and one account:attention event per record and kind', async () => {
    const listener = await http.post('/webhooks.json', { webhook: { kind: 'account:attention', url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/alerts`, secret: 'whsec_ceramika_2026_glina' } });
    expect(listener.status).toBe(201);
    const broken = (await http.post('/webhooks.json', { webhook: { kind: 'invoice:create', url: `http://127.0.0.1:${await closedPort()}/hook` } })).body;

    const invoice = (
      await http.post('/invoices.json', {
        invoice: { kind: 'vat', buyer_name: 'Kawiarnia Nowa', buyer_email: REFUSED, positions: [{ name: 'Filiżanka', tax: 23, total_price_gross: '61.50', quantity: 2 }] },
      })
    ).body;
    await service.webhooks.runOnce();
    for (let attempt = 0; attempt < 2; attempt += 1) expect((await http.post(`/invoices/${invoice.id}/send_by_email.json`, {})).status).toBe(502);
    const declined = (
      await http.post('/banking/payments.json', { banking_payment: { name: 'Filiżanki', price: '123.00', invoice_id: invoice.id, provider_status: 'declined', provider_response: 'card_declined: insufficient funds' } })
    ).body;

    const overview = (await http.get('/account/attention.json')).body.items.filter((item: { kind: string }) => ['payment_failed', 'webhook_failing', 'email_failing'].includes(item.kind));
    expect(overview.map((item: { kind: string; id: number }) => [item.kind, item.id])).toEqual([
      ['payment_failed', declined.id],
      ['webhook_failing', broken.id],
      ['email_failing', invoice.id],
    ]);

    await service.sellerAlerts.runOnce();
    // A webhook takes one delivery at a time: the worker is run until each has arrived.
    for (let pass = 0; pass < 50 && events.length < 3; pass += 1) {
      await service.webhooks.runOnce();
      await new Promise((resolve) => setTimeout(resolve, 50));
    }

    expect(mails.map((mail) => [mail.to, mail.subject]).sort()).toEqual(
      [
        [['ola@ceramika.example'], `A payment for invoice ${invoice.number} failed`],
        [['ola@ceramika.example'], `The e-mails of invoice ${invoice.number} keep failing`],
        [['ola@ceramika.example'], `Webhook ${broken.id} keeps failing`],
      ].sort(),
    );
    const text = (start: string) => mails.find((mail) => mail.subject.startsWith(start))!.text.trim();
    expect(text('A payment')).toBe(
      ['The payment provider declined the payment. The buyer may try again; nothing was charged.', '', 'card_declined: insufficient funds', '', `${service.url}/admin/invoices/${invoice.id}`].join('\n'),
    );
    expect(text('Webhook')).toMatch(new RegExp(`^The webhook’s deliveries keep failing: [^\\n]+\\n\\n[^\\n]+\\n\\n${service.url.replace(/\./g, '\\.')}/admin/settings/webhooks$`));
    expect(text('The e-mails')).toBe(
      [
        'The last two e-mails of the invoice could not be sent. Check the address, or the mail server, and send the invoice again.',
        '',
        '550 Mailbox unavailable',
        '',
        `${service.url}/admin/invoices/${invoice.id}`,
      ].join('\n'),
    );

    expect(events.map((event) => event.headers['x-invoicekit-event'])).toEqual(['account:attention', 'account:attention', 'account:attention']);
    for (const event of events) {
      const [, t, v1] = /^t=(\d+),v1=([0-9a-f]+)$/.exec(String(event.headers['x-invoicekit-signature']))!;
      expect(v1).toBe(createHmac('sha256', 'whsec_ceramika_2026_glina').update(`${t}.${event.body}`).digest('hex'));
    }
    const deals = events.map((event) => JSON.parse(event.body).deal).sort((a, b) => a.kind.localeCompare(b.kind));
    expect(deals).toEqual([...overview].sort((a, b) => a.kind.localeCompare(b.kind)));
    expect(JSON.parse(events[0]!.body).app_name).toBe('invoicekit');

    // Once: a second sweep tells nothing again, while the items stay in the overview.
    await service.sellerAlerts.runOnce();
    await service.webhooks.runOnce();
    expect(mails).toHaveLength(3);
    expect(events).toHaveLength(3);
    expect(await service.db.query(`select count(*)::int as queued from webhook_deliveries where kind = 'account:attention'`)).toEqual([{ queued: 3 }]);
    // The seller's alert is no e-mail of the invoice: its history holds the buyer's two attempts only.
    expect(((await http.get(`/invoices/${invoice.id}/emails.json`)).body as { to: string[] }[]).map((email) => email.to)).toEqual([[REFUSED], [REFUSED]]);
  });
});
