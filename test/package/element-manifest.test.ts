import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import ts from 'typescript';
import { beforeAll, describe, expect, it } from 'vitest';
import { ClientForm } from '../../src/elements/client-form/client-form.js';
import { InvoiceList } from '../../src/elements/invoice-list/invoice-list.js';
import { ProductPayButton } from '../../src/elements/product-pay-button/product-pay-button.js';
import { ROOT } from './support.js';

/**
 * `custom-elements.json` against what the elements really define: the manifest is built afresh by the
 * analyzer with the project's config and must equal the committed one; then its attributes are the
 * classes' observed attributes, with the values their fields' types allow; its parts are every `part`
 * the templates write; its custom properties every public `var(--…)` the styles read; its events every
 * event class the element dispatches. web-component-analyzer reads attributes from a class's JSDoc
 * `@attr` lines once `@element` names the tag (it cannot read `static properties` with a type
 * annotation), so those lines must name every attribute. The editor data made from the manifest
 * offers the same values.
 */

interface Entry {
  name: string;
  description?: string;
  default?: string;
  type?: { text: string };
  fieldName?: string;
}
interface Element {
  name: string;
  tagName: string;
  attributes?: Entry[];
  cssParts?: Entry[];
  cssProperties?: Entry[];
  events?: Entry[];
  slots?: Entry[];
}
interface Manifest {
  modules: { path: string; declarations?: (Element | { name: string; tagName?: undefined })[] }[];
}
interface EditorData {
  editorData(manifest: Manifest, info: { name: string; version: string }): Record<string, string>;
  literalValues(type: string): string[];
}

/** Each element: its tag, class, folder, and the module of its events. */
const ELEMENTS = [
  { tag: 'client-form', element: ClientForm, folder: 'src/elements/client-form' },
  { tag: 'invoice-list', element: InvoiceList, folder: 'src/elements/invoice-list' },
  { tag: 'product-pay-button', element: ProductPayButton, folder: 'src/elements/product-pay-button' },
] as const;

const read = (path: string) => readFile(join(ROOT, path), 'utf8');
const sorted = (values: Iterable<string>) => [...new Set(values)].sort();

/** The element folder's modules, styles included, messages left out (they hold only text). */
async function folderSources(folder: string): Promise<Map<string, string>> {
  const names = (await readdir(join(ROOT, folder))).filter((name) => name.endsWith('.ts') && !name.startsWith('messages'));
  return new Map(await Promise.all(names.map(async (name) => [name, await read(join(folder, name))] as const)));
}

let program: ts.Program;
let checker: ts.TypeChecker;

/** The string literal values of a type, '' included; none when the type is not made of string literals only. */
function literals(type: ts.Type): string[] | undefined {
  const members = type.isUnion() ? type.types : [type];
  if (!members.every((member) => member.isStringLiteral())) return undefined;
  return sorted(members.map((member) => (member as ts.StringLiteralType).value));
}

/** The values of a type alias exported by a module, from the compiler. */
function aliasValues(path: string, alias: string): string[] {
  const source = program.getSourceFile(join(ROOT, path));
  const declaration = source?.statements.find((statement): statement is ts.TypeAliasDeclaration => ts.isTypeAliasDeclaration(statement) && statement.name.text === alias);
  if (!declaration) throw new Error(`${path} declares no type ${alias}`);
  const values = literals(checker.getTypeAtLocation(declaration.name));
  if (!values) throw new Error(`${alias} is not a union of string literals`);
  return values;
}

/** The type of an element's field as the manifest writes it: a literal union, or `string`, `number`, `boolean`. */
function fieldTypeText(className: string, field: string): string {
  for (const source of program.getSourceFiles()) {
    const declaration = source.statements.find((statement): statement is ts.ClassDeclaration => ts.isClassDeclaration(statement) && statement.name?.text === className);
    if (!declaration) continue;
    const symbol = checker.getTypeAtLocation(declaration).getProperty(field);
    if (!symbol) throw new Error(`${className} has no field ${field}`);
    const type = checker.getTypeOfSymbol(symbol);
    const values = literals(type);
    if (values) return values.map((value) => `'${value}'`).join(' | ');
    return checker.typeToString(checker.getBaseTypeOfLiteralType(type));
  }
  throw new Error(`no class ${className}`);
}

/** A literal union as a sorted list of its values ('' included), to compare unions written in any order. */
const unionValues = (text: string) =>
  text.includes("'")
    ? sorted(text.split('|').map((member) => member.trim().slice(1, -1)))
    : text;

/**
 * Parts written with an expression, and the values the expression takes, from the types and
 * constants the templates use. A new dynamic part fails the test until it is listed here.
 */
function dynamicParts(): Record<string, string[]> {
  return {
    'status-badge status-${status}': ['status-badge', ...aliasValues('src/contract/portal.ts', 'CustomerStatus').map((value) => `status-${value}`)],
    'ksef ksef-${ksef.state}': ['ksef', ...aliasValues('src/contract/ksef.ts', 'KsefState').map((value) => `ksef-${value}`)],
    'pay-outcome pay-outcome-${status}': ['pay-outcome', ...aliasValues('src/contract/sale.ts', 'CheckoutStatus').map((value) => `pay-outcome-${value}`)],
    // toolbar.ts: `choice('period', …)` and `choice('order', …)`, the order's select named for sorting.
    "${key === 'order' ? 'sort' : key}-select": ['period-select', 'sort-select'],
    // invoice-list/summary.ts: `stateBox(part: 'empty' | 'error', …)`.
    '${part}@invoice-list': ['empty', 'error'],
    // product-pay-button/summary.ts: `row(text, amount, part = 'row')`, the total's `'row total'`.
    '${part}@product-pay-button': ['row', 'total'],
  };
}

/** Every part name a folder's templates write. */
function templateParts(tag: string, sources: Map<string, string>): string[] {
  const known = dynamicParts();
  const parts: string[] = [];
  for (const source of sources.values()) {
    for (const [, quoted, bare] of source.matchAll(/\bpart=(?:"([^"]*)"|(\$\{[^}]*\}))/g)) {
      const value = (quoted ?? bare)!;
      if (!value.includes('${')) parts.push(...value.split(/\s+/));
      else {
        const expanded = known[value] ?? known[`${value}@${tag}`];
        if (!expanded) throw new Error(`<${tag}> writes part="${value}": list its values in dynamicParts()`);
        parts.push(...expanded);
      }
    }
  }
  return sorted(parts);
}

/** Every public custom property (`--name`, not the private `--_name`) a set of styles reads. */
const customProperties = (...sources: string[]) => sorted(sources.flatMap((source) => [...source.matchAll(/var\(\s*(--[a-z][a-z0-9-]*)/g)].map(([, name]) => name!)));

/** The JSDoc of a class, as the source writes it. */
function classJsDoc(source: string, className: string): string {
  const match = new RegExp(`/\\*\\*((?:(?!\\*/)[\\s\\S])*)\\*/\\s*export (?:abstract )?class ${className}\\b`).exec(source);
  if (!match) throw new Error(`${className} has no JSDoc`);
  return match[1]!;
}

/** `@attr {type} name` lines, as web-component-analyzer reads them: name → type. */
const jsDocAttributes = (jsDoc: string) => new Map([...jsDoc.matchAll(/^\s*\*\s*@attr(?:ibute)?\s+\{([^}]+)\}\s+([\w-]+)/gm)].map(([, type, name]) => [name!, type!.trim()]));

describe('custom-elements.json', () => {
  let manifest: Manifest;
  let elements: Map<string, Element>;
  let editor: EditorData;
  let sources: Map<string, Map<string, string>>;

  beforeAll(async () => {
    // Variable specifiers: neither module has type declarations.
    const analyzer = '@custom-elements-manifest/analyzer/cli.js';
    const { cli } = (await import(analyzer)) as { cli(options: { argv: string[]; cwd: string; noWrite: boolean }): Promise<Manifest> };
    manifest = await cli({ argv: ['analyze', '--quiet'], cwd: ROOT, noWrite: true });
    elements = new Map(manifest.modules.flatMap((module) => (module.declarations ?? []).filter((d): d is Element => Boolean(d.tagName)).map((d) => [d.tagName, d])));
    editor = (await import(join(ROOT, 'scripts/editor-data.mjs'))) as EditorData;
    sources = new Map(await Promise.all(ELEMENTS.map(async ({ tag, folder }) => [tag, await folderSources(folder)] as const)));
    const parsed = ts.getParsedCommandLineOfConfigFile(join(ROOT, 'tsconfig.json'), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} })!;
    program = ts.createProgram(
      ELEMENTS.map(({ folder, tag }) => join(ROOT, folder, `${tag}.ts`)),
      parsed.options,
    );
    checker = program.getTypeChecker();
  }, 60_000);

  it('is the one the analyzer makes from the sources today (run `npx cem analyze` after changing an element)', async () => {
    expect(JSON.parse(await read('custom-elements.json'))).toEqual(JSON.parse(JSON.stringify(manifest)));
  });

  it('declares the three elements', () => {
    expect(sorted(elements.keys())).toEqual(['client-form', 'invoice-list', 'product-pay-button']);
  });

  describe.each(ELEMENTS)('<$tag>', ({ tag, element, folder }) => {
    const entry = () => elements.get(tag)!;

    it('lists exactly the attributes the class observes, each on a field', () => {
      expect(sorted(entry().attributes!.map((attribute) => attribute.name))).toEqual(sorted(element.observedAttributes));
      for (const attribute of entry().attributes!) expect(attribute.fieldName, attribute.name).toBeTruthy();
    });

    it('types each attribute as its field is typed, aliases written out as their values', () => {
      for (const attribute of entry().attributes!) {
        const actual = fieldTypeText(entry().name, attribute.fieldName!);
        expect(unionValues(attribute.type!.text), `${tag} ${attribute.name}`).toEqual(unionValues(actual));
      }
    });

    it('describes every attribute and gives its default', () => {
      for (const attribute of entry().attributes!) {
        expect(attribute.description, attribute.name).toMatch(/\w/);
        expect(attribute.default, attribute.name).toBeDefined();
      }
    });

    it('lists every part the templates write, each once, each described', () => {
      const parts = entry().cssParts!.map((part) => part.name);
      expect(sorted(parts)).toEqual(templateParts(tag, sources.get(tag)!));
      expect(parts.length).toBe(new Set(parts).size);
      for (const part of entry().cssParts!) expect(part.description, part.name).toMatch(/\w/);
    });

    it('lists every custom property the styles read, theme tokens included, each once with its default', async () => {
      const styles = [...sources.get(tag)!.values(), await read('src/elements/shared/theme.ts')];
      const properties = entry().cssProperties!.map((property) => property.name);
      expect(sorted(properties)).toEqual(customProperties(...styles));
      expect(properties.length).toBe(new Set(properties).size);
      for (const property of entry().cssProperties!) {
        expect(property.description, property.name).toMatch(/\w/);
        expect(property.default, property.name).toMatch(/\S/);
      }
    });

    it('lists every event the element dispatches, by its name and class', async () => {
      const events = (await import(join(ROOT, folder, 'events.ts'))) as Record<string, unknown>;
      const dispatched = new Map<string, string>();
      for (const [file, source] of sources.get(tag)!) {
        if (file === 'events.ts') continue;
        for (const [, className] of source.matchAll(/new (\w+Event)\(/g)) {
          const EventClass = events[className!] as (new (detail: object) => Event) | undefined;
          if (!EventClass) throw new Error(`${file} dispatches ${className}, which ${folder}/events.ts does not export`);
          dispatched.set(new EventClass({}).type, className!);
        }
      }
      expect(new Map(entry().events!.map((event) => [event.name, event.type?.text]))).toEqual(dispatched);
    });

    it('lists every slot the templates have, and otherwise only the light DOM shown until the element is defined', () => {
      const slots = [...sources.get(tag)!.values()].flatMap((source) => [...source.matchAll(/<slot(?:\s+name="([^"]+)")?/g)].map(([, name]) => name ?? ''));
      const listed = entry().slots ?? [];
      expect(sorted(listed.map((slot) => slot.name))).toEqual(sorted([...slots, ...listed.filter((slot) => /until the element is defined/.test(slot.description ?? '')).map((slot) => slot.name)]));
      for (const slot of slots) expect(listed.map((entry) => entry.name)).toContain(slot);
    });

    it('names its tag with @element and every attribute with @attr, as web-component-analyzer reads them', async () => {
      const own = classJsDoc(await read(join(folder, `${tag}.ts`)), entry().name);
      const base = classJsDoc(await read('src/elements/shared/base-element.ts'), 'InvoiceKitElement');
      expect(new RegExp(`^\\s*\\*\\s*@element ${tag}$`, 'm').test(own)).toBe(true);
      const declared = new Map([...jsDocAttributes(base), ...jsDocAttributes(own)]);
      expect(sorted(declared.keys())).toEqual(sorted(element.observedAttributes));
      for (const attribute of entry().attributes!) expect(declared.get(attribute.name), attribute.name).toBe(attribute.type!.text);
    });
  });

  it('gives the attributes with a choice of values their values, in the manifest and in the editor data', () => {
    const choices = [...elements.values()].flatMap((element) =>
      element.attributes!.filter((attribute) => editor.literalValues(attribute.type!.text).length).map((attribute) => `${element.tagName} ${attribute.name}: ${sorted(editor.literalValues(attribute.type!.text)).join(' ')}`),
    );
    expect(choices.sort()).toEqual([
      'client-form mode: create edit',
      'client-form theme: auto dark light',
      'invoice-list order: issue_date.asc issue_date.desc payment_to.asc payment_to.desc price_gross.asc price_gross.desc',
      'invoice-list paging: pages scroll',
      'invoice-list period: all last_12_months last_30_days last_month last_year this_month this_year',
      'invoice-list status: outstanding overdue paid partial unpaid',
      'invoice-list theme: auto dark light',
      'product-pay-button theme: auto dark light',
    ]);
  });

  it('ships the editor data in the elements package, named where JetBrains IDEs look', async () => {
    const elementsPackage = JSON.parse(await read('packages/elements/package.json')) as { 'web-types': string; files: string[]; exports: Record<string, unknown> };
    expect(elementsPackage['web-types']).toBe('./web-types.json');
    for (const file of ['vscode.html-custom-data.json', 'vscode.css-custom-data.json', 'web-types.json']) {
      expect(elementsPackage.files).toContain(file);
      expect(elementsPackage.exports[`./${file}`]).toBe(`./${file}`);
    }
    expect(await read('scripts/assemble-packages.mjs')).toContain('editorData(elementsManifest');
  });

  it('makes VS Code and JetBrains data that offer every attribute, value, part and custom property', () => {
    const files = editor.editorData(manifest, { name: '@invoicekit/elements', version: '1.2.3' });
    expect(Object.keys(files).sort()).toEqual(['vscode.css-custom-data.json', 'vscode.html-custom-data.json', 'web-types.json']);
    const html = JSON.parse(files['vscode.html-custom-data.json']!) as { version: number; tags: { name: string; attributes: { name: string; values?: { name: string }[]; valueSet?: string }[] }[] };
    const css = JSON.parse(files['vscode.css-custom-data.json']!) as { properties: { name: string }[]; pseudoElements: { name: string }[] };
    const webTypes = JSON.parse(files['web-types.json']!) as {
      name: string;
      version: string;
      contributions: { html: { elements: { name: string; attributes: { name: string; values?: { name: string }[] }[]; js: { events: { name: string }[] }; css: { parts: { name: string }[]; properties: { name: string }[] } }[] } };
    };
    expect(html.version).toBe(1.1);
    expect([webTypes.name, webTypes.version]).toEqual(['@invoicekit/elements', '1.2.3']);
    const mode = html.tags.find((tag) => tag.name === 'client-form')!.attributes.find((attribute) => attribute.name === 'mode');
    expect(mode?.values).toEqual([{ name: 'create' }, { name: 'edit' }]);
    expect(html.tags.find((tag) => tag.name === 'client-form')!.attributes.find((attribute) => attribute.name === 'disabled')?.valueSet).toBe('v');
    for (const element of elements.values()) {
      const names = (entries: Entry[] | undefined) => sorted((entries ?? []).map((e) => e.name));
      const tag = html.tags.find((candidate) => candidate.name === element.tagName)!;
      const typed = webTypes.contributions.html.elements.find((candidate) => candidate.name === element.tagName)!;
      expect(sorted(tag.attributes.map((a) => a.name))).toEqual(names(element.attributes));
      expect(sorted(typed.attributes.map((a) => a.name))).toEqual(names(element.attributes));
      for (const attribute of element.attributes!) {
        const values = editor.literalValues(attribute.type!.text).map((name) => ({ name }));
        expect(tag.attributes.find((a) => a.name === attribute.name)!.values ?? [], attribute.name).toEqual(values);
        expect(typed.attributes.find((a) => a.name === attribute.name)!.values ?? [], attribute.name).toEqual(values);
      }
      expect(sorted(typed.js.events.map((e) => e.name))).toEqual(names(element.events));
      expect(sorted(typed.css.parts.map((p) => p.name))).toEqual(names(element.cssParts));
      expect(sorted(typed.css.properties.map((p) => p.name))).toEqual(names(element.cssProperties));
      for (const property of element.cssProperties!) expect(css.properties.map((p) => p.name)).toContain(property.name);
      for (const part of element.cssParts!) expect(css.pseudoElements.map((p) => p.name)).toContain(`::part(${part.name})`);
    }
  });
});
