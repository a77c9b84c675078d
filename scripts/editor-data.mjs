// Editor data for the elements, made from the Custom Elements Manifest alone: VS Code's HTML and CSS
// custom data (`html.customData`, `css.customData`) and JetBrains web-types. Each element's
// attributes carry their values where the manifest's type is a union of string literals, so editors
// complete `mode="create"` rather than show `ClientFormMode`. Run alone, it writes the three files into
// the folder given (default `dist/editor`); `scripts/assemble-packages.mjs` ships them in the elements package.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The files, by name, that editors read. */
export const EDITOR_FILES = ['vscode.html-custom-data.json', 'vscode.css-custom-data.json', 'web-types.json'];

/** The string values of a type written as a union of string literals (`'a' | 'b'`), else none. The empty string is the attribute left out, no value to offer. */
export function literalValues(typeText) {
  if (!typeText) return [];
  const members = typeText.split('|').map((member) => member.trim());
  if (!members.every((member) => /^'[^']*'$/.test(member) || /^"[^"]*"$/.test(member))) return [];
  return members.map((member) => member.slice(1, -1)).filter((value) => value !== '');
}

/** The elements the manifest declares, in its order: every declaration with a tag name. */
export function manifestElements(manifest) {
  return manifest.modules.flatMap((module) => (module.declarations ?? []).filter((declaration) => declaration.tagName).map((declaration) => ({ ...declaration, path: module.path })));
}

const text = (...parts) => parts.filter(Boolean).join('\n\n');
const withDefault = (description, value) => text(description, value === undefined ? '' : `Default: \`${value}\``);

/** VS Code's HTML custom data, version 1.1: tags with their attributes and values. */
export function vscodeHtmlData(manifest) {
  return {
    version: 1.1,
    tags: manifestElements(manifest).map((element) => ({
      name: element.tagName,
      description: text(element.summary, element.description),
      attributes: (element.attributes ?? []).map((attribute) => {
        const values = literalValues(attribute.type?.text);
        const boolean = attribute.type?.text === 'boolean';
        return {
          name: attribute.name,
          description: withDefault(attribute.description, attribute.default),
          ...(values.length ? { values: values.map((name) => ({ name })) } : {}),
          ...(boolean ? { valueSet: 'v' } : {}),
        };
      }),
    })),
  };
}

/** VS Code's CSS custom data, version 1.1: every custom property, and every part as `::part(name)`. */
export function vscodeCssData(manifest) {
  const properties = new Map();
  const parts = new Map();
  for (const element of manifestElements(manifest)) {
    for (const property of element.cssProperties ?? []) {
      const seen = properties.get(property.name);
      if (seen) seen.elements.push(element.tagName);
      else properties.set(property.name, { ...property, elements: [element.tagName] });
    }
    for (const part of element.cssParts ?? []) {
      const name = `::part(${part.name})`;
      const seen = parts.get(name);
      if (seen) seen.descriptions.push(`<${element.tagName}>: ${part.description}`);
      else parts.set(name, { name, descriptions: [`<${element.tagName}>: ${part.description}`] });
    }
  }
  return {
    version: 1.1,
    properties: [...properties.values()].map((property) => ({
      name: property.name,
      description: text(withDefault(property.description, property.default), `Read by ${property.elements.map((tag) => `<${tag}>`).join(', ')}.`),
    })),
    pseudoElements: [...parts.values()].map((part) => ({ name: part.name, description: part.descriptions.join('\n') })),
  };
}

/** JetBrains web-types (schema 2): elements with attributes and values, events, slots, parts and custom properties. */
export function webTypes(manifest, { name, version }) {
  return {
    $schema: 'https://raw.githubusercontent.com/JetBrains/web-types/master/schema/web-types.json',
    name,
    version,
    'description-markup': 'markdown',
    'js-types-syntax': 'typescript',
    contributions: {
      html: {
        elements: manifestElements(manifest).map((element) => ({
          name: element.tagName,
          description: text(element.summary, element.description),
          attributes: (element.attributes ?? []).map((attribute) => {
            const values = literalValues(attribute.type?.text);
            return {
              name: attribute.name,
              description: attribute.description,
              ...(attribute.default === undefined ? {} : { default: attribute.default }),
              value: { type: attribute.type?.text ?? 'string', ...(attribute.type?.text === 'boolean' ? { required: false } : {}) },
              ...(values.length ? { values: values.map((value) => ({ name: value })) } : {}),
            };
          }),
          slots: (element.slots ?? []).map((slot) => ({ name: slot.name, description: slot.description })),
          js: {
            properties: (element.members ?? [])
              .filter((member) => member.kind === 'field' && !member.static)
              .map((member) => ({ name: member.name, description: member.description, ...(member.type ? { type: member.type.text } : {}) })),
            events: (element.events ?? []).map((event) => ({ name: event.name, description: event.description, ...(event.type ? { type: event.type.text } : {}) })),
          },
          css: {
            parts: (element.cssParts ?? []).map((part) => ({ name: part.name, description: part.description })),
            properties: (element.cssProperties ?? []).map((property) => ({ name: property.name, description: withDefault(property.description, property.default) })),
          },
        })),
      },
    },
  };
}

/** The three files, by name, as JSON text. */
export function editorData(manifest, packageInfo) {
  const json = (value) => `${JSON.stringify(value, null, 2)}\n`;
  return {
    'vscode.html-custom-data.json': json(vscodeHtmlData(manifest)),
    'vscode.css-custom-data.json': json(vscodeCssData(manifest)),
    'web-types.json': json(webTypes(manifest, packageInfo)),
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = fileURLToPath(new URL('..', import.meta.url));
  const out = process.argv[2] ?? join(root, 'dist/editor');
  const manifest = JSON.parse(await readFile(join(root, 'custom-elements.json'), 'utf8'));
  const { version } = JSON.parse(await readFile(join(root, 'package.json'), 'utf8'));
  await mkdir(out, { recursive: true });
  for (const [file, content] of Object.entries(editorData(manifest, { name: '@invoicekit/elements', version }))) await writeFile(join(out, file), content);
}
