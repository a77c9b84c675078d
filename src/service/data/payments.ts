import type { Sql } from '../sql.js';

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
