import type { CacheStore } from '../cache.js';
import type { IdempotencyClaim, IdempotencyStore, StoredAnswer } from '../idempotency.js';
import type { RateLimitHit, RateLimitStore } from '../rate-limit.js';
import { pollSettled, SHARED_STORE_DEFAULTS, type BffStores, type SharedStoreOptions } from './types.js';

/** The one thing the stores ask of a PostgreSQL client: `pg`'s `Pool#query`. */
export interface PostgresQueryable {
  query(text: string, params?: unknown[]): Promise<{ rows: Record<string, unknown>[] }>;
}

export interface PostgresStoreOptions extends SharedStoreOptions {
  /** `postgres://user:password@host:5432/db`; the stores open and close a small pool. */
  url?: string;
  /** A `pg` Pool you manage yourself, instead of `url`. */
  pool?: PostgresQueryable;
  /** Prefix of the three tables the stores create when missing. Default `invoicekit_bff_`. */
  tablePrefix?: string;
  /** Connections of the pool opened from `url`. Default 5. */
  maxConnections?: number;
}

/**
 * Idempotency keys, rate limits and the cache in PostgreSQL, for hosts that run a database but no
 * Redis. Each operation is one statement, so concurrent BFF processes serialize on the row.
 */
export async function postgresStores(options: PostgresStoreOptions): Promise<BffStores> {
  const settings = { ...SHARED_STORE_DEFAULTS, ...options };
  const prefix = options.tablePrefix ?? 'invoicekit_bff_';
  if (!/^[a-z_][a-z0-9_]{0,40}$/.test(prefix)) throw new TypeError(`Not a table prefix: ${prefix}`);
  const idem = `${prefix}idempotency`;
  const rate = `${prefix}rate_limits`;
  const cached = `${prefix}cache`;
  let db: PostgresQueryable;
  let close = async () => undefined as void;
  if (options.pool) db = options.pool;
  else {
    if (!options.url) throw new TypeError('postgresStores needs `url` or `pool`.');
    const pg = await importPg();
    const pool = new pg.Pool({ connectionString: options.url, max: options.maxConnections ?? 5 });
    pool.on('error', () => undefined); // an idle connection dropped by the server: the pool reconnects
    db = pool;
    close = () => pool.end();
  }

  // Several processes start at once: one creates the tables, the others wait on the lock.
  await db.query(`do $$ begin
    perform pg_advisory_xact_lock(hashtext('${prefix}schema'));
    create table if not exists ${idem} (key text primary key, fingerprint text not null, owner text, answer jsonb, locked_until timestamptz not null, expires_at timestamptz not null);
    create table if not exists ${rate} (key text primary key, count integer not null, reset_at timestamptz not null);
    create table if not exists ${cached} (key text primary key, value jsonb not null, expires_at timestamptz not null);
  end $$`);

  let writes = 0;
  /** Expired rows go now and then, a few at a time, so no request pays for a big sweep. */
  async function sweep(): Promise<void> {
    writes += 1;
    if (writes % 200 !== 0) return;
    for (const table of [idem, cached]) {
      await db.query(`delete from ${table} where ctid in (select ctid from ${table} where expires_at < now() limit 500)`);
    }
    await db.query(`delete from ${rate} where ctid in (select ctid from ${rate} where reset_at < now() limit 500)`);
  }

  const idempotency: IdempotencyStore = {
    async claim(key, fingerprint): Promise<IdempotencyClaim> {
      const owner = crypto.randomUUID();
      // Takes the key when it is new, expired, or locked by a request that never finished.
      const { rows } = await db.query(
        `insert into ${idem} as held (key, fingerprint, owner, answer, locked_until, expires_at)
         values ($1, $2, $3, null, now() + $4 * interval '1 millisecond', now() + $5 * interval '1 millisecond')
         on conflict (key) do update set fingerprint = excluded.fingerprint, owner = excluded.owner, answer = null,
           locked_until = excluded.locked_until, expires_at = excluded.expires_at
         where held.expires_at < now() or (held.answer is null and held.locked_until < now())
         returning owner`,
        [key, fingerprint, owner, settings.idempotencyLockMs, settings.idempotencyRetentionMs],
      );
      void sweep().catch(() => undefined);
      if (rows[0]?.['owner'] === owner) {
        claims.set(key, owner);
        return { state: 'claimed' };
      }
      const current = await read(key);
      if (!current) return idempotency.claim(key, fingerprint);
      if (current.answer) return { state: 'done', fingerprint: current.fingerprint, answer: current.answer };
      const settled = pollSettled<StoredAnswer>(
        async () => {
          const now = await read(key);
          if (!now || now.owner !== current.owner) return now?.answer ? { answer: now.answer } : { gone: true };
          return now.answer ? { answer: now.answer } : {};
        },
        settings.pollMs,
        settings.idempotencyLockMs,
      );
      return { state: 'in-flight', fingerprint: current.fingerprint, settled };
    },
    async complete(key, answer) {
      const owner = claims.get(key);
      claims.delete(key);
      if (!owner) return;
      await db.query(
        `update ${idem} set answer = $3, owner = null, expires_at = now() + $4 * interval '1 millisecond' where key = $1 and owner = $2`,
        [key, owner, JSON.stringify(answer), settings.idempotencyRetentionMs],
      );
    },
    async release(key) {
      const owner = claims.get(key);
      claims.delete(key);
      if (owner) await db.query(`delete from ${idem} where key = $1 and owner = $2 and answer is null`, [key, owner]);
    },
  };
  const claims = new Map<string, string>();

  async function read(key: string): Promise<{ fingerprint: string; owner: string | null; answer: StoredAnswer | null } | undefined> {
    const { rows } = await db.query(`select fingerprint, owner, answer from ${idem} where key = $1 and expires_at >= now()`, [key]);
    const row = rows[0];
    if (!row) return undefined;
    return { fingerprint: String(row['fingerprint']), owner: (row['owner'] as string | null) ?? null, answer: (row['answer'] as StoredAnswer | null) ?? null };
  }

  const rateLimit: RateLimitStore = {
    async hit(key, windowMs): Promise<RateLimitHit> {
      const { rows } = await db.query(
        `insert into ${rate} as w (key, count, reset_at) values ($1, 1, now() + $2 * interval '1 millisecond')
         on conflict (key) do update set
           count = case when w.reset_at <= now() then 1 else w.count + 1 end,
           reset_at = case when w.reset_at <= now() then excluded.reset_at else w.reset_at end
         returning count, (extract(epoch from reset_at) * 1000)::float8 as reset_at`,
        [key, Math.max(1, Math.round(windowMs))],
      );
      void sweep().catch(() => undefined);
      return { count: Number(rows[0]!['count']), resetAt: Math.round(Number(rows[0]!['reset_at'])) };
    },
  };

  const cache: CacheStore = {
    async get<T>(key: string) {
      const { rows } = await db.query(`select value from ${cached} where key = $1 and expires_at > now()`, [key]);
      return rows[0] ? (rows[0]['value'] as T) : undefined;
    },
    async set(key, value, ttlMs) {
      if (ttlMs <= 0) return;
      await db.query(
        `insert into ${cached} (key, value, expires_at) values ($1, $2, now() + $3 * interval '1 millisecond')
         on conflict (key) do update set value = excluded.value, expires_at = excluded.expires_at`,
        [key, JSON.stringify(value), Math.round(ttlMs)],
      );
      void sweep().catch(() => undefined);
    },
    async delete(key) {
      await db.query(`delete from ${cached} where key = $1`, [key]);
    },
  };

  return {
    kind: 'postgres',
    idempotency,
    rateLimit,
    cache,
    async ping() {
      await db.query('select 1');
    },
    close,
  };
}

async function importPg(): Promise<typeof import('pg')['default']> {
  try {
    return (await import('pg')).default;
  } catch (error) {
    throw new Error('The PostgreSQL stores need the pg client: npm install pg', { cause: error });
  }
}
