import { createHash } from 'node:crypto';
import { chown, cp, mkdir, mkdtemp, readdir, readFile, rm, stat, truncate, unlink, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openDatabase } from '../../src/service/db.js';
import { migrate } from '../../src/service/migrations.js';
import { clusterCacheDir, prepareCluster } from '../../src/service/pglite-cluster.js';
import { describeOutsidePostgresPass } from '../helpers/passes.js';

/** A cluster's identity: the system identifier `initdb` draws at random, the first 8 bytes of pg_control. */
const systemIdentifier = async (dataDir: string) => (await readFile(join(dataDir, 'global/pg_control'))).subarray(0, 8).toString('hex');

/** Every file's path and bytes under `dir`, hashed: a folder nothing has written to hashes the same. */
async function folderHash(dir: string): Promise<string> {
  const hash = createHash('sha256');
  const walk = async (at: string): Promise<void> => {
    for (const entry of (await readdir(at, { withFileTypes: true })).sort((a, b) => a.name.localeCompare(b.name))) {
      const path = join(at, entry.name);
      hash.update(path.slice(dir.length));
      if (entry.isDirectory()) await walk(path);
      else hash.update(await readFile(path));
    }
  };
  await walk(dir);
  return hash.digest('hex');
}

const opened = (dataDir: string, clusterCache: string | false) => openDatabase({ dataDir, clusterCache });

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

let work: string;
let cache: string;
beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'invoicekit-cluster-'));
  cache = join(work, 'cache');
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

describeOutsidePostgresPass('a new PGlite folder starts from a copy of an empty cluster', () => {
  let cluster: string;

  it('makes the cluster once in the cache, for two first starts at once, and copies it into each new folder', async () => {
    // What an earlier version, and a process that died, left in the cache.
    const ago = (ms: number) => new Date(Date.now() - ms);
    const left = { 'pglite-0.0.1-cluster': 31 * DAY, 'pglite-0.0.2-cluster': 29 * DAY, '.building-a1b2c3-old': 2 * HOUR, '.building-d4e5f6-new': 0 };
    for (const [name, age] of Object.entries(left)) {
      await mkdir(join(cache, name), { recursive: true });
      await writeFile(join(cache, name, 'PG_VERSION'), '17\n');
      await utimes(join(cache, name), ago(age), ago(age));
    }

    const [first, second] = [join(work, 'first'), join(work, 'second')];
    expect(await Promise.all([prepareCluster(first, cache), prepareCluster(second, cache)])).toEqual(['copied', 'copied']);
    const made = (await readdir(cache)).filter((name) => !(name in left));
    expect(made).toHaveLength(1);
    expect(made[0]).toMatch(/^pglite-\d+\.\d+\.\d+[\w.+-]*-cluster$/);
    cluster = join(cache, made[0]!);
    // One cluster copied: both folders are that cluster, not two initdb runs.
    expect(await systemIdentifier(first)).toBe(await systemIdentifier(cluster));
    expect(await systemIdentifier(second)).toBe(await systemIdentifier(cluster));
    // Another version's cluster unused for a month, and a half-made one an hour old, are cleared.
    expect((await readdir(cache)).filter((name) => name in left).sort()).toEqual(['.building-d4e5f6-new', 'pglite-0.0.2-cluster']);
  }, 120_000);

  it('gives each folder a database of its own, and writes nothing to the cache', async () => {
    const before = await folderHash(cluster);
    const [a, b] = [join(work, 'a'), join(work, 'b')];
    const dbA = await opened(a, cache);
    const dbB = await opened(b, cache);
    try {
      await migrate(dbA);
      await migrate(dbB);
      await dbA.query(`create table notes (text text)`);
      await dbA.query(`insert into notes values ('Only in A')`);
      expect(await dbA.query(`select text from notes`)).toEqual([{ text: 'Only in A' }]);
      expect(await dbB.query(`select to_regclass('notes') as notes`)).toEqual([{ notes: null }]);
    } finally {
      await dbA.close();
      await dbB.close();
    }
    expect(await folderHash(cluster)).toBe(before);
    // Reopened, a folder keeps its rows: it is a cluster on disk like any other.
    const again = await opened(a, cache);
    try {
      expect(await again.query(`select text from notes`)).toEqual([{ text: 'Only in A' }]);
    } finally {
      await again.close();
    }
  }, 120_000);

  it('leaves a folder that already holds a cluster as it is', async () => {
    const dir = join(work, 'a');
    const before = await folderHash(join(dir, 'base'));
    expect(await prepareCluster(dir, cache)).toBe('existing');
    expect(await folderHash(join(dir, 'base'))).toBe(before);
  });

  it('copies again over a copy cut short, which has no marker yet', async () => {
    const dir = join(work, 'cut-short');
    await cp(cluster, dir, { recursive: true });
    await unlink(join(dir, 'PG_VERSION'));
    await truncate(join(dir, 'global/pg_control'), 10);
    expect(await prepareCluster(dir, cache)).toBe('copied');
    const db = await opened(dir, cache);
    try {
      expect(await db.query<{ one: number }>('select 1 as one')).toEqual([{ one: 1 }]);
    } finally {
      await db.close();
    }
  }, 60_000);

  it.skipIf(process.getuid?.() !== 0)('does not use a cluster in the cache that another user owns', async () => {
    const planted = join(work, 'planted');
    await cp(cache, planted, { recursive: true });
    const name = basename(cluster);
    await chown(join(planted, name!), 65_534, 65_534);
    // Neither copied nor replaced: the folder is left to initdb.
    const dir = join(work, 'not-planted');
    const origin = await prepareCluster(dir, planted);
    expect(origin).toBe('initdb');
    expect((await stat(join(planted, name!))).uid).toBe(65_534);
  }, 120_000);

  it('leaves a new folder to initdb, untouched, where the cache cannot be written, or is turned off', async () => {
    const blocked = join(work, 'a-file');
    await writeFile(blocked, 'not a folder');
    for (const [dir, cacheDir] of [[join(work, 'no-cache'), join(blocked, 'cache')], [join(work, 'off'), false]] as const) {
      await mkdir(dir);
      expect(await prepareCluster(dir, cacheDir)).toBe('initdb');
      expect(await readdir(dir)).toEqual([]);
    }
  });

  it('keeps the cache in the user’s cache folder unless told otherwise', () => {
    expect(clusterCacheDir({ INVOICEKIT_CACHE_DIR: '/srv/cache' })).toBe('/srv/cache');
    expect(clusterCacheDir({ INVOICEKIT_CACHE_DIR: 'off' })).toBe(false);
    if (process.platform !== 'win32') {
      expect(clusterCacheDir({ XDG_CACHE_HOME: '/home/a/.cache' })).toBe('/home/a/.cache/invoicekit');
      expect(clusterCacheDir({})).toMatch(/[/\\]\.cache[/\\]invoicekit$/);
    }
  });
});
