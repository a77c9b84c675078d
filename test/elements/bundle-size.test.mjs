// The weight a page pays for each element, twice, minified by esbuild and gzipped at level 9
// (docs/decisions/element-loading.md):
// - first load: its dist module bundled with code splitting, and the chunks it imports statically,
//   each gzipped on its own as a browser fetches it: what the page loads before the element shows;
// - everything it may load: its dist module bundled with everything it imports (Lit and our shared
//   code) and what it loads on demand (the buy button's dialog, the list's KSeF detail, the
//   translations) inlined, as one plain bundle. The split chunks, each gzipped alone, weigh more than
//   that: their sum is printed beside it.
// Run after `npm run build`: node --test test/elements/bundle-size.test.mjs
import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

/** Each element's budgets, and why (`size-budgets.json`, which `npm run bench` reports against too). */
const budgets = JSON.parse(await readFile(new URL('./size-budgets.json', import.meta.url), 'utf8'));
/** Everything an element may load. */
const BUDGETS = budgets.bytes;
const DEFAULT_BUDGET_BYTES = budgets.defaultBytes;
/** What a page fetches before the element shows anything. */
const FIRST_LOAD = budgets.firstLoadBytes;
const DEFAULT_FIRST_LOAD_BYTES = budgets.defaultFirstLoadBytes;
// `index.js` registers every element at once (the package root in Node); it is weighed as invoicekit.js below.
const elements = (await readdir('dist/elements')).filter((name) => name.endsWith('.js') && name !== 'index.js');

test('the build wrote one module per element', () => {
  for (const element of Object.keys(BUDGETS)) assert.ok(elements.includes(element), `dist/elements/${element} is missing: run npm run build`);
});

/**
 * The element bundled with code splitting: its entry chunk, the chunks it reaches by static imports
 * (first load), and all chunks it reaches at all (everything), each with its size gzipped on its own.
 */
async function weigh(element) {
  const result = await build({
    entryPoints: [join('dist/elements', element)],
    bundle: true,
    splitting: true,
    minify: true,
    format: 'esm',
    outdir: 'weighed',
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
  const outputs = result.metafile.outputs;
  const code = new Map(result.outputFiles.map((file) => [file.path.slice(file.path.lastIndexOf('/weighed/') + 1), file.contents]));
  const entry = Object.keys(outputs).find((path) => outputs[path].entryPoint === join('dist/elements', element));
  const reach = (kinds) => {
    const seen = new Set([entry]);
    for (const path of seen) for (const next of outputs[path].imports) if (kinds.includes(next.kind) && next.path in outputs) seen.add(next.path);
    return [...seen];
  };
  const measure = (paths) => ({
    paths,
    gzipped: paths.reduce((sum, path) => sum + gzipSync(code.get(path), { level: 9 }).length, 0),
    inputs: paths.flatMap((path) => Object.keys(outputs[path].inputs)),
    text: paths.map((path) => Buffer.from(code.get(path)).toString()).join('\n'),
  });
  const whole = await build({ entryPoints: [join('dist/elements', element)], bundle: true, minify: true, format: 'esm', write: false, metafile: true, logLevel: 'silent' });
  assert.equal(whole.outputFiles.length, 1, 'one bundle, with what loads on demand inlined');
  const all = {
    gzipped: gzipSync(whole.outputFiles[0].contents, { level: 9 }).length,
    inputs: Object.keys(whole.metafile.inputs),
    text: Buffer.from(whole.outputFiles[0].contents).toString(),
  };
  return { first: measure(reach(['import-statement'])), all, chunks: measure(reach(['import-statement', 'dynamic-import'])), outputs };
}

/** The largest modules in the given chunks, minified bytes: where the weight is when a budget is missed. */
const largest = (outputs, paths) =>
  paths
    .flatMap((path) => Object.entries(outputs[path].inputs))
    .sort((a, b) => b[1].bytesInOutput - a[1].bytesInOutput)
    .slice(0, 6)
    .map(([input, { bytesInOutput }]) => `${input.replace(/^.*node_modules\//, '')} ${bytesInOutput} B`)
    .join(', ');

for (const element of elements) {
  const BUDGET_BYTES = BUDGETS[element] ?? DEFAULT_BUDGET_BYTES;
  const FIRST_LOAD_BYTES = FIRST_LOAD[element] ?? DEFAULT_FIRST_LOAD_BYTES;
  test(`${element} loads at most ${FIRST_LOAD_BYTES} bytes gzipped first, and at most ${BUDGET_BYTES} bytes with all it may load`, async () => {
    const { first, all, chunks, outputs } = await weigh(element);
    console.log(
      `${element}: first load ${first.gzipped} B gzipped in ${first.paths.length} chunks (budget ${FIRST_LOAD_BYTES} B), ` +
        `everything ${all.gzipped} B in one bundle (budget ${BUDGET_BYTES} B), ${chunks.gzipped} B as ${chunks.paths.length} chunks`,
    );
    assert.ok(first.gzipped <= FIRST_LOAD_BYTES, `${element} loads ${first.gzipped} B gzipped first, over the ${FIRST_LOAD_BYTES} B budget: ${largest(outputs, first.paths)}`);
    assert.ok(all.gzipped <= BUDGET_BYTES, `${element} may load ${all.gzipped} B gzipped in all, over the ${BUDGET_BYTES} B budget: ${largest(outputs, chunks.paths)}`);

    assert.ok(first.inputs.some((input) => input.includes('node_modules/lit-html/')), 'Lit is counted in the first load');
    assert.ok(!all.inputs.some((input) => input.includes('node_modules/ky/')), 'the element talks to the BFF with fetch, not ky');
    assert.ok(all.inputs.some((input) => /messages\.pl-[\w-]+\.js$/.test(input)), 'the Polish catalog is counted');
    assert.ok(!all.inputs.some((input) => input.includes('node_modules/zod/')), 'zod stays out of the element');
    assert.ok(!all.text.includes('is not valid; expected'), 'development warnings are not shipped in the production module');
  });
}

test('the pay button carries no buyer rules: the server’s quote names every problem, check digits included', async () => {
  // Its sources, by esbuild's metafile: none of the checkout's buyer rules, not even tax numbers' shapes.
  const sources = await build({ entryPoints: ['src/elements/product-pay-button/define.ts'], bundle: true, format: 'esm', write: false, metafile: true, logLevel: 'silent' });
  const inputs = Object.keys(sources.metafile.inputs);
  assert.deepEqual(inputs.filter((input) => /kernel\/(checkout(-buyer)?|validation\/(vat-numbers|client))\.ts$/.test(input)), []);
  // Its build, every chunk it may load: none holds the rules' tables (Spain's check letters, Poland's post code, the e-mail pattern).
  const { chunks } = await weigh('product-pay-button.js');
  assert.ok(!chunks.text.includes('TRWAGMYFPDXBNJZSQVHLCKE'), 'the EU VAT check digits are in a chunk the pay button loads');
  assert.ok(!chunks.text.includes('{2}-\\\\d{3}'), 'the post codes are in a chunk the pay button loads');
  // Nor does the client form: the BFF's client check gives the rules' verdict (docs/decisions/client-form-weight.md).
  const form = await weigh('client-form.js');
  for (const rule of ['TRWAGMYFPDXBNJZSQVHLCKE', '{2}-\\\\d{3}']) assert.ok(!form.all.text.includes(rule), `the client form loads the client rules (${rule})`);
});

test('the development build keeps the warnings for bad attribute values', async () => {
  const dev = await readdir('dist/dev/elements');
  assert.ok(dev.includes('invoice-list.js'), 'dist/dev/elements/invoice-list.js is missing: run npm run build');
  const result = await build({ entryPoints: ['dist/dev/elements/invoice-list.js'], bundle: true, write: false, logLevel: 'silent' });
  assert.ok(Buffer.from(result.outputFiles[0].contents).toString().includes('is not valid; expected'));
});

test('the classic scripts register the elements without modules', async () => {
  const { readFile } = await import('node:fs/promises');
  const classic = await readFile('dist/invoicekit.classic.js', 'utf8');
  const widget = await readFile('dist/widget/product-pay-button.js', 'utf8');
  for (const [name, code] of [['invoicekit.classic.js', classic], ['widget/product-pay-button.js', widget]]) {
    assert.ok(!/^\s*(import|export)\b/m.test(code), `${name} is a classic script`);
    assert.ok(code.includes('product-pay-button'), `${name} defines <product-pay-button>`);
  }
  assert.ok(classic.includes('invoice-list'), 'the classic bundle holds every element');
});

test('the docs give the one-file bundles’ weights as measured', async () => {
  const { readFile } = await import('node:fs/promises');
  const cms = await readFile('docs/cms.md', 'utf8');
  for (const file of ['invoicekit.js']) {
    const gzipped = gzipSync(await readFile(join('dist', file)), { level: 9 }).length;
    const stated = new RegExp(`\`dist/${file.replace('.', '\\.')}\` is one minified module \\(about (\\d+) KB gzipped\\)`).exec(cms);
    assert.ok(stated, `docs/cms.md states the weight of dist/${file}`);
    const kb = gzipped / 1024;
    console.log(`${file}: ${gzipped} B gzipped (${kb.toFixed(1)} KB); docs/cms.md says about ${stated[1]} KB`);
    assert.ok(Math.abs(Number(stated[1]) - kb) <= Math.max(1, kb * 0.1), `docs/cms.md says about ${stated[1]} KB; it is ${kb.toFixed(1)} KB`);
  }
});
