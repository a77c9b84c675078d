import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * A browser bundle the service serves itself (the widget's button, the back office): an installed
 * package serves the file `npm run build` wrote under `dist/`; a checkout of the sources whose code
 * changed after the last build bundles the entry once with esbuild instead, so a page never gets a
 * stale script.
 */
export interface SourceBundle {
  code: string;
  /** Short content hash: the bundle's address carries it, so it can be cached for a year. */
  hash: string;
}

/**
 * The package's own folder, the nearest one above this module holding a `package.json`: `src/…`
 * in a checkout, `node_modules/invoicekit/dist/lib/…` once installed, whose depths differ.
 */
export function packageRoot(from: string = fileURLToPath(import.meta.url)): string {
  for (let dir = dirname(from); ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    if (dirname(dir) === dir) throw new Error(`No package.json above ${from}`);
  }
}

/** The newest change under any of `dirs` (ms), `undefined` when none of them exists (an installed package). */
export async function newestSource(dirs: readonly string[]): Promise<number | undefined> {
  const walk = async (dir: string): Promise<number> => {
    let newest = 0;
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      newest = Math.max(newest, entry.isDirectory() ? await walk(path) : (await stat(path)).mtimeMs);
    }
    return newest;
  };
  const found = await Promise.all(dirs.map((dir) => walk(dir).catch(() => undefined)));
  const times = found.filter((time): time is number => time !== undefined);
  return times.length ? Math.max(...times) : undefined;
}

/** Bundles an entry and everything it imports, minified; `undefined` without esbuild (an installed package). */
export async function bundleEntry(entry: string, format: 'esm' | 'iife'): Promise<string | undefined> {
  let esbuild: typeof import('esbuild');
  try {
    esbuild = await import('esbuild');
  } catch {
    return undefined;
  }
  const result = await esbuild.build({
    entryPoints: [entry],
    bundle: true,
    format,
    minify: true,
    write: false,
    target: 'es2021',
    legalComments: 'none',
    // Lit's reactive properties need TypeScript's class-field semantics (STYLE.md).
    tsconfigRaw: { compilerOptions: { useDefineForClassFields: false, experimentalDecorators: true } },
  });
  return result.outputFiles[0]!.text;
}

export interface BundleSource {
  /** The file the build writes. */
  built: string;
  /** The entry module in a checkout. */
  entry: string;
  /** Every folder whose change makes the build stale (the entry's own, and what it imports). */
  sources: readonly string[];
  format: 'esm' | 'iife';
  /** What to say when there is neither a build nor sources. */
  missing: string;
}

/** The built file when it is newer than every source, else the sources bundled now, else the built file. */
export async function locateBundle(source: BundleSource): Promise<string> {
  const builtAt = await stat(source.built).then((s) => s.mtimeMs, () => undefined);
  const entryExists = await stat(source.entry).then(() => true, () => false);
  const sourcesAt = entryExists ? await newestSource(source.sources) : undefined;
  if (builtAt !== undefined && (sourcesAt === undefined || builtAt >= sourcesAt)) return readFile(source.built, 'utf8');
  const code = sourcesAt !== undefined ? await bundleEntry(source.entry, source.format) : undefined;
  if (code) return code;
  if (builtAt !== undefined) return readFile(source.built, 'utf8');
  throw new Error(source.missing);
}

/** A bundle made once per process (again after a failure), with its content hash. */
export function onceBundled(locate: () => Promise<string>): () => Promise<SourceBundle> {
  let bundle: Promise<SourceBundle> | undefined;
  return () => {
    bundle ??= locate().then(
      (code) => ({ code, hash: createHash('sha256').update(code).digest('base64url').slice(0, 16) }),
      (error: unknown) => {
        bundle = undefined;
        throw error;
      },
    );
    return bundle;
  };
}
