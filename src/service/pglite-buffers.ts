import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * The size of PGlite's buffer cache (PostgreSQL's `shared_buffers`), chosen at each start.
 *
 * PostgreSQL's own default, 128 MB, is allocated and written when the engine starts: in PGlite that
 * was a third of a start's time, and 200 MB of the process's memory, even for a folder holding a few
 * megabytes. A cache larger than the data it caches gains nothing, so a folder's cache is its
 * relations' size (`base/` and `global/`) rounded up to a power of two, from 32 MB up to PostgreSQL's
 * 128 MB: a new project or a test's folder starts small, and a folder with more data gets what it
 * had before. `INVOICEKIT_PGLITE_SHARED_BUFFERS` sets a size instead (docs/decisions/pglite-shared-buffers.md).
 */
const LEAST_MB = 32;
const MOST_MB = 128;

const UNITS = { kB: 1, MB: 1024, GB: 1024 * 1024 } as const;

/**
 * The size chosen with `INVOICEKIT_PGLITE_SHARED_BUFFERS` (or the `sharedBuffers` option), checked, or
 * `undefined` when none is. Throws on a value that is no size PostgreSQL and PGlite accept.
 */
export function chosenSharedBuffers(chosen: string | undefined = process.env.INVOICEKIT_PGLITE_SHARED_BUFFERS): string | undefined {
  const size = chosen?.trim();
  if (!size) return undefined;
  const match = /^(\d{1,7})\s*(kB|MB|GB)$/.exec(size);
  // PostgreSQL's least is 16 pages of 8 kB; PGlite's memory is a 32-bit WebAssembly memory.
  const kib = match ? Number(match[1]) * UNITS[match[2] as keyof typeof UNITS] : NaN;
  if (!(kib >= 128 && kib <= 1024 * 1024)) {
    throw new Error(`INVOICEKIT_PGLITE_SHARED_BUFFERS is ${JSON.stringify(size)}: give a size from 128kB to 1GB, such as 32MB or 256MB`);
  }
  return `${match![1]}${match![2]}`;
}

/**
 * The cache for the cluster already in `dataDir`, sized by its relations; for none (a cluster just
 * made or copied, which is empty, or a database in memory) the least.
 */
export async function sharedBuffersFor(dataDir: string | undefined): Promise<string> {
  const bytes = dataDir ? (await Promise.all([folderBytes(join(dataDir, 'base')), folderBytes(join(dataDir, 'global'))])).reduce((sum, size) => sum + size) : 0;
  let mb = LEAST_MB;
  while (mb < MOST_MB && mb * 1024 * 1024 < bytes) mb *= 2;
  return `${mb}MB`;
}

/** The size of the files under `dir`: 0 when it does not exist, and what could be read of it. */
async function folderBytes(dir: string): Promise<number> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  const sizes = await Promise.all(
    entries.map((entry) => {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) return folderBytes(path);
      return entry.isFile() ? stat(path).then((found) => found.size, () => 0) : 0;
    }),
  );
  return sizes.reduce((sum, size) => sum + size, 0);
}
