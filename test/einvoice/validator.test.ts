import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { validateEInvoice, type EInvoiceReport } from '../helpers/einvoice/index.js';

/**
 * The e-invoice validator checked against the official examples that come with the rules: the
 * known-good ones pass with no fatal rule and no schema error, and documents broken on purpose fail
 * with the rule that names what is broken. Only then is it trusted with the service's own output.
 */
const FIXTURES = fileURLToPath(new URL('../fixtures/einvoice/', import.meta.url));
const examples = (folder: string): string[] => readdirSync(FIXTURES + folder).filter((name) => /\.xml$/i.test(name)).sort();
const read = (path: string): string => readFileSync(FIXTURES + path, 'utf8');
const ids = (report: EInvoiceReport): string[] => [...new Set(report.fatal.map((failure) => failure.id))].sort();

// The first run of a test process compiles CEN's stylesheets (about 15 CPU-s each on a free core).
const COMPILE = 240_000;

describe('EN 16931, UBL: CEN’s examples', () => {
  it.each(examples('cen/ubl/examples'))('%s has no fatal rule failure and is schema-valid', { timeout: COMPILE }, async (name) => {
    const report = await validateEInvoice(read(`cen/ubl/examples/${name}`), { syntax: 'ubl', profile: 'en16931' });
    expect(report.fatal).toEqual([]);
    expect(report.schema).toEqual([]);
  });
});

describe('EN 16931, CII: CEN’s examples', () => {
  it.each(examples('cen/cii/examples'))('%s has no fatal rule failure and is schema-valid', { timeout: COMPILE }, async (name) => {
    const report = await validateEInvoice(read(`cen/cii/examples/${name}`), { syntax: 'cii', profile: 'en16931' });
    expect(report.fatal).toEqual([]);
    expect(report.schema).toEqual([]);
  });
});

describe('EN 16931: broken documents fail with the rule that names the fault', () => {
  const ubl = read('cen/ubl/examples/ubl-tc434-example1.xml');
  const cii = read('cen/cii/examples/CII_example1.xml');

  it('a UBL invoice without its issue date (BT-2) breaks BR-03 and the schema', { timeout: COMPILE }, async () => {
    const broken = ubl.replace(/<cbc:IssueDate>[^<]*<\/cbc:IssueDate>/, '');
    expect(broken).not.toBe(ubl);
    const report = await validateEInvoice(broken, { syntax: 'ubl', profile: 'en16931' });
    expect(ids(report)).toEqual(['BR-03']);
    expect(report.fatal[0]?.location).toBe('/*:Invoice[namespace-uri()=\'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2\'][1]');
    expect(report.schema.length).toBeGreaterThan(0);
    expect(report.schema.join('\n')).toContain('IssueDate');
  });

  it('a UBL invoice whose payable amount disagrees with its totals breaks BR-CO-16', { timeout: COMPILE }, async () => {
    const broken = ubl.replace(/(<cbc:PayableAmount currencyID="EUR">)[^<]*/, '$11.00');
    expect(broken).not.toBe(ubl);
    const report = await validateEInvoice(broken, { syntax: 'ubl', profile: 'en16931' });
    expect(ids(report)).toEqual(['BR-CO-16']);
    expect(report.schema).toEqual([]);
  });

  it('a CII invoice without its seller name (BT-27) breaks BR-06', { timeout: COMPILE }, async () => {
    const seller = /(<ram:SellerTradeParty>[\s\S]*?)<ram:Name>[^<]*<\/ram:Name>/;
    const broken = cii.replace(seller, '$1');
    expect(broken).not.toBe(cii);
    const report = await validateEInvoice(broken, { syntax: 'cii', profile: 'en16931' });
    expect(ids(report)).toEqual(['BR-06']);
  });

  it('a document of the other syntax is a schema error, not a pass', { timeout: COMPILE }, async () => {
    const report = await validateEInvoice(ubl, { syntax: 'cii', profile: 'en16931' });
    expect(report.schema).toEqual(['the root element Invoice is not of the cii syntax']);
  });
});

describe('Peppol BIS Billing 3.0', () => {
  it.each(examples('peppol/examples'))('Peppol’s example %s passes the CEN and Peppol rules and the schema', { timeout: COMPILE }, async (name) => {
    const report = await validateEInvoice(read(`peppol/examples/${name}`), { syntax: 'ubl', profile: 'peppol' });
    expect(report.fatal).toEqual([]);
    expect(report.schema).toEqual([]);
  });

  // "negativ" is Danish for negative: an invoice whose amounts are all below zero, which EN 16931
  // and Peppol allow (Peppol's own base-negative-inv-correction.xml is one). It is a good example.
  it.each(['BIS3_Invoice_positive.XML', 'BIS3_Invoice_negativ.XML'])('CEN’s Peppol example %s passes the Peppol rules', { timeout: COMPILE }, async (name) => {
    const report = await validateEInvoice(read(`cen/ubl/examples/${name}`), { syntax: 'ubl', profile: 'peppol' });
    expect(report.fatal).toEqual([]);
    expect(report.schema).toEqual([]);
  });

  it('a plain EN 16931 invoice is not a Peppol one: no business process, no profile, no electronic addresses', { timeout: COMPILE }, async () => {
    const report = await validateEInvoice(read('cen/ubl/examples/ubl-tc434-example1.xml'), { syntax: 'ubl', profile: 'peppol' });
    expect(ids(report)).toEqual([
      'NL-R-003',
      'PEPPOL-EN16931-R001',
      'PEPPOL-EN16931-R003',
      'PEPPOL-EN16931-R004',
      'PEPPOL-EN16931-R007',
      'PEPPOL-EN16931-R010',
      'PEPPOL-EN16931-R020',
      'PEPPOL-EN16931-R120',
    ]);
    expect(report.fatal.find((failure) => failure.id === 'PEPPOL-EN16931-R010')?.text).toBe('Buyer electronic address MUST be provided');
    expect(report.schema).toEqual([]);
  });

  it('a Peppol invoice without the buyer’s electronic address (BT-49) breaks PEPPOL-EN16931-R010', { timeout: COMPILE }, async () => {
    const good = read('peppol/examples/base-example.xml');
    const broken = good.replace('<cbc:EndpointID schemeID="0002">FR23342</cbc:EndpointID>', '');
    expect(broken).not.toBe(good);
    const report = await validateEInvoice(broken, { syntax: 'ubl', profile: 'peppol' });
    expect(ids(report)).toEqual(['PEPPOL-EN16931-R010']);
    expect(report.fatal[0]?.location).toBe(
      "/*:Invoice[namespace-uri()='urn:oasis:names:specification:ubl:schema:xsd:Invoice-2'][1]/*:AccountingCustomerParty[namespace-uri()='urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2'][1]/*:Party[namespace-uri()='urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2'][1]",
    );
  });
});

const XRECHNUNG_3 = 'urn:cen.eu:en16931:2017#compliant#urn:xeinkauf.de:kosit:xrechnung_3.0';

describe('XRechnung 3.0', () => {
  // Peppol's base example made an XRechnung: its CustomizationID, and the seller contact (BG-6) it asks for.
  const ubl = read('peppol/examples/base-example.xml')
    .replace(/<cbc:CustomizationID>[^<]*</, `<cbc:CustomizationID>${XRECHNUNG_3}<`)
    .replace(
      '</cac:PartyLegalEntity>\n        </cac:Party>\n    </cac:AccountingSupplierParty>',
      '</cac:PartyLegalEntity><cac:Contact><cbc:Name>Jane Doe</cbc:Name><cbc:Telephone>+44 20 7946 0000</cbc:Telephone><cbc:ElectronicMail>jane@example.com</cbc:ElectronicMail></cac:Contact>\n        </cac:Party>\n    </cac:AccountingSupplierParty>',
    );
  // CEN's XRechnung example, moved from XRechnung 2.0 to 3.0, with a seller telephone and e-mail address.
  const cii = read('cen/cii/examples/XRechnung-O.xml')
    .replace('<ram:ID>urn:cen.eu:en16931:2017</ram:ID>', `<ram:ID>${XRECHNUNG_3}</ram:ID>`)
    .replace('<ram:CompleteNumber>XX</ram:CompleteNumber>', '<ram:CompleteNumber>+49 711 123456</ram:CompleteNumber>')
    .replace('<ram:URIID>XX</ram:URIID>', '<ram:URIID>seller@example.de</ram:URIID>');

  it('a UBL XRechnung passes the CEN and XRechnung rules and the schema', { timeout: COMPILE }, async () => {
    expect(ubl).toContain('<cac:Contact>');
    const report = await validateEInvoice(ubl, { syntax: 'ubl', profile: 'xrechnung' });
    expect(report.fatal).toEqual([]);
    expect(report.warnings).toEqual([]);
    expect(report.schema).toEqual([]);
  });

  it('a UBL XRechnung without the buyer reference (BT-10, the Leitweg-ID) breaks BR-DE-15', { timeout: COMPILE }, async () => {
    const broken = ubl.replace('<cbc:BuyerReference>0150abc</cbc:BuyerReference>', '');
    expect(broken).not.toBe(ubl);
    const report = await validateEInvoice(broken, { syntax: 'ubl', profile: 'xrechnung' });
    expect(ids(report)).toEqual(['BR-DE-15']);
    expect(report.fatal[0]?.text).toBe('[BR-DE-15] Das Element "Buyer reference" (BT-10) muss übermittelt werden.');
  });

  it('a UBL XRechnung without the seller contact breaks BR-DE-2', { timeout: COMPILE }, async () => {
    const report = await validateEInvoice(read('peppol/examples/base-example.xml'), { syntax: 'ubl', profile: 'xrechnung' });
    expect(ids(report)).toEqual(['BR-DE-2']);
    expect(report.warnings.map((warning) => warning.id)).toEqual(['BR-DE-21']);
  });

  it('CEN’s CII XRechnung example passes the CEN and XRechnung rules and the schema', { timeout: COMPILE }, async () => {
    expect(cii).toContain(XRECHNUNG_3);
    const report = await validateEInvoice(cii, { syntax: 'cii', profile: 'xrechnung' });
    expect(report.fatal).toEqual([]);
    expect(report.warnings).toEqual([]);
    expect(report.schema).toEqual([]);
  });
  it('a CII XRechnung without the buyer reference (BT-10) breaks BR-DE-15', { timeout: COMPILE }, async () => {
    const broken = cii.replace(/<ram:BuyerReference>[^<]*<\/ram:BuyerReference>/, '');
    expect(broken).not.toBe(cii);
    const report = await validateEInvoice(broken, { syntax: 'cii', profile: 'xrechnung' });
    expect(ids(report)).toEqual(['BR-DE-15']);
  });
});
