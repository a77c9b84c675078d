import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createInvoicingClient } from '../../src/api/index.js';
import { readFacturX, validateEInvoice } from '../helpers/einvoice/index.js';
import { api, type Api } from '../helpers/http.js';
import { startTestService, type TestService } from '../helpers/service.js';
import { type SmtpSink, startSmtpSink } from '../helpers/smtp.js';
import { GERMAN_BUYER, SELLER } from './cases.js';

/**
 * `send_by_email` to a client who prefers an e-invoice: the XML beside the PDF, or the Factur-X PDF
 * in its place, read from the message a real SMTP server received; what cannot be made leaves the
 * plain PDF and tells the seller why.
 */

let smtp: SmtpSink;
let service: TestService;
let http: Api;
const messages: string[] = [];

interface Attachment {
  filename: string;
  contentType: string;
  content: Buffer;
}

/** The attachments of a MIME message (base64 parts with `Content-Disposition: attachment`). */
function attachmentsOf(message: string): Attachment[] {
  const boundaries = [...message.matchAll(/boundary="?([^";\r\n]+)"?/gi)].map((match) => match[1]!);
  const parts = boundaries.reduce<string[]>((pieces, boundary) => pieces.flatMap((piece) => piece.split(`--${boundary}`)), [message]);
  return parts.flatMap((part) => {
    const split = part.indexOf('\r\n\r\n');
    if (split < 0) return [];
    const headers = part.slice(0, split).replace(/\r\n[ \t]+/g, ' ');
    if (!/^content-disposition:\s*attachment/im.test(headers)) return [];
    return [{
      filename: /filename="?([^";\r\n]+)"?/i.exec(headers)?.[1] ?? '',
      contentType: /^content-type:\s*([^;\r\n]+)/im.exec(headers)?.[1] ?? '',
      content: Buffer.from(part.slice(split + 4).replace(/\s+/g, ''), 'base64'),
    }];
  });
}

beforeAll(async () => {
  smtp = await startSmtpSink(({ raw }) => {
    messages.push(raw.toString('latin1'));
  });
  service = await startTestService({ smtpUrl: smtp.url() });
  http = api(service);
  const [department] = (await http.get('/departments.json')).body as { id: number }[];
  expect((await http.put(`/departments/${department!.id}.json`, { department: { einvoice_address: '9945:PL5252248481' } })).status).toBe(200);
}, 60_000);
afterAll(async () => {
  await service?.stop();
  await smtp.close();
});

/** An invoice to a German client who prefers `format`, sent by e-mail; the message the server got. */
async function sendTo(format: string, buyer: Record<string, unknown>): Promise<{ id: number; attachments: Attachment[] }> {
  const created = await http.post('/invoices.json', {
    invoice: { ...SELLER, ...buyer, issue_date: '2026-03-02', sell_date: '2026-03-02', payment_to: '2026-03-16', payment_type: 'transfer', positions: [{ name: 'Fenster', quantity: 2, tax: 23, price_net: '1250.50' }] },
  });
  expect(created.status, created.text).toBe(201);
  const { id, client_id } = created.body as { id: number; client_id: number };
  const client = await http.put(`/clients/${client_id}.json`, { client: { einvoice_format: format } });
  expect(client.status, client.text).toBe(200);
  expect((client.body as { einvoice_format: string }).einvoice_format).toBe(format);
  const before = messages.length;
  const sent = await http.post(`/invoices/${id}/send_by_email.json`, {});
  expect(sent.status, sent.text).toBe(200);
  expect(messages.length).toBe(before + 1);
  return { id, attachments: attachmentsOf(messages.at(-1)!) };
}

describe('a client who prefers an e-invoice', () => {
  it('gets the XRechnung document beside the PDF, named after the number, valid by the rules', async () => {
    const { attachments } = await sendTo('xrechnung', GERMAN_BUYER);
    expect(attachments.map((file) => [file.filename, file.contentType])).toEqual([
      ['Faktura-VAT-1-03-2026.pdf', 'application/pdf'],
      ['1-03-2026.xml', 'application/xml'],
    ]);
    const xml = attachments[1]!.content.toString('utf8');
    expect(xml).toContain('<cbc:BuyerReference>04011000-12345-34</cbc:BuyerReference>');
    const report = await validateEInvoice(xml, { syntax: 'ubl', profile: 'xrechnung' });
    expect(report.fatal).toEqual([]);
    expect(report.schema).toEqual([]);
  }, 120_000);

  it('gets the Factur-X PDF in place of the plain one', async () => {
    const { attachments } = await sendTo('facturx', GERMAN_BUYER);
    expect(attachments.map((file) => [file.filename, file.contentType])).toEqual([['Faktura-VAT-2-03-2026.pdf', 'application/pdf']]);
    const reading = await readFacturX(new Uint8Array(attachments[0]!.content));
    expect(reading.attachments).toEqual(['factur-x.xml']);
    expect(reading.facturX.conformanceLevel).toBe('EN 16931');
    const report = await validateEInvoice(reading.xml ?? '', { syntax: 'cii', profile: 'en16931' });
    expect(report.fatal).toEqual([]);
    expect(report.schema).toEqual([]);
  }, 120_000);

  it('gets the plain PDF when the document lacks data, and the invoice and the overview say why', async () => {
    const { buyer_reference: _none, ...noLeitwegId } = GERMAN_BUYER;
    const { id, attachments } = await sendTo('xrechnung', noLeitwegId);
    expect(attachments.map((file) => file.filename)).toEqual(['Faktura-VAT-3-03-2026.pdf']);
    const invoice = (await http.get(`/invoices/${id}.json`)).body as Record<string, unknown>;
    expect(invoice.attention).toBe('einvoice_unavailable');
    expect(invoice.einvoice_problems).toEqual(['buyer_reference: is required for XRechnung: the buyer\'s Leitweg-ID']);
    const overview = (await http.get('/account/attention.json')).body as { items: { kind: string; invoice_id: number; message: string }[] };
    expect(overview.items.filter((item) => item.invoice_id === id && item.kind !== 'overdue').map((item) => [item.kind, item.message])).toEqual([
      ['einvoice_unavailable', 'buyer_reference: is required for XRechnung: the buyer\'s Leitweg-ID'],
    ]);
  }, 60_000);

  it('refuses an unknown format with a 422, clears it with an empty one, and the typed client reads it', async () => {
    const created = await http.post('/clients.json', { client: { name: 'Klient Bez Formatu' } });
    const id = (created.body as { id: number }).id;
    const bad = await http.put(`/clients/${id}.json`, { client: { einvoice_format: 'pdf' } });
    expect(bad.status).toBe(422);
    expect(bad.body).toEqual({ code: 'error', message: { einvoice_format: ['must be one of ubl, cii, xrechnung, facturx, or empty for none'] } });
    const typed = createInvoicingClient({ baseUrl: service.url, apiToken: service.apiToken });
    expect((await typed.clients.update(id, { einvoice_format: 'ubl' })).einvoice_format).toBe('ubl');
    expect((await typed.clients.get(id)).einvoice_format).toBe('ubl');
    expect((await typed.clients.update(id, { einvoice_format: '' as never })).einvoice_format).toBeNull();
    // Given at creation, as on an update.
    const withFormat = await http.post('/clients.json', { client: { name: 'Klient Z Formatem', einvoice_format: 'facturx' } });
    expect(withFormat.status).toBe(201);
    expect((withFormat.body as { einvoice_format: string }).einvoice_format).toBe('facturx');
    expect((await typed.clients.get((withFormat.body as { id: number }).id)).einvoice_format).toBe('facturx');
  }, 60_000);
});
