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
