import { dirname, resolve } from 'node:path';
import { escapeAttribute, escapeText, readXmlTree, serialize, type XmlElement, type XmlNode } from './xml-tree.js';

/**
 * ISO Schematron (ISO/IEC 19757-3, `queryBinding="xslt2"`) compiled to an XSLT 3 stylesheet whose
 * output is an SVRL report. What it supports is what the Peppol BIS and XRechnung rules use:
 * - `ns` declarations, and the namespaces declared on the schema element;
 * - `include` (by `href`, relative to the including file), anywhere;
 * - `phase`/`active` (the `phase` option, else the schema's `defaultPhase`, else every pattern);
 * - `let` on the schema, a phase or a pattern (global variables, evaluated on the document) and on
 *   a rule (local, evaluated on the rule's context node, visible to all its asserts and reports);
 * - `pattern`/`rule context`: each pattern visits the whole document (attributes included), and a
 *   node is checked by the first rule of the pattern whose context matches it, at most one;
 * - `assert`/`report` with `test`, `id`, `flag`, `role`; their messages with `name` and `value-of`;
 * - `xsl:function`, `xsl:variable`, `xsl:param`, `xsl:key` and other XSLT declarations embedded in
 *   the schema, copied into the stylesheet as they are.
 * Abstract patterns and rules, diagnostics and properties are refused: these rules use none.
 */
export async function compileSchematron(file: string, options: { phase?: string } = {}): Promise<string> {
  const schema = await expandIncludes(await readXmlTree(file));
  if (schema.uri !== SCH || schema.local !== 'schema') throw new Error(`${file} is not an ISO Schematron schema`);
  const binding = schema.attributes.get('queryBinding') ?? 'xslt';
  if (!['xslt2', 'xslt3'].includes(binding.toLowerCase())) throw new Error(`${file}: the query binding ${binding} is not supported`);

  const parts = elements(schema);
  const phaseName = options.phase ?? schema.attributes.get('defaultPhase') ?? '#ALL';
  const phase = phaseName === '#ALL' ? undefined : parts.find((part) => isSch(part, 'phase') && part.attributes.get('id') === phaseName);
  if (phaseName !== '#ALL' && !phase) throw new Error(`${file} has no phase ${phaseName}`);
  const active = phase ? new Set(elements(phase).filter((part) => isSch(part, 'active')).map((part) => attribute(part, 'pattern'))) : undefined;
  const patterns = parts.filter((part) => isSch(part, 'pattern') && (!active || active.has(part.attributes.get('id') ?? '')));
  for (const refused of ['abstract', 'is-a']) {
    if (patterns.some((pattern) => pattern.attributes.has(refused))) throw new Error(`${file}: abstract patterns are not supported`);
  }

  const namespaces = new Map<string, string>(
    [...schema.scope].filter(([prefix, uri]) => prefix !== '' && prefix !== 'xml' && uri !== SCH),
  );
  for (const ns of parts.filter((part) => isSch(part, 'ns'))) namespaces.set(attribute(ns, 'prefix'), attribute(ns, 'uri'));
  for (const [prefix, uri] of Object.entries(OWN)) namespaces.set(prefix, uri);

  const globals = [
    ...parts.filter((part) => isSch(part, 'let')),
    ...(phase ? elements(phase).filter((part) => isSch(part, 'let')) : []),
    ...patterns.flatMap((pattern) => elements(pattern).filter((part) => isSch(part, 'let'))),
  ];
  const declared = new Set<string>();
  for (const variable of globals) {
    const name = attribute(variable, 'name');
    if (declared.has(name)) throw new Error(`${file}: the variable ${name} is declared twice`);
    declared.add(name);
  }
  const embedded = parts.filter((part) => part.uri === XSL).map(serialize);

  const root = patterns
    .map((pattern, index) => `<svrl:active-pattern${optional('id', pattern.attributes.get('id'))}/><xsl:apply-templates select="." mode="schv:p${index}"/>`)
    .join('\n');
  return [
    `<xsl:stylesheet version="3.0"${[...namespaces].map(([prefix, uri]) => ` xmlns:${prefix}="${escapeAttribute(uri)}"`).join('')} exclude-result-prefixes="#all">`,
    '<xsl:output method="xml" indent="no"/>',
    ...embedded,
    ...globals.map((variable) => letToVariable(variable)),
    LOCATION,
    `<xsl:template match="/"><svrl:schematron-output${optional('phase', phaseName)}>${root}</svrl:schematron-output></xsl:template>`,
    ...patterns.map((pattern, index) => patternTemplates(pattern, `schv:p${index}`)),
    '</xsl:stylesheet>',
  ].join('\n');
}

const SCH = 'http://purl.oclc.org/dsdl/schematron';
const XSL = 'http://www.w3.org/1999/XSL/Transform';
const OWN = {
  xsl: XSL,
  xs: 'http://www.w3.org/2001/XMLSchema',
  svrl: 'http://purl.oclc.org/dsdl/svrl',
  schv: 'urn:invoicekit:test:schematron',
};

/** The XPath of a node, in the form CEN's stylesheets report it: `/*:Invoice[namespace-uri()='…'][1]/…`. */
const LOCATION = `<xsl:function name="schv:location" as="xs:string">
  <xsl:param name="node" as="node()"/>
  <xsl:sequence select="string-join(for $step in $node/ancestor-or-self::node() return schv:step($step), '')"/>
</xsl:function>
<xsl:function name="schv:step" as="xs:string">
  <xsl:param name="node" as="node()"/>
  <xsl:choose>
    <xsl:when test="$node instance of element()">
      <xsl:sequence select="concat('/*:', local-name($node), '[namespace-uri()=''', namespace-uri($node), '''][', count($node/preceding-sibling::*[local-name() = local-name($node) and namespace-uri() = namespace-uri($node)]) + 1, ']')"/>
    </xsl:when>
    <xsl:when test="$node instance of attribute()"><xsl:sequence select="concat('/@', name($node))"/></xsl:when>
    <xsl:when test="$node instance of text()"><xsl:sequence select="concat('/text()[', count($node/preceding-sibling::text()) + 1, ']')"/></xsl:when>
    <xsl:when test="$node instance of comment()"><xsl:sequence select="concat('/comment()[', count($node/preceding-sibling::comment()) + 1, ']')"/></xsl:when>
    <xsl:when test="$node instance of processing-instruction()"><xsl:sequence select="concat('/processing-instruction()[', count($node/preceding-sibling::processing-instruction()) + 1, ']')"/></xsl:when>
    <xsl:otherwise><xsl:sequence select="''"/></xsl:otherwise>
  </xsl:choose>
</xsl:function>`;

/**
 * One pattern as a mode that walks every node: a rule is a template whose priority falls with its
 * place in the pattern, so of the rules that match a node only the first fires; a node no rule
 * matches is passed through. After its checks a rule goes on into the node's attributes and children.
 */
function patternTemplates(pattern: XmlElement, mode: string): string {
  const rules = elements(pattern).filter((part) => isSch(part, 'rule'));
  for (const rule of rules) {
    if (rule.attributes.has('abstract') || elements(rule).some((part) => isSch(part, 'extends'))) {
      throw new Error(`${rule.file}: abstract rules are not supported`);
    }
  }
  const walk = '<xsl:apply-templates select="@*|node()" mode="#current"/>';
  return [
    `<xsl:template match="document-node()|element()" mode="${mode}" priority="-10">${walk}</xsl:template>`,
    `<xsl:template match="@*|text()|comment()|processing-instruction()" mode="${mode}" priority="-10"/>`,
    ...rules.map((rule, index) => {
      const checks = elements(rule);
      const lets = checks.filter((part) => isSch(part, 'let')).map((variable) => letToVariable(variable));
      const tests = checks.filter((part) => isSch(part, 'assert') || isSch(part, 'report')).map(check);
      return `<xsl:template match="${escapeAttribute(attribute(rule, 'context'))}" mode="${mode}" priority="${rules.length - index}">${lets.join('')}${tests.join('')}${walk}</xsl:template>`;
    }),
  ].join('\n');
}

/** An assert fails when its test is false, a report fires when its test is true. */
function check(element: XmlElement): string {
  const test = attribute(element, 'test');
  const failed = element.local === 'assert';
  const name = failed ? 'svrl:failed-assert' : 'svrl:successful-report';
  const attributes = ['id', 'flag', 'role']
    .map((key) => optional(key, element.attributes.get(key)))
    .join('');
  return (
    `<xsl:if test="${failed ? `not(${escapeAttribute(test)})` : escapeAttribute(test)}">` +
    `<${name} test="${escapeAttribute(avt(test))}"${attributes}><xsl:attribute name="location" select="schv:location(.)"/>` +
    `<svrl:text>${message(element.children)}</svrl:text></${name}></xsl:if>`
  );
}

/** A check's message: its text, with `name` and `value-of` evaluated on the context node. */
function message(nodes: XmlNode[]): string {
  return nodes
    .map((node) => {
      if (typeof node === 'string') return escapeText(node);
      if (isSch(node, 'name')) return `<xsl:value-of select="name(${escapeAttribute(node.attributes.get('path') ?? '.')})"/>`;
      if (isSch(node, 'value-of')) return `<xsl:value-of select="${escapeAttribute(attribute(node, 'select'))}"/>`;
      return message(node.children);
    })
    .join('');
}

function letToVariable(variable: XmlElement): string {
  const name = attribute(variable, 'name');
  const value = variable.attributes.get('value');
  if (value === undefined) throw new Error(`${variable.file}: the variable ${name} has no value attribute`);
  return `<xsl:variable name="${escapeAttribute(name)}" select="${escapeAttribute(value)}"/>`;
}

/** Replaces every `include` by the root element of the file it names, recursively. */
async function expandIncludes(element: XmlElement, seen: string[] = []): Promise<XmlElement> {
  const children: XmlNode[] = [];
  for (const child of element.children) {
    if (typeof child !== 'string' && isSch(child, 'include')) {
      const target = resolve(dirname(child.file), attribute(child, 'href'));
      if (seen.includes(target)) throw new Error(`${child.file}: ${target} includes itself`);
      children.push(await expandIncludes(await readXmlTree(target), [...seen, target]));
    } else if (typeof child !== 'string' && child.uri === SCH) {
      children.push(await expandIncludes(child, seen));
    } else {
      children.push(child);
    }
  }
  return { ...element, children };
}

function elements(element: XmlElement): XmlElement[] {
  return element.children.filter((child): child is XmlElement => typeof child !== 'string');
}

function isSch(element: XmlElement, local: string): boolean {
  return element.uri === SCH && element.local === local;
}

function attribute(element: XmlElement, name: string): string {
  const value = element.attributes.get(name);
  if (value === undefined) throw new Error(`${element.file}: <${element.local}> needs its ${name} attribute`);
  return value;
}

function optional(name: string, value: string | undefined): string {
  return value === undefined ? '' : ` ${name}="${escapeAttribute(avt(value))}"`;
}

/** Text for an attribute of a literal result element, where braces would be evaluated. */
function avt(text: string): string {
  return text.replace(/[{}]/g, (brace) => brace + brace);
}
