import { invoiceCreateInput } from '../../api/schemas/invoice.js';
import type { Database, Sql } from '../db.js';
import type { Account } from '../account.js';
import { findRow, insertRow, type StoredRow, todayText, updateRow } from '../store.js';
import { createMailer, type Mailer } from '../documents/mailer.js';
import { invoiceEmail, invoiceSender } from '../documents/email.js';
import { pdfFileName } from '../documents/pdf.js';
import { renderInvoicePdfForRow } from '../documents/routes.js';
import { invoiceLinks } from '../resources/invoices.js';
import { advance, type RecurringData, workingDayFrom } from '../resources/recurrings.js';
import { buildNewInvoice, type InvoiceData } from './invoices.js';

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
  smtpUrl?: string | undefined;
  publicUrl: () => string;
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

/** An active definition whose next invoice falls due by `$1` (today) and within its end date. */
const DUE = `coalesce((data->>'active')::boolean, true)
          and data->>'next_invoice_date' <= $1
          and (data->>'end_date' is null or data->>'next_invoice_date' <= data->>'end_date')`;

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

export class RecurringScheduler {
  readonly #db: Database;
  readonly #options: SchedulerOptions;
  readonly #mailer: Mailer;
  #timer: NodeJS.Timeout | undefined;
  /** The last run started, scheduled or asked for: the next one waits for it, and so does `stop`. */
  #lastRun: Promise<unknown> = Promise.resolve();
  #stopped = true;

  constructor(db: Database, options: SchedulerOptions) {
    this.#db = db;
    this.#options = options;
    this.#mailer = createMailer(options.smtpUrl);
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
    if (!(await this.#anyDue(this.#db, today))) return 0;
    const maxPerRun = this.#options.maxPerRun ?? DEFAULT_SCHEDULER_LIMITS.maxPerRun;
    const perAccount = this.#options.perAccountPerRun ?? DEFAULT_SCHEDULER_LIMITS.perAccountPerRun;
    const byAccount = new Map<number, number>();
    let issued = 0;
    while (issued < maxPerRun) {
      // One turn: the oldest due definition of each account that still has room in this run.
      const full = [...byAccount].filter(([, n]) => n >= perAccount).map(([id]) => id);
      const turn = await this.#db.query<{ id: number; account_id: number }>(
        `select distinct on (account_id) id, account_id from recurrings
          where ${DUE} and account_id <> all($2::int[])
          order by account_id, data->>'next_invoice_date', id`,
        [today, full],
      );
      let moved = false;
      for (const { id, account_id: accountId } of turn) {
        if (issued >= maxPerRun) break;
        const result = await this.#db.transaction((tx) => this.#issueNext(tx, today, id));
        if (result === 'none') continue;
        moved = true;
        if (!result) continue;
        issued += 1;
        byAccount.set(accountId, (byAccount.get(accountId) ?? 0) + 1);
        if (result.email) {
          await this.#send(result.accountId, result.invoice, result.email).catch((error: unknown) =>
            this.#options.log?.({
              time: new Date().toISOString(),
              level: 'error',
              msg: 'recurring invoice e-mail failed',
              invoice_id: result.invoice.id,
              error: error instanceof Error ? error.message : String(error),
            }),
          );
        }
      }
      // Nothing due, or all of it held by another process.
      if (!moved) break;
    }
    return issued;
  }

  async #anyDue(sql: Sql, today: string): Promise<boolean> {
    return (await sql.query(`select 1 from recurrings where ${DUE} limit 1`, [today])).length > 0;
  }

  /** Issues the next due period of definition `id`; 'none' when it is not due or another process holds it. */
  async #issueNext(tx: Sql, today: string, id: number) {
    const rows = await tx.query<StoredRow<RecurringData> & { account_id: number }>(
      `select id, account_id, data, created_at, updated_at from recurrings
        where id = $2 and ${DUE}
        for update skip locked`,
      [today, id],
    );
    const recurring = rows[0];
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
    const claimed = await tx.query(
      `insert into recurring_runs (recurring_id, period) values ($1, $2) on conflict do nothing returning period`,
      [recurring.id, period],
    );
    let issued: { accountId: number; invoice: StoredRow<InvoiceData>; email: string | null } | null = null;
    if (claimed.length > 0) {
      const template = await findRow<InvoiceData>(tx, 'invoices', account.id, data.invoice_id);
      if (!template) {
        data.active = false;
      } else {
        const issueDate = data.issue_working_day_only ? workingDayFrom(period) : period;
        const invoice = await buildNewInvoice(tx, account, copyOf(template.data, issueDate, period));
        (invoice as InvoiceData & { recurring_id?: number }).recurring_id = recurring.id;
        const row = await insertRow(tx, 'invoices', account.id, invoice);
        await tx.query(`update recurring_runs set invoice_id = $3 where recurring_id = $1 and period = $2`, [recurring.id, period, row.id]);
        data.last_invoice_id = row.id;
        data.invoices_count = (data.invoices_count ?? 0) + 1;
        const email = data.send_email ? (data.buyer_email || invoice.buyer_email) : null;
        issued = { accountId: account.id, invoice: row, email: email || null };
      }
    }
    await updateRow(tx, 'recurrings', account.id, recurring.id, data);
    return issued;
  }

  async #send(accountId: number, row: StoredRow<InvoiceData>, addresses: string): Promise<void> {
    const to = addresses.split(/[,;]/).map((a) => a.trim()).filter((a) => /^[^\s@<>"]+@[^\s@<>"]+$/.test(a)).slice(0, 20);
    if (to.length === 0) return;
    const invoice = row.data;
    const publicUrl = this.#options.publicUrl();
    const pdf = await renderInvoicePdfForRow(this.#db, accountId, row);
    await this.#mailer.send(this.#db, {
      accountId,
      invoiceId: row.id,
      ...invoiceSender(invoice, this.#mailer, publicUrl),
      to,
      cc: [],
      ...invoiceEmail(invoice, invoiceLinks(publicUrl, invoice.token), { pdfAttached: true }),
      attachments: [{ filename: pdfFileName(invoice), contentType: 'application/pdf', content: pdf }],
    });
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
