import type { Sql } from '../db.js';

/**
 * The exchange rates invoices were given, and the invoices waiting for one: the only SQL of the
 * rates (migration 90). A rate is kept per currency and tax point, so every invoice of that day
 * takes the same published rate without asking NBP again, across restarts and processes.
 */

export interface KeptRate {
  currency: string;
  /** The day the tax obligation arose; the rate is the one published on the last working day before it. */
  taxPoint: string;
  /** The NBP table A mid rate, as published (`4.2710`). */
  rate: string;
  /** The table's number (`230/A/NBP/2026`). */
  table: string;
  /** The day the table was published. */
  effectiveDate: string;
}

export async function keptRate(sql: Sql, currency: string, taxPoint: string): Promise<KeptRate | undefined> {
  const rows = await sql.query<{ rate: string; table_no: string; effective_date: string }>(
    `select rate, table_no, effective_date::text as effective_date from exchange_rates where currency = $1 and tax_point = $2`,
    [currency, taxPoint],
  );
  const row = rows[0];
  return row ? { currency, taxPoint, rate: row.rate, table: row.table_no, effectiveDate: row.effective_date } : undefined;
}

export async function keepRate(sql: Sql, rate: KeptRate): Promise<void> {
  await sql.query(
    `insert into exchange_rates (currency, tax_point, rate, table_no, effective_date) values ($1, $2, $3, $4, $5)
       on conflict (currency, tax_point) do nothing`,
    [rate.currency, rate.taxPoint, rate.rate, rate.table, rate.effectiveDate],
  );
}

export interface RateWait {
  invoiceId: number;
  accountId: number;
  currency: string;
  taxPoint: string;
  attempts: number;
}

/** Records that an invoice waits for the rate of its currency and tax point. */
export async function waitForRate(sql: Sql, wait: Omit<RateWait, 'attempts'>, now: Date): Promise<void> {
  await sql.query(
    `insert into exchange_rate_waits (invoice_id, account_id, currency, tax_point, next_attempt_at) values ($1, $2, $3, $4, $5)
       on conflict (invoice_id) do nothing`,
    [wait.invoiceId, wait.accountId, wait.currency, wait.taxPoint, now],
  );
}

/** The waits due by `now`, read without claiming them (the worker fetches their rates before it claims). */
export async function dueWaits(sql: Sql, now: Date, limit: number): Promise<RateWait[]> {
  const rows = await sql.query<{ invoice_id: number; account_id: number; currency: string; tax_point: string; attempts: number }>(
    `select invoice_id, account_id, currency, tax_point::text as tax_point, attempts from exchange_rate_waits
      where next_attempt_at <= $1 order by next_attempt_at, invoice_id limit $2`,
    [now, limit],
  );
  return rows.map((row) => ({ invoiceId: row.invoice_id, accountId: row.account_id, currency: row.currency, taxPoint: row.tax_point, attempts: row.attempts }));
}

/** Claims one invoice's wait for the caller's transaction; `undefined` when another process holds it or it ended. */
export async function claimWait(sql: Sql, invoiceId: number): Promise<RateWait | undefined> {
  const rows = await sql.query<{ invoice_id: number; account_id: number; currency: string; tax_point: string; attempts: number }>(
    `select invoice_id, account_id, currency, tax_point::text as tax_point, attempts from exchange_rate_waits
      where invoice_id = $1 for update skip locked`,
    [invoiceId],
  );
  const row = rows[0];
  return row ? { invoiceId: row.invoice_id, accountId: row.account_id, currency: row.currency, taxPoint: row.tax_point, attempts: row.attempts } : undefined;
}

/** The waits due by `now`, each claimed by one process (the others skip it) until the caller's transaction ends. */
export async function claimDueWaits(sql: Sql, now: Date, limit: number): Promise<RateWait[]> {
  const rows = await sql.query<{ invoice_id: number; account_id: number; currency: string; tax_point: string; attempts: number }>(
    `select invoice_id, account_id, currency, tax_point::text as tax_point, attempts from exchange_rate_waits
      where next_attempt_at <= $1 order by next_attempt_at, invoice_id limit $2 for update skip locked`,
    [now, limit],
  );
  return rows.map((row) => ({ invoiceId: row.invoice_id, accountId: row.account_id, currency: row.currency, taxPoint: row.tax_point, attempts: row.attempts }));
}

export async function postponeWait(sql: Sql, invoiceId: number, next: Date, error: string): Promise<void> {
  await sql.query(
    `update exchange_rate_waits set attempts = attempts + 1, next_attempt_at = $2, last_error = $3 where invoice_id = $1`,
    [invoiceId, next, error.slice(0, 500)],
  );
}

export async function endWait(sql: Sql, invoiceId: number): Promise<void> {
  await sql.query(`delete from exchange_rate_waits where invoice_id = $1`, [invoiceId]);
}

export async function hasDueWaits(sql: Sql, now: Date): Promise<boolean> {
  return (await sql.query(`select 1 from exchange_rate_waits where next_attempt_at <= $1 limit 1`, [now])).length > 0;
}
