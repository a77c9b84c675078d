import type { ResourceTable, Sql } from '../sql.js';

/**
 * The webhooks' tables: the subscriptions (`webhooks`, resource records of the usual shape) and the
 * durable log of their deliveries (`webhook_deliveries`), which a write queues in its own transaction
 * and the worker of each service process claims with a lease, sends, and retries.
 */

/** A delivery as its log answers it. */
export interface WebhookDeliveryRow {
  id: number | string;
  delivery_id: string;
  webhook_id: number;
  kind: string;
  record_id: number;
  status: string;
  attempts: number;
  next_attempt_at: Date | null;
  last_attempt_at: Date | null;
  last_status: number | null;
  last_error: string | null;
  delivered_at: Date | null;
  created_at: Date;
}

const DELIVERY_COLUMNS = `id, delivery_id, webhook_id, kind, record_id, status, attempts, next_attempt_at, last_attempt_at,
  last_status, last_error, delivered_at, created_at`;

/** A delivery as the worker claims it: what to send, and the snapshot of the record written. */
export interface ClaimedDelivery {
  id: number;
  account_id: number;
  webhook_id: number;
  delivery_id: string;
  kind: string;
  record_table: ResourceTable;
  record_id: number;
  record: { data: Record<string, unknown>; created_at: string; updated_at: string };
  /** The sealed body sent at the first attempt, which every retry sends again. */
  body: string | null;
  attempts: number;
}

/** Whether any active webhook of the account listens for `kind` (`invoice:create`…). */
export async function anyWebhookListening(sql: Sql, accountId: number, kind: string): Promise<boolean> {
  const rows = await sql.query(
    `select 1 from webhooks w where w.account_id = $1 and w.data->>'kind' = $2 and coalesce((w.data->>'active')::boolean, true) limit 1`,
    [accountId, kind],
  );
  return rows.length > 0;
}

/**
 * Queues one delivery of `kind` per active webhook of the account that listens for it, with a
 * snapshot of record `recordId` of `table` taken by the database as it stands in the caller's
 * transaction. Answers how many were queued.
 */
export async function queueDeliveries(sql: Sql, accountId: number, kind: string, table: ResourceTable, recordId: number): Promise<number> {
  const queued = await sql.query(
    `insert into webhook_deliveries (account_id, webhook_id, delivery_id, kind, record_table, record_id, record)
         select $1, w.id, gen_random_uuid()::text, $2, $3, r.id,
                jsonb_build_object('data', r.data, 'created_at', r.created_at, 'updated_at', r.updated_at)
           from webhooks w join ${table} r on r.id = $4 and r.account_id = $1
          where w.account_id = $1 and w.data->>'kind' = $2 and coalesce((w.data->>'active')::boolean, true)
         returning id`,
    [accountId, kind, table, recordId],
  );
  return queued.length;
}

/** The stored record of the account's webhook `webhookId` (its secrets sealed). */
export async function webhookRecord<Data>(sql: Sql, accountId: number, webhookId: number): Promise<Data | undefined> {
  const hooks = await sql.query<{ data: Data }>(`select data from webhooks where id = $1 and account_id = $2`, [webhookId, accountId]);
  return hooks[0]?.data;
}

/** A page of the webhook's delivery log, newest first, optionally of one status. */
export function deliveryLog(
  sql: Sql,
  accountId: number,
  webhookId: number,
  page: { status: string | null; limit: number; offset: number },
): Promise<WebhookDeliveryRow[]> {
  return sql.query<WebhookDeliveryRow>(
    `select ${DELIVERY_COLUMNS} from webhook_deliveries
        where account_id = $1 and webhook_id = $2 and ($3::text is null or status = $3)
        order by id desc limit $4 offset $5`,
    [accountId, webhookId, page.status, page.limit, page.offset],
  );
}

/** Makes the webhook's delivery due again at once, as a new one; `undefined` when it has none of that id. */
export async function redeliver(sql: Sql, accountId: number, webhookId: number, deliveryId: number): Promise<WebhookDeliveryRow | undefined> {
  const rows = await sql.query<WebhookDeliveryRow>(
    `update webhook_deliveries set status = 'pending', next_attempt_at = now(), attempts = 0, delivered_at = null
        where account_id = $1 and webhook_id = $2 and id = $3 returning ${DELIVERY_COLUMNS}`,
    [accountId, webhookId, deliveryId],
  );
  return rows[0];
}

/** Whether any delivery is due now: a plain read, which writes nothing. */
export async function anyDeliveryDue(sql: Sql): Promise<boolean> {
  return (await sql.query(`select 1 from webhook_deliveries where status = 'pending' and next_attempt_at <= now() limit 1`)).length > 0;
}

/**
 * The oldest due delivery of each webhook that is not busy, of accounts that are not full, ranked
 * within its account so that every account's first comes before anyone's second: at most
 * `perAccount` of an account, `limit` in all.
 */
export function dueDeliveryCandidates(
  sql: Sql,
  busy: { webhooks: number[]; accounts: number[] },
  perAccount: number,
  limit: number,
): Promise<{ id: number; account_id: number; webhook_id: number }[]> {
  return sql.query<{ id: number; account_id: number; webhook_id: number }>(
    `select id, account_id, webhook_id from (
         select id, account_id, webhook_id, next_attempt_at,
                row_number() over (partition by account_id order by next_attempt_at, id) as rank
           from (select distinct on (webhook_id) id, account_id, webhook_id, next_attempt_at
                   from webhook_deliveries
                  where status = 'pending' and next_attempt_at <= now()
                    and webhook_id <> all($1::int[]) and account_id <> all($2::int[])
                  order by webhook_id, next_attempt_at, id) oldest
       ) ranked
       where rank <= $3
       order by rank, next_attempt_at, id
       limit $4`,
    [busy.webhooks, busy.accounts, perAccount, limit],
  );
}

/**
 * Claims the deliveries `ids` that are still due, each for `leaseSeconds` and one attempt more: a
 * delivery another process leased meanwhile is no longer due, and is left out.
 */
export function claimDeliveries(sql: Sql, ids: number[], leaseSeconds: number): Promise<ClaimedDelivery[]> {
  return sql.query<ClaimedDelivery>(
    `update webhook_deliveries d
          set next_attempt_at = now() + make_interval(secs => $1), attempts = d.attempts + 1, last_attempt_at = now()
        where d.id = any($2::bigint[]) and d.status = 'pending' and d.next_attempt_at <= now()
       returning d.id, d.account_id, d.webhook_id, d.delivery_id, d.kind, d.record_table, d.record_id, d.record, d.body, d.attempts`,
    [leaseSeconds, ids],
  );
}

/** Keeps the delivery's body (sealed) from its first attempt, so that every retry sends the same bytes. */
export async function keepDeliveryBody(sql: Sql, deliveryId: number, sealedBody: string): Promise<void> {
  await sql.query(`update webhook_deliveries set body = $2 where id = $1 and body is null`, [deliveryId, sealedBody]);
}

/** An attempt cut off by shutdown: due again at once, and not counted. */
export async function releaseDelivery(sql: Sql, deliveryId: number): Promise<void> {
  await sql.query(`update webhook_deliveries set next_attempt_at = now(), attempts = attempts - 1 where id = $1`, [deliveryId]);
}

/** A failed attempt: the delivery is due again after `delaySeconds`, with what the subscriber answered. */
export async function retryDeliveryLater(sql: Sql, deliveryId: number, delaySeconds: number, httpStatus: number | null, error: string): Promise<void> {
  await sql.query(`update webhook_deliveries set next_attempt_at = now() + make_interval(secs => $2), last_status = $3, last_error = $4 where id = $1`, [
    deliveryId,
    delaySeconds,
    httpStatus,
    error,
  ]);
}

/** The delivery is over: `delivered`, or `failed` for good. */
export async function finishDelivery(sql: Sql, deliveryId: number, status: 'delivered' | 'failed', httpStatus: number | null, error: string | null): Promise<void> {
  await sql.query(
    `update webhook_deliveries
          set status = $2, last_status = $3, last_error = $4, next_attempt_at = null,
              delivered_at = case when $2 = 'delivered' then now() else null end
        where id = $1`,
    [deliveryId, status, httpStatus, error],
  );
}
