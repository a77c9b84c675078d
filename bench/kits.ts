import { execFile } from 'node:child_process';
import { mkdtemp, readFile, readdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

/** What to bundle: a module, or module text resolved from a folder; `tsconfig` for TypeScript sources. */
export type BundleInput = { entry: string; tsconfig?: string } | { contents: string; resolveDir: string };

/** One ES module with everything it imports, as the size test bundles it; bare imports resolve from the project. */
export async function bundle(input: BundleInput, root: string, minify = true): Promise<Uint8Array> {
  const result = await build({
    nodePaths: [join(root, 'node_modules')],
    ...('entry' in input
      ? { entryPoints: [input.entry], ...(input.tsconfig ? { tsconfig: input.tsconfig } : {}) }
      : { stdin: { contents: input.contents, resolveDir: input.resolveDir, loader: 'js' as const } }),
    bundle: true,
    minify,
    format: 'esm',
    target: 'es2022',
    write: false,
    logLevel: 'silent',
  });
  return result.outputFiles[0]!.contents;
}

/**
 * A module bundled with code splitting, as a shop page loads it: written to `outdir`, with the
 * chunks a page fetches before the element shows anything (its entry and the chunks that entry
 * imports statically, `first`) and all it may load (`all`), each chunk's bytes gzipped alone.
 */
export async function splitBundle(entry: string, outdir: string, root: string): Promise<{ first: string[]; all: string[]; gzipped: Map<string, number> }> {
  const result = await build({
    nodePaths: [join(root, 'node_modules')],
    absWorkingDir: root,
    entryPoints: [entry],
    bundle: true,
    splitting: true,
    minify: true,
    format: 'esm',
    target: 'es2022',
    outdir,
    metafile: true,
    logLevel: 'silent',
  });
  const outputs = result.metafile.outputs;
  const start = Object.keys(outputs).find((path) => outputs[path]!.entryPoint !== undefined)!;
  const reach = (kinds: string[]) => {
    const seen = new Set([start]);
    for (const path of seen) for (const next of outputs[path]!.imports) if (kinds.includes(next.kind) && next.path in outputs) seen.add(next.path);
    return [...seen];
  };
  const gzipped = new Map(await Promise.all(Object.keys(outputs).map(async (path) => [path, gzipSync(await readFile(join(root, path)), { level: 9 }).length] as const)));
  return { first: reach(['import-statement']), all: reach(['import-statement', 'dynamic-import']), gzipped };
}

/**
 * The production element modules (`vite build`, as the package ships them) in a temporary folder:
 * outside the project, so that its package.json `sideEffects` cannot drop a module from a kit. Also
 * the text of a module that imports them all (the kit).
 */
export async function builtElements(root: string): Promise<{ out: string; modules: string[]; kit: BundleInput }> {
  const out = await mkdtemp(join(tmpdir(), 'invoicekit-bench-dist-'));
  await promisify(execFile)('npx', ['vite', 'build', '--outDir', out, '--emptyOutDir', '--logLevel', 'error'], { cwd: root });
  // One module per element; `index.js` registers them all, and the kit below is that already.
  const modules = (await readdir(join(out, 'elements'))).filter((name) => name.endsWith('.js') && name !== 'index.js').sort();
  const contents = modules.map((module) => `import ${JSON.stringify(join(out, 'elements', module))};`).join('\n');
  return { out, modules, kit: { contents, resolveDir: out } };
}

/** The production element modules bundled into one kit, minified as the benchmark ships it, and readable. */
export async function buildKits(root: string): Promise<{ minified: string; readable: string; out: string }> {
  const { out, kit } = await builtElements(root);
  const write = async (minify: boolean) => {
    const path = join(out, minify ? 'kit.js' : 'kit.readable.js');
    await writeFile(path, await bundle(kit, root, minify));
    return path;
  };
  return { minified: await write(true), readable: await write(false), out };
}

/** The elements of commit `ref`, bundled from their sources as one kit (for a before and after only). */
export async function kitOf(ref: string, root: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'invoicekit-bench-ref-'));
  await promisify(execFile)('sh', ['-c', `git archive ${JSON.stringify(ref)} src | tar -x -C ${JSON.stringify(dir)}`], { cwd: root });
  const path = join(dir, 'kit.js');
  await writeFile(path, await bundle({ entry: join(dir, 'src/elements/index.ts'), tsconfig: join(root, 'tsconfig.json') }, root));
  return path;
}
