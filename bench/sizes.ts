import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { builtElements, bundle, splitBundle } from './kits.js';
import { entry, type Entry } from './report.js';

/** The element budgets of the size test (`test/elements/bundle-size.test.mjs`), in bytes gzipped. */
const budgets = JSON.parse(await readFile(new URL('../test/elements/size-budgets.json', import.meta.url), 'utf8')) as {
  defaultBytes: number;
  bytes: Record<string, number>;
  defaultFirstLoadBytes: number;
  firstLoadBytes: Record<string, number>;
  /** Issue 45's figures, which the bench reports each element against. */
  issueTargets: Record<string, { firstLoad: number; all: number }>;
};

const LIT_ALONE = `
import { LitElement, html, css } from 'lit';
import { property } from 'lit/decorators.js';
class TinyElement extends LitElement {
  static styles = css\`:host { display: block }\`;
  render() { return html\`<p>\${this.label}</p>\`; }
}
property({ type: String })(TinyElement.prototype, 'label');
customElements.define('tiny-element', TinyElement);
`;

const gzipBytes = (code: Uint8Array) => gzipSync(code, { level: 9 }).length;
const gzipKb = (code: Uint8Array) => gzipBytes(code) / 1024;
const brotliKb = (code: Uint8Array) =>
  brotliCompressSync(code, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: code.length } }).length / 1024;

/**
 * Builds the production element modules (`vite build`, as the package ships them) into a temp
 * folder, then bundles each with everything it imports and minifies it as the size test does.
 * Each is also bundled with code splitting, as a page loads it: its first load is the chunks it
 * fetches before it shows anything. Also writes the whole kit as one file, and each element's split
 * chunks in a folder of its own under `split`, for the browser figures.
 */
export async function measureSizes(root: string): Promise<{ entries: Entry[]; kitPath: string; splitDir: string }> {
  const { out, modules, kit: kitInput } = await builtElements(root);
  const lit = await bundle({ contents: LIT_ALONE, resolveDir: root }, root);
  const litGzip = gzipKb(lit);
  const entries: Entry[] = [
    entry({ name: 'size: Lit alone (a tiny element), min+gzip', value: gzipBytes(lit), unit: 'B', baseline: null, note: `brotli ${brotliKb(lit).toFixed(1)} KB` }),
  ];
  // Element weights in bytes, against issue 45's figures; the size test's budget is in the note.
  const budgetNote = (bytes: number) => `the size test holds ${bytes.toLocaleString('en-US')} B`;
  for (const module of modules) {
    const code = await bundle({ entry: join(out, 'elements', module) }, root);
    const tag = module.replace(/\.js$/, '');
    const target = budgets.issueTargets[module];
    const budget = budgets.bytes[module] ?? budgets.defaultBytes;
    entries.push(
      entry({
        name: `size: <${tag}> with all it may load, min+gzip`,
        value: gzipBytes(code),
        unit: 'B',
        baseline: gzipBytes(lit),
        baselineName: 'Lit alone',
        ...(target ? { target: { on: 'value' as const, op: '<=' as const, limit: target.all } } : {}),
        note: `one bundle, what loads on demand inlined; ${budgetNote(budget)}`,
      }),
      entry({ name: `size: <${tag}> with all it may load, min+brotli`, value: brotliKb(code), unit: 'KB', baseline: brotliKb(lit), baselineName: 'Lit alone' }),
    );
    const split = await splitBundle(join(out, 'elements', module), join(out, 'split', tag), root);
    const sum = (paths: string[]) => paths.reduce((total, path) => total + split.gzipped.get(path)!, 0);
    entries.push(
      entry({
        name: `size: <${tag}> first load, min+gzip`,
        value: sum(split.first),
        unit: 'B',
        baseline: gzipBytes(lit),
        baselineName: 'Lit alone',
        ...(target ? { target: { on: 'value' as const, op: '<=' as const, limit: target.firstLoad } } : {}),
        note: `${split.first.length} of ${split.all.length} chunks, each gzipped alone; ${budgetNote(budgets.firstLoadBytes[module] ?? budgets.defaultFirstLoadBytes)}`,
      }),
    );
  }
  const kit = await bundle(kitInput, root);
  entries.push(
    entry({ name: 'size: the kit (every element), min+gzip', value: gzipKb(kit), unit: 'KB', baseline: litGzip, baselineName: 'Lit alone' }),
    entry({ name: 'size: the kit (every element), min+brotli', value: brotliKb(kit), unit: 'KB', baseline: brotliKb(lit), baselineName: 'Lit alone' }),
  );
  const kitPath = join(out, 'kit.js');
  await writeFile(kitPath, kit);
  return { entries, kitPath, splitDir: join(out, 'split') };
}
