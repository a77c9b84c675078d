import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * No source file of the project is longer than 500 lines: the product's modules, their tests, the
 * scripts, benchmarks, stories, the demo and the WordPress plugin alike, schemas and styles included.
 * Only what we did not write by hand is left out: installed packages, build output, vendored
 * third-party files and files whose name says they are generated. A longer file is split along its
 * seams instead.
 */
const LIMIT = 500;
const root = fileURLToPath(new URL('../..', import.meta.url));

/** The folders every source file lives in; each must hold at least one. */
const ROOTS = ['src', 'test', 'scripts', 'bench', 'stories', 'demo', 'wordpress'];

/** A source file, by its name. */
const isSource = (name: string) => /\.(ts|tsx|js|mjs|cjs|php)$/.test(name);

/** Not ours to size: a vendored third-party file, or one a tool generated (`name.generated.ts`). */
const exempt = (path: string) => /(^|\/)(vendor|third[-_]party)\//.test(path) || /\.generated\.\w+$/.test(path);

/** Folders that hold no sources of ours: git's, and what `.gitignore` names as a folder (installs, builds, data). */
async function skippedFolders(): Promise<Set<string>> {
  const ignored = (await readFile(join(root, '.gitignore'), 'utf8')).split('\n').map((line) => line.trim());
  return new Set(['.git', ...ignored.filter((line) => /^[\w.-]+\/$/.test(line)).map((line) => line.slice(0, -1))]);
}

async function* sources(dir: string, skipped: Set<string>): AsyncGenerator<string> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (!skipped.has(entry.name)) yield* sources(path, skipped);
    } else if (entry.isFile() && isSource(entry.name)) yield path;
  }
}

describe('module size', () => {
  it(`keeps every source file of the project within ${LIMIT} lines`, async () => {
    const skipped = await skippedFolders();
    const long: string[] = [];
    const counted = new Map<string, number>();
    for await (const path of sources(root, skipped)) {
      const name = relative(root, path);
      if (exempt(name)) continue;
      const top = name.includes('/') ? name.slice(0, name.indexOf('/')) : '.';
      counted.set(top, (counted.get(top) ?? 0) + 1);
      const lines = (await readFile(path, 'utf8')).split('\n').length - 1;
      if (lines > LIMIT) long.push(`${name}: ${lines} lines`);
    }
    expect(ROOTS.filter((folder) => !counted.has(folder)), 'folders with no source file counted').toEqual([]);
    expect(counted.get('src')).toBeGreaterThan(300);
    expect(counted.get('test')).toBeGreaterThan(150);
    expect(long).toEqual([]);
  });

  it('skips installs and build output, and counts the folders beside them', async () => {
    const skipped = await skippedFolders();
    for (const folder of ['.git', 'node_modules', 'dist', 'storybook-static', 'coverage']) expect(skipped.has(folder), folder).toBe(true);
    for (const folder of [...ROOTS, 'packages', '.storybook']) expect(skipped.has(folder), folder).toBe(false);
  });

  it('counts every kind of source file', () => {
    for (const name of ['a.ts', 'a.d.ts', 'a.tsx', 'a.js', 'a.mjs', 'a.cjs', 'render.php']) expect(isSource(name), name).toBe(true);
    for (const name of ['a.json', 'a.md', 'a.css', 'a.html', 'a.ts.snap', 'a.php.txt']) expect(isSource(name), name).toBe(false);
  });

  it('exempts only vendored and generated files, not schemas or styles', () => {
    expect(exempt('src/api/schemas/invoice.ts')).toBe(false);
    expect(exempt('src/service/ksef/schemas/fa3.ts')).toBe(false);
    expect(exempt('src/elements/invoice-list/invoice-list.styles.ts')).toBe(false);
    expect(exempt('src/elements/invoice-list/invoice-list.ts')).toBe(false);
    expect(exempt('src/service/schemas-helper.ts')).toBe(false);
    expect(exempt('src/service/generator.ts')).toBe(false);
    expect(exempt('test/service/generated-numbers.test.ts')).toBe(false);
    expect(exempt('src/elements/shared/messages.generated.ts')).toBe(true);
    expect(exempt('bench/results.generated.mjs')).toBe(true);
    expect(exempt('wordpress/vendor/some-library/class-library.php')).toBe(true);
    expect(exempt('demo/third_party/chart.js')).toBe(true);
    expect(exempt('src/service/vendors.ts')).toBe(false);
  });
});
