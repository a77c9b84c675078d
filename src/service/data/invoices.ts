import type { Sql, StoredRow } from '../sql.js';
import type { Filters } from '../store.js';

/**
 * The invoices table: the reads made of it beside the generic record ones. An invoice is inserted
 * in one place only, `insertInvoice` (invoicing/invoices.ts), through the generic insert or
 * `insertNumbered`; KSeF's own reads of invoices are in `ksef-invoices.ts`.
 */

/** The account's invoices among `ids`, in no set order. */
export function invoicesByIds<Data>(sql: Sql, accountId: number, ids: number[]): Promise<StoredRow<Data>[]> {
  return sql.query<StoredRow<Data>>(
    `select id, data, created_at, updated_at from invoices where account_id = $1 and id = any($2::int[])`,
    [accountId, ids],
  );
}

/** The advance invoices of an order that are not cancelled, oldest first. */
export function advancesOfOrder<Data>(sql: Sql, accountId: number, orderId: number): Promise<StoredRow<Data>[]> {
  return sql.query<StoredRow<Data>>(
    `select id, data, created_at, updated_at from invoices
      where account_id = $1 and data->>'kind' = 'advance' and (data->>'invoice_id')::integer = $2
        and coalesce((data->>'cancelled')::boolean, false) = false
      order by id`,
    [accountId, orderId],
  );
}

/** Whether an order already has a final invoice that is not cancelled. */
export async function orderHasFinalInvoice(sql: Sql, accountId: number, orderId: number): Promise<boolean> {
  const rows = await sql.query(
    `select id from invoices where account_id = $1 and data->>'kind' = 'final' and (data->>'invoice_id')::integer = $2
         and coalesce((data->>'cancelled')::boolean, false) = false limit 1`,
    [accountId, orderId],
  );
  return rows.length > 0;
}

/**
 * Takes, until the transaction ends, the lock on an `oid` of the account: creations of the same oid
 * are serialized across processes (PGlite runs one transaction at a time anyway).
 */
export async function lockInvoiceOid(tx: Sql, accountId: number, oid: string): Promise<void> {
  await tx.query(`select pg_advisory_xact_lock(hashtext($1))`, [`invoice-oid:${accountId}:${oid}`]);
}

/** Whether another invoice of the account (not `exceptId`) has the `oid`. */
export async function invoiceOidTaken(tx: Sql, accountId: number, oid: string, exceptId: number): Promise<boolean> {
  const rows = await tx.query(`select id from invoices where account_id = $1 and data->>'oid' = $2 and id <> $3 limit 1`, [
    accountId,
    oid,
    exceptId,
  ]);
  return rows.length > 0;
}

/** One currency's line of an invoice summary: amounts are exact decimals as text. */
export interface InvoiceSummaryRow {
  currency: string | null;
  count: number;
  outstanding: string;
  outstanding_count: number;
  overdue: string;
  overdue_count: number;
}

/**
 * Per currency, how many of the account's invoices meet `filters`, and what is still due and
 * overdue (a payment date before `today`) on those issued, sent or partly paid and not cancelled.
 * One query; each document is unpacked once per row (`jsonb_to_record`), not once per field and aggregate.
 */
export function invoiceSummary(sql: Sql, accountId: number, filters: Filters, today: string): Promise<InvoiceSummaryRow[]> {
  const todayParam = `$${filters.params.length + 2}`;
  const where = ['account_id = $1', ...filters.where].join(' and ');
  return sql.query<InvoiceSummaryRow>(
    `select currency, count(*)::int as count,
            coalesce(sum(due) filter (where outstanding), 0)::text as outstanding,
            (count(*) filter (where outstanding))::int as outstanding_count,
            coalesce(sum(due) filter (where outstanding and payment_to < ${todayParam}), 0)::text as overdue,
            (count(*) filter (where outstanding and payment_to < ${todayParam}))::int as overdue_count
       from (select r.currency, r.payment_to,
                    r.price_gross - coalesce(nullif(r.paid, '')::numeric, 0) as due,
                    r.status in ('issued', 'sent', 'partial') and coalesce(r.cancelled, 'false') <> 'true'
                      and r.price_gross - coalesce(nullif(r.paid, '')::numeric, 0) > 0 as outstanding
               from invoices,
                    jsonb_to_record(data) as r(currency text, payment_to text, price_gross numeric, paid text, status text, cancelled text)
              where ${where}) as each_invoice
      group by 1 order by 1`,
    [accountId, ...filters.params, today],
  );
}
