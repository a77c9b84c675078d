import type { Account } from '../account.js';
import { claimWait, dueWaits, endWait, hasDueWaits, keptRate, postponeWait, type RateWait } from '../data/exchange-rates.js';
import type { InvoiceData } from '../invoicing/invoices.js';
import { sendAfterSave } from '../ksef/invoices.js';
import { readKsefSettings } from '../ksef/settings.js';
import { findRow, type StoredRow, updateRow } from '../store.js';
import { prefetchRate, rateFields } from './exchange-rates.js';
import type { Issuing } from './issuing.js';
import { clearAttention } from './seller-alerts.js';

/**
 * Completes the invoices issued while NBP could not answer: asks NBP again, with growing pauses
 * (1, 5, 15 minutes, then hourly), gives each invoice its rate, and only then sends it to KSeF and
 * lets its owed e-mail go. An invoice never leaves without its rate, however long NBP is away.
 */

const PAUSES_MINUTES = [1, 5, 15, 60];
const BATCH = 20;

export function nextAttempt(now: Date, attempts: number): Date {
  const minutes = PAUSES_MINUTES[Math.min(attempts, PAUSES_MINUTES.length - 1)]!;
  return new Date(now.getTime() + minutes * 60_000);
}

type Stored = InvoiceData & Record<string, unknown>;

export class ExchangeRateWorker {
  readonly #issuing: Issuing;
  readonly #intervalMs: number;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #running: Promise<void> | undefined;
  #stopped = true;

  constructor(issuing: Issuing, options: { intervalMs?: number | undefined } = {}) {
    this.#issuing = issuing;
    this.#intervalMs = options.intervalMs ?? 30_000;
  }

  start(): void {
    this.#stopped = false;
    this.#schedule(0);
  }

  /** Looks at the waits soon (an invoice just started waiting, or a test moved the clock). */
  kick(): void {
    if (!this.#stopped) this.#schedule(0);
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    if (this.#timer) clearTimeout(this.#timer);
    await this.#running;
  }

  #schedule(delay: number): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      if (this.#running) return this.#schedule(this.#intervalMs);
      this.#running = this.runOnce()
        .catch(() => undefined)
        .finally(() => {
          this.#running = undefined;
          if (!this.#stopped) this.#schedule(this.#intervalMs);
        });
    }, delay);
    this.#timer.unref?.();
  }

  /** One pass over the due waits; resolves when each has its rate or its next attempt. */
  async runOnce(): Promise<void> {
    const { db, clock } = this.#issuing;
    if (!(await hasDueWaits(db, clock()))) return;
    const waits = await dueWaits(db, clock(), BATCH);
    const asked = new Set<string>();
    for (const wait of waits) {
      const key = `${wait.currency} ${wait.taxPoint}`;
      if (asked.has(key)) continue;
      asked.add(key);
      await prefetchRate(db, this.#issuing.rates, wait.currency, wait.taxPoint);
    }
    for (const wait of waits) {
      const done = await this.#complete(wait);
      if (done) await this.#issuing.mail.release({ accountId: wait.accountId, invoiceId: wait.invoiceId }).catch(() => undefined);
    }
  }

  async #complete(wait: RateWait): Promise<StoredRow<InvoiceData> | undefined> {
    const { db, clock, ksef } = this.#issuing;
    return db.transaction(async (tx) => {
      const claimed = await claimWait(tx, wait.invoiceId);
      if (!claimed) return undefined;
      const kept = await keptRate(tx, claimed.currency, claimed.taxPoint);
      if (!kept) {
        await postponeWait(tx, claimed.invoiceId, nextAttempt(clock(), claimed.attempts), 'NBP could not answer');
        return undefined;
      }
      await endWait(tx, claimed.invoiceId);
      const row = await findRow<Stored>(tx, 'invoices', claimed.accountId, claimed.invoiceId, { forUpdate: true });
      if (!row) return undefined;
      const { ksef_send_requested: asked, exchange_rate_pending: _waited, ...rest } = row.data;
      const data = { ...rest, ...rateFields(row.data, kept) } as Stored;
      clearAttention(data, 'awaiting_exchange_rate');
      const updated = await updateRow(tx, 'invoices', claimed.accountId, claimed.invoiceId, data);
      const account = { id: claimed.accountId } as Account;
      return sendAfterSave(tx, account, updated, asked === true, ksef, await readKsefSettings(tx, claimed.accountId));
    });
  }
}
