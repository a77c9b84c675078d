import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * No module in `src/` is longer than 500 lines, outside schemas (`schemas/` folders: the shapes of
 * the wire and of the KSeF documents, one field per line), styles (`*.styles.ts`, CSS) and
 * generated files. A longer module is split along its seams instead.
 */
const LIMIT = 500;
const root = fileURLToPath(new URL('../..', import.meta.url));
const exempt = (path: string) => /(^|\/)schemas\//.test(path) || /\.styles\.ts$/.test(path) || /\.generated\.\w+$/.test(path);

async function* modules(dir: string): AsyncGenerator<string> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* modules(path);
    else if (/\.(ts|js|mjs)$/.test(entry.name)) yield path;
  }
}

describe('module size', () => {
  it(`keeps every module in src/ within ${LIMIT} lines, schemas, styles and generated files aside`, async () => {
    const long: string[] = [];
    let counted = 0;
    for await (const path of modules(join(root, 'src'))) {
      const name = relative(root, path);
      if (exempt(name)) continue;
      counted += 1;
      const lines = (await readFile(path, 'utf8')).split('\n').length - 1;
      if (lines > LIMIT) long.push(`${name}: ${lines} lines`);
    }
    expect(counted).toBeGreaterThan(100);
    expect(long).toEqual([]);
  });

  it('exempts only schemas, styles and generated files', () => {
    expect(exempt('src/api/schemas/invoice.ts')).toBe(true);
    expect(exempt('src/service/ksef/schemas/fa3.ts')).toBe(true);
    expect(exempt('src/elements/invoice-list/invoice-list.styles.ts')).toBe(true);
    expect(exempt('src/elements/invoice-list/invoice-list.ts')).toBe(false);
    expect(exempt('src/service/schemas-helper.ts')).toBe(false);
  });
});
