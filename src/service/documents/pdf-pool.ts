import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { InvoiceData } from '../invoicing/invoices.js';
import type { PrintOption } from './pdf.js';
import type { PdfJob, PdfResult } from './pdf-worker.js';

/**
 * Invoice PDFs are rendered on worker threads, never on the thread that answers requests: a large
 * invoice takes seconds of CPU, and every other request would wait for it. A small fixed pool
 * (one thread less than the machine has cores, at least one, at most four) takes jobs in order.
 */
const POOL_SIZE = Math.max(1, Math.min(4, availableParallelism() - 1));

/**
 * Starts one worker on its own file: `pdf-worker.js` beside this module once compiled, else the
 * `.ts` source (as `npm start` and the tests run), which the worker loads through tsx's loader,
 * registered in the worker itself: Node 20 does not pass a parent's loader hooks to its workers.
 */
function spawnWorker(): Worker {
  const compiled = new URL('./pdf-worker.js', import.meta.url);
  if (existsSync(fileURLToPath(compiled))) return new Worker(compiled);
  const source = new URL('./pdf-worker.ts', import.meta.url).href;
  // The ESM entry of tsx's API (`exports["./esm/api"].import`); `require.resolve` would give the CommonJS one.
  const tsxRoot = dirname(createRequire(import.meta.url).resolve('tsx/package.json'));
  const tsx = pathToFileURL(join(tsxRoot, 'dist/esm/api/index.mjs')).href;
  const bootstrap = `import(${JSON.stringify(tsx)}).then(({ register }) => { register(); return import(${JSON.stringify(source)}); })`;
  return new Worker(bootstrap, { eval: true });
}

interface Pending {
  job: PdfJob;
  resolve: (pdf: Buffer) => void;
  reject: (error: Error) => void;
}

interface Slot {
  worker: Worker;
  busy: Pending | undefined;
}

const slots: Slot[] = [];
const queue: Pending[] = [];
let nextId = 1;

function startWorker(): Slot {
  const worker = spawnWorker();
  // Idle threads never keep the process alive.
  worker.unref();
  const slot: Slot = { worker, busy: undefined };
  worker.on('message', (result: PdfResult) => {
    const pending = slot.busy;
    slot.busy = undefined;
    if (pending && pending.job.id === result.id) {
      if ('pdf' in result) pending.resolve(Buffer.from(result.pdf.buffer, result.pdf.byteOffset, result.pdf.byteLength));
      else pending.reject(new Error(`PDF rendering failed: ${result.error}`));
    }
    dispatch();
  });
  const fail = (error: Error) => {
    slots.splice(slots.indexOf(slot), 1);
    slot.busy?.reject(error);
    slot.busy = undefined;
    dispatch();
  };
  worker.on('error', fail);
  worker.on('exit', (code) => {
    if (slots.includes(slot)) fail(new Error(`the PDF worker stopped (exit code ${code})`));
  });
  slots.push(slot);
  return slot;
}

function dispatch(): void {
  while (queue.length > 0) {
    let slot = slots.find((s) => !s.busy);
    if (!slot && slots.length < POOL_SIZE) slot = startWorker();
    if (!slot) return;
    const pending = queue.shift()!;
    slot.busy = pending;
    slot.worker.postMessage(pending.job);
  }
}

/** Renders an invoice's PDF on the pool. */
export function renderInvoicePdfInPool(invoice: InvoiceData, options: { printOption: PrintOption; logo: Uint8Array | null }): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    queue.push({ job: { id: nextId++, invoice, printOption: options.printOption, logo: options.logo }, resolve, reject });
    dispatch();
  });
}
