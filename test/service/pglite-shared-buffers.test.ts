import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, expect, it, vi } from 'vitest';
import { openDatabase } from '../../src/service/db.js';
import { chosenSharedBuffers, sharedBuffersFor } from '../../src/service/pglite-buffers.js';
import { describeOutsidePostgresPass } from '../helpers/passes.js';

let work: string;
beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'invoicekit-buffers-'));
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

/** Opens the folder, runs `work` on it and closes it: what PostgreSQL says its buffer cache is. */
async function opened<T>(dataDir: string, sharedBuffers: string | undefined, work?: (db: Awaited<ReturnType<typeof openDatabase>>) => Promise<T>) {
  const db = await openDatabase({ dataDir, sharedBuffers });
  try {
    await work?.(db);
    const [row] = await db.query<{ shared_buffers: string }>('show shared_buffers');
    return row!.shared_buffers;
  } finally {
    await db.close();
  }
}

describeOutsidePostgresPass('the size of PGlite’s buffer cache', () => {
  // What is tested is the default, whatever the shell that runs the tests chose.
  beforeEach(() => {
    vi.stubEnv('INVOICEKIT_PGLITE_SHARED_BUFFERS', undefined);
  });

  it('follows the folder’s data from 32 MB up to PostgreSQL’s 128 MB, and a chosen size wins; the folder’s settings are not rewritten', async () => {
    const dataDir = join(work, 'data');
    expect(await opened(dataDir, undefined)).toBe('32MB');
    const settings = await readFile(join(dataDir, 'postgresql.conf'), 'utf8');
    expect(await opened(dataDir, '512kB')).toBe('512kB');

    // About 20 MB of rows (kept out of line and uncompressed, as invoices' documents mostly are):
    // the relations then pass 32 MB, and the next start has a cache twice as large.
    await opened(dataDir, undefined, async (db) => {
      await db.exec(`create table filler (body text);
alter table filler alter column body set storage external;
insert into filler select repeat(md5(g::text), 32) from generate_series(1, 20000) g;`);
    });
    expect(await opened(dataDir, undefined, async (db) => expect(await db.query('select count(*)::int as n from filler')).toEqual([{ n: 20_000 }]))).toBe('64MB');
    vi.stubEnv('INVOICEKIT_PGLITE_SHARED_BUFFERS', '48MB');
    expect(await opened(dataDir, undefined)).toBe('48MB');
    expect(await readFile(join(dataDir, 'postgresql.conf'), 'utf8')).toBe(settings);
  });

  it('never passes PostgreSQL’s own default for a large folder, and starts an empty one at the least', async () => {
    expect(await sharedBuffersFor(undefined)).toBe('32MB');
    expect(await sharedBuffersFor(join(work, 'no-such-folder'))).toBe('32MB');
    expect(await sharedBuffersFor(join(work, 'data'))).toBe('64MB');
  });

  it('reads INVOICEKIT_PGLITE_SHARED_BUFFERS, and names the variable when its value is no size', () => {
    expect(chosenSharedBuffers()).toBeUndefined();
    expect(chosenSharedBuffers('  ')).toBeUndefined();
    vi.stubEnv('INVOICEKIT_PGLITE_SHARED_BUFFERS', '96MB');
    expect(chosenSharedBuffers()).toBe('96MB');
    expect(chosenSharedBuffers('256MB')).toBe('256MB');
    expect(chosenSharedBuffers('1 GB')).toBe('1GB');
    expect(chosenSharedBuffers('128kB')).toBe('128kB');
    for (const wrong of ['32', '32mb', '64kB', '2GB', '-1MB', '32MB; drop table clients', '1e3MB', '99999999MB']) {
      expect(() => chosenSharedBuffers(wrong), wrong).toThrow(/INVOICEKIT_PGLITE_SHARED_BUFFERS is .*such as 32MB or 256MB/);
    }
  });

  it('refuses a wrong size before it touches the folder', async () => {
    const dataDir = join(work, 'untouched');
    await expect(openDatabase({ dataDir, sharedBuffers: 'lots' })).rejects.toThrow(/INVOICEKIT_PGLITE_SHARED_BUFFERS is "lots"/);
    await expect(readFile(join(dataDir, 'PG_VERSION'))).rejects.toThrow(/ENOENT/);
  });
});
