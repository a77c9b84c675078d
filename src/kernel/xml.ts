import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { RESERVED_KEYS } from './json-input.js';

/**
 * The XML form of the interface, for the client. Requests are written with the wrapper key as the
 * root (`<invoice>…</invoice>`), lists as repeated singular elements, and `type`/`nil` attributes.
 * Answers are read into the same JavaScript shapes as JSON answers: `type="integer"` becomes a
 * number, `type="boolean"` a boolean, `nil="true"` null, `type="array"` an array; everything else,
 * decimals included, stays text. Rails-style dasherized names are read as underscored ones.
 *
 * Only the transport imports this module, and only lazily, so a JSON-only bundle never carries it.
 */

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  textNodeName: '#text',
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  // Entities are decoded below (the five predefined ones and character references only), so a
  // document can never expand declared entities.
  processEntities: false,
  ignoreDeclaration: true,
  ignorePiTags: true,
  isArray: (_name, _path, _leaf, isAttribute) => !isAttribute,
});

type XmlNode = Record<string, unknown>;

export interface ReadXmlOptions {
  /** Elements that are lists even without `type="array"` (a request may send one `<position>`). */
  listFields?: ReadonlySet<string>;
  /** Bounds on the document's shape, checked in one pass before it is parsed (untrusted input). */
  limits?: XmlLimits;
}

/**
 * How large an untrusted document may be, by what parsing it costs: parsing time grows with the
 * elements and attributes, not the bytes. Checked by a single scan before the parser runs.
 */
export interface XmlLimits {
  /** Elements in all. */
  maxElements: number;
  /** Elements nested inside each other. */
  maxDepth: number;
  /** Attributes of one element. */
  maxAttributes: number;
  /** Characters of one text node (or CDATA section). */
  maxTextLength: number;
}

/** A request's limits: an invoice of 400 positions of ten fields is about 4,400 elements. */
export const DEFAULT_XML_LIMITS: Readonly<XmlLimits> = { maxElements: 5_000, maxDepth: 32, maxAttributes: 8, maxTextLength: 64 * 1024 };

export class XmlLimitError extends SyntaxError {}

/** Scans `text` once and throws an `XmlLimitError` when it passes a limit; what is malformed is left to the parser. */
export function checkXmlShape(text: string, limits: XmlLimits): void {
  let elements = 0;
  let depth = 0;
  let at = 0;
  const textRun = (length: number) => {
    if (length > limits.maxTextLength) throw new XmlLimitError(`The XML has a text longer than ${limits.maxTextLength} characters`);
  };
  while (at < text.length) {
    const open = text.indexOf('<', at);
    textRun((open < 0 ? text.length : open) - at);
    if (open < 0) return;
    const next = text.charCodeAt(open + 1);
    if (next === 0x3f /* ? */ || next === 0x21 /* ! */) {
      const cdata = text.startsWith('<![CDATA[', open);
      const close = cdata ? ']]>' : text.startsWith('<!--', open) ? '-->' : '>';
      const end = text.indexOf(close, open + 2);
      if (end < 0) return;
      if (cdata) textRun(end - open - 9);
      at = end + close.length;
      continue;
    }
    const end = text.indexOf('>', open + 1);
    if (end < 0) return;
    if (next === 0x2f /* / */) depth -= 1;
    else {
      elements += 1;
      if (elements > limits.maxElements) throw new XmlLimitError(`The XML has more than ${limits.maxElements} elements`);
      const tag = text.slice(open + 1, end);
      // Each attribute is one `=` outside quotes; a `>` inside a quoted value is left to the parser.
      const attributes = tag.replace(/"[^"]*"|'[^']*'/g, '').split('=').length - 1;
      if (attributes > limits.maxAttributes) throw new XmlLimitError(`An XML element has more than ${limits.maxAttributes} attributes`);
      if (text.charCodeAt(end - 1) !== 0x2f) {
        depth += 1;
        if (depth > limits.maxDepth) throw new XmlLimitError(`The XML is nested deeper than ${limits.maxDepth} levels`);
      }
    }
    at = end + 1;
  }
}

/**
 * Reads an XML document into its root element's (underscored) name and content. Refuses a DTD or
 * entity declarations, and malformed documents, with a `SyntaxError` that says why.
 */
export function readXml(text: string, options: ReadXmlOptions = {}): { root: string; value: unknown } {
  if (/<!DOCTYPE|<!ENTITY/i.test(text)) throw new SyntaxError('XML with a DTD or entity declarations is not accepted');
  if (options.limits) checkXmlShape(text, options.limits);
  const valid = XMLValidator.validate(text);
  if (valid !== true) throw new SyntaxError(`malformed XML: ${valid.err.msg} (line ${valid.err.line})`);
  const document = parser.parse(text) as Record<string, XmlNode[]>;
  const roots = Object.keys(document).filter((key) => !key.startsWith('?') && !key.startsWith('#'));
  if (roots.length !== 1) throw new SyntaxError('malformed XML: expected one root element');
  const root = underscored(roots[0]!);
  return { root, value: convert(document[roots[0]!]![0], root, options.listFields) };
}

/** Reads an XML document and returns the content of its root element. */
export function decodeXml(text: string): unknown {
  return readXml(text).value;
}

/** The name of the root element of an XML document (`invoices`, `error`, …). */
export function xmlRootName(text: string): string | undefined {
  return /<([A-Za-z_][\w.-]*)[\s/>]/.exec(text.replace(/<\?[\s\S]*?\?>/g, ''))?.[1];
}

const NAMED_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|amp|lt|gt|quot|apos);/gi, (whole, ref: string) => {
    if (ref[0] !== '#') return NAMED_ENTITIES[ref.toLowerCase()] ?? whole;
    const code = ref[1] === 'x' || ref[1] === 'X' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
  });
}

const underscored = (name: string) => name.replace(/-/g, '_');

function convert(node: unknown, name = '', listFields?: ReadonlySet<string>): unknown {
  if (typeof node === 'string') return decodeEntities(node);
  if (typeof node !== 'object' || node === null) return '';
  const element = node as XmlNode;
  if (element['@nil'] === 'true') return null;
  const type = element['@type'];
  const children = Object.keys(element).filter((key) => !key.startsWith('@') && key !== '#text');
  if (type === 'array' || listFields?.has(name)) {
    return children.flatMap((child) =>
      (element[child] as unknown[]).map((item) => convert(item, underscored(child), listFields)),
    );
  }
  if (children.length === 0) {
    const raw = element['#text'];
    const text = decodeEntities(Array.isArray(raw) ? raw.join('') : typeof raw === 'string' ? raw : '');
    if (type === 'integer' && /^-?\d+$/.test(text)) return Number(text);
    if (type === 'boolean') return text === 'true' || text === '1';
    // A typed empty hash is an object; an untyped empty element is empty text, as Rails reads it.
    if (type === 'hash') return {};
    return text;
  }
  const result: Record<string, unknown> = {};
  for (const child of children) {
    const items = element[child] as unknown[];
    const key = underscored(child);
    // `<__proto__>` or `<constructor>` would write the object's prototype instead of a field.
    if (RESERVED_KEYS.has(key)) throw new SyntaxError(`The element name "${child}" is not allowed`);
    result[key] = items.length === 1 ? convert(items[0], key, listFields) : items.map((item) => convert(item, key, listFields));
  }
  return result;
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };
// eslint-disable-next-line no-control-regex
const INVALID_XML_CHARS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;
const escapeText = (text: string) => text.replace(INVALID_XML_CHARS, '').replace(/[&<>"']/g, (c) => ESCAPES[c]!);

/** The element name of one item of a list: `positions` → `position`, `categories` → `category`. */
export function singularName(name: string): string {
  if (name.endsWith('ies')) return `${name.slice(0, -3)}y`;
  // `addresses`, `boxes`, `statuses` lose "es"; `warehouses` only its "s".
  if (/(ss|x|ch|sh|tus)es$/.test(name)) return name.slice(0, -2);
  if (name.endsWith('s')) return name.slice(0, -1);
  return `${name}_item`;
}

function element(name: string, value: unknown, indent: string | undefined): string {
  const [open, inner, close] = indent === undefined ? ['', undefined, ''] : [indent, `${indent}  `, '\n'];
  if (value === undefined) return '';
  if (value === null) return `${open}<${name} nil="true"/>`;
  if (Array.isArray(value)) {
    if (value.length === 0) return `${open}<${name} type="array"/>`;
    const item = singularName(name);
    return `${open}<${name} type="array">${close}${value.map((v) => element(item, v, inner)).join(close)}${close}${open}</${name}>`;
  }
  if (value instanceof Date) return `${open}<${name} type="dateTime">${value.toISOString()}</${name}>`;
  if (typeof value === 'object') {
    const children = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
    if (children.length === 0) return `${open}<${name} type="hash"/>`;
    return `${open}<${name}>${close}${children.map(([k, v]) => element(k, v, inner)).join(close)}${close}${open}</${name}>`;
  }
  if (typeof value === 'number' && Number.isInteger(value)) return `${open}<${name} type="integer">${value}</${name}>`;
  if (typeof value === 'boolean') return `${open}<${name} type="boolean">${value}</${name}>`;
  // Other numbers go as text: the interface reads decimals from text, so nothing is rounded here.
  return `${open}<${name}>${escapeText(String(value))}</${name}>`;
}

/** Writes `value` as an XML document whose root element is `root`; `pretty` indents it for people. */
export function encodeXml(root: string, value: unknown, options: { pretty?: boolean } = {}): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n${element(root, value, options.pretty ? '' : undefined)}\n`;
}
