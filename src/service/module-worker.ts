import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';

/**
 * Starts a worker thread on one of our modules, named by its URL without the extension: the `.js`
 * beside the caller once compiled, else the `.ts` source (as `npm start` and the tests run), which
 * the worker loads through tsx's loader, registered in the worker itself: Node 20 does not pass a
 * parent's loader hooks to its workers.
 */
export function startModuleWorker(module: URL, options: WorkerOptions = {}): Worker {
  const compiled = new URL(`${module.href}.js`);
  if (existsSync(fileURLToPath(compiled))) return new Worker(compiled, options);
  const source = `${module.href}.ts`;
  // The ESM entry of tsx's API (`exports["./esm/api"].import`); `require.resolve` would give the CommonJS one.
  const tsxRoot = dirname(createRequire(import.meta.url).resolve('tsx/package.json'));
  const tsx = pathToFileURL(join(tsxRoot, 'dist/esm/api/index.mjs')).href;
  const bootstrap = `import(${JSON.stringify(tsx)}).then(({ register }) => { register(); return import(${JSON.stringify(source)}); })`;
  return new Worker(bootstrap, { ...options, eval: true });
}
