import { createHash } from 'node:crypto';
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The `<product-pay-button>` bundle the widget script loads: one classic script (an IIFE with Lit
 * inside), so it runs on any page, module-capable or not.
 *
 * An installed package serves the file `npm run build` wrote to `dist/widget/`. A checkout of the
 * sources (`npm start`, the tests) whose elements changed after the last build bundles them once
 * with esbuild instead, so the widget never serves a stale button.
 */
export interface WidgetBundle {
  code: string;
  /** Short content hash: the bundle's address carries it, so it can be cached for a year. */
  hash: string;
}

const ROOT = new URL('../../../', import.meta.url);
const BUILT = fileURLToPath(new URL('dist/widget/product-pay-button.js', ROOT));
const SOURCES = fileURLToPath(new URL('src/elements/', ROOT));
const ENTRY = join(SOURCES, 'product-pay-button', 'define.ts');

async function newestSource(dir: string): Promise<number> {
  let newest = 0;
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? await newestSource(path) : (await stat(path)).mtimeMs);
  }
  return newest;
}

async function bundleSources(): Promise<string | undefined> {
  let esbuild: typeof import('esbuild');
  try {
    esbuild = await import('esbuild');
  } catch {
    return undefined;
  }
  const result = await esbuild.build({
    entryPoints: [ENTRY],
    bundle: true,
    format: 'iife',
    minify: true,
    write: false,
    target: 'es2021',
    legalComments: 'none',
    // Lit's reactive properties need TypeScript's class-field semantics (STYLE.md).
    tsconfigRaw: { compilerOptions: { useDefineForClassFields: false, experimentalDecorators: true } },
  });
  return result.outputFiles[0]!.text;
}

async function locateBundle(): Promise<string> {
  const built = await stat(BUILT).then((s) => s.mtimeMs, () => undefined);
  const sources = await newestSource(SOURCES).catch(() => undefined);
  if (built !== undefined && (sources === undefined || built >= sources)) return readFile(BUILT, 'utf8');
  const code = sources !== undefined ? await bundleSources() : undefined;
  if (code) return code;
  if (built !== undefined) return readFile(BUILT, 'utf8');
  throw new Error('The widget bundle is missing: run `npm run build`.');
}

let bundle: Promise<WidgetBundle> | undefined;

export function widgetBundle(): Promise<WidgetBundle> {
  bundle ??= locateBundle().then(
    (code) => ({ code, hash: createHash('sha256').update(code).digest('base64url').slice(0, 16) }),
    (error: unknown) => {
      bundle = undefined;
      throw error;
    },
  );
  return bundle;
}
