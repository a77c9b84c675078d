import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/service/db.js';
import { migrate, migrations } from '../../src/service/migrations.js';
import { isolatedDatabaseUrl, copyDataDir, templateDataDir } from '../helpers/service.js';

/**
 * Test services start on copies of a database migrated once (`templateDataDir` on PGlite,
 * `CREATE DATABASE … TEMPLATE` on PostgreSQL), not on one migrated anew: the copy must be the very
 * schema a fresh database gets from the service's migrations, or every other test proves too little.
 */
async function schemaOf(db: Database) {
  const read = (text: string) => db.query<Record<string, unknown>>(text);
  return {
    columns: await read(`select table_name, column_name, data_type, is_nullable, column_default
      from information_schema.columns where table_schema = current_schema() order by table_name, ordinal_position`),
    indexes: await read(`select tablename, indexname, indexdef from pg_indexes where schemaname = current_schema() order by tablename, indexname`),
    constraints: await read(`select conrelid::regclass::text as relation, conname, pg_get_constraintdef(oid) as definition
      from pg_constraint where connamespace = current_schema()::regnamespace order by relation, conname`),
    triggers: await read(`select event_object_table, trigger_name, event_manipulation, action_timing, action_statement
      from information_schema.triggers where trigger_schema = current_schema() order by 1, 2, 3`),
    functions: await read(`select proname, pg_get_function_identity_arguments(oid) as arguments, prosrc
      from pg_proc where pronamespace = current_schema()::regnamespace order by 1, 2`),
    sequences: await read(`select sequence_name, data_type from information_schema.sequences where sequence_schema = current_schema() order by 1`),
    extensions: await read(`select extname from pg_extension order by 1`),
    migrations: await read(`select version, name from schema_migrations order by version`),
  };
}

const opened: Database[] = [];
const folders: string[] = [];
afterAll(async () => {
  await Promise.all(opened.map((db) => db.close()));
  await Promise.all(folders.map((folder) => rm(folder, { recursive: true, force: true })));
});

async function open(options: { dataDir?: string; databaseUrl?: string }): Promise<Database> {
  const db = await openDatabase(options);
  opened.push(db);
  return db;
}

async function folder(): Promise<string> {
  const path = await mkdtemp(join(tmpdir(), 'invoicekit-template-check-'));
  folders.push(path);
  return path;
}

/** A database no test service has touched, migrated here by the service's own `migrate`. */
async function freshlyMigrated(): Promise<Database> {
  let db: Database;
  if (process.env.DATABASE_URL) {
    const { default: pg } = await import('pg');
    const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await admin.connect();
    const name = `fresh_${Date.now().toString(36)}_${process.pid}`;
    await admin.query(`create database ${name}`);
    await admin.end();
    const url = new URL(process.env.DATABASE_URL);
    url.pathname = `/${name}`;
    db = await open({ databaseUrl: url.toString() });
  } else {
    db = await open({ dataDir: await folder() });
  }
  await migrate(db);
  return db;
}

/** A database as `startTestService` gives it to a test service. */
async function copied(): Promise<Database> {
  if (process.env.DATABASE_URL) return open({ databaseUrl: (await isolatedDatabaseUrl())! });
  const dataDir = await folder();
  await copyDataDir(await templateDataDir(false), dataDir);
  return open({ dataDir });
}

describe(`the test services' template database (${process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite'})`, () => {
  it('has the schema a fresh database gets from every migration, index, constraint and trigger alike', async () => {
    const fresh = await schemaOf(await freshlyMigrated());
    const copy = await schemaOf(await copied());
    expect(fresh.migrations).toEqual(migrations.map(({ version, name }) => ({ version, name })));
    expect(new Set(fresh.columns.map((column) => column.table_name)).size).toBeGreaterThan(10);
    expect(fresh.indexes.length).toBeGreaterThan(10);
    expect(fresh.constraints.length).toBeGreaterThan(10);
    expect(copy).toEqual(fresh);
  });

  it('needs no migration when a service opens it', async () => {
    const db = await copied();
    const before = await db.query<{ version: number }>('select version from schema_migrations order by version');
    await migrate(db);
    expect(await db.query<{ version: number }>('select version from schema_migrations order by version')).toEqual(before);
    expect(before.map((row) => row.version)).toEqual(migrations.map((migration) => migration.version));
  });
});
