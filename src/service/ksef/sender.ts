import type { Database, Sql } from '../db.js';
import { anyInvoiceAfter, lockInvoicesAfter } from '../data/ksef-invoices.js';
import { acceptKsefJob, anyKsefJobDue, failKsefJob, leaseDueKsefJob, markKsefJobSubmitted, postponeKsefJob, requeueKsefJob } from '../data/ksef-jobs.js';
import { autoSendingAccounts, raiseAutoSendMark } from '../data/ksef-settings.js';
import { findRow, updateRow } from '../store.js';
import type { InvoiceData } from '../invoicing/invoices.js';
import { KsefError, type KsefEnvironment, type KsefGateway, type KsefReceipt } from './gateway.js';
import { govStatus, requestSend, sendsAutomatically } from './invoices.js';
import type { SettledListener } from './runtime.js';
import { isConnected, readKsefSettings } from './settings.js';

/**
 * Works through the durable queue of invoices to send to KSeF (`ksef_jobs`). A job holds the exact
 * document from the moment it was asked for; it is `queued` until KSeF has taken it, then
 * `submitted` with KSeF's receipt until KSeF decides, then `done` or `failed`.
 *
 * Nothing is lost or sent twice by a crash: a job whose receipt was not stored yet is sent again,
 * and KSeF answers the same document with its duplicate code and the original's KSeF number, which
 * is taken as the answer. A job with a receipt only reads its outcome.
 */

export interface KsefSenderOptions {
  readonly gateway: KsefGateway;
  /** The bundled double's origin (`local`), for the KOD I links of invoices sent automatically. */
  readonly localOrigin?: () => string | undefined;
  readonly clock?: () => Date;
  /** How often the queue is looked at when nothing kicks it. Default 2 s. */
  readonly intervalMs?: number;
  /** Attempts on retryable failures (limits, outages, the network) before `server_error`. Default 8. */
  readonly attempts?: number;
  readonly log?: (entry: Record<string, unknown>) => void;
}

interface Job {
  id: number;
  account_id: number;
  invoice_id: number;
  environment: KsefEnvironment;
  seller_nip: string;
  offline: boolean;
  xml: string;
  state: 'queued' | 'submitted';
  receipt: KsefReceipt | null;
  ksef_number: string | null;
  attempts: number;
}

/** A job being worked on is not due again for this long (another process's lease). */
const LEASE_MS = 120_000;

/** Retry delays after retryable failures: 5 s, 10 s, 20 s… up to 10 minutes. */
export function sendRetryDelayMs(attempts: number): number {
  return Math.min(5_000 * 2 ** Math.max(0, attempts - 1), 600_000);
}

/** Readings of an outcome while KSeF is processing, before the job is parked (about two hours). */
const MAX_POLLS = 128;

/** While KSeF is processing: read again after 1 s, 2 s, 4 s… up to a minute. */
const pollDelayMs = (attempts: number) => Math.min(1_000 * 2 ** Math.max(0, attempts), 60_000);

export class KsefSender {
  private readonly db: Database;
  private readonly options: KsefSenderOptions;
  private readonly clock: () => Date;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<number> | undefined;
  private stopped = true;
  private readonly settledListeners: SettledListener[] = [];
  private swept = false;

  constructor(db: Database, options: KsefSenderOptions) {
    this.db = db;
    this.options = options;
    this.clock = options.clock ?? (() => new Date());
  }

  start(): void {
    this.stopped = false;
    this.schedule(0);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running?.catch(() => undefined);
  }

  /** Looks at the queue soon: a request has just queued a job. */
  kick(): void {
    if (!this.stopped) this.schedule(20);
  }

  private schedule(ms: number): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      void this.runOnce()
        .catch((error: unknown) => this.options.log?.({ level: 'error', message: 'KSeF sender failed', error: String(error) }))
        .finally(() => {
          if (!this.stopped) this.schedule(this.options.intervalMs ?? 2_000);
        });
    }, ms);
    this.timer.unref?.();
  }

  /** Works on every job that is due now, one after another; answers how many. */
  runOnce(): Promise<number> {
    const run = (this.running ?? Promise.resolve(0)).catch(() => 0).then(() => this.workDue());
    this.running = run;
    return run;
  }

  /** Called after an invoice is settled (numbered or failed), and once at the first run with none. */
  onSettled(listener: SettledListener): void {
    this.settledListeners.push(listener);
  }

  private async notifySettled(job?: Job): Promise<void> {
    const settled = job ? { accountId: job.account_id, invoiceId: job.invoice_id } : undefined;
    for (const listener of this.settledListeners) {
      await listener(settled).catch((error: unknown) => this.options.log?.({ level: 'error', message: 'KSeF settled listener failed', error: String(error) }));
    }
  }

  private async workDue(): Promise<number> {
    if (!this.swept) {
      this.swept = true;
      await this.notifySettled();
    }
    await this.queueAutomatic();
    let done = 0;
    for (;;) {
      const job = await this.claim();
      if (!job) return done;
      await this.work(job).catch((error: unknown) => this.afterFault(job, error));
      done += 1;
    }
  }

  /**
   * `auto_send_mode` for invoices no request sent: those issued by checkouts, payments and recurring
   * schedules. Each account's invoices after its high-water mark are looked at once.
   */
  private async queueAutomatic(): Promise<void> {
    const accounts = await autoSendingAccounts(this.db);
    const runtime = { localOrigin: this.options.localOrigin ?? (() => undefined), clock: this.clock, kick: () => undefined };
    for (const { account_id: accountId, after } of accounts) {
      // Looked at first with a plain read: an idle look writes nothing, so it retires no kept answer.
      if (!(await anyInvoiceAfter(this.db, accountId, after))) continue;
      await this.db.transaction(async (tx) => {
        const rows = await lockInvoicesAfter<InvoiceData>(tx, accountId, after);
        if (rows.length === 0) return;
        const settings = await readKsefSettings(tx, accountId);
        for (const row of rows) {
          const data = row.data as InvoiceData & Record<string, unknown>;
          if (data.gov_status == null && sendsAutomatically(settings, data)) await requestSend(tx, { id: accountId }, row, runtime);
        }
        await raiseAutoSendMark(tx, accountId, rows.at(-1)!.id);
      });
    }
  }

  private async claim(): Promise<Job | undefined> {
    const now = this.clock();
    // A plain read first: with nothing due, the sender's look every few seconds writes nothing, so
    // it retires none of the answers the service keeps while nothing is written (answer-cache.ts).
    if (!(await anyKsefJobDue(this.db, now))) return undefined;
    return this.db.transaction((tx) => leaseDueKsefJob<Job>(tx, now, new Date(now.getTime() + LEASE_MS)));
  }

  private async work(job: Job): Promise<void> {
    const settings = await readKsefSettings(this.db, job.account_id);
    if (!isConnected(settings)) return this.fail(job, 'not_connected', ['KSeF is not connected for this account']);
    try {
      let receipt = job.receipt;
      if (job.state === 'queued' || !receipt) {
        receipt = await this.options.gateway.submit({
          environment: job.environment,
          sellerNip: job.seller_nip,
          token: settings.token,
          xml: job.xml,
          offlineMode: job.offline,
        });
        // The receipt is stored before its outcome is read: from here on a restart only reads.
        await markKsefJobSubmitted(this.db, job.id, JSON.stringify(receipt));
      }
      const outcome = await this.options.gateway.outcome(receipt, settings.token);
      if (outcome.state === 'processing') {
        if (job.attempts + 1 >= MAX_POLLS) return this.fail(job, 'server_error', [`KSeF had not decided after ${MAX_POLLS} readings; send the invoice again`]);
        return this.later(job, pollDelayMs(job.attempts), null);
      }
      if (outcome.state === 'accepted') return this.accept(job, outcome.ksefNumber, outcome.upoXml);
      if (outcome.duplicateOf) return this.accept(job, outcome.duplicateOf, outcome.originalUpoXml ?? null, false);
      // KSeF dropped the document itself (a processing failure on its side): the same document is sent again.
      if (outcome.resend && job.attempts + 1 < (this.options.attempts ?? 8)) return this.resend(job, `${outcome.code} ${outcome.description}`);
      return this.fail(job, 'send_error', [`${outcome.code} ${outcome.description}`.trim(), ...outcome.details]);
    } catch (error) {
      if (!(error instanceof KsefError)) throw error;
      if (error.kind === 'duplicate' && error.ksefNumber) return this.accept(job, error.ksefNumber, null, false);
      if (error.kind === 'retryable') {
        if (job.attempts + 1 >= (this.options.attempts ?? 8)) return this.fail(job, 'server_error', [error.message]);
        return this.later(job, error.retryAfterMs ?? sendRetryDelayMs(job.attempts + 1), error.message);
      }
      return this.fail(job, 'send_error', [error.message, ...error.details]);
    }
  }

  /**
   * A job that failed in the service itself (not an answer of KSeF): tried again later, and parked
   * as `server_error` on its invoice once its attempts are spent, never retried without end.
   */
  private async afterFault(job: Job, error: unknown): Promise<void> {
    const message = `The invoice could not be sent: ${error instanceof Error ? error.message : String(error)}`;
    this.options.log?.({ level: 'error', message: 'KSeF job failed', job: job.id, error: String(error) });
    if (job.attempts + 1 >= (this.options.attempts ?? 8)) return this.fail(job, 'server_error', [message]);
    return this.later(job, sendRetryDelayMs(job.attempts + 1), message);
  }

  private resend(job: Job, error: string): Promise<void> {
    return requeueKsefJob(this.db, job.id, new Date(this.clock().getTime() + sendRetryDelayMs(job.attempts + 1)), error);
  }

  private later(job: Job, delayMs: number, error: string | null): Promise<void> {
    return postponeKsefJob(this.db, job.id, new Date(this.clock().getTime() + delayMs), error);
  }

  /**
   * KSeF gave the invoice its number: the invoice carries it; without a UPO yet the job reads it again
   * later. A duplicate's number is the original's, whose UPO belongs to that first sending.
   */
  private async accept(job: Job, ksefNumber: string, upo: string | null, awaitUpo = true): Promise<void> {
    await this.db.transaction(async (tx) => {
      await acceptKsefJob(tx, job.id, upo || !awaitUpo || job.attempts >= 20 ? 'done' : 'submitted', ksefNumber, upo, new Date(this.clock().getTime() + pollDelayMs(job.attempts)));
      if (job.ksef_number !== ksefNumber) {
        // `gov_link`: the invoice in KSeF, its KOD I page, once KSeF holds it (null before, hosted guide).
        await this.updateInvoice(tx, job, (data) => ({ gov_status: govStatus('ok', job.environment), gov_id: ksefNumber, gov_error_messages: null, gov_link: data.gov_verification_link ?? null }));
      }
    });
    await this.notifySettled(job);
  }

  private async fail(job: Job, state: 'send_error' | 'server_error' | 'not_connected', messages: string[]): Promise<void> {
    await this.db.transaction(async (tx) => {
      await failKsefJob(tx, job.id, messages.join('\n'));
      await this.updateInvoice(tx, job, { gov_status: govStatus(state, job.environment), gov_error_messages: messages.filter(Boolean) });
    });
    await this.notifySettled(job);
  }

  /** Writes the `gov_*` fields; the write fires the invoice's `invoice:update` webhooks. */
  private async updateInvoice(tx: Sql, job: Job, fields: Record<string, unknown> | ((data: Record<string, unknown>) => Record<string, unknown>)): Promise<void> {
    const row = await findRow<InvoiceData>(tx, 'invoices', job.account_id, job.invoice_id, { forUpdate: true });
    if (!row) return;
    const data = row.data as unknown as Record<string, unknown>;
    await updateRow(tx, 'invoices', job.account_id, job.invoice_id, { ...row.data, ...(typeof fields === 'function' ? fields(data) : fields) });
  }
}
