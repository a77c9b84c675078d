import { execFile } from 'node:child_process';
import { mkdtemp, readdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
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
export async function buildKits(root: string): Promise<{ minified: string; readable: string }> {
  const { out, kit } = await builtElements(root);
  const write = async (minify: boolean) => {
    const path = join(out, minify ? 'kit.js' : 'kit.readable.js');
    await writeFile(path, await bundle(kit, root, minify));
    return path;
  };
  return { minified: await write(true), readable: await write(false) };
}

/** The elements of commit `ref`, bundled from their sources as one kit (for a before and after only). */
export async function kitOf(ref: string, root: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'invoicekit-bench-ref-'));
  await promisify(execFile)('sh', ['-c', `git archive ${JSON.stringify(ref)} src | tar -x -C ${JSON.stringify(dir)}`], { cwd: root });
  const path = join(dir, 'kit.js');
  await writeFile(path, await bundle({ entry: join(dir, 'src/elements/index.ts'), tsconfig: join(root, 'tsconfig.json') }, root));
  return path;
}
