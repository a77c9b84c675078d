import { readFile } from 'node:fs/promises';
import { XMLParser } from 'fast-xml-parser';

/** An element of a parsed XML file, its names resolved against the namespaces in scope. */
export interface XmlElement {
  /** The namespace URI; '' for none. */
  uri: string;
  local: string;
  /** The name as written, prefix and all. */
  qname: string;
  /** Attributes other than namespace declarations, by their names as written. */
  attributes: Map<string, string>;
  /** Every namespace binding in scope here (prefix '' is the default namespace). */
  scope: Map<string, string>;
  /** The namespace bindings this element declares itself. */
  declared: Map<string, string>;
  children: XmlNode[];
  /** The file the element was read from, for resolving relative references. */
  file: string;
}
export type XmlNode = XmlElement | string;

type Parsed = Record<string, unknown> & { ':@'?: Record<string, string>; '#text'?: string };

const parser = new XMLParser({
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: '',
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: false,
  processEntities: false,
  ignoreDeclaration: true,
  ignorePiTags: true,
});

const XML_NAMESPACE = 'http://www.w3.org/XML/1998/namespace';

/** Reads an XML file into a tree of namespace-resolved elements (comments and processing instructions dropped). */
export async function readXmlTree(file: string): Promise<XmlElement> {
  const parsed = parser.parse(await readFile(file, 'utf8')) as Parsed[];
  const root = parsed.map((node) => toNode(node, new Map([['xml', XML_NAMESPACE]]), file)).find((node) => typeof node !== 'string');
  if (!root) throw new Error(`${file} has no root element`);
  return root;
}

function toNode(node: Parsed, outer: Map<string, string>, file: string): XmlNode {
  if ('#text' in node) return decode(String(node['#text']));
  const qname = Object.keys(node).find((key) => key !== ':@');
  if (!qname) throw new Error(`${file}: an element without a name`);
  const scope = new Map(outer);
  const declared = new Map<string, string>();
  const attributes = new Map<string, string>();
  for (const [name, value] of Object.entries(node[':@'] ?? {})) {
    if (name === 'xmlns') declared.set('', decode(value));
    else if (name.startsWith('xmlns:')) declared.set(name.slice(6), decode(value));
    else attributes.set(name, decode(value));
  }
  for (const [prefix, uri] of declared) scope.set(prefix, uri);
  const colon = qname.indexOf(':');
  const prefix = colon < 0 ? '' : qname.slice(0, colon);
  const uri = scope.get(prefix);
  if (uri === undefined && prefix !== '') throw new Error(`${file}: the prefix ${prefix} of <${qname}> is not declared`);
  const children = (node[qname] as Parsed[]).map((child) => toNode(child, scope, file));
  return { uri: uri ?? '', local: colon < 0 ? qname : qname.slice(colon + 1), qname, attributes, scope, declared, children, file };
}

const NAMED: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

/** XML's five named entities and character references, in one pass (so `&amp;lt;` stays `&lt;`). */
function decode(text: string): string {
  return text.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|lt|gt|amp|quot|apos);/g, (_all, name: string) => {
    if (name.startsWith('#x')) return String.fromCodePoint(parseInt(name.slice(2), 16));
    if (name.startsWith('#')) return String.fromCodePoint(parseInt(name.slice(1), 10));
    return NAMED[name] ?? '';
  });
}

/** Text for XML content. */
export function escapeText(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** Text for a double-quoted attribute value, keeping line breaks and tabs. */
export function escapeAttribute(text: string): string {
  return escapeText(text).replace(/"/g, '&quot;').replace(/\n/g, '&#10;').replace(/\r/g, '&#13;').replace(/\t/g, '&#9;');
}

/**
 * An element copied out as XML text with its names as written, declaring every namespace in scope
 * on itself so that it means the same wherever it lands.
 */
export function serialize(element: XmlElement): string {
  return write(element, element.scope);
}

function write(element: XmlElement, declare: Map<string, string>): string {
  const declarations = [...declare]
    .filter(([prefix]) => prefix !== 'xml')
    .map(([prefix, uri]) => ` ${prefix === '' ? 'xmlns' : `xmlns:${prefix}`}="${escapeAttribute(uri)}"`)
    .join('');
  const attributes = [...element.attributes].map(([key, value]) => ` ${key}="${escapeAttribute(value)}"`).join('');
  const content = element.children.map((child) => (typeof child === 'string' ? escapeText(child) : write(child, child.declared))).join('');
  return `<${element.qname}${declarations}${attributes}>${content}</${element.qname}>`;
}
