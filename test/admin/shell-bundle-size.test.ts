import { build } from 'esbuild';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';

/**
 * The back office's script, bundled as the service bundles it for a checkout of the sources (one
 * minified ES module, `src/admin/main.ts` and everything it imports), within its budget
 * (docs/decisions/back-office.md, "Bundle").
 */
const ADMIN_BUDGET = 48 * 1024;

async function adminBundle(): Promise<{ code: string; inputs: string[] }> {
  const result = await build({
    entryPoints: ['src/admin/main.ts'],
    bundle: true,
    format: 'esm',
    minify: true,
    write: false,
    metafile: true,
    target: 'es2021',
    legalComments: 'none',
    logLevel: 'silent',
    tsconfigRaw: { compilerOptions: { useDefineForClassFields: false, experimentalDecorators: true } },
  });
  const output = Object.values(result.metafile.outputs)[0]!;
  return { code: result.outputFiles[0]!.text, inputs: Object.keys(output.inputs) };
}

describe('the back office bundle', () => {
  it('is one module that loads nothing more, within its budget', async () => {
    const { code, inputs } = await adminBundle();
    expect(code).not.toMatch(/\bimport\s*\(/);
    expect(code).not.toMatch(/^\s*import\b/m);
    const gzipped = gzipSync(code, { level: 9 }).length;
    expect(gzipped, `admin.js is ${(gzipped / 1024).toFixed(1)} KB min+gzip`).toBeLessThanOrEqual(ADMIN_BUDGET);
    // The pay button of the embed-code builder is the element itself, not a copy.
    expect(inputs).toContain('src/elements/product-pay-button/product-pay-button.ts');
    expect(inputs.filter((input) => input.startsWith('src/') && !/^src\/(admin|elements|kernel|contract)\//.test(input))).toEqual([]);
  });
});
