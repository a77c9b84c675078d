import { mkdir } from 'node:fs/promises';

/**
 * The one small data layer: the same SQL runs on embedded PGlite (a folder on disk) and on a
 * PostgreSQL server through `pg`. Callers see rows as plain objects; `jsonb` arrives parsed.
 */
export interface Sql {
  query<Row = Record<string, unknown>>(text: string, params?: readonly unknown[]): Promise<Row[]>;
  /** Runs a script of several statements with no parameters (migrations). */
  exec(script: string): Promise<void>;
}

export interface Database extends Sql {
  readonly kind: 'pglite' | 'postgres';
  /** Runs `work` in one transaction: all of it commits, or none of it does. */
  transaction<T>(work: (tx: Sql) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  /** `postgres://…` selects a PostgreSQL server; otherwise PGlite stores its data in `dataDir`. */
  databaseUrl?: string | undefined;
  dataDir?: string | undefined;
}

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.databaseUrl) return openPostgres(options.databaseUrl);
  return openPglite(options.dataDir);
}

async function openPglite(dataDir: string | undefined): Promise<Database> {
  const { PGlite } = await import('@electric-sql/pglite');
  if (dataDir) await mkdir(dataDir, { recursive: true });
  const pg = new PGlite(dataDir ? { dataDir } : {});
  await pg.waitReady;
  const run = async <Row>(sql: Pick<typeof pg, 'query'>, text: string, params?: readonly unknown[]) =>
    (await sql.query<Row>(text, params as unknown[] | undefined)).rows;
  const exec = async (sql: Pick<typeof pg, 'exec'>, script: string) => {
    await sql.exec(script);
  };
  return {
    kind: 'pglite',
    query: (text, params) => run(pg, text, params),
    exec: (script) => exec(pg, script),
    transaction: (work) =>
      pg.transaction((tx) => work({ query: (text, params) => run(tx, text, params), exec: (script) => exec(tx, script) })),
    close: () => pg.close(),
  };
}

async function openPostgres(url: string): Promise<Database> {
  const { default: pgModule } = await import('pg');
  // numeric stays text so that amounts never pass through a float; int8 counts fit a number.
  pgModule.types.setTypeParser(20, (value: string) => Number(value));
  const pool = new pgModule.Pool({ connectionString: url, max: 10 });
  await pool.query('select 1');
  return {
    kind: 'postgres',
    query: async (text, params) => (await pool.query(text, params as unknown[] | undefined)).rows,
    exec: async (script) => {
      await pool.query(script);
    },
    async transaction(work) {
      const client = await pool.connect();
      try {
        await client.query('begin');
        const result = await work({
          query: async (text, params) => (await client.query(text, params as unknown[] | undefined)).rows,
          exec: async (script) => {
            await client.query(script);
          },
        });
        await client.query('commit');
        return result;
      } catch (error) {
        await client.query('rollback').catch(() => undefined);
        throw error;
      } finally {
        client.release();
      }
    },
    close: () => pool.end(),
  };
}
