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

/**
 * The alerts of the overview's other kinds (a payment that failed, a webhook or an invoice's e-mails
 * that keep failing), one per record and kind (migration 103); true when this call claimed it.
 */
export async function claimRecordAlert(sql: Sql, accountId: number, kind: string, recordId: number): Promise<boolean> {
  const rows = await sql.query(
    `insert into seller_record_alerts (account_id, kind, record_id) values ($1, $2, $3) on conflict do nothing returning record_id`,
    [accountId, kind, recordId],
  );
  return rows.length > 0;
}

/**
 * The accounts that may have a payment, webhook or e-mail to tell their seller of: a declined
 * payment of the last 30 days, a webhook delivery failed or retried this week, an e-mail failed
 * this week. A cheap first pass, so the overview's query runs only for these.
 */
export async function accountsWithFailures(sql: Sql, now: Date): Promise<number[]> {
  const rows = await sql.query<{ account_id: number }>(
    `select account_id from payments
      where data->>'provider_status' = 'declined' and created_at > $1::timestamptz - interval '30 days'
     union
     select account_id from webhook_deliveries
      where (status = 'failed' or (status = 'pending' and attempts >= 3)) and created_at > $1::timestamptz - interval '7 days'
     union
     select account_id from mail_log where status = 'failed' and sent_at > $1::timestamptz - interval '7 days'
     order by account_id`,
    [now.toISOString()],
  );
  return rows.map((row) => Number(row.account_id));
}

/**
 * Queues an `account:attention` delivery to each of the account's active webhooks of that kind, the
 * overview's item as its record; the webhook worker signs and sends it as any other. How many it queued.
 */
export async function queueAttentionEvent(sql: Sql, accountId: number, recordId: number, item: Record<string, unknown>): Promise<number> {
  const queued = await sql.query(
    `insert into webhook_deliveries (account_id, webhook_id, delivery_id, kind, record_table, record_id, record)
     select $1, w.id, gen_random_uuid()::text, 'account:attention', 'attention', $2,
            jsonb_build_object('data', $3::jsonb, 'created_at', now(), 'updated_at', now())
       from webhooks w
      where w.account_id = $1 and w.data->>'kind' = 'account:attention' and coalesce((w.data->>'active')::boolean, true)
     returning id`,
    [accountId, recordId, JSON.stringify(item)],
  );
  return queued.length;
}
