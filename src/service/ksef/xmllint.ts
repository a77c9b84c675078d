import type { Worker } from 'node:worker_threads';
import { startModuleWorker } from '../module-worker.js';
import type { XmllintJob, XmllintRun } from './xmllint-worker.js';

/**
 * libxml2's `xmllint` command, run on one long-lived worker thread (`xmllint-worker.ts`) that
 * compiles its WebAssembly once. Each run used to start a thread and compile the module anew: about
 * 250 ms and 0.4 CPU-seconds for one FA(3) invoice, where a warm thread takes a tenth of that.
 * The thread keeps a process alive only while a run is under way; if it fails, the runs under way
 * fail with it and the next one starts a new thread.
 */
let thread: Worker | undefined;
const waiting = new Map<number, { resolve: (run: { exitCode: number; stderr: string }) => void; reject: (error: Error) => void }>();
let nextId = 1;

function started(): Worker {
  if (thread) return thread;
  const worker = startModuleWorker(new URL('./xmllint-worker', import.meta.url));
  const fail = (error: Error) => {
    if (thread === worker) thread = undefined;
    for (const { reject } of waiting.values()) reject(error);
    waiting.clear();
  };
  worker.on('message', (run: XmllintRun) => {
    const asked = waiting.get(run.id);
    waiting.delete(run.id);
    if (!waiting.size) worker.unref();
    asked?.resolve({ exitCode: run.exitCode, stderr: run.stderr });
  });
  worker.on('error', fail);
  worker.on('exit', (code) => fail(new Error(`the xmllint thread ended (${code})`)));
  thread = worker;
  return worker;
}

/** Runs `xmllint` with `args` on the given files, held in memory: its exit code and standard error. */
export function runXmllint(files: XmllintJob['files'], args: string[]): Promise<{ exitCode: number; stderr: string }> {
  const worker = started();
  const id = nextId++;
  return new Promise((resolve, reject) => {
    waiting.set(id, { resolve, reject });
    worker.ref();
    worker.postMessage({ id, files, args } satisfies XmllintJob);
  });
}
