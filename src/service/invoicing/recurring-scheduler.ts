import { invoiceCreateInput } from '../../api/schemas/invoice.js';
import type { Database, Sql } from '../db.js';
import type { Account } from '../account.js';
import { findRow, type StoredRow, todayText, updateRow } from '../store.js';
import { afterIssue, issueInvoice, type Issuing } from '../application/issuing.js';
import { createIssuing } from '../application/composition.js';
import { advance, type RecurringData, workingDayFrom } from './recurring-schedule.js';
import type { InvoiceData } from './invoices.js';
import { anyRecurringDue, claimRecurringPeriod, dueRecurringPerAccount, lockDueRecurring, recordRecurringInvoice } from '../data/recurrings.js';

/**
 * Issues the invoices of recurring definitions when they fall due. Each period is issued at most
 * once (a row per definition and period, under a primary key), and on PostgreSQL each definition
 * is claimed with `for update skip locked`, so many service processes never issue it twice.
 *
 * No account's schedules hold up another's: a run goes round the accounts with something due, one
 * invoice each per turn, and issues at most `perAccountPerRun` for one account; a definition far
 * behind catches up only its last `maxCatchUp` periods and skips the older ones.
 */
export interface SchedulerOptions {
  /** Today, as the scheduler sees it. Tests move it; production uses the real clock. */
  clock: () => Date;
  intervalMs: number;
  publicUrl: () => string;
  /** The one step that issues invoices (and e-mails them once KSeF has them). Default: one on `db` alone, without KSeF or NBP. */
  issuing?: Issuing | undefined;
  /** Where a failed e-mail is reported: the invoice stays issued, and the owner can send it again. */
  log?: ((entry: Record<string, unknown>) => void) | undefined;
  /** Invoices one run issues at most. Default 500. */
  maxPerRun?: number | undefined;
  /** Invoices one run issues at most for one account. Default 100. */
  perAccountPerRun?: number | undefined;
  /** Missed periods a definition catches up at most; older ones are skipped. Default 12. */
  maxCatchUp?: number | undefined;
}

export const DEFAULT_SCHEDULER_LIMITS = { maxPerRun: 500, perAccountPerRun: 100, maxCatchUp: 12 } as const;

const DAYS = 24 * 60 * 60_000;

function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAYS);
}

/** The create request that copies `template` for the period starting `period`. */
function copyOf(template: InvoiceData, issueDate: string, period: string) {
  let paymentToKind: number | string | null = template.payment_to_kind;
  if (typeof paymentToKind === 'string' && /^\d+$/.test(paymentToKind)) paymentToKind = Number(paymentToKind);
  if (paymentToKind === 'other_date' && template.payment_to) paymentToKind = Math.max(0, daysBetween(template.issue_date, template.payment_to));
  return invoiceCreateInput.parse({
    kind: template.kind,
    number: null,
    issue_date: issueDate,
    sell_date: period,
    client_id: template.client_id,
    department_id: template.department_id,
    buyer_name: template.buyer_name,
    buyer_tax_no: template.buyer_tax_no,
    buyer_email: template.buyer_email,
    currency: template.currency,
    lang: template.lang,
    payment_type: template.payment_type,
    payment_to_kind: paymentToKind ?? 7,
    description: template.description,
    discount_kind: template.discount_kind ?? undefined,
    positions: template.positions.map((position) => ({
      name: position.name,
      code: position.code,
      description: position.description,
      quantity: position.quantity,
      quantity_unit: position.quantity_unit,
      tax: position.tax,
      discount: position.discount ?? undefined,
      discount_percent: position.discount_percent ?? undefined,
      ...position.pricing,
    })),
  });
}

/** The schedule's addresses (`a@x.pl, b@y.pl`), the well-formed ones, at most 20. */
function recipients(addresses: string | null | undefined): string[] {
  return (addresses ?? '').split(/[,;]/).map((a) => a.trim()).filter((a) => /^[^\s@<>"]+@[^\s@<>"]+$/.test(a)).slice(0, 20);
}

export class RecurringScheduler {
  readonly #db: Database;
  readonly #options: SchedulerOptions;
  readonly #issuing: Issuing;
  #timer: NodeJS.Timeout | undefined;
  /** The last run started, scheduled or asked for: the next one waits for it, and so does `stop`. */
  #lastRun: Promise<unknown> = Promise.resolve();
  #stopped = true;

  constructor(db: Database, options: SchedulerOptions) {
    this.#db = db;
    this.#options = options;
    this.#issuing = options.issuing ?? createIssuing({ db, ksef: { localOrigin: () => undefined, clock: options.clock, kick: () => undefined }, clock: options.clock, publicUrl: options.publicUrl }).issuing;
  }

  start(): void {
    this.#stopped = false;
    this.#schedule(0);
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#timer);
    await this.#lastRun;
  }

  #schedule(delayMs: number): void {
    this.#timer = setTimeout(() => {
      void this.runDue()
        .catch(() => 0)
        .finally(() => {
          if (!this.#stopped) this.#schedule(this.#options.intervalMs);
        });
    }, delayMs);
    this.#timer.unref?.();
  }

  /**
   * Issues every invoice due by the clock's today; answers how many this call issued. Runs in this
   * process follow one another: once it resolves, everything due when it was called is issued,
   * unless another process holds it, issuing it still.
   */
  runDue(): Promise<number> {
    const run = this.#lastRun.then(() => this.#runDue());
    this.#lastRun = run.catch(() => undefined);
    return run;
  }

  async #runDue(): Promise<number> {
    const today = todayText(this.#options.clock());
    // A plain read first: most polls find nothing due, and a transaction counts as a write on
    // PGlite, which would retire every kept answer once a minute.
    if (!(await anyRecurringDue(this.#db, today))) return 0;
    const maxPerRun = this.#options.maxPerRun ?? DEFAULT_SCHEDULER_LIMITS.maxPerRun;
    const perAccount = this.#options.perAccountPerRun ?? DEFAULT_SCHEDULER_LIMITS.perAccountPerRun;
    const byAccount = new Map<number, number>();
    let issued = 0;
    while (issued < maxPerRun) {
      // One turn: the oldest due definition of each account that still has room in this run.
      const full = [...byAccount].filter(([, n]) => n >= perAccount).map(([id]) => id);
      const turn = await dueRecurringPerAccount(this.#db, today, full);
      let moved = false;
      for (const { id, account_id: accountId } of turn) {
        if (issued >= maxPerRun) break;
        const result = await this.#db.transaction((tx) => this.#issueNext(tx, today, id));
        if (result === 'none') continue;
        moved = true;
        if (!result) continue;
        issued += 1;
        byAccount.set(accountId, (byAccount.get(accountId) ?? 0) + 1);
        await afterIssue(this.#issuing, result.accountId, result.invoice).catch((error: unknown) =>
          this.#options.log?.({
            time: new Date().toISOString(),
            level: 'error',
            msg: 'recurring invoice e-mail failed',
            invoice_id: result.invoice.id,
            error: error instanceof Error ? error.message : String(error),
          }),
        );
      }
      // Nothing due, or all of it held by another process.
      if (!moved) break;
    }
    return issued;
  }

  /** Issues the next due period of definition `id`; 'none' when it is not due or another process holds it. */
  async #issueNext(tx: Sql, today: string, id: number) {
    const recurring = await lockDueRecurring<RecurringData>(tx, today, id);
    if (!recurring) return 'none' as const;
    const account = { id: recurring.account_id } as Account;
    const data = { ...recurring.data };
    const period = latestPeriods(data.next_invoice_date!, data.every, today, this.#options.maxCatchUp ?? DEFAULT_SCHEDULER_LIMITS.maxCatchUp);
    const anchorDay = Number(data.start_date.slice(8, 10));
    const nextDate = advance(period, data.every, 1);
    // A month-based schedule keeps its day of the month: the 31st comes back after February's 28th.
    data.next_invoice_date = /[my]$/.test(data.every) && Number(nextDate.slice(8)) < anchorDay
      ? clampDay(nextDate, anchorDay)
      : nextDate;
    let issued: { accountId: number; invoice: StoredRow<InvoiceData> } | null = null;
    if (await claimRecurringPeriod(tx, recurring.id, period)) {
      const template = await findRow<InvoiceData>(tx, 'invoices', account.id, data.invoice_id);
      if (!template) {
        data.active = false;
      } else {
        const issueDate = data.issue_working_day_only ? workingDayFrom(period) : period;
        const to = data.send_email ? recipients(data.buyer_email || template.data.buyer_email) : [];
        const row = await issueInvoice(tx, account, {
          input: copyOf(template.data, issueDate, period),
          matching: 'match',
          // A schedule's invoice is issued whatever KSeF would say of it; its seller is told.
          refusable: false,
          amend: (invoice) => {
            invoice.recurring_id = recurring.id;
          },
          email: to.length ? { to, cc: [], pdf: true, printOption: 'original', publicUrl: this.#options.publicUrl() } : null,
        }, this.#issuing);
        await recordRecurringInvoice(tx, recurring.id, period, row.id);
        data.last_invoice_id = row.id;
        data.invoices_count = (data.invoices_count ?? 0) + 1;
        issued = { accountId: account.id, invoice: row };
      }
    }
    await updateRow(tx, 'recurrings', account.id, recurring.id, data);
    return issued;
  }
}

/**
 * The period to issue next for a schedule whose next date is `next`: `next` itself, unless more
 * than `keep` periods are due by `today`; then the first of the last `keep` of them.
 */
export function latestPeriods(next: string, every: string, today: string, keep: number): string {
  const due: string[] = [];
  // Dates more than a year back are refused, so the walk is short; a cap bounds an old stored one.
  for (let k = 0; k < 200_000; k += 1) {
    const date = k === 0 ? next : advance(next, every, k);
    if (date > today) break;
    due.push(date);
    if (due.length > keep) due.shift();
  }
  return due[0] ?? next;
}

function clampDay(date: string, day: number): string {
  const [y, m] = date.split('-').map(Number) as [number, number];
  const last = new Date(Date.UTC(y, m, 0)).getUTCDate();
  return `${date.slice(0, 8)}${String(Math.min(day, last)).padStart(2, '0')}`;
}
