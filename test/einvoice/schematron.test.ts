import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileSchematron } from '../helpers/einvoice/schematron.js';
import { runRules } from '../helpers/einvoice/validate.js';

/**
 * The ISO Schematron compiler on a small schema that uses each construct the Peppol and XRechnung
 * rules use, run by SaxonJS on small documents: every SVRL entry is checked.
 */
const SCHEMA = `<?xml version="1.0" encoding="UTF-8"?>
<sch:schema xmlns:sch="http://purl.oclc.org/dsdl/schematron" xmlns:xsl="http://www.w3.org/1999/XSL/Transform"
    xmlns:f="urn:test:functions" queryBinding="xslt2" defaultPhase="all-checks">
  <sch:ns prefix="o" uri="urn:test:order"/>
  <sch:let name="currency" value="'EUR'"/>
  <xsl:function name="f:twice" as="xs:decimal">
    <xsl:param name="value" as="xs:decimal"/>
    <xsl:sequence select="$value * 2"/>
  </xsl:function>
  <sch:phase id="all-checks">
    <sch:active pattern="lines"/>
    <sch:active pattern="totals"/>
  </sch:phase>
  <sch:phase id="totals-only">
    <sch:let name="phase-note" value="'totals'"/>
    <sch:active pattern="totals"/>
  </sch:phase>
  <sch:pattern id="lines">
    <sch:let name="limit" value="count(/o:order/o:line) * 100"/>
    <sch:rule context="o:line[@kind = 'free']">
      <sch:assert test="o:amount = 0" id="FREE-01" flag="fatal">A free <sch:name/> costs nothing, not <sch:value-of select="o:amount"/>.</sch:assert>
    </sch:rule>
    <sch:rule context="o:line">
      <sch:assert test="o:amount &lt;= $limit" id="LINE-01" flag="warning">Line <sch:value-of select="$position"/> is over <sch:value-of select="$limit"/>.</sch:assert>
      <sch:let name="position" value="count(preceding-sibling::o:line) + 1"/>
      <sch:report test="o:amount = f:twice(1)" id="LINE-02">Line <sch:value-of select="$position"/> costs <sch:emph>two</sch:emph>.</sch:report>
    </sch:rule>
    <sch:rule context="o:line">
      <sch:assert test="false()" id="NEVER">Only the first matching rule of a pattern fires.</sch:assert>
    </sch:rule>
    <sch:rule context="@currency">
      <sch:assert test=". = $currency" id="CUR-01" flag="fatal">The <sch:name path=".."/> currency is {<sch:value-of select="."/>}.</sch:assert>
    </sch:rule>
  </sch:pattern>
  <sch:include href="totals.sch"/>
  <sch:pattern id="inactive">
    <sch:rule context="/"><sch:assert test="false()" id="OFF">An inactive pattern never runs.</sch:assert></sch:rule>
  </sch:pattern>
</sch:schema>`;

const TOTALS = `<pattern xmlns="http://purl.oclc.org/dsdl/schematron" id="totals">
  <rule context="/o:order">
    <assert test="sum(o:line/o:amount) = o:total" id="TOTAL-01" flag="fatal">The total is <value-of select="o:total"/>, the lines sum to <value-of select="sum(o:line/o:amount)"/>.</assert>
  </rule>
</pattern>`;

const ORDER = `<order xmlns="urn:test:order" currency="PLN">
  <line kind="free"><amount>5</amount></line>
  <line><amount>2</amount></line>
  <line><amount>900</amount></line>
  <total>900</total>
</order>`;

const ORDER_NS = "[namespace-uri()='urn:test:order']";
let folder = '';

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'schematron-'));
  await writeFile(join(folder, 'order.sch'), SCHEMA);
  await writeFile(join(folder, 'totals.sch'), TOTALS);
});
afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

describe('the ISO Schematron compiler', () => {
  it('runs the default phase: first matching rule per pattern, lets at every level, include, name and value-of', { timeout: 120_000 }, async () => {
    const report = await runRules(await compileSchematron(join(folder, 'order.sch')), ORDER);
    // Failed asserts in document order (an element's attributes before its children), then reports.
    expect(report).toEqual([
      {
        flag: 'fatal',
        rule: { id: 'CUR-01', text: 'The order currency is {PLN}.', location: `/*:order${ORDER_NS}[1]/@currency` },
      },
      {
        flag: 'fatal',
        rule: { id: 'FREE-01', text: 'A free line costs nothing, not 5.', location: `/*:order${ORDER_NS}[1]/*:line${ORDER_NS}[1]` },
      },
      {
        flag: 'warning',
        rule: { id: 'LINE-01', text: 'Line 3 is over 300.', location: `/*:order${ORDER_NS}[1]/*:line${ORDER_NS}[3]` },
      },
      {
        flag: 'fatal',
        rule: { id: 'TOTAL-01', text: 'The total is 900, the lines sum to 907.', location: `/*:order${ORDER_NS}[1]` },
      },
      {
        flag: 'fatal',
        rule: { id: 'LINE-02', text: 'Line 2 costs two.', location: `/*:order${ORDER_NS}[1]/*:line${ORDER_NS}[2]` },
      },
    ]);
  });

  it('runs only the patterns of a chosen phase', { timeout: 120_000 }, async () => {
    const report = await runRules(await compileSchematron(join(folder, 'order.sch'), { phase: 'totals-only' }), ORDER);
    expect(report.map((entry) => entry.rule.id)).toEqual(['TOTAL-01']);
  });

  it('runs every pattern in the phase #ALL', { timeout: 120_000 }, async () => {
    const report = await runRules(await compileSchematron(join(folder, 'order.sch'), { phase: '#ALL' }), ORDER);
    expect(report.map((entry) => entry.rule.id)).toEqual(['CUR-01', 'FREE-01', 'LINE-01', 'TOTAL-01', 'OFF', 'LINE-02']);
  });

  it('refuses an unknown phase', async () => {
    await expect(compileSchematron(join(folder, 'order.sch'), { phase: 'nope' })).rejects.toThrow(/has no phase nope/);
  });
});
