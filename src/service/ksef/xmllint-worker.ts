import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { parentPort } from 'node:worker_threads';

/** One run of libxml2's `xmllint` command, asked of this thread by `xmllint.ts`. */
export interface XmllintJob {
  id: number;
  files: { fileName: string; contents: string | Uint8Array }[];
  args: string[];
}

/** How the run ended: the command's exit code and what it wrote to standard error. */
export type XmllintRun = { id: number; exitCode: number; stderr: string };

/** What this thread uses of the WebAssembly global: the service's room has no DOM types, where TypeScript declares it. */
interface WasmApi {
  compile(bytes: Uint8Array): Promise<object>;
  instantiate(module: object, imports: object): Promise<object>;
  Memory: new (descriptor: { initial: number; maximum: number }) => object;
}
const wasm = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;

const require = createRequire(import.meta.url);
const root = dirname(require.resolve('xmllint-wasm'));
/** The Emscripten build of the command (`xmllint-wasm`): each call runs `main` once, on its own memory and files. */
const xmllint = require(join(root, 'xmllint-node.js')) as (options: Record<string, unknown>) => Promise<unknown>;
/** Compiled once for all the runs of this thread, which then share its optimised code. */
const compiled = wasm.compile(readFileSync(join(root, 'xmllint.wasm')));
/** 16 MiB to start with, at most 32 MiB: the package's own defaults, enough for the FA(3) schema. */
const PAGES = { initial: 256, maximum: 512 };

function run(job: XmllintJob): Promise<XmllintRun> {
  return compiled.then(
    (module) =>
      new Promise<XmllintRun>((resolve) => {
        let stderr = '';
        xmllint({
          inputFiles: job.files,
          arguments: job.args,
          print: () => undefined,
          printErr: (text: string) => (stderr += `${text}\n`),
          onExit: (exitCode: number) => resolve({ id: job.id, exitCode, stderr }),
          onAbort: (reason: unknown) => resolve({ id: job.id, exitCode: -1, stderr: `aborted: ${String(reason)}` }),
          wasmMemory: new wasm.Memory(PAGES),
          instantiateWasm: (imports: object, done: (instance: object, module: object) => void) => {
            void wasm.instantiate(module, imports).then((instance) => done(instance, module));
            return {};
          },
        }).catch((error: unknown) => resolve({ id: job.id, exitCode: -1, stderr: `failed: ${String(error)}` }));
      }),
    // A module that did not compile fails each run with its reason, so no run waits forever.
    (error: unknown) => ({ id: job.id, exitCode: -1, stderr: `failed: ${String(error)}` }),
  );
}

// One run at a time, in the order asked: a run owns the module's standard streams until it exits.
let queue = Promise.resolve();
parentPort?.on('message', (job: XmllintJob) => {
  queue = queue.then(() => run(job).then((result) => parentPort!.postMessage(result satisfies XmllintRun)));
});
