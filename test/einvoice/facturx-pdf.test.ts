import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { XMLValidator } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createInvoicingClient, ValidationError } from '../../src/api/index.js';
import { readFacturX, validateEInvoice } from '../helpers/einvoice/index.js';
import { api, type Api } from '../helpers/http.js';
import { startTestService, type TestService } from '../helpers/service.js';
import { GERMAN_BUYER, SELLER } from './cases.js';

/**
 * `GET /invoices/<id>.pdf?format=facturx`: a Factur-X PDF/A-3b carrying the invoice's CII
 * document as `factur-x.xml`, read with poppler's tools and validated by CEN's EN 16931 rules and
 * the CII schema.
 */

const run = promisify(execFile);
let service: TestService;
let http: Api;

async function pdfOf(id: unknown, query: string) {
  const reply = await fetch(new URL(`/invoices/${String(id)}.pdf?${query}&api_token=${service.apiToken}`, service.url));
  return { status: reply.status, type: reply.headers.get('content-type'), bytes: new Uint8Array(await reply.arrayBuffer()) };
}

async function textOf(pdf: Uint8Array): Promise<string> {
  const folder = await mkdtemp(join(tmpdir(), 'facturx-text-'));
  try {
    await writeFile(join(folder, 'invoice.pdf'), pdf);
    return (await run('pdftotext', ['-layout', join(folder, 'invoice.pdf'), '-'])).stdout;
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

beforeAll(async () => {
  service = await startTestService();
  http = api(service);
}, 60_000);
afterAll(() => service?.stop());

describe('a Factur-X PDF', () => {
  it('carries factur-x.xml, valid under EN 16931, declared as PDF/A-3b and Factur-X EN 16931', async () => {
    const created = await http.post('/invoices.json', {
      invoice: { ...SELLER, ...GERMAN_BUYER, issue_date: '2026-03-02', sell_date: '2026-03-02', payment_to: '2026-03-16', payment_type: 'transfer', positions: [{ name: 'Fenster', quantity: 2, tax: 23, price_net: '1250.50' }] },
    });
    expect(created.status, created.text).toBe(201);
    const id = (created.body as { id: number }).id;

    const pdf = await pdfOf(id, 'format=facturx');
    expect(pdf.status).toBe(200);
    expect(pdf.type).toBe('application/pdf');
    expect(Buffer.from(pdf.bytes.subarray(0, 8)).toString('latin1')).toBe('%PDF-1.7');
    const reading = await readFacturX(pdf.bytes);
    expect(reading.attachments).toEqual(['factur-x.xml']);
    expect(reading.afRelationship).toBe('Data');
    expect(reading.pdfa).toEqual({ part: '3', conformance: 'B' });
    expect(reading.facturX).toEqual({ documentType: 'INVOICE', documentFileName: 'factur-x.xml', version: '1.0', conformanceLevel: 'EN 16931' });
    expect(reading.metadata).toContain('<pdfaSchema:namespaceURI>urn:factur-x:pdfa:CrossIndustryDocument:invoice:1p0#</pdfaSchema:namespaceURI>');
    expect(reading.metadata).toContain('<pdfaSchema:prefix>fx</pdfaSchema:prefix>');
    expect(Buffer.from(pdf.bytes).toString('latin1')).toContain('/Subtype /text#2Fxml');

    const xml = reading.xml ?? '';
    const route = await http.raw('GET', `/invoices/${String(id)}/einvoice.xml?syntax=cii&profile=en16931&api_token=${service.apiToken}`);
    expect(xml).toBe(route.text);
    expect(xml).toContain('<ram:ID>urn:cen.eu:en16931:2017</ram:ID>');
    expect(xml).toContain('<ram:GrandTotalAmount>3076.23</ram:GrandTotalAmount>');
    const report = await validateEInvoice(xml, { syntax: 'cii', profile: 'en16931' });
    expect(report.fatal).toEqual([]);
    expect(report.schema).toEqual([]);

    const text = await textOf(pdf.bytes);
    expect(text).toContain('Fensterbau Müller GmbH');
    expect(text).toMatch(/Do zapłaty\s+3076,23 zł/);
  }, 120_000);

  it('carries a proforma as document type 325, valid under EN 16931', async () => {
    const created = await http.post('/invoices.json', {
      invoice: { ...SELLER, ...GERMAN_BUYER, kind: 'proforma', issue_date: '2026-03-02', payment_to: '2026-03-16', payment_type: 'transfer', positions: [{ name: 'Fenster', quantity: 1, tax: 23, price_net: '999.99' }] },
    });
    expect(created.status, created.text).toBe(201);
    const reading = await readFacturX((await pdfOf((created.body as { id: number }).id, 'format=facturx')).bytes);
    expect(reading.attachments).toEqual(['factur-x.xml']);
    expect(reading.pdfa).toEqual({ part: '3', conformance: 'B' });
    expect(reading.xml).toContain('<ram:TypeCode>325</ram:TypeCode>');
    expect(reading.xml).toContain('<ram:GrandTotalAmount>1229.99</ram:GrandTotalAmount>');
    const report = await validateEInvoice(reading.xml ?? '', { syntax: 'cii', profile: 'en16931' });
    expect([...report.fatal.map((rule) => rule.id), ...report.schema]).toEqual([]);
  }, 120_000);

  it('leaves the plain PDF as it was: no attachment and no PDF/A claim', async () => {
    const created = await http.post('/invoices.json', { invoice: { ...SELLER, ...GERMAN_BUYER, issue_date: '2026-03-02', positions: [{ name: 'Fenster', quantity: 1, tax: 23, price_net: '100' }] } });
    const pdf = await pdfOf((created.body as { id: number }).id, 'print_option=original');
    expect(pdf.status).toBe(200);
    const reading = await readFacturX(pdf.bytes);
    expect(reading.attachments).toEqual([]);
    expect(reading.pdfa).toEqual({ part: undefined, conformance: undefined });
    expect(Buffer.from(pdf.bytes.subarray(0, 8)).toString('latin1')).toBe('%PDF-1.3');
  }, 60_000);

  it('answers the XML route\'s 422 when the document lacks data, and a 422 for an unknown format', async () => {
    const created = await http.post('/invoices.json', {
      invoice: { ...SELLER, ...GERMAN_BUYER, issue_date: '2026-03-02', positions: [{ name: 'Kurs', quantity: 1, tax: 'zw', price_net: '100' }] },
    });
    const id = (created.body as { id: number }).id;
    const missing = await http.get(`/invoices/${String(id)}.pdf`, { format: 'facturx' });
    expect(missing.status).toBe(422);
    expect(missing.body).toEqual({ code: 'error', message: { exempt_tax_kind: ['is required for an exempt position (BR-E-10)'] } });
    const unknown = await http.get(`/invoices/${String(id)}.pdf`, { format: 'zugferd' });
    expect(unknown.status).toBe(422);
    expect(unknown.body).toEqual({ code: 'error', message: { format: ['must be facturx, or left out for the plain PDF'] } });
  }, 60_000);

  it('is read by the typed client, whose missing fields arrive as a ValidationError', async () => {
    const client = createInvoicingClient({ baseUrl: service.url, apiToken: service.apiToken });
    const complete = await http.post('/invoices.json', { invoice: { ...SELLER, ...GERMAN_BUYER, issue_date: '2026-03-02', positions: [{ name: 'Fenster', quantity: 1, tax: 23, price_net: '100' }] } });
    const pdf = await client.invoices.pdf((complete.body as { id: number }).id, { format: 'facturx' });
    expect((await readFacturX(pdf)).attachments).toEqual(['factur-x.xml']);
    const exempt = await http.post('/invoices.json', { invoice: { ...SELLER, ...GERMAN_BUYER, issue_date: '2026-03-02', positions: [{ name: 'Kurs', quantity: 1, tax: 'zw', price_net: '100' }] } });
    const error = await client.invoices.pdf((exempt.body as { id: number }).id, { format: 'facturx' }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).fields).toEqual({ exempt_tax_kind: ['is required for an exempt position (BR-E-10)'] });
  }, 60_000);

  it('writes well-formed metadata for a seller whose name holds XML\'s own characters', async () => {
    const created = await http.post('/invoices.json', {
      invoice: { ...SELLER, seller_name: 'Okna & Drzwi <Kowalski>', ...GERMAN_BUYER, issue_date: '2026-03-02', positions: [{ name: 'Fenster', quantity: 1, tax: 23, price_net: '100' }] },
    });
    const pdf = await pdfOf((created.body as { id: number }).id, 'format=facturx');
    expect(pdf.status).toBe(200);
    const reading = await readFacturX(pdf.bytes);
    expect(XMLValidator.validate(reading.metadata.trim())).toBe(true);
    expect(reading.metadata).toContain('<rdf:li>Okna &amp; Drzwi &lt;Kowalski&gt;</rdf:li>');
    expect(reading.facturX.conformanceLevel).toBe('EN 16931');
    // The information dictionary keeps the name as it is.
    const folder = await mkdtemp(join(tmpdir(), 'facturx-info-'));
    try {
      await writeFile(join(folder, 'invoice.pdf'), pdf.bytes);
      expect((await run('pdfinfo', [join(folder, 'invoice.pdf')])).stdout).toMatch(/^Author:\s+Okna & Drzwi <Kowalski>$/m);
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  }, 60_000);
});
