import { availableParallelism } from 'node:os';
import type { Worker } from 'node:worker_threads';
import { startModuleWorker } from '../module-worker.js';
import type { InvoiceData } from '../invoicing/invoices.js';
import type { PrintOption } from './pdf.js';
import type { PdfJob, PdfResult } from './pdf-worker.js';

/**
 * Invoice PDFs are rendered on worker threads, never on the thread that answers requests: a large
 * invoice takes seconds of CPU, and every other request would wait for it. A small fixed pool
 * (one thread less than the machine has cores, at least one, at most four) takes jobs fairly: no
 * account renders more than `perAccount` at once, the next job is the oldest of an account with
 * room, and an account with `queuePerAccount` jobs waiting or running is answered "busy" at once.
 * A render that outlives `timeoutMs` ends its worker, and each worker's heap is capped.
 */
export interface PdfPoolLimits {
  /** Rendering threads. */
  workers: number;
  /** Renders under way at once for one account. */
  perAccount: number;
  /** Renders waiting or under way for one account; more are refused. */
  queuePerAccount: number;
  /** Renders waiting in all; more are refused. */
  queueTotal: number;
  /** How long one render may take before its worker is ended. */
  timeoutMs: number;
  /** Heap of one worker, in MiB (old generation). */
  memoryMb: number;
}

export const DEFAULT_PDF_POOL_LIMITS: Readonly<PdfPoolLimits> = {
  workers: Math.max(1, Math.min(4, availableParallelism() - 1)),
  perAccount: 1,
  queuePerAccount: 8,
  queueTotal: 256,
  timeoutMs: 30_000,
  memoryMb: 256,
};

let limits: PdfPoolLimits = { ...DEFAULT_PDF_POOL_LIMITS };
let paused = false;

/** Changes the pool's limits (for this process); new workers take the new heap cap. */
export function configurePdfPool(changes: Partial<PdfPoolLimits>): void {
  limits = { ...limits, ...changes };
  dispatch();
}

/** Holds every job in the queue until the returned function is called (a deploy's drain, a test's hold). */
export function pausePdfPool(): () => void {
  paused = true;
  return () => {
    paused = false;
    dispatch();
  };
}

/** The pool is full for this account (or for everyone): the caller answers 503 with Retry-After. */
export class PdfBusyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PdfBusyError';
  }
}

/** Starts one rendering worker on `pdf-worker.ts` (or its compiled `.js`), with its heap capped. */
function spawnWorker(): Worker {
  const resourceLimits = { maxOldGenerationSizeMb: limits.memoryMb, maxYoungGenerationSizeMb: Math.min(64, Math.max(8, limits.memoryMb / 8)) };
  return startModuleWorker(new URL('./pdf-worker', import.meta.url), { resourceLimits });
}

interface Pending {
  job: PdfJob;
  accountId: number;
  resolve: (pdf: Buffer) => void;
  reject: (error: Error) => void;
}

interface Slot {
  worker: Worker;
  busy: Pending | undefined;
  timer: NodeJS.Timeout | undefined;
}

const slots: Slot[] = [];
const queue: Pending[] = [];
/** Jobs waiting or under way, per account. */
const perAccount = new Map<number, { waiting: number; running: number; lastStart: number }>();
let nextId = 1;
let starts = 0;

function loadOf(accountId: number) {
  let load = perAccount.get(accountId);
  if (!load) perAccount.set(accountId, (load = { waiting: 0, running: 0, lastStart: 0 }));
  return load;
}

/** Renders waiting and under way in this process. */
export function pdfPoolState(): { waiting: number; running: number } {
  return { waiting: queue.length, running: slots.filter((slot) => slot.busy).length };
}

/** The next job to start: of the accounts with room, the one served longest ago; its oldest job. */
function nextJob(): number {
  let best = -1;
  for (let i = 0; i < queue.length; i += 1) {
    const load = loadOf(queue[i]!.accountId);
    if (load.running >= limits.perAccount) continue;
    if (best < 0 || load.lastStart < loadOf(queue[best]!.accountId).lastStart) best = i;
  }
  return best;
}

function settle(slot: Slot): Pending | undefined {
  const pending = slot.busy;
  slot.busy = undefined;
  clearTimeout(slot.timer);
  if (pending) {
    const load = loadOf(pending.accountId);
    load.running -= 1;
    if (load.running + load.waiting === 0) perAccount.delete(pending.accountId);
  }
  return pending;
}

function startWorker(): Slot {
  const worker = spawnWorker();
  // Idle threads never keep the process alive.
  worker.unref();
  const slot: Slot = { worker, busy: undefined, timer: undefined };
  worker.on('message', (result: PdfResult) => {
    const pending = settle(slot);
    if (pending && pending.job.id === result.id) {
      if ('pdf' in result) pending.resolve(Buffer.from(result.pdf.buffer, result.pdf.byteOffset, result.pdf.byteLength));
      else pending.reject(new Error(`PDF rendering failed: ${result.error}`));
    }
    dispatch();
  });
  const fail = (error: Error) => {
    if (!slots.includes(slot)) return;
    slots.splice(slots.indexOf(slot), 1);
    settle(slot)?.reject(error);
    dispatch();
  };
  worker.on('error', fail);
  worker.on('exit', (code) => fail(new Error(`the PDF worker stopped (exit code ${code})`)));
  slots.push(slot);
  return slot;
}

function dispatch(): void {
  while (!paused && queue.length > 0) {
    // Round the accounts: one account's backlog never holds another's PDF.
    const index = nextJob();
    if (index < 0) return;
    let slot = slots.find((s) => !s.busy);
    if (!slot && slots.length < limits.workers) slot = startWorker();
    if (!slot) return;
    const pending = queue.splice(index, 1)[0]!;
    const load = loadOf(pending.accountId);
    load.waiting -= 1;
    load.running += 1;
    load.lastStart = ++starts;
    slot.busy = pending;
    const running = slot;
    running.timer = setTimeout(() => {
      // The worker is ended with its render; the next job starts a fresh one.
      slots.splice(slots.indexOf(running), 1);
      settle(running)?.reject(new PdfBusyError(`The PDF took longer than ${limits.timeoutMs} ms to render. Try again shortly.`));
      void running.worker.terminate();
      dispatch();
    }, limits.timeoutMs);
    slot.worker.postMessage(pending.job);
  }
}

/** Renders an invoice's PDF on the pool, for `accountId`; rejects with `PdfBusyError` when the pool is full for it. */
export function renderInvoicePdfInPool(
  invoice: InvoiceData,
  options: { printOption: PrintOption; logo: Uint8Array | null; accountId: number; facturX?: string | null },
): Promise<Buffer> {
  const load = loadOf(options.accountId);
  if (load.waiting + load.running >= limits.queuePerAccount) {
    return Promise.reject(new PdfBusyError('Too many PDFs of this account are being rendered. Try again shortly.'));
  }
  if (queue.length >= limits.queueTotal) return Promise.reject(new PdfBusyError('Too many PDFs are being rendered. Try again shortly.'));
  load.waiting += 1;
  return new Promise((resolve, reject) => {
    queue.push({ job: { id: nextId++, invoice, printOption: options.printOption, logo: options.logo, facturX: options.facturX ?? null }, accountId: options.accountId, resolve, reject });
    dispatch();
  });
}
