import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createInvoicingClient, ValidationError } from '../../src/api/index.js';
import { validateEInvoice } from '../helpers/einvoice/index.js';
import { api, type Api } from '../helpers/http.js';
import { startTestService, type TestService } from '../helpers/service.js';
import { GERMAN_BUYER, POLISH_BUYER, SELLER, STANDALONE } from './cases.js';

/**
 * `GET /invoices/<id>/einvoice.xml` over HTTP: every kind of invoice the service issues, in both
 * syntaxes and every profile, validated by CEN's EN 16931 rules, Peppol's or XRechnung's, and the
 * UBL 2.1 or CII D16B schema with zero fatal failures; a profile's missing data answers 422
 * naming each field.
 */

let service: TestService;
let http: Api;
const documents = new Map<string, number>();

async function create(invoice: Record<string, unknown>): Promise<Record<string, unknown>> {
  const reply = await http.post('/invoices.json', { invoice });
  expect(reply.status, reply.text).toBe(201);
  return reply.body as Record<string, unknown>;
}

async function setClient(id: unknown, client: Record<string, unknown>) {
  const reply = await http.put(`/clients/${String(id)}.json`, { client });
  expect(reply.status, reply.text).toBe(200);
  expect(reply.body).toMatchObject(client);
}

async function einvoice(id: unknown, syntax: string, profile: string) {
  return http.raw('GET', `/invoices/${String(id)}/einvoice.xml?syntax=${syntax}&profile=${profile}&api_token=${service.apiToken}`);
}

beforeAll(async () => {
  service = await startTestService();
  http = api(service);
  const [department] = (await http.get('/departments.json')).body as { id: number }[];
  const updated = await http.put(`/departments/${department!.id}.json`, { department: { einvoice_address: '9945:PL5252248481' } });
  expect(updated.status, updated.text).toBe(200);
  for (const [name, invoice] of Object.entries(STANDALONE)) documents.set(name, (await create(invoice)).id as number);

  const order = await create({ ...SELLER, ...POLISH_BUYER, kind: 'estimate', issue_date: '2026-03-02', positions: [{ name: 'Okna do domu', tax: 23, price_net: '5000', quantity: 1 }, { name: 'Montaż', tax: 8, price_net: '1000', quantity: 1 }] });
  // The copies carry no e-invoice fields of their own: their client's are used.
  await setClient(order.client_id, { einvoice_address: '9945:PL6272616681', buyer_reference: 'ZAM-2026-17' });
  const advance = await create({ copy_invoice_from: order.id, kind: 'advance', advance_creation_mode: 'amount', advance_value: '2000', issue_date: '2026-03-03', payment_to: '2026-03-10', position_name: 'Zaliczka' });
  documents.set('advance invoice', advance.id as number);
  const final = await create({ copy_invoice_from: order.id, kind: 'final', invoice_ids: [advance.id], issue_date: '2026-03-20', payment_to: '2026-04-03' });
  documents.set('final invoice', final.id as number);

  const corrected = await create({ ...SELLER, ...GERMAN_BUYER, issue_date: '2026-03-02', sell_date: '2026-03-02', reverse_charge: true, np_tax_kind: 'export_service_eu', positions: [{ name: 'Projekt', tax: 'np', price_net: '2000', quantity: 2 }] });
  await setClient(corrected.client_id, { einvoice_address: '9930:DE123456789', buyer_reference: '04011000-12345-34' });
  const credit = await create({
    kind: 'correction', from_invoice_id: corrected.id, invoice_id: corrected.id, correction_reason: 'Zła ilość', issue_date: '2026-03-09', payment_to: '2026-03-09',
    positions: [{
      name: 'Projekt', quantity: -1, tax: 'np', kind: 'correction',
      correction_before_attributes: { name: 'Projekt', quantity: '2', price_net: '2000', tax: 'np', kind: 'correction_before' },
      correction_after_attributes: { name: 'Projekt', quantity: '1', price_net: '2000', tax: 'np', kind: 'correction_after' },
    }],
  });
  documents.set('correction that credits', credit.id as number);
  const more = await create({
    kind: 'correction', from_invoice_id: corrected.id, invoice_id: corrected.id, correction_reason: 'Dodatkowa godzina', issue_date: '2026-03-10', payment_to: '2026-03-24',
    positions: [{
      name: 'Projekt', quantity: 1, tax: 'np', kind: 'correction',
      correction_before_attributes: { name: 'Projekt', quantity: '2', price_net: '2000', tax: 'np', kind: 'correction_before' },
      correction_after_attributes: { name: 'Projekt', quantity: '3', price_net: '2000', tax: 'np', kind: 'correction_after' },
    }],
  });
  documents.set('correction that charges more', more.id as number);
}, 60_000);
afterAll(() => service?.stop());

const CASES = () => [...documents.keys()];
const SYNTAXES = ['ubl', 'cii'] as const;
const PROFILES = ['en16931', 'peppol', 'xrechnung'] as const;

describe('every invoice in every syntax and profile', () => {
  it('answers each document as XML with no fatal rule failure and no schema error', async () => {
    const failures: Record<string, string[]> = {};
    for (const name of CASES()) {
      for (const syntax of SYNTAXES) {
        for (const profile of PROFILES) {
          const reply = await einvoice(documents.get(name), syntax, profile);
          const key = `${name} ${syntax} ${profile}`;
          if (reply.status !== 200) {
            failures[key] = [`${reply.status} ${reply.text}`];
            continue;
          }
          expect(reply.headers.get('content-type')).toBe('application/xml; charset=utf-8');
          const report = await validateEInvoice(reply.text, { syntax, profile });
          const errors = [...report.fatal.map((rule) => `${rule.id} ${rule.location}: ${rule.text}`), ...report.schema];
          if (errors.length > 0) failures[key] = errors;
        }
      }
    }
    expect(failures).toEqual({});
    expect(documents.size).toBe(14);
  }, 600_000);
});

describe('a document read for its values', () => {
  it('writes the rates, the discount and the totals of the invoice exactly', async () => {
    const reply = await einvoice(documents.get('every Polish rate with a discount'), 'ubl', 'peppol');
    expect(reply.status).toBe(200);
    expect(reply.headers.get('content-disposition')).toMatch(/^inline; filename="1-03-2026-peppol-ubl\.xml"$/);
    const xml = reply.text;
    const all = (pattern: RegExp) => [...xml.matchAll(pattern)].map((match) => match[1]);
    expect(all(/<cbc:CustomizationID>([^<]+)</g)).toEqual(['urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0']);
    expect(all(/<cbc:EndpointID schemeID="([^"]+)"/g)).toEqual(['9945', '9945']);
    expect(all(/<cbc:CompanyID>([^<]+)</g)).toEqual(['PL5252248481', 'PL6272616681']);
    expect(all(/<cbc:TaxableAmount currencyID="PLN">([^<]+)</g)).toEqual(['3375.00', '573.00', '40.00', '30.00']);
    expect(all(/<cbc:Percent>([^<]+)</g)).toEqual(['23', '8', '5', '0', '23', '8', '5', '0']);
    expect(all(/<cbc:TaxInclusiveAmount currencyID="PLN">([^<]+)</g)).toEqual(['4842.09']);
    expect(all(/<cbc:MultiplierFactorNumeric>([^<]+)</g)).toEqual(['10']);
    expect(all(/<cbc:Amount currencyID="PLN">([^<]+)</g)).toEqual(['375.00']);
    expect(all(/<cac:PayeeFinancialAccount>\s*<cbc:ID>([^<]+)</g)).toEqual(['PL61109010140000071219812874']);
  });

  it('writes a discount given as an amount without base or percentage, and cash as payment means 10', async () => {
    const xml = (await einvoice(documents.get('a discount as an amount, paid in cash'), 'ubl', 'xrechnung')).text;
    expect(xml).toMatch(/<cbc:AllowanceChargeReason>Discount<\/cbc:AllowanceChargeReason>\s*<cbc:Amount currencyID="PLN">25.50<\/cbc:Amount>\s*<\/cac:AllowanceCharge>/);
    expect(xml).toContain('<cbc:LineExtensionAmount currencyID="PLN">294.50</cbc:LineExtensionAmount>');
    expect(xml).toContain('<cbc:PaymentMeansCode>10</cbc:PaymentMeansCode>');
    expect(xml).not.toContain('PayeeFinancialAccount');
  });

  it('states the VAT of a euro invoice in złoty too', async () => {
    const xml = (await einvoice(documents.get('foreign currency with VAT in złoty'), 'cii', 'en16931')).text;
    expect(xml).toContain('<ram:TaxCurrencyCode>PLN</ram:TaxCurrencyCode>');
    expect(xml).toContain('<ram:TaxTotalAmount currencyID="EUR">142.60</ram:TaxTotalAmount>');
    // 142.60 EUR × 4.2718 = 609.15868
    expect(xml).toContain('<ram:TaxTotalAmount currencyID="PLN">609.16</ram:TaxTotalAmount>');
  });

  it('writes a crediting correction as a CreditNote naming the corrected invoice', async () => {
    const xml = (await einvoice(documents.get('correction that credits'), 'ubl', 'peppol')).text;
    expect(xml).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<CreditNote xmlns="urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2"/);
    expect(xml).toContain('<cbc:CreditNoteTypeCode>381</cbc:CreditNoteTypeCode>');
    expect(xml).toMatch(/<cac:BillingReference>\s*<cac:InvoiceDocumentReference>\s*<cbc:ID>[^<]+<\/cbc:ID>\s*<cbc:IssueDate>2026-03-02<\/cbc:IssueDate>/);
    expect(xml).toContain('<cbc:PayableAmount currencyID="PLN">2000.00</cbc:PayableAmount>');
    // The correction keeps the corrected invoice's tax decision: reverse charge.
    expect(xml).toContain('<cbc:TaxExemptionReasonCode>VATEX-EU-AE</cbc:TaxExemptionReasonCode>');
  });

  it('names each category of the tax decisions', async () => {
    const categories: Record<string, string[]> = {};
    for (const name of ['exempt with its reason', 'EU reverse charge for a service', 'intra-community supply', 'export of goods', 'a service not subject to VAT here', 'OSS sale to a consumer in another member state']) {
      const xml = (await einvoice(documents.get(name), 'cii', 'en16931')).text;
      categories[name] = [...xml.matchAll(/<ram:(?:CategoryCode|RateApplicablePercent)>([^<]+)</g)].map((match) => match[1]!);
    }
    expect(categories).toEqual({
      'OSS sale to a consumer in another member state': ['S', '19', 'S', '19'],
      'exempt with its reason': ['E', '0', 'E', '0'],
      'EU reverse charge for a service': ['AE', '0', 'AE', '0'],
      'intra-community supply': ['K', '0', 'K', '0'],
      'export of goods': ['G', '0', 'G', '0'],
      'a service not subject to VAT here': ['O', 'O'],
    });
  });
});

describe('what a profile needs and the invoice lacks', () => {
  /** The field map of an XML error answer, as `field: message` lines. */
  const fieldsOf = (xml: string) => [...xml.matchAll(/<(\w+)>([^<]+)<\/\1>/g)].filter((match) => match[1] !== 'code').map((match) => `${match[1]}: ${match[2]}`);

  it('answers 422 naming each missing field for Peppol and XRechnung, and the document for EN 16931', async () => {
    const bare = await create({ issue_date: '2026-03-02', buyer_name: 'Anna Nowak', seller_name: 'Mała Firma', seller_tax_no: '5252248481', positions: [{ name: 'Usługa', quantity: 1, tax: 23, price_net: '100' }] });
    const peppol = await einvoice(bare.id, 'ubl', 'peppol');
    expect(peppol.status).toBe(422);
    expect(fieldsOf(peppol.text)).toEqual([
      'buyer_einvoice_address: is required for Peppol',
      'buyer_reference: is required for Peppol when the invoice has no order number (oid)',
    ]);
    const xrechnung = await einvoice(bare.id, 'cii', 'xrechnung');
    expect(xrechnung.status).toBe(422);
    expect(fieldsOf(xrechnung.text)).toEqual([
      'buyer_einvoice_address: is required for XRechnung',
      'buyer_reference: is required for XRechnung: the buyer&apos;s Leitweg-ID',
      'buyer_city: is required for XRechnung',
      'buyer_post_code: is required for XRechnung',
    ]);
    expect((await einvoice(bare.id, 'cii', 'en16931')).status).toBe(200);
    expect((await http.get(`/invoices/${String(bare.id)}/einvoice.json`, { profile: 'peppol' })).status).toBe(404);
  });

  it('asks for the exemption basis of an exempt position and the buyer\'s VAT number for reverse charge', async () => {
    const exempt = await create({ ...SELLER, ...POLISH_BUYER, issue_date: '2026-03-02', positions: [{ name: 'Kurs', quantity: 1, tax: 'zw', price_net: '100' }] });
    const reply = await einvoice(exempt.id, 'ubl', 'en16931');
    expect(reply.status).toBe(422);
    expect(fieldsOf(reply.text)).toEqual(['exempt_tax_kind: is required for an exempt position (BR-E-10)']);
    const reverse = await create({ ...SELLER, ...GERMAN_BUYER, buyer_tax_no: null, buyer_company: true, reverse_charge: true, np_tax_kind: 'export_service_eu', issue_date: '2026-03-02', positions: [{ name: 'Projekt', quantity: 1, tax: 'np', price_net: '100' }] });
    expect(fieldsOf((await einvoice(reverse.id, 'cii', 'peppol')).text)).toEqual(['buyer_tax_no: is required for reverse charge']);
  });

  it('writes a proforma as document type 325 under EN 16931, and refuses it under Peppol and XRechnung naming kind', async () => {
    const proforma = await create({ ...STANDALONE['every Polish rate with a discount'], kind: 'proforma' });
    for (const syntax of ['ubl', 'cii'] as const) {
      const reply = await einvoice(proforma.id, syntax, 'en16931');
      expect(reply.status, reply.text).toBe(200);
      expect(reply.text).toContain(syntax === 'ubl' ? '<cbc:InvoiceTypeCode>325</cbc:InvoiceTypeCode>' : '<ram:TypeCode>325</ram:TypeCode>');
      const report = await validateEInvoice(reply.text, { syntax, profile: 'en16931' });
      expect([...report.fatal.map((rule) => `${rule.id} ${rule.location}: ${rule.text}`), ...report.schema]).toEqual([]);
    }
    for (const [syntax, profile, name] of [['ubl', 'peppol', 'Peppol'], ['cii', 'xrechnung', 'XRechnung']] as const) {
      const refused = await einvoice(proforma.id, syntax, profile);
      expect(refused.status).toBe(422);
      expect(fieldsOf(refused.text)).toContain(`kind: is proforma: ${name} carries invoices only; a proforma has an EN 16931 document (profile en16931, type 325)`);
    }
    const estimate = await create({ ...STANDALONE['gross prices that round'], kind: 'estimate' });
    const none = await einvoice(estimate.id, 'ubl', 'en16931');
    expect(none.status).toBe(422);
    expect(fieldsOf(none.text)).toEqual(['kind: has no e-invoice: only vat, advance, final, correction, wdt, export_products, vat_mp, bill, invoice_other invoices (and proformas, under en16931) have one']);
  }, 60_000);

  it('refuses an unknown syntax or profile, and answers 404 for an invoice of no one', async () => {
    const id = documents.get('gross prices that round');
    const bad = await http.raw('GET', `/invoices/${String(id)}/einvoice.xml?syntax=pdf&profile=zugferd&api_token=${service.apiToken}`);
    expect(bad.status).toBe(422);
    expect(bad.text).toContain('<syntax>must be one of ubl, cii</syntax>');
    expect(bad.text).toContain('<profile>must be one of en16931, peppol, xrechnung</profile>');
    expect((await einvoice(999_999, 'ubl', 'en16931')).status).toBe(404);
  });
});

describe('the fields e-invoices need, through the API', () => {
  it('keeps the electronic addresses and the buyer reference on departments, clients and invoices, and refuses a malformed address', async () => {
    const [department] = (await http.get('/departments.json')).body as { id: number; einvoice_address: string }[];
    expect(department!.einvoice_address).toBe('9945:PL5252248481');
    const client = await http.post('/clients.json', { client: { name: 'Kunde AG', einvoice_address: 'EM:rechnung@kunde.example', buyer_reference: '991-01234-56' } });
    expect(client.status, client.text).toBe(201);
    expect(client.body).toMatchObject({ einvoice_address: 'EM:rechnung@kunde.example', buyer_reference: '991-01234-56' });
    const invoice = (await http.get(`/invoices/${String(documents.get('intra-community supply'))}.json`)).body as Record<string, unknown>;
    expect(invoice).toMatchObject({ buyer_einvoice_address: '9930:DE123456789', buyer_reference: '04011000-12345-34' });
    const bad = await http.post('/clients.json', { client: { name: 'Zły Adres', einvoice_address: 'peppol please' } });
    expect(bad.status).toBe(422);
    expect(bad.body).toEqual({ code: 'error', message: { einvoice_address: ['must be a scheme and an identifier, such as 0208:0123456789 or EM:invoices@example.com'] } });
  });
});

describe('the typed client and the OpenAPI description', () => {
  it('reads the document, and the missing fields as a ValidationError', async () => {
    const client = createInvoicingClient({ baseUrl: service.url, apiToken: service.apiToken, retry: 0 });
    const xml = await client.invoices.einvoice(documents.get('intra-community supply')!, { syntax: 'cii', profile: 'xrechnung' });
    expect(xml).toContain('<ram:ID>urn:cen.eu:en16931:2017#compliant#urn:xeinkauf.de:kosit:xrechnung_3.0</ram:ID>');
    expect(xml).toContain('<ram:BuyerReference>04011000-12345-34</ram:BuyerReference>');
    const bare = await create({ issue_date: '2026-03-02', buyer_name: 'Jan Kowalski', positions: [{ name: 'Usługa', quantity: 1, tax: 23, price_net: '10' }] });
    const error = await client.invoices.einvoice(bare.id as number, { profile: 'peppol' }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).fields).toEqual({
      buyer_einvoice_address: ['is required for Peppol'],
      buyer_reference: ['is required for Peppol when the invoice has no order number (oid)'],
    });
  });

  it('describes the route and the new fields', async () => {
    const document = (await http.get('/openapi')).body as { paths: Record<string, Record<string, { operationId: string }>>; components: { schemas: Record<string, { properties: Record<string, unknown> }> } };
    expect(document.paths['/invoices/{id}/einvoice.xml']!['get']!.operationId).toBe('getInvoiceEinvoiceXml');
    expect(Object.keys(document.components.schemas['Invoice']!.properties)).toEqual(expect.arrayContaining(['buyer_einvoice_address', 'buyer_reference']));
  });
});
