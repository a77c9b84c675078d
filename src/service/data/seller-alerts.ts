import type { Sql } from '../sql.js';

/**
 * The alerts a seller was sent, one per invoice and state (migration 91): kept apart from the
 * invoice, so telling the seller never changes the invoice a client just read.
 */
export async function claimSellerAlert(sql: Sql, accountId: number, invoiceId: number, attention: string): Promise<boolean> {
  const rows = await sql.query(
    `insert into seller_alerts (invoice_id, account_id, attention) values ($1, $2, $3) on conflict do nothing returning invoice_id`,
    [invoiceId, accountId, attention],
  );
  return rows.length > 0;
}
