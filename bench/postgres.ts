import { execFile } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { chown, mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

/**
 * A throwaway PostgreSQL cluster on a free local port, as `scripts/with-postgres.sh` makes one for
 * the tests (fsync off: the benchmark measures the service, not the disk). Undefined when
 * PostgreSQL is not installed.
 */
export interface Cluster {
  url: string;
  /** The data directory; `postmaster.pid` in it names the server process. */
  dataDir: string;
  stop(): Promise<void>;
}

const run = promisify(execFile);

function binDir(): string | undefined {
  if (!existsSync('/usr/lib/postgresql')) return undefined;
  const versions = readdirSync('/usr/lib/postgresql').sort((a, b) => Number(a) - Number(b));
  const dir = versions.length ? join('/usr/lib/postgresql', versions.at(-1)!, 'bin') : undefined;
  return dir && existsSync(join(dir, 'initdb')) ? dir : undefined;
}

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** `settings` are extra server settings (`-c name=value`), e.g. to load pg_stat_statements for a profile. */
export async function startCluster(settings: Record<string, string> = {}): Promise<Cluster | undefined> {
  const bin = binDir();
  if (!bin) return undefined;
  const dir = await mkdtemp(join(tmpdir(), 'invoicekit-bench-pg-'));
  const port = await freePort();
  const root = process.getuid?.() === 0;
  // initdb refuses to run as root: then the cluster belongs to the postgres user.
  if (root) {
    const { stdout } = await run('id', ['-u', 'postgres']);
    const { stdout: gid } = await run('id', ['-g', 'postgres']);
    await chown(dir, Number(stdout.trim()), Number(gid.trim()));
  }
  const asOwner = (command: string, args: string[]) =>
    root ? run('su', ['postgres', '-s', '/bin/sh', '-c', [command, ...args].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ')]) : run(command, args);
  await asOwner(join(bin, 'initdb'), ['-D', join(dir, 'data'), '-A', 'trust', '-U', 'invoicekit']);
  await asOwner(join(bin, 'pg_ctl'), [
    '-D', join(dir, 'data'),
    '-o', [`-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200`, ...Object.entries(settings).map(([k, v]) => `-c ${k}=${v}`)].join(' '),
    '-l', join(dir, 'log'), '-w', 'start',
  ]);
  await asOwner(join(bin, 'createdb'), ['-h', '127.0.0.1', '-p', String(port), '-U', 'invoicekit', 'invoicekit']);
  return {
    url: `postgres://invoicekit@127.0.0.1:${port}/invoicekit`,
    dataDir: join(dir, 'data'),
    async stop() {
      await asOwner(join(bin, 'pg_ctl'), ['-D', join(dir, 'data'), '-m', 'immediate', 'stop']).catch(() => undefined);
      await rm(dir, { recursive: true, force: true });
    },
  };
}

