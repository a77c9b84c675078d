import type { Sql } from '../sql.js';
import type { StoredRow } from '../store.js';

/**
 * The reads KSeF makes of the invoices table: automatic sending's look at new invoices, a final
 * invoice's advances, and the invoices holding e-mails until KSeF numbers them.
 */

/** Where e-mails held for KSeF wait, in the invoice's record (never answered: answers carry the schema's keys). */
export const HELD_EMAILS = 'ksef_held_emails';

/** Whether the account has an invoice after `afterId`: a plain read, which writes nothing. */
export async function anyInvoiceAfter(sql: Sql, accountId: number, afterId: number): Promise<boolean> {
  return (await sql.query(`select 1 from invoices where account_id = $1 and id > $2 limit 1`, [accountId, afterId])).length > 0;
}

/** The account's next 50 invoices after `afterId`, in order, locked until the caller's transaction ends. */
export function lockInvoicesAfter<Data>(tx: Sql, accountId: number, afterId: number): Promise<StoredRow<Data>[]> {
  return tx.query<StoredRow<Data>>(`select id, data, created_at, updated_at from invoices where account_id = $1 and id > $2 order by id limit 50 for update`, [
    accountId,
    afterId,
  ]);
}

/** The advance invoices of the account's order `orderId` that are not cancelled, in order. */
export function advancesOf<Data>(sql: Sql, accountId: number, orderId: number): Promise<{ id: number; data: Data }[]> {
  return sql.query<{ id: number; data: Data }>(
    `select id, data from invoices where account_id = $1 and data->>'kind' = 'advance' and (data->>'invoice_id')::integer = $2
         and coalesce((data->>'cancelled')::boolean, false) = false order by id`,
    [accountId, orderId],
  );
}

/** Every invoice, of any account, that holds e-mails for KSeF. */
export async function invoicesHoldingEmails(sql: Sql): Promise<{ accountId: number; invoiceId: number }[]> {
  const rows = await sql.query<{ account_id: number; id: number }>(`select account_id, id from invoices where data -> '${HELD_EMAILS}' is not null`);
  return rows.map((r) => ({ accountId: r.account_id, invoiceId: r.id }));
}
