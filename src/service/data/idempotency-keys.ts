import type { Sql } from '../sql.js';

/**
 * The idempotency_keys table: each `Idempotency-Key` an account's POSTs claimed, with the request's
 * fingerprint and, once it is answered, the answer (status 0 while it runs).
 */

/** The answer kept for a key, as stored: `body` sealed, `status` 0 while the first request runs. */
export interface KeptAnswer {
  fingerprint: string;
  status: number;
  content_type: string | null;
  body: string | null;
}

/** How long a key is remembered. */
const RETENTION = '24 hours';

/** Forgets an account's keys claimed longer ago than they are remembered. */
export async function forgetOldIdempotencyKeys(sql: Sql, accountId: number): Promise<void> {
  await sql.query(`delete from idempotency_keys where account_id = $1 and created_at < now() - interval '${RETENTION}'`, [accountId]);
}

/** Claims `key` for a request with `fingerprint`; false when the account already holds the key. */
export async function claimIdempotencyKey(sql: Sql, accountId: number, key: string, fingerprint: string): Promise<boolean> {
  const claimed = await sql.query(
    `insert into idempotency_keys (account_id, key, fingerprint) values ($1, $2, $3)
     on conflict (account_id, key) do nothing returning key`,
    [accountId, key, fingerprint],
  );
  return claimed.length > 0;
}

/** What is kept under a claimed key, unless it was given up since. */
export async function keptAnswer(sql: Sql, accountId: number, key: string): Promise<KeptAnswer | undefined> {
  const rows = await sql.query<KeptAnswer>(`select fingerprint, status, content_type, body from idempotency_keys where account_id = $1 and key = $2`, [
    accountId,
    key,
  ]);
  return rows[0];
}

/** Gives a key up, so that the request may run again. */
export async function releaseIdempotencyKey(sql: Sql, accountId: number, key: string): Promise<void> {
  await sql.query(`delete from idempotency_keys where account_id = $1 and key = $2`, [accountId, key]);
}

/** Keeps the answer of the request that claimed `key`; `body` is sealed by the caller. */
export async function keepAnswer(sql: Sql, accountId: number, key: string, answer: Omit<KeptAnswer, 'fingerprint'>): Promise<void> {
  await sql.query(`update idempotency_keys set status = $3, content_type = $4, body = $5 where account_id = $1 and key = $2`, [
    accountId,
    key,
    answer.status,
    answer.content_type,
    answer.body,
  ]);
}
