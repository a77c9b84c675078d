import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issuePortalToken } from '../../src/bff/index.js';
import { GERMAN_BUYER, POLISH_BUYER, SELLER } from '../einvoice/cases.js';
import { readFacturX, validateEInvoice, type Profile, type Syntax } from '../helpers/einvoice/index.js';
import { api as serviceApi, type Api as ServiceApi } from '../helpers/http.js';
import { bearer, json, PORTAL_SECRET, startService, startTestBff, type Service, type TestBff } from './support.js';

/**
 * The portal's e-invoice beside the PDF, over HTTP against the real service: each list row links it
 * in the customer's format, and the download answers the service's document (valid by the official
 * rules) to the invoice's own customer only.
 */

let service: Service;
let http: ServiceApi;
let bff: TestBff;
/** The German customer's invoices: complete for every format, and one without the Leitweg-ID XRechnung needs. */
let complete: { id: number; number: string };
let noLeitwegId: { id: number; number: string };
let german: number;
let polishInvoice: number;
let token: string;

async function invoiceFor(buyer: Record<string, unknown>): Promise<{ id: number; number: string; client_id: number }> {
  const created = await http.post('/invoices.json', {
    invoice: { ...SELLER, ...buyer, issue_date: '2026-03-02', sell_date: '2026-03-02', payment_to: '2026-03-16', payment_type: 'transfer', positions: [{ name: 'Fenster', quantity: 2, tax: 23, price_net: '1250.50' }] },
  });
  expect(created.status, created.text).toBe(201);
  return created.body as { id: number; number: string; client_id: number };
}

async function setFormat(clientId: number, format: string | null): Promise<void> {
  const changed = await http.put(`/clients/${clientId}.json`, { client: { einvoice_format: format ?? '' } });
  expect(changed.status, changed.text).toBe(200);
}

const download = (id: number, headers: Record<string, string> = bearer(token)) => fetch(`${bff.base}/invoices/${id}/einvoice`, { headers });

beforeAll(async () => {
  ({ service } = await startService());
  http = serviceApi(service);
  const [department] = (await http.get('/departments.json')).body as { id: number }[];
  expect((await http.put(`/departments/${department!.id}.json`, { department: { einvoice_address: '9945:PL5252248481' } })).status).toBe(200);
  const first = await invoiceFor(GERMAN_BUYER);
  german = first.client_id;
  complete = first;
  const { buyer_reference: _none, ...withoutReference } = GERMAN_BUYER;
  const second = await invoiceFor({ ...withoutReference, client_id: german });
  expect(second.client_id).toBe(german);
  noLeitwegId = second;
  const polish = await invoiceFor(POLISH_BUYER);
  expect(polish.client_id).not.toBe(german);
  polishInvoice = polish.id;
  token = await issuePortalToken({ clientId: german, ttlSeconds: 600 }, PORTAL_SECRET);
  bff = await startTestBff(service, { rateLimit: false });
}, 60_000);
afterAll(async () => {
  await bff?.close();
  await service?.stop();
});

describe('the portal list', () => {
  it('links no e-invoice while the customer has no format', async () => {
    await setFormat(german, null);
    const page = await json(await fetch(`${bff.base}/invoices`, { headers: bearer(token) }));
    expect(page.data.map((row: { number: string; einvoice: unknown }) => [row.number, row.einvoice])).toEqual([
      [noLeitwegId.number, null],
      [complete.number, null],
    ]);
  });

  it('links each row’s e-invoice in the customer’s format, with its label', async () => {
    await setFormat(german, 'xrechnung');
    const page = await json(await fetch(`${bff.base}/invoices`, { headers: bearer(token) }));
    expect(page.data.map((row: { einvoice: unknown }) => row.einvoice)).toEqual([
      { format: 'xrechnung', label: 'XRechnung', url: expect.stringMatching(new RegExp(`^${bff.url}/bff/invoices/${noLeitwegId.id}/einvoice\\?link=[^&]+$`)) },
      { format: 'xrechnung', label: 'XRechnung', url: expect.stringMatching(new RegExp(`^${bff.url}/bff/invoices/${complete.id}/einvoice\\?link=[^&]+$`)) },
    ]);
    // Each link is signed for its own invoice: it opens without the token.
    const signed = await fetch(page.data[1].einvoice.url);
    expect(signed.status).toBe(200);
    expect(await signed.text()).toContain('<cbc:BuyerReference>04011000-12345-34</cbc:BuyerReference>');
  });
});

describe.skipIf(process.env.DATABASE_URL)('the portal list in the service\'s process', () => {
  it('holds the customer\'s format while nothing is written, and reads it again after a write', async () => {
    const calls: string[] = [];
    const embedded = await startTestBff(service, {
      rateLimit: false,
      serviceFetch: async (input, init) => {
        const request = new Request(input, init);
        calls.push(new URL(request.url).pathname);
        return service.fetch(request);
      },
      serviceWriteCount: service.writeCount!,
    });
    const formats = async () => {
      calls.length = 0;
      const page = await json(await fetch(`${embedded.base}/invoices`, { headers: bearer(token) }));
      return page.data.map((row: { einvoice: { format: string } | null }) => row.einvoice?.format ?? null);
    };
    try {
      await setFormat(german, 'cii');
      expect(await formats()).toEqual(['cii', 'cii']);
      expect(calls.filter((path) => path.startsWith('/clients/'))).toEqual([`/clients/${german}.json`]);
      expect(await formats()).toEqual(['cii', 'cii']);
      expect(calls).toEqual([]);
      await setFormat(german, 'ubl');
      expect(await formats()).toEqual(['ubl', 'ubl']);
    } finally {
      await embedded.close();
    }
  });
});

describe('the e-invoice download', () => {
  const xmlFormats: [format: string, syntax: Syntax, profile: Profile, root: string][] = [
    ['ubl', 'ubl', 'peppol', '<Invoice'],
    ['cii', 'cii', 'en16931', '<rsm:CrossIndustryInvoice'],
    ['xrechnung', 'ubl', 'xrechnung', '<Invoice'],
  ];
  for (const [format, syntax, profile, root] of xmlFormats) {
    it(`answers the ${format} document as an attachment, valid by the official rules`, async () => {
      await setFormat(german, format);
      const response = await download(complete.id);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('application/xml; charset=utf-8');
      expect(response.headers.get('content-disposition')).toBe(`attachment; filename="${complete.number.replace(/[^A-Za-z0-9._-]+/g, '-')}.xml"`);
      expect(response.headers.get('cache-control')).toBe('private, no-store');
      const xml = await response.text();
      expect(xml).toContain(root);
      expect(xml).toContain(complete.number);
      const report = await validateEInvoice(xml, { syntax, profile });
      expect(report.fatal).toEqual([]);
      expect(report.schema).toEqual([]);
    }, 120_000);
  }

  it('answers the Factur-X PDF, its embedded document valid by the official rules', async () => {
    await setFormat(german, 'facturx');
    const response = await download(complete.id);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/pdf');
    expect(response.headers.get('content-disposition')).toBe(`attachment; filename="${complete.number.replace(/[^A-Za-z0-9._-]+/g, '-')}.pdf"`);
    expect(response.headers.get('cache-control')).toBe('private, no-store');
    const reading = await readFacturX(new Uint8Array(await response.arrayBuffer()));
    expect(reading.attachments).toEqual(['factur-x.xml']);
    expect(reading.facturX.conformanceLevel).toBe('EN 16931');
    const report = await validateEInvoice(reading.xml ?? '', { syntax: 'cii', profile: 'en16931' });
    expect(report.fatal).toEqual([]);
    expect(report.schema).toEqual([]);
  }, 120_000);

  it('opens with the short-lived link pdf-link answers, which needs no token', async () => {
    await setFormat(german, 'cii');
    const link = await json(await fetch(`${bff.base}/invoices/${complete.id}/pdf-link`, { headers: bearer(token) }));
    const response = await fetch(link.url.replace('/pdf?', '/einvoice?'));
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('<rsm:CrossIndustryInvoice');
    // A link to one invoice opens no other.
    const other = await fetch(link.url.replace(`/${complete.id}/pdf?`, `/${noLeitwegId.id}/einvoice?`));
    expect(other.status).toBe(401);
    expect(await json(other)).toEqual({ error: { code: 'unauthorized', message: 'The link is not valid.' } });
  });

  it('answers 404 for another customer’s invoice, as for a missing one', async () => {
    await setFormat(german, 'cii');
    for (const id of [polishInvoice, 987654]) {
      const response = await download(id);
      expect(response.status).toBe(404);
      expect(await json(response)).toEqual({ error: { code: 'not_found', message: 'The invoice was not found.' } });
    }
  });

  it('answers 401 without the portal token', async () => {
    const response = await download(complete.id, {});
    expect(response.status).toBe(401);
    expect((await json(response)).error.code).toBe('unauthorized');
  });

  it('answers 404 to a customer without a format, saying so', async () => {
    await setFormat(german, null);
    const response = await download(complete.id);
    expect(response.status).toBe(404);
    expect(await json(response)).toEqual({ error: { code: 'not_found', message: 'No e-invoice format is set for you.' } });
  });

  it('answers 422 naming what the format needs and the invoice lacks', async () => {
    await setFormat(german, 'xrechnung');
    const response = await download(noLeitwegId.id);
    expect(response.status).toBe(422);
    expect(await json(response)).toEqual({
      error: { code: 'validation_failed', message: 'This invoice cannot be made as an e-invoice in XRechnung.', fields: { buyer_reference: ['is required for this e-invoice'] } },
    });
  });

  it('signs the e-invoice link of a list rendered on the server, so it opens without the token or a script', async () => {
    await setFormat(german, 'cii');
    const response = await fetch(`${bff.base}/render/invoice-list`, { method: 'POST', headers: { ...bearer(token), 'content-type': 'application/json' }, body: '{}' });
    expect(response.status).toBe(200);
    const html = await response.text();
    const links = [...html.matchAll(/part="action download-button"[^>]*href="([^"]+)"/g)].map((m) => m[1]!.replace(/&amp;/g, '&'));
    expect(links).toHaveLength(4);
    expect(links[3]).toMatch(new RegExp(`^/bff/invoices/${complete.id}/einvoice\\?link=[^&]+$`));
    expect(html.replace(/<!--[^>]*-->/g, '')).toContain('E-invoice (CII)');
    const document = await fetch(`${bff.url}${links[3]}`);
    expect(document.status).toBe(200);
    expect(document.headers.get('content-type')).toBe('application/xml; charset=utf-8');
    expect(await document.text()).toContain(`<ram:ID>${complete.number}</ram:ID>`);
  });
});
