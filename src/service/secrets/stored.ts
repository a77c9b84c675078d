import type { Database, Sql } from '../db.js';
import { currentKeyId, openSecret, sealedWith, sealSecret, tokenHash } from './keyring.js';

/**
 * Every secret the database holds, sealed under the newest key: at start (after the migrations, so
 * that data stored in clear before sealing existed is sealed), and by `invoicekit secrets rotate`.
 * Idempotent: a value already sealed with the newest key is left as it is.
 */

/** The secret fields of an account's payment settings (`accounts.data.payments`). */
export const PAYMENT_SECRET_FIELDS = { stripe: ['secret_key', 'webhook_secret'], przelewy24: ['crc', 'api_key'] } as const;

type Sections = Record<string, Record<string, unknown> | undefined>;

/** A copy of `payments` with each secret field passed through `change`. */
export function mapPaymentSecrets<T extends object>(payments: T, change: (value: string) => string): T {
  const copy = { ...payments } as Sections;
  for (const [section, fields] of Object.entries(PAYMENT_SECRET_FIELDS)) {
    const given = copy[section];
    if (!given) continue;
    const next = { ...given };
    for (const field of fields) if (typeof next[field] === 'string') next[field] = change(next[field]);
    copy[section] = next;
  }
  return copy as T;
}

/** A webhook's data with its secret and its api_token passed through `change`. */
export function mapWebhookSecrets<T extends { secret?: unknown; api_token?: unknown }>(data: T, change: (value: string) => string): T {
  return {
    ...data,
    ...(typeof data.secret === 'string' ? { secret: change(data.secret) } : {}),
    ...(typeof data.api_token === 'string' ? { api_token: change(data.api_token) } : {}),
  };
}

/** An account row as stored, with its api_token opened. */
export function openAccountToken<T extends { api_token: string }>(row: T): T {
  return { ...row, api_token: openSecret(row.api_token) };
}

/** The columns that store an api_token: sealed, and its lookup hash. */
export function storedToken(token: string): { sealed: string; hash: string } {
  return { sealed: sealSecret(token), hash: tokenHash(token) };
}

const stale = (value: unknown): value is string => typeof value === 'string' && sealedWith(value) !== currentKeyId();
const reseal = (value: string) => sealSecret(openSecret(value));

function paymentsStale(payments: Sections | null): boolean {
  if (!payments) return false;
  return Object.entries(PAYMENT_SECRET_FIELDS).some(([section, fields]) => fields.some((field) => stale(payments[section]?.[field])));
}

async function sealIn(tx: Sql): Promise<number> {
  let sealed = 0;
  const accounts = await tx.query<{ id: number; api_token: string; api_token_hash: string | null; payments: Sections | null }>(
    `select id, api_token, api_token_hash, data->'payments' as payments from accounts order by id for update`,
  );
  for (const account of accounts) {
    const token = openSecret(account.api_token);
    if (stale(account.api_token) || account.api_token_hash !== tokenHash(token)) {
      const stored = storedToken(token);
      await tx.query(`update accounts set api_token = $2, api_token_hash = $3 where id = $1`, [account.id, stored.sealed, stored.hash]);
      sealed += 1;
    }
    if (paymentsStale(account.payments)) {
      await tx.query(`update accounts set data = jsonb_set(data, '{payments}', $2::jsonb) where id = $1`, [account.id, JSON.stringify(mapPaymentSecrets(account.payments!, reseal))]);
      sealed += 1;
    }
  }
  const ksef = await tx.query<{ account_id: number; token: string | null; offline_private_key: string | null }>(
    `select account_id, token, offline_private_key from ksef_settings for update`,
  );
  for (const row of ksef) {
    if (!stale(row.token) && !stale(row.offline_private_key)) continue;
    await tx.query(`update ksef_settings set token = $2, offline_private_key = $3 where account_id = $1`, [
      row.account_id,
      row.token === null ? null : reseal(row.token),
      row.offline_private_key === null ? null : reseal(row.offline_private_key),
    ]);
    sealed += 1;
  }
  const hooks = await tx.query<{ id: number; data: { secret?: string; api_token?: string | null } }>(`select id, data from webhooks for update`);
  for (const hook of hooks) {
    if (!stale(hook.data.secret) && !stale(hook.data.api_token)) continue;
    await tx.query(`update webhooks set data = $2::jsonb where id = $1`, [hook.id, JSON.stringify(mapWebhookSecrets(hook.data, reseal))]);
    sealed += 1;
  }
  // Bodies may be large and many: only those not sealed with the newest key are read.
  const bodies = await tx.query<{ id: number | string; body: string }>(
    `select id, body from webhook_deliveries where body is not null and left(body, 13) <> $1 for update`,
    [`ik1.${currentKeyId()}.`],
  );
  for (const delivery of bodies) {
    if (!stale(delivery.body)) continue;
    await tx.query(`update webhook_deliveries set body = $2 where id = $1`, [delivery.id, reseal(delivery.body)]);
    sealed += 1;
  }
  const answers = await tx.query<{ account_id: number; key: string; body: string }>(
    `select account_id, key, body from idempotency_keys where body is not null and left(body, 13) <> $1 for update`,
    [`ik1.${currentKeyId()}.`],
  );
  for (const answer of answers) {
    await tx.query(`update idempotency_keys set body = $3 where account_id = $1 and key = $2`, [answer.account_id, answer.key, reseal(answer.body)]);
    sealed += 1;
  }
  const settings = await tx.query<{ key: string; value: string }>(`select key, value from settings where key in ('integration_token', 'signing_secret') for update`);
  for (const setting of settings) {
    if (!stale(setting.value)) continue;
    await tx.query(`update settings set value = $2 where key = $1`, [setting.key, reseal(setting.value)]);
    sealed += 1;
  }
  return sealed;
}

/**
 * Seals what is in clear or under an older key; answers how many records changed. On the embedded
 * database the old versions of those rows are vacuumed away, so that no copy in clear stays behind
 * in its files.
 */
export async function sealStoredSecrets(db: Database): Promise<number> {
  const sealed = await db.transaction(async (tx) => {
    if (db.kind === 'postgres') await tx.query('select pg_advisory_xact_lock($1)', [7_204_313]);
    return sealIn(tx);
  });
  if (sealed > 0 && db.kind === 'pglite') {
    // One statement each: VACUUM runs outside a transaction, and a script is one.
    for (const table of ['accounts', 'ksef_settings', 'webhooks', 'webhook_deliveries', 'idempotency_keys', 'settings']) await db.query(`vacuum full ${table}`);
    // The write-ahead log that held the values in clear is switched out and checkpointed away,
    // its files removed rather than kept for reuse with their old bytes (PGlite is a single
    // session, which may set this).
    await db.query('set wal_recycle = off');
    try {
      for (let round = 0; round < 2; round += 1) {
        await db.query('select pg_switch_wal()');
        await db.query('checkpoint');
      }
    } finally {
      await db.query('reset wal_recycle');
    }
  }
  return sealed;
}
