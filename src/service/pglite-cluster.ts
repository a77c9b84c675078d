import { randomBytes } from 'node:crypto';
import { constants, type Stats } from 'node:fs';
import { access, cp, mkdir, mkdtemp, readdir, readFile, rename, rm, stat, utimes } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';

/**
 * A new PGlite data folder starts as a copy of an empty cluster instead of running `initdb`.
 *
 * PGlite makes a new cluster by running PostgreSQL's `initdb` in WebAssembly: about 4.5 s and 7 CPU-s
 * before the first migration, paid by every new folder (a new project, each test service of a user's
 * suite). The cluster it makes is the same every time for one PGlite version, so the first new folder
 * of a version makes one in the cache folder, and every later one copies it (about 0.4 s, 1,000 files
 * and 40 MB). Each copy is a cluster of its own: nothing written in one reaches another or the cache.
 *
 * The cache is the user's own (`$XDG_CACHE_HOME/invoicekit`, `~/.cache/invoicekit`, or
 * `%LOCALAPPDATA%\invoicekit` on Windows; `INVOICEKIT_CACHE_DIR` chooses another, `off` none). A
 * cluster found there is used only if this user owns it. Without a usable cache folder a new folder
 * runs `initdb` as before.
 */

/** Where empty clusters are kept: `off` (or `false`) for nowhere. */
export function clusterCacheDir(env: NodeJS.ProcessEnv = process.env): string | false {
  const chosen = env.INVOICEKIT_CACHE_DIR?.trim();
  if (chosen) return /^(off|false|no|0)$/i.test(chosen) ? false : chosen;
  if (process.platform === 'win32' && env.LOCALAPPDATA) return join(env.LOCALAPPDATA, 'invoicekit');
  if (env.XDG_CACHE_HOME) return join(env.XDG_CACHE_HOME, 'invoicekit');
  const home = homedir();
  return home ? join(home, '.cache', 'invoicekit') : false;
}

/** The file PGlite (as PostgreSQL) reads to tell a cluster from an empty folder. It is copied last. */
const MARKER = 'PG_VERSION';

export type ClusterOrigin = 'existing' | 'copied' | 'initdb';

/**
 * Makes `dataDir` hold a cluster if it has none yet, from the cache when it can. Answers where the
 * cluster came from: `existing` (the folder had one), `copied`, or `initdb` (left to PGlite's start).
 * A copy cut short (the process killed half-way) leaves no marker, so the next start copies again.
 */
export async function prepareCluster(dataDir: string, cacheDir: string | false = clusterCacheDir()): Promise<ClusterOrigin> {
  if (await exists(join(dataDir, MARKER))) return 'existing';
  if (cacheDir === false) return 'initdb';
  const cluster = await sharedEmptyCluster(cacheDir);
  if (!cluster) return 'initdb';
  try {
    await cp(cluster, dataDir, { recursive: true, force: true, filter: (source) => source !== join(cluster, MARKER) });
    await cp(join(cluster, MARKER), join(dataDir, MARKER));
    // Its time says when a start last used it (see `prune`).
    const now = new Date();
    await utimes(cluster, now, now).catch(() => undefined);
    return 'copied';
  } catch {
    // Whatever was copied is overwritten by initdb's own files.
    return 'initdb';
  }
}

/** Asked for by the folders a process opens at once (several services in one test process): made once. */
const asked = new Map<string, Promise<string | undefined>>();
function sharedEmptyCluster(cacheDir: string): Promise<string | undefined> {
  let cluster = asked.get(cacheDir);
  if (!cluster) {
    cluster = emptyCluster(cacheDir).catch(() => undefined);
    asked.set(cacheDir, cluster);
    // Looked for again next time: the cache may be cleared, or become writable, while the process runs.
    void cluster.then(() => asked.delete(cacheDir));
  }
  return cluster;
}

/** The cache's empty cluster for this PGlite version, made now if there is none. */
async function emptyCluster(cacheDir: string): Promise<string | undefined> {
  const path = join(cacheDir, `pglite-${await pgliteVersion()}-cluster`);
  const found = await stat(path).catch(() => undefined);
  if (found) {
    // Another user's folder is neither used nor touched; one of ours without its marker is made again.
    if (!owned(found)) return undefined;
    if (found.isDirectory() && (await exists(join(path, MARKER)))) return path;
    await rm(path, { recursive: true, force: true });
  }
  await mkdir(cacheDir, { recursive: true });
  await prune(cacheDir, path);
  const building = await mkdtemp(join(cacheDir, `.building-${randomBytes(3).toString('hex')}-`));
  try {
    const { PGlite } = await import('@electric-sql/pglite');
    const pg = new PGlite({ dataDir: building });
    await pg.waitReady;
    await pg.close();
    // Whole or not at all: another process may have made one first, which is as good as this one.
    await rename(building, path).catch(async (error: NodeJS.ErrnoException) => {
      if (!(await usable(path))) throw error;
    });
  } finally {
    await rm(building, { recursive: true, force: true });
  }
  return (await usable(path)) ? path : undefined;
}

/**
 * Clears what no start is likely to use again: clusters of other PGlite versions that no start has
 * copied for 30 days (two projects on one machine may use two versions), and clusters left half-made
 * by a process that died more than an hour ago.
 */
async function prune(cacheDir: string, current: string): Promise<void> {
  for (const name of await readdir(cacheDir).catch(() => [] as string[])) {
    const path = join(cacheDir, name);
    const age = Date.now() - ((await stat(path).catch(() => undefined))?.mtimeMs ?? Date.now());
    const halfMade = name.startsWith('.building-') && age > HOUR;
    const unused = /^pglite-.+-cluster$/.test(name) && path !== current && age > 30 * DAY;
    if (halfMade || unused) await rm(path, { recursive: true, force: true }).catch(() => undefined);
  }
}

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** A cluster folder that this user owns, with its marker. */
async function usable(path: string): Promise<boolean> {
  const found = await stat(path).catch(() => undefined);
  return Boolean(found?.isDirectory() && owned(found) && (await exists(join(path, MARKER))));
}

const owned = (found: Stats) => typeof process.getuid !== 'function' || found.uid === process.getuid();

let version: Promise<string> | undefined;
/** The installed PGlite's version: a cluster is made by, and for, one version of the engine. */
function pgliteVersion(): Promise<string> {
  version ??= (async () => {
    let dir = dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite'));
    for (;;) {
      const manifest = await readFile(join(dir, 'package.json'), 'utf8').catch(() => undefined);
      if (manifest) {
        const parsed = JSON.parse(manifest) as { name?: string; version?: string };
        if (parsed.name === '@electric-sql/pglite' && parsed.version && /^[\w.+-]+$/.test(parsed.version)) return parsed.version;
      }
      if (dirname(dir) === dir) throw new Error('the installed PGlite has no package.json');
      dir = dirname(dir);
    }
  })();
  return version;
}

const exists = (path: string) => access(path, constants.F_OK).then(() => true, () => false);
