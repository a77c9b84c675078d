// The weight a page pays for each element: its dist module bundled with everything it imports (Lit
// and our shared code) and with the translations it loads on demand inlined, as one plain bundle
// without code splitting, minified with esbuild and gzipped at level 9.
// Run after `npm run build`: node --test test/elements/bundle-size.test.mjs
import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

/** Each element's budget, and why (`size-budgets.json`, which `npm run bench` reports against too). */
const budgets = JSON.parse(await readFile(new URL('./size-budgets.json', import.meta.url), 'utf8'));
const BUDGETS = budgets.bytes;
const DEFAULT_BUDGET_BYTES = budgets.defaultBytes;
// `index.js` registers every element at once (the package root in Node); it is weighed as invoicekit.js below.
const elements = (await readdir('dist/elements')).filter((name) => name.endsWith('.js') && name !== 'index.js');

test('the build wrote one module per element', () => {
  for (const element of Object.keys(BUDGETS)) assert.ok(elements.includes(element), `dist/elements/${element} is missing: run npm run build`);
});

for (const element of elements) {
  const BUDGET_BYTES = BUDGETS[element] ?? DEFAULT_BUDGET_BYTES;
  test(`${element}, bundled with everything it imports, stays within ${BUDGET_BYTES} bytes gzipped`, async () => {
    const result = await build({
      entryPoints: [join('dist/elements', element)],
      bundle: true,
      minify: true,
      format: 'esm',
      write: false,
      metafile: true,
      logLevel: 'silent',
    });
    assert.equal(result.outputFiles.length, 1, 'one bundle, with the lazily loaded translations inlined');
    const code = result.outputFiles[0].contents;
    const gzipped = gzipSync(code, { level: 9 }).length;
    console.log(`${element}: ${gzipped} B gzipped, ${code.length} B minified (budget ${BUDGET_BYTES} B gzipped)`);
    assert.ok(gzipped <= BUDGET_BYTES, `${element} weighs ${gzipped} B gzipped, over the ${BUDGET_BYTES} B budget`);

    const bundled = Object.keys(result.metafile.inputs);
    assert.ok(bundled.some((input) => input.includes('node_modules/lit-html/')), 'Lit is counted');
    assert.ok(!bundled.some((input) => input.includes('node_modules/ky/')), 'the element talks to the BFF with fetch, not ky');
    assert.ok(bundled.some((input) => /messages\.pl-[\w-]+\.js$/.test(input)), 'the Polish catalog is counted');
    assert.ok(!bundled.some((input) => input.includes('node_modules/zod/')), 'zod stays out of the element');
    const text = Buffer.from(code).toString();
    assert.ok(!text.includes('is not valid; expected'), 'development warnings are not shipped in the production module');
  });
}

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
