import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import SaxonJS from 'saxon-js';
import { XMLParser } from 'fast-xml-parser';
import { compiledStylesheet } from './stylesheets.js';
import { compileSchematron } from './schematron.js';

export type Syntax = 'ubl' | 'cii';
export type Profile = 'en16931' | 'peppol' | 'xrechnung';

/** One rule an invoice broke, as the SVRL report names it. */
export interface RuleFailure {
  /** The rule's id, such as `BR-01` or `PEPPOL-EN16931-R001`. */
  id: string;
  /** The rule's message, whitespace collapsed. */
  text: string;
  /** The XPath of the node the rule fired on. */
  location: string;
}

export interface EInvoiceReport {
  /** Broken rules flagged `fatal` (and unflagged ones, which Schematron treats as errors). */
  fatal: RuleFailure[];
  /** Broken rules flagged `warning` or `information`. */
  warnings: RuleFailure[];
  /** The XML schema's complaints, one line each from `xmllint`; empty when the document is valid. */
  schema: string[];
}

const FIXTURES = fileURLToPath(new URL('../../fixtures/einvoice/', import.meta.url));

/** The artefacts each check runs, as paths under `test/fixtures/einvoice/`. */
const CEN_XSLT: Record<Syntax, string> = {
  ubl: 'cen/ubl/xslt/EN16931-UBL-validation.xslt',
  cii: 'cen/cii/xslt/EN16931-CII-validation.xslt',
};
const SCHEMATRON: Record<Exclude<Profile, 'en16931'>, Record<Syntax, string>> = {
  peppol: { ubl: 'peppol/sch/PEPPOL-EN16931-UBL.sch', cii: 'peppol/sch/PEPPOL-EN16931-CII.sch' },
  xrechnung: {
    ubl: 'xrechnung/schematron/ubl/XRechnung-UBL-validation.sch',
    cii: 'xrechnung/schematron/cii/XRechnung-CII-validation.sch',
  },
};
const SCHEMAS = {
  Invoice: 'ubl-2.1/xsd/maindoc/UBL-Invoice-2.1.xsd',
  CreditNote: 'ubl-2.1/xsd/maindoc/UBL-CreditNote-2.1.xsd',
  CrossIndustryInvoice: 'cen/cii/schema/CrossIndustryInvoice_100pD16B.xsd',
} as const;

/**
 * Validates an e-invoice by the official rules: CEN's EN 16931 XSLT for its syntax always, the
 * Peppol BIS Billing 3.0 or XRechnung Schematron for those profiles, and the syntax's XML schema
 * (UBL 2.1 `Invoice`/`CreditNote`, or UN/CEFACT CII D16B) through `xmllint`.
 */
export async function validateEInvoice(
  xml: string,
  options: { syntax: Syntax; profile: Profile },
): Promise<EInvoiceReport> {
  const stylesheets = [readFixture(CEN_XSLT[options.syntax])];
  if (options.profile !== 'en16931') {
    const path = SCHEMATRON[options.profile][options.syntax];
    stylesheets.push(compileSchematron(FIXTURES + path));
  }
  const [reports, schema] = await Promise.all([
    Promise.all(stylesheets.map(async (xslt) => runRules(await xslt, xml))),
    schemaErrors(xml, options.syntax),
  ]);
  const fatal: RuleFailure[] = [];
  const warnings: RuleFailure[] = [];
  for (const report of reports) {
    for (const failure of report) (failure.flag === 'warning' || failure.flag === 'information' ? warnings : fatal).push(failure.rule);
  }
  return { fatal, warnings, schema };
}

async function readFixture(path: string): Promise<string> {
  return readFile(FIXTURES + path, 'utf8');
}

/** Runs one validation stylesheet and reads its SVRL report. */
export async function runRules(xslt: string, xml: string): Promise<{ flag: string; rule: RuleFailure }[]> {
  const sef = await compiledStylesheet(xslt);
  const result = await SaxonJS.transform({ stylesheetInternal: sef, sourceText: xml, destination: 'serialized' }, 'async');
  return readSvrl(result.principalResult);
}

const svrlReader = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  removeNSPrefix: true,
  parseTagValue: false,
  isArray: (name) => name === 'failed-assert' || name === 'successful-report' || name === 'text',
});

interface SvrlEntry {
  '@id'?: string;
  '@flag'?: string;
  '@location'?: string;
  text?: (string | { '#text'?: string })[];
}

/** The failed asserts and successful reports of an SVRL document (ISO Schematron's report format). */
export function readSvrl(svrl: string): { flag: string; rule: RuleFailure }[] {
  const document = svrlReader.parse(svrl) as { 'schematron-output'?: Record<string, SvrlEntry[] | undefined> };
  const output = document['schematron-output'] ?? {};
  const entries = [...(output['failed-assert'] ?? []), ...(output['successful-report'] ?? [])];
  return entries.map((entry) => ({
    flag: entry['@flag'] ?? 'fatal',
    rule: {
      id: entry['@id'] ?? '',
      text: (entry.text ?? [])
        .map((part) => (typeof part === 'string' ? part : (part['#text'] ?? '')))
        .join(' ')
        .replace(/\s+/g, ' ')
        .trim(),
      location: entry['@location'] ?? '',
    },
  }));
}

/** The syntax's XML schema, checked by `xmllint` offline; the schema's file follows the root element. */
async function schemaErrors(xml: string, syntax: Syntax): Promise<string[]> {
  const root = /<(?:[\w.-]+:)?(Invoice|CreditNote|CrossIndustryInvoice)[\s>/]/.exec(xml.replace(/<\?[\s\S]*?\?>|<!--[\s\S]*?-->/g, ''));
  const name = root?.[1] as keyof typeof SCHEMAS | undefined;
  if (!name) return [`the root element is none of Invoice, CreditNote, CrossIndustryInvoice`];
  if ((name === 'CrossIndustryInvoice') !== (syntax === 'cii')) return [`the root element ${name} is not of the ${syntax} syntax`];
  const { stderr, failed } = await xmllint(['--noout', '--nonet', '--schema', FIXTURES + SCHEMAS[name], '-'], xml);
  const lines = stderr.split('\n').filter((line) => line.trim() !== '' && !/^- (validates|fails to validate)$/.test(line.trim()));
  if (failed && lines.length === 0) lines.push('xmllint failed without a message');
  return lines;
}

function xmllint(args: string[], input: string): Promise<{ stderr: string; failed: boolean }> {
  return new Promise((resolve, reject) => {
    const child = execFile('xmllint', args, { maxBuffer: 16 * 1024 * 1024 }, (error, _stdout, stderr) => {
      if (error && (error as NodeJS.ErrnoException).code === 'ENOENT') {
        reject(new Error('xmllint is missing: install libxml2-utils (scripts/ensure-tools.sh does)'));
        return;
      }
      resolve({ stderr, failed: error !== null });
    });
    child.stdin?.end(input);
  });
}
