import { randomBytes } from 'node:crypto';
import { link, readFile, rename, unlink, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join, resolve } from 'node:path';

/** The file in a PGlite data folder that says which process has it open. */
export const DATA_LOCK_FILE = 'invoicekit.lock';

interface LockOwner {
  pid: number;
  host: string;
  command: string;
  started: string;
}

/** A second process asked for a data folder that a live one holds. */
export class DataDirInUseError extends Error {
  readonly dataDir: string;
  readonly holder: LockOwner;
  constructor(dataDir: string, holder: LockOwner) {
    const where = holder.host === hostname() ? '' : ` on ${holder.host}`;
    super(
      `The data folder ${dataDir} is in use by process ${holder.pid}${where} (${holder.command}, since ${holder.started}). ` +
        'Stop that process first, or give this one another folder with --data-dir.',
    );
    this.name = 'DataDirInUseError';
    this.dataDir = dataDir;
    this.holder = holder;
  }
}

export interface DataLock {
  release(): Promise<void>;
}

/**
 * Takes the folder for this process: PGlite keeps one process's view of the database in memory, so
 * a second process writing the same files corrupts it. The lock is a file created exclusively; one
 * left by a process that is gone (killed, crashed) is moved aside and taken over.
 */
export async function lockDataDir(dataDir: string, isAlive: (pid: number) => boolean = processIsAlive): Promise<DataLock> {
  const folder = resolve(dataDir);
  const path = join(folder, DATA_LOCK_FILE);
  const own: LockOwner = { pid: process.pid, host: hostname(), command: commandLine(), started: new Date().toISOString() };
  const text = `${JSON.stringify(own)}\n`;
  for (let attempt = 0; attempt < 5; attempt++) {
    // Written whole under a name of its own, then linked in place: the lock never exists empty.
    // (Made empty and then written, another taker could read it between the two, take it for a
    // stale lock and move it aside, and both would run on the folder.)
    const written = `${path}.new-${randomBytes(6).toString('hex')}`;
    await writeFile(written, text, { flag: 'wx' });
    try {
      await link(written, path);
      return { release: () => releaseIfOwn(path, text) };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    } finally {
      await unlink(written).catch(() => undefined);
    }
    const held = await readFile(path, 'utf8').catch(() => undefined);
    if (held === undefined) continue;
    const holder = parseOwner(held);
    // Another machine's process cannot be checked from here: it counts as alive.
    if (holder && (holder.host !== own.host || isAlive(holder.pid))) throw new DataDirInUseError(folder, holder);
    // Stale: moved aside under a unique name, so of two processes taking it over only one moves it.
    const aside = `${path}.stale-${randomBytes(6).toString('hex')}`;
    try {
      await rename(path, aside);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue;
      throw error;
    }
    const moved = await readFile(aside, 'utf8');
    // Another process took it over between our read and the move: its fresh lock goes back.
    if (moved !== held) await link(aside, path).catch(() => undefined);
    await unlink(aside);
  }
  throw new Error(`The data folder ${folder} could not be locked: ${path} keeps changing.`);
}

async function releaseIfOwn(path: string, text: string): Promise<void> {
  const held = await readFile(path, 'utf8').catch(() => undefined);
  if (held === text) await unlink(path).catch(() => undefined);
}

function parseOwner(text: string): LockOwner | undefined {
  try {
    const value = JSON.parse(text) as Partial<LockOwner>;
    if (typeof value.pid !== 'number' || !Number.isInteger(value.pid) || value.pid <= 0) return undefined;
    return { pid: value.pid, host: String(value.host ?? hostname()), command: String(value.command ?? 'unknown command'), started: String(value.started ?? 'unknown') };
  } catch {
    return undefined;
  }
}

function processIsAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, as another user's.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function commandLine(): string {
  const script = process.argv[1] ? process.argv[1].split(/[\\/]/).slice(-2).join('/') : 'node';
  return [script, ...process.argv.slice(2, 4)].join(' ');
}
