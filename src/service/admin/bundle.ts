import { createHash } from 'node:crypto';
import { readdir, readFile, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The back office's script: one ES module with Lit and its views inside, bundled apart from the
 * elements. An installed package serves what `npm run build` wrote to `dist/admin/admin.js`; a
 * checkout of the sources whose `src/admin/` changed after the last build bundles `src/admin/main.ts`
 * once with esbuild instead, as the widget's bundle does (`public/widget-bundle.ts`).
 */
export interface AdminBundle {
  code: string;
  /** Short content hash: the shell asks for `admin.js?v=<hash>`, so a new build is never a stale cache. */
  hash: string;
}

const ROOT = new URL('../../../', import.meta.url);
export const ADMIN_BUILT = fileURLToPath(new URL('dist/admin/admin.js', ROOT));
export const ADMIN_ENTRY = fileURLToPath(new URL('src/admin/main.ts', ROOT));

async function newestSource(dir: string): Promise<number> {
  let newest = 0;
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? await newestSource(path) : (await stat(path)).mtimeMs);
  }
  return newest;
}

/** Bundles an entry module (and everything it imports) as one minified ES module; `undefined` without esbuild. */
export async function bundleAdminEntry(entry: string): Promise<string | undefined> {
  let esbuild: typeof import('esbuild');
  try {
    esbuild = await import('esbuild');
  } catch {
    return undefined;
  }
  const result = await esbuild.build({
    entryPoints: [entry],
    bundle: true,
    format: 'esm',
    minify: true,
    write: false,
    target: 'es2021',
    legalComments: 'none',
    // Lit's reactive properties need TypeScript's class-field semantics (STYLE.md).
    tsconfigRaw: { compilerOptions: { useDefineForClassFields: false, experimentalDecorators: true } },
  });
  return result.outputFiles[0]!.text;
}

/** The built file when it is newer than the sources, else the sources bundled now, else the built file. */
export async function locateAdminBundle(entry = ADMIN_ENTRY, built = ADMIN_BUILT): Promise<string> {
  const builtAt = await stat(built).then((s) => s.mtimeMs, () => undefined);
  const sources = await stat(entry).then(() => newestSource(dirname(entry)), () => undefined);
  if (builtAt !== undefined && (sources === undefined || builtAt >= sources)) return readFile(built, 'utf8');
  const code = sources !== undefined ? await bundleAdminEntry(entry) : undefined;
  if (code) return code;
  if (builtAt !== undefined) return readFile(built, 'utf8');
  throw new Error('The back office bundle is missing: run `npm run build`.');
}

let bundle: Promise<AdminBundle> | undefined;

/** The back office's bundle, made once per process. */
export function adminBundle(): Promise<AdminBundle> {
  bundle ??= locateAdminBundle().then(
    (code) => ({ code, hash: createHash('sha256').update(code).digest('base64url').slice(0, 16) }),
    (error: unknown) => {
      bundle = undefined;
      throw error;
    },
  );
  return bundle;
}
