import { execFile } from 'node:child_process';
import { mkdtemp, readdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { build } from 'esbuild';

/** The production element modules (`vite build`) bundled into one kit, minified as the benchmark ships it, and readable. */
export async function buildKits(root: string): Promise<{ minified: string; readable: string }> {
  const out = await mkdtemp(join(tmpdir(), 'invoicekit-bench-dist-'));
  await promisify(execFile)('npx', ['vite', 'build', '--outDir', out, '--emptyOutDir', '--logLevel', 'error'], { cwd: root });
  const modules = (await readdir(join(out, 'elements'))).filter((name) => name.endsWith('.js'));
  const contents = modules.map((module) => `import ${JSON.stringify(join(out, 'elements', module))};`).join('\n');
  const kit = async (minify: boolean) => {
    const result = await build({
      stdin: { contents, resolveDir: out, loader: 'js' },
      nodePaths: [join(root, 'node_modules')],
      bundle: true,
      minify,
      format: 'esm',
      target: 'es2022',
      write: false,
      logLevel: 'silent',
    });
    const path = join(out, minify ? 'kit.js' : 'kit.readable.js');
    await writeFile(path, result.outputFiles[0]!.contents);
    return path;
  };
  return { minified: await kit(true), readable: await kit(false) };
}

/** The elements of commit `ref`, bundled from their sources as one kit (for a before and after only). */
export async function kitOf(ref: string, root: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'invoicekit-bench-ref-'));
  await promisify(execFile)('sh', ['-c', `git archive ${JSON.stringify(ref)} src | tar -x -C ${JSON.stringify(dir)}`], { cwd: root });
  const result = await build({
    entryPoints: [join(dir, 'src/elements/index.ts')],
    tsconfig: join(root, 'tsconfig.json'),
    nodePaths: [join(root, 'node_modules')],
    bundle: true,
    minify: true,
    format: 'esm',
    target: 'es2022',
    write: false,
    logLevel: 'silent',
  });
  const path = join(dir, 'kit.js');
  await writeFile(path, result.outputFiles[0]!.contents);
  return path;
}
