/** A node of a document being written: an element with attributes and children, or text. */
export type XmlNode = { readonly name: string; readonly attributes: Readonly<Record<string, string>>; readonly children: readonly XmlNode[] } | string;

const escape = (text: string) => text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);

/**
 * An element; children that are null, undefined or false are left out, and so is an element whose
 * value is null (EN 16931 and Peppol refuse empty elements).
 */
export function el(name: string, attributes: Record<string, string | null | undefined> | null, ...children: (XmlNode | null | undefined | false)[]): XmlNode {
  const kept = Object.fromEntries(Object.entries(attributes ?? {}).filter((entry): entry is [string, string] => entry[1] != null));
  return { name, attributes: kept, children: children.filter((child): child is XmlNode => child != null && child !== false) };
}

/** An element holding one value, or nothing when the value is null or blank. */
export function leaf(name: string, value: string | null | undefined, attributes: Record<string, string | null | undefined> | null = null): XmlNode | null {
  if (value == null || value.trim() === '') return null;
  return el(name, attributes, value);
}

/** An element that holds children, or nothing when it has none left. */
export function group(name: string, ...children: (XmlNode | null | undefined | false)[]): XmlNode | null {
  const node = el(name, null, ...children);
  return typeof node !== 'string' && node.children.length > 0 ? node : null;
}

function write(node: XmlNode, depth: number, out: string[]): void {
  if (typeof node === 'string') {
    out.push(escape(node));
    return;
  }
  const indent = '  '.repeat(depth);
  const attributes = Object.entries(node.attributes).map(([key, value]) => ` ${key}="${escape(value)}"`).join('');
  if (node.children.length === 0) {
    out.push(`${indent}<${node.name}${attributes}/>\n`);
    return;
  }
  if (node.children.every((child) => typeof child === 'string')) {
    out.push(`${indent}<${node.name}${attributes}>${node.children.map((child) => escape(child as string)).join('')}</${node.name}>\n`);
    return;
  }
  out.push(`${indent}<${node.name}${attributes}>\n`);
  for (const child of node.children) write(child, depth + 1, out);
  out.push(`${indent}</${node.name}>\n`);
}

/** The document, with its XML declaration, indented. */
export function xmlDocument(root: XmlNode): string {
  const out = ['<?xml version="1.0" encoding="UTF-8"?>\n'];
  write(root, 0, out);
  return out.join('');
}
