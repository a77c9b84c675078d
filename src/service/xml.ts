import { XMLParser, XMLValidator } from 'fast-xml-parser';

/**
 * XML both ways, as the hosted (Rails) service speaks it. Requests may use underscored names or
 * Rails-style dasherized names with `type="integer|decimal|boolean|array"` and `nil="true"`;
 * answers use underscored names with the same type attributes.
 */
export class XmlInputError extends Error {}

/** Fields that are lists even when a request carries a single child or none. */
const LIST_FIELDS = new Set(['positions', 'warehouse_actions']);

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  textNodeName: '#text',
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  processEntities: false,
  ignoreDeclaration: true,
  ignorePiTags: true,
  isArray: (_name, _path, _leaf, isAttribute) => !isAttribute,
});

type XmlNode = Record<string, unknown>;

/** Parses an XML request body into `{ rootName: value }`. Refuses DTDs and entity declarations. */
export function parseXml(text: string): Record<string, unknown> {
  if (/<!DOCTYPE|<!ENTITY/i.test(text)) throw new XmlInputError('XML with a DTD or entity declarations is not accepted');
  const valid = XMLValidator.validate(text);
  if (valid !== true) throw new XmlInputError(`malformed XML: ${valid.err.msg} (line ${valid.err.line})`);
  const document = parser.parse(text) as Record<string, XmlNode[]>;
  const roots = Object.keys(document).filter((key) => !key.startsWith('?'));
  if (roots.length !== 1) throw new XmlInputError('malformed XML: expected one root element');
  const root = roots[0]!;
  return { [normalizeName(root)]: convert(normalizeName(root), document[root]![0]!) };
}

const NAMED_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** Only the five predefined entities and character references: nothing is ever expanded from a DTD. */
function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|amp|lt|gt|quot|apos);/gi, (whole, ref: string) => {
    if (ref[0] !== '#') return NAMED_ENTITIES[ref.toLowerCase()] ?? whole;
    const code = ref[1] === 'x' || ref[1] === 'X' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
  });
}

function normalizeName(name: string): string {
  return name.replace(/-/g, '_');
}

function convert(name: string, node: unknown): unknown {
  if (typeof node === 'string') return decodeEntities(node);
  if (typeof node !== 'object' || node === null) return node ?? '';
  const element = node as XmlNode;
  if (element['@nil'] === 'true') return null;
  const type = element['@type'];
  const childNames = Object.keys(element).filter((key) => !key.startsWith('@') && key !== '#text');
  if (type === 'array' || LIST_FIELDS.has(name)) {
    return childNames.flatMap((child) =>
      (element[child] as unknown[]).map((item) => convert(normalizeName(child), item)),
    );
  }
  if (childNames.length === 0) {
    const text = element['#text'];
    const value = Array.isArray(text) ? text.join('') : typeof text === 'string' ? text : '';
    if (type === 'integer' && /^-?\d+$/.test(value)) return Number(value);
    return decodeEntities(value);
  }
  const result: Record<string, unknown> = {};
  for (const child of childNames) {
    const items = element[child] as unknown[];
    const key = normalizeName(child);
    result[key] = items.length === 1 ? convert(key, items[0]) : items.map((item) => convert(key, item));
  }
  return result;
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };
const escapeText = (text: string) => text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
// Characters XML 1.0 cannot carry at all are dropped rather than producing an unreadable document.
// eslint-disable-next-line no-control-regex
const stripInvalid = (text: string) => text.replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, '');

export function singular(name: string): string {
  if (name.endsWith('ies')) return `${name.slice(0, -3)}y`;
  // `addresses`, `boxes`, `statuses` lose "es"; `warehouses` only its "s".
  if (/(ss|x|ch|sh|tus)es$/.test(name)) return name.slice(0, -2);
  if (name.endsWith('s')) return name.slice(0, -1);
  return `${name}_item`;
}

function element(name: string, value: unknown, indent: string): string {
  if (value === null || value === undefined) return `${indent}<${name} nil="true"/>`;
  if (Array.isArray(value)) {
    if (value.length === 0) return `${indent}<${name} type="array"/>`;
    const item = singular(name);
    return `${indent}<${name} type="array">\n${value.map((v) => element(item, v, `${indent}  `)).join('\n')}\n${indent}</${name}>`;
  }
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>);
    if (entries.length === 0) return `${indent}<${name}/>`;
    return `${indent}<${name}>\n${entries.map(([k, v]) => element(k, v, `${indent}  `)).join('\n')}\n${indent}</${name}>`;
  }
  if (typeof value === 'number') {
    return `${indent}<${name} type="${Number.isInteger(value) ? 'integer' : 'float'}">${value}</${name}>`;
  }
  if (typeof value === 'boolean') return `${indent}<${name} type="boolean">${value}</${name}>`;
  return `${indent}<${name}>${escapeText(stripInvalid(String(value)))}</${name}>`;
}

/** Serializes a value under `root`; an array becomes `<root type="array">` of singular elements. */
export function toXml(root: string, value: unknown): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n${element(root, value, '')}\n`;
}
