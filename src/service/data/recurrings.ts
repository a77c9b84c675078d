import type { Sql, StoredRow } from '../sql.js';

/**
 * The recurring definitions (`recurrings`, resource records of the usual shape) and the periods
 * each has issued (`recurring_runs`, one row per definition and period under a primary key), as the
 * scheduler reads and claims them. Dates are `YYYY-MM-DD` text, which orders as the dates do.
 */

/** An active definition whose next invoice falls due by `$1` (today) and within its end date. */
const DUE = `coalesce((data->>'active')::boolean, true)
          and data->>'next_invoice_date' <= $1
          and (data->>'end_date' is null or data->>'next_invoice_date' <= data->>'end_date')`;

/** Whether any definition is due by `today`: a plain read, which writes nothing. */
export async function anyRecurringDue(sql: Sql, today: string): Promise<boolean> {
  return (await sql.query(`select 1 from recurrings where ${DUE} limit 1`, [today])).length > 0;
}

/** One turn: the oldest due definition of each account, but those of `skippedAccounts`. */
export function dueRecurringPerAccount(sql: Sql, today: string, skippedAccounts: number[]): Promise<{ id: number; account_id: number }[]> {
  return sql.query<{ id: number; account_id: number }>(
    `select distinct on (account_id) id, account_id from recurrings
          where ${DUE} and account_id <> all($2::int[])
          order by account_id, data->>'next_invoice_date', id`,
    [today, skippedAccounts],
  );
}

/**
 * Definition `id` while it is still due by `today`, locked until the caller's transaction ends;
 * `undefined` when it is not due or another process holds it (`for update skip locked`).
 */
export async function lockDueRecurring<Data>(tx: Sql, today: string, id: number): Promise<(StoredRow<Data> & { account_id: number }) | undefined> {
  const rows = await tx.query<StoredRow<Data> & { account_id: number }>(
    `select id, account_id, data, created_at, updated_at from recurrings
        where id = $2 and ${DUE}
        for update skip locked`,
    [today, id],
  );
  return rows[0];
}

/** Claims the definition's `period` for issuing: false when it was claimed before (issued at most once). */
export async function claimRecurringPeriod(tx: Sql, recurringId: number, period: string): Promise<boolean> {
  const claimed = await tx.query(`insert into recurring_runs (recurring_id, period) values ($1, $2) on conflict do nothing returning period`, [recurringId, period]);
  return claimed.length > 0;
}

/** Records the invoice issued for the definition's `period`. */
export async function recordRecurringInvoice(tx: Sql, recurringId: number, period: string, invoiceId: number): Promise<void> {
  await tx.query(`update recurring_runs set invoice_id = $3 where recurring_id = $1 and period = $2`, [recurringId, period, invoiceId]);
}
