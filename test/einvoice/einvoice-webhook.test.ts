import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateEInvoice } from '../helpers/einvoice/index.js';
import { api, type Api } from '../helpers/http.js';
import { startTestService, type TestService } from '../helpers/service.js';
import { Subscriber } from '../service/support/subscriber.js';
import { GERMAN_BUYER, POLISH_BUYER, SELLER } from './cases.js';

/**
 * An invoice's webhook names the e-invoices it can be fetched in now, with their URLs, and an
 * access point that follows the Peppol URL gets a valid Peppol BIS document.
 */

let service: TestService;
let http: Api;
const subscriber = new Subscriber();
const PUBLIC_URL = 'https://faktury.example.com';

beforeAll(async () => {
  await subscriber.start();
  service = await startTestService({ publicUrl: PUBLIC_URL, webhooks: { allowPrivate: true, retryBaseMs: 200, retryCapMs: 1000, pollMs: 100 } });
  http = api(service);
  const [department] = (await http.get('/departments.json')).body as { id: number }[];
  expect((await http.put(`/departments/${department!.id}.json`, { department: { einvoice_address: '9945:PL5252248481' } })).status).toBe(200);
  const hook = await http.post('/webhooks.json', { webhook: { kind: 'invoice:create', url: subscriber.url('/peppol'), api_token: 'access-point', active: true } });
  expect(hook.status, hook.text).toBe(201);
}, 60_000);
afterAll(async () => {
  await Promise.all([service?.stop(), subscriber.stop()]);
});

const invoiceFields = { ...SELLER, issue_date: '2026-03-02', sell_date: '2026-03-02', payment_to: '2026-03-16', payment_type: 'transfer', positions: [{ name: 'Okno', quantity: 1, tax: 23, price_net: '1000' }] };

async function deliveredFor(invoice: Record<string, unknown>) {
  const created = await http.post('/invoices.json', { invoice });
  expect(created.status, created.text).toBe(201);
  const id = (created.body as { id: number }).id;
  const entry = await subscriber.waitFor((e) => e.path === '/peppol' && e.json?.deal?.id === id);
  return { id, formats: (entry.json as { einvoice_formats: { syntax: string; profile: string; media_type: string; url: string }[] }).einvoice_formats };
}

describe('einvoice_formats in an invoice webhook', () => {
  it('lists every syntax and profile an invoice with all the data has, and the Peppol URL answers a valid document', async () => {
    const { id, formats } = await deliveredFor({ ...invoiceFields, ...GERMAN_BUYER });
    const base = `${PUBLIC_URL}/invoices/${id}`;
    expect(formats).toEqual([
      { syntax: 'ubl', profile: 'en16931', media_type: 'application/xml', url: `${base}/einvoice.xml?syntax=ubl&profile=en16931` },
      { syntax: 'cii', profile: 'en16931', media_type: 'application/xml', url: `${base}/einvoice.xml?syntax=cii&profile=en16931` },
      { syntax: 'cii', profile: 'en16931', media_type: 'application/pdf', url: `${base}.pdf?format=facturx` },
      { syntax: 'ubl', profile: 'peppol', media_type: 'application/xml', url: `${base}/einvoice.xml?syntax=ubl&profile=peppol` },
      { syntax: 'cii', profile: 'peppol', media_type: 'application/xml', url: `${base}/einvoice.xml?syntax=cii&profile=peppol` },
      { syntax: 'ubl', profile: 'xrechnung', media_type: 'application/xml', url: `${base}/einvoice.xml?syntax=ubl&profile=xrechnung` },
      { syntax: 'cii', profile: 'xrechnung', media_type: 'application/xml', url: `${base}/einvoice.xml?syntax=cii&profile=xrechnung` },
    ]);
    // The access point pulls the UBL from the service itself: the URL's path and query, the account's token.
    const peppol = new URL(formats[3]!.url);
    const pulled = await http.raw('GET', `${peppol.pathname}${peppol.search}&api_token=${service.apiToken}`);
    expect(pulled.status).toBe(200);
    const report = await validateEInvoice(pulled.text, { syntax: 'ubl', profile: 'peppol' });
    expect(report.fatal).toEqual([]);
    expect(report.schema).toEqual([]);
  }, 120_000);

  it('leaves out the profiles whose data the invoice lacks', async () => {
    const { buyer_einvoice_address: _address, buyer_reference: _reference, ...bare } = POLISH_BUYER;
    const { id, formats } = await deliveredFor({ ...invoiceFields, ...bare, buyer_name: 'Jan Kowalski Usługi', buyer_tax_no: '7740001454' });
    expect(formats.map((format) => `${format.profile} ${format.syntax} ${format.media_type}`)).toEqual([
      'en16931 ubl application/xml',
      'en16931 cii application/xml',
      'en16931 cii application/pdf',
    ]);
    expect((await http.get(`/invoices/${id}/einvoice.json`)).status).toBe(404);
  }, 60_000);

  it('names EN 16931 alone for a proforma, and none for a document that has no e-invoice (an estimate)', async () => {
    const proforma = await deliveredFor({ ...invoiceFields, ...GERMAN_BUYER, kind: 'proforma' });
    expect(proforma.formats.map((format) => `${format.profile} ${format.syntax} ${format.media_type}`)).toEqual([
      'en16931 ubl application/xml',
      'en16931 cii application/xml',
      'en16931 cii application/pdf',
    ]);
    const { formats } = await deliveredFor({ ...invoiceFields, ...GERMAN_BUYER, kind: 'estimate' });
    expect(formats).toEqual([]);
  }, 60_000);
});
