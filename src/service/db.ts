import { createHash } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import { lockDataDir } from './data-lock.js';
import { chosenSharedBuffers, sharedBuffersFor } from './pglite-buffers.js';
import { prepareCluster } from './pglite-cluster.js';
import { ANY_TABLE, KeptReads } from './kept-reads.js';
import type { RowHooks, Sql } from './sql.js';

export type { Sql };

const sequenceName = (name: string) => {
  if (!/^[a-z_]+$/.test(name)) throw new Error(`not a sequence name: ${name}`);
  return name;
};

/** Values a process takes from a sequence at once: one query serves this many new ids. */
const SEQUENCE_BLOCK = 64;

/** `Sql.sequenceValues` of one database: blocks of values per sequence, handed out in order. */
function sequenceBlocks(): (sql: Sql, sequence: string, count: number) => Promise<number[]> {
  const pools = new Map<string, number[]>();
  return async (sql, sequence, count) => {
    const name = sequenceName(sequence);
    let pool = pools.get(name);
    if (!pool) pools.set(name, (pool = []));
    while (pool.length < count) {
      const rows = await sql.query<{ id: number }>(`select nextval('${name}')::int as id from generate_series(1, $1::int)`, [
        Math.max(SEQUENCE_BLOCK, count - pool.length),
      ]);
      pool.push(...rows.map((row) => row.id));
    }
    return pool.splice(0, count);
  };
}

/** The listeners of `Database.onWrite`. */
function writeListeners() {
  const listeners: ((text: string) => void)[] = [];
  const tell = (text: string) => {
    for (const listener of listeners) listener(text);
  };
  return {
    add(listener: (text: string) => void): () => void {
      listeners.push(listener);
      return () => {
        const at = listeners.indexOf(listener);
        if (at >= 0) listeners.splice(at, 1);
      };
    },
    tell,
    /** A write in a transaction: told now, and kept in `written` to be told again when the transaction ends. */
    inTransaction(written: string[], text: string) {
      written.push(text);
      tell(text);
    },
    /** The transaction whose writes these are committed or rolled back. */
    ended(written: readonly string[]) {
      for (const text of written) tell(text);
    },
  };
}

/** What `read` gives, kept where the database can keep it (`Sql.keep`), else read each time. */
export function keptRead<T>(sql: Sql, tables: readonly string[], key: string, read: () => Promise<T>): Promise<T> {
  return sql.keep ? sql.keep(tables, key, read) : read();
}

export interface Database extends Sql {
  readonly kind: 'pglite' | 'postgres';
  /** Runs `work` in one transaction: all of it commits, or none of it does. */
  transaction<T>(work: (tx: Sql) => Promise<T>): Promise<T>;
  /**
   * Calls `onNotify` for each notification on `channel`, from any process using the same database.
   * `onLost` is called when notifications may have been missed (the listening connection broke);
   * `onNotify` is called again once listening resumed.
   */
  listen(channel: string, onNotify: () => void, onLost: () => void): Promise<void>;
  /**
   * Calls `listener` with the text of each statement this process runs that may write (`ANY_TABLE`
   * for a script): before it runs and once it has ended, or, in a transaction, as it runs and once
   * the transaction has committed or rolled back. Unlike a notification, which reaches even this
   * process only later, this comes before the write's answer does: a value this process keeps can
   * be dropped before anyone could be told of the change. Returns what stops the calls.
   */
  onWrite(listener: (text: string) => void): () => void;
  /**
   * A count that moves before and after every statement that may write, in this process. Only on
   * PGlite, where one process owns the folder and so makes every write: an answer derived from
   * the database stays true while the count stands still. Absent on PostgreSQL, where other
   * processes write too.
   */
  writeCount?(): number;
  close(): Promise<void>;
}

/** A plain `select` that cannot write: no data-modifying clause, lock, sequence or setting in it. */
const READ_ONLY = /^\s*select\b/i;
const MAY_WRITE = /\b(insert|update|delete|merge|truncate|into|nextval|setval|pg_notify|set_config|lo_\w+)\b/i;
export const isReadOnly = (text: string) => READ_ONLY.test(text) && !MAY_WRITE.test(text);

export interface DatabaseOptions {
  /** `postgres://…` selects a PostgreSQL server; otherwise PGlite stores its data in `dataDir`. */
  databaseUrl?: string | undefined;
  dataDir?: string | undefined;
  /**
   * Where a new PGlite folder's empty cluster is copied from (`pglite-cluster.ts`): a folder, `false`
   * for none (each new folder runs initdb), or, unless given, the user's cache or `INVOICEKIT_CACHE_DIR`.
   */
  clusterCache?: string | false | undefined;
  /**
   * PGlite's buffer cache (PostgreSQL's `shared_buffers`), like `64MB`: unless given,
   * `INVOICEKIT_PGLITE_SHARED_BUFFERS`, else sized by the folder's data (`pglite-buffers.ts`).
   */
  sharedBuffers?: string | undefined;
  /** Work that commits with every record written (webhook deliveries): none unless given. */
  rowHooks?: readonly RowHooks[];
}

/** Statement texts kept prepared per connection; beyond this, queries are parsed each time. */
const MAX_PREPARED = 400;

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  const rowHooks = [...(options.rowHooks ?? [])];
  if (options.databaseUrl) return openPostgres(options.databaseUrl, rowHooks);
  return openPglite(options.dataDir, rowHooks, options.clusterCache, chosenSharedBuffers(options.sharedBuffers));
}

const concat = (parts: Uint8Array[]) => {
  const out = new Uint8Array(parts.reduce((n, part) => n + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
};

async function openPglite(
  dataDir: string | undefined,
  rowHooks: readonly RowHooks[],
  clusterCache: string | false | undefined,
  sharedBuffers: string | undefined,
): Promise<Database> {
  const { PGlite, protocol, parse } = await import('@electric-sql/pglite');
  if (dataDir) await mkdir(dataDir, { recursive: true });
  // One process per folder: a second one would write the same files from its own view of them.
  const lock = dataDir ? await lockDataDir(dataDir) : undefined;
  let pg: InstanceType<typeof PGlite>;
  try {
    // A new folder starts from a copy of an empty cluster when the cache has one (`pglite-cluster.ts`).
    const origin = dataDir ? await prepareCluster(dataDir, clusterCache) : undefined;
    // Given at start, not written to the folder's postgresql.conf: the folder stays as it was. A
    // cluster made or copied just now is empty, so only one that was there already is measured.
    const buffers = sharedBuffers ?? (await sharedBuffersFor(origin === 'existing' ? dataDir : undefined));
    pg = new PGlite({ ...(dataDir ? { dataDir } : {}), startParams: [...PGlite.defaultStartParams, '-c', `shared_buffers=${buffers}`] });
    await pg.waitReady;
  } catch (error) {
    await lock?.release();
    throw error;
  }
  // PGlite's own `query` parses, describes, binds and executes in six calls into the engine and
  // plans every time. Here a statement is parsed once under a name, then each query is one call.
  const engine = pg as unknown as {
    _runExclusiveTransaction<T>(work: () => Promise<T>): Promise<T>;
    parsers: Parameters<typeof parse.parseResults>[1];
    serializers: Record<number, (value: unknown) => string>;
  };
  const statements = new Map<string, { name: string; types: number[] }>();
  const prepared = async <Row>(text: string, params: readonly unknown[]): Promise<Row[]> => {
    let statement = statements.get(text);
    if (!statement) {
      const name = `s${statements.size + 1}`;
      const described = await pg.execProtocol(
        concat([protocol.serialize.parse({ name, text }), protocol.serialize.describe({ type: 'S', name }), protocol.serialize.sync()]),
        { syncToFs: false },
      );
      statement = { name, types: parse.parseDescribeStatementResults(described.messages) };
      statements.set(text, statement);
    }
    const types = statement.types;
    const values = params.map((value, i) => (value == null ? null : (engine.serializers[types[i]!] ?? String)(value)));
    const result = await pg.execProtocol(
      concat([
        protocol.serialize.bind({ statement: statement.name, values: values as string[] }),
        protocol.serialize.describe({ type: 'P' }),
        protocol.serialize.execute({}),
        protocol.serialize.sync(),
      ]),
      { syncToFs: false },
    );
    return parse.parseResults(result.messages, engine.parsers)[0]!.rows as Row[];
  };
  const usePrepared = (text: string) => statements.has(text) || statements.size < MAX_PREPARED;
  let writes = 0;
  const kept = new KeptReads();
  const listeners = writeListeners();
  /** Moves the write counts before a write starts and after it ends, whatever the outcome. */
  const writing = async <T>(text: string, work: () => Promise<T>): Promise<T> => {
    writes += 1;
    kept.written(text);
    listeners.tell(text);
    try {
      return await work();
    } finally {
      writes += 1;
      kept.written(text);
      listeners.tell(text);
    }
  };
  const run = async <Row>(text: string, params: readonly unknown[] | undefined, tx?: Pick<typeof pg, 'query'>): Promise<Row[]> => {
    if (!usePrepared(text)) return (await (tx ?? pg).query<Row>(text, params as unknown[] | undefined)).rows;
    // Inside a transaction its lock is held already: only wait for the engine.
    if (tx) return pg.runExclusive(() => prepared<Row>(text, params ?? []));
    // The protocol calls take no lock of their own: wait for any transaction or query to end.
    // (No sync to the file system is needed: PGlite's Node file system writes through.)
    return engine._runExclusiveTransaction(() => pg.runExclusive(() => prepared<Row>(text, params ?? [])));
  };
  const keep = <T>(tables: readonly string[], key: string, read: () => Promise<T>) => kept.get(tables, key, read);
  const blocks = sequenceBlocks();
  const database: Database = {
    kind: 'pglite',
    query: (text, params) => (isReadOnly(text) ? run(text, params) : writing(text, () => run(text, params))),
    exec: (script) =>
      writing(ANY_TABLE, async () => {
        await pg.exec(script);
      }),
    keep,
    sequenceValues: (sequence, count) => blocks(database, sequence, count),
    rowHooks,
    transaction: (work) =>
      writing('', async () => {
        // What the transaction writes counts as changed from its first write until it ends.
        const written = kept.begin();
        try {
          return await pg.transaction((tx) => {
            const sql: Sql = {
              query: (text, params) => {
                if (!isReadOnly(text)) listeners.inTransaction(written, text);
                return run(text, params, tx);
              },
              exec: async (script) => {
                listeners.inTransaction(written, ANY_TABLE);
                await tx.exec(script);
              },
              keep,
              sequenceValues: (sequence, count) => blocks(sql, sequence, count),
              rowHooks,
            };
            return work(sql);
          });
        } finally {
          kept.end(written);
          listeners.ended(written);
        }
      }),
    writeCount: () => writes,
    onWrite: listeners.add,
    async listen(channel, onNotify) {
      // One process owns a PGlite folder, so no notification can be missed.
      await pg.listen(channel, () => onNotify());
    },
    async close() {
      try {
        await pg.close();
      } finally {
        await lock?.release();
      }
    },
  };
  return database;
}

async function openPostgres(url: string, rowHooks: readonly RowHooks[]): Promise<Database> {
  const { default: pgModule } = await import('pg');
  // numeric stays text so that amounts never pass through a float; int8 counts fit a number.
  pgModule.types.setTypeParser(20, (value: string) => Number(value));
  const pool = new pgModule.Pool({ connectionString: url, max: 10 });
  await pool.query('select 1');
  // `pg` keeps named statements per connection and parses each once there.
  const names = new Map<string, string>();
  const named = (text: string, values: readonly unknown[] | undefined) => {
    let name = names.get(text);
    if (!name && names.size < MAX_PREPARED) {
      name = `ik_${createHash('sha256').update(text).digest('hex').slice(0, 24)}`;
      names.set(text, name);
    }
    return name ? { name, text, values: values as unknown[] | undefined } : { text, values: values as unknown[] | undefined };
  };
  let listener: InstanceType<typeof pgModule.Client> | undefined;
  let closing = false;
  const blocks = sequenceBlocks();
  const listeners = writeListeners();
  /** Tells the write listeners before a write starts and after it ends, whatever the outcome. */
  const writing = async <T>(text: string, work: () => Promise<T>): Promise<T> => {
    listeners.tell(text);
    try {
      return await work();
    } finally {
      listeners.tell(text);
    }
  };
  const database: Database = {
    kind: 'postgres',
    query: async (text, params) => {
      const run = async () => (await pool.query(named(text, params))).rows;
      return isReadOnly(text) ? run() : writing(text, run);
    },
    exec: (script) =>
      writing(ANY_TABLE, async () => {
        await pool.query(script);
      }),
    sequenceValues: (sequence, count) => blocks(database, sequence, count),
    rowHooks,
    async transaction(work) {
      const client = await pool.connect();
      const written: string[] = [];
      try {
        await client.query('begin');
        const sql: Sql = {
          query: async (text, params) => {
            if (!isReadOnly(text)) listeners.inTransaction(written, text);
            return (await client.query(named(text, params))).rows;
          },
          exec: async (script) => {
            listeners.inTransaction(written, ANY_TABLE);
            await client.query(script);
          },
          sequenceValues: (sequence, count) => blocks(sql, sequence, count),
          rowHooks,
        };
        const result = await work(sql);
        await client.query('commit');
        return result;
      } catch (error) {
        await client.query('rollback').catch(() => undefined);
        throw error;
      } finally {
        client.release();
        listeners.ended(written);
      }
    },
    onWrite: listeners.add,
    async listen(channel, onNotify, onLost) {
      const connect = async (): Promise<void> => {
        const client = new pgModule.Client({ connectionString: url });
        client.on('notification', (message) => {
          if (message.channel === channel) onNotify();
        });
        const lost = () => {
          if (listener !== client) return;
          listener = undefined;
          onLost();
          client.end().catch(() => undefined);
          if (!closing) setTimeout(() => void connect().catch(lost), 1000).unref();
        };
        client.on('error', lost);
        client.on('end', lost);
        listener = client;
        await client.connect();
        await client.query(`listen ${channel}`);
        // Anything may have changed while no one listened.
        onNotify();
      };
      await connect();
    },
    async close() {
      closing = true;
      const client = listener;
      listener = undefined;
      await client?.end().catch(() => undefined);
      await pool.end();
    },
  };
  return database;
}
