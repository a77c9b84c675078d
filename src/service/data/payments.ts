import type { Sql, StoredRow } from '../sql.js';

/** The payments table: the reads and writes made of it beside the generic record ones. */

/** The newest unpaid, undeleted payment of an invoice that sends its buyer back to `returnUrl` (a pay link's own). */
export async function latestUnpaidPayment<Data>(sql: Sql, accountId: number, invoiceId: number, returnUrl: string): Promise<Data | undefined> {
  const rows = await sql.query<{ data: Data }>(
    `select data from payments
      where account_id = $1 and data->>'invoice_id' = $2 and data->>'paid' = 'false' and coalesce(data->>'deleted', 'false') = 'false'
        and data->>'return_url' = $3
      order by id desc limit 1`,
    [accountId, String(invoiceId), returnUrl],
  );
  return rows[0]?.data;
}

/** The payments of the account that name one of `invoiceIds`, oldest first. */
export function paymentsOfInvoices<Data>(sql: Sql, accountId: number, invoiceIds: number[]): Promise<StoredRow<Data>[]> {
  return sql.query<StoredRow<Data>>(
    `select id, data, created_at, updated_at from payments
        where account_id = $1 and (data->>'invoice_id')::integer = any($2::int[]) order by id`,
    [accountId, invoiceIds],
  );
}

/** Unlinks every payment of the account from an invoice (which is being deleted). */
export async function detachPaymentsFromInvoice(sql: Sql, accountId: number, invoiceId: number): Promise<void> {
  await sql.query(
    `update payments set data = jsonb_set(data, '{invoice_id}', 'null'), updated_at = now()
          where account_id = $1 and (data->>'invoice_id')::integer = $2`,
    [accountId, invoiceId],
  );
}
