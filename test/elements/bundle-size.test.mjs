// The weight a page pays for each element: its dist module and everything it imports up front (Lit,
// @lit/task, ky and our shared code), bundled and minified with esbuild and gzipped at level 9.
// Translations other than English load only on pages in that language; they are reported separately.
// Run after `npm run build`: node --test test/elements/bundle-size.test.mjs
import assert from 'node:assert/strict';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

const BUDGET_BYTES = 20 * 1024;
const elements = (await readdir('dist/elements')).filter((name) => name.endsWith('.js'));

const gzipSize = async (file) => gzipSync(await readFile(file), { level: 9 }).length;

test('the build wrote one module per element', () => {
  assert.ok(elements.includes('invoice-list.js'), 'dist/elements/invoice-list.js is missing: run npm run build');
});

for (const element of elements) {
  test(`${element} with everything it loads up front stays within ${BUDGET_BYTES} bytes gzipped`, async () => {
    const outdir = await mkdtemp(join(tmpdir(), 'invoicekit-size-'));
    try {
      const result = await build({
        entryPoints: [join('dist/elements', element)],
        bundle: true,
        minify: true,
        format: 'esm',
        splitting: true,
        outdir,
        metafile: true,
        logLevel: 'silent',
      });
      const outputs = result.metafile.outputs;
      const entry = Object.keys(outputs).find((file) => outputs[file].entryPoint);
      // The entry and its static imports, followed transitively.
      const upFront = new Set();
      const visit = (file) => {
        if (upFront.has(file)) return;
        upFront.add(file);
        for (const imported of outputs[file].imports) if (imported.kind === 'import-statement') visit(imported.path);
      };
      visit(entry);
      let total = 0;
      for (const file of upFront) total += await gzipSize(file);
      const lazy = Object.keys(outputs).filter((file) => !upFront.has(file) && file.endsWith('.js'));
      const lazySizes = await Promise.all(lazy.map(async (file) => `${file.split('/').at(-1)} +${await gzipSize(file)} B`));
      console.log(`${element}: ${total} B gzipped up front (budget ${BUDGET_BYTES} B)${lazySizes.length ? `; loaded on demand: ${lazySizes.join(', ')}` : ''}`);
      assert.ok(total <= BUDGET_BYTES, `${element} weighs ${total} B gzipped, over the ${BUDGET_BYTES} B budget`);
      const bundled = Object.keys(result.metafile.inputs);
      assert.ok(bundled.some((input) => input.includes('node_modules/lit-html/')), 'Lit is counted');
      assert.ok(bundled.some((input) => input.includes('node_modules/ky/')), 'ky is counted');
      assert.ok(!bundled.some((input) => input.includes('node_modules/zod/')), 'zod stays out of the element');
    } finally {
      await rm(outdir, { recursive: true, force: true });
    }
  });
}
