import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { DATA_LOCK_FILE, DataDirInUseError, lockDataDir } from '../../src/service/data-lock.js';
import { cliArgs } from '../helpers/cli.js';
import { describeOutsidePostgresPass } from '../helpers/passes.js';
import { killServices, spawnService, copyDataDir, templateDataDir, type ServiceProcess } from '../helpers/service.js';

/** A command of ours run to its end: exit code and everything it printed. */
function runToEnd(args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, [...cliArgs(), ...args], {
    env: { ...process.env, INVOICEKIT_API_TOKEN: 'lock-test-token', DATABASE_URL: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, output })));
}

/** The pid of a process that has exited: nothing runs under it. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '']);
  await new Promise((done) => child.once('exit', done));
  return child.pid!;
}

let work: string;
beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'invoicekit-lock-'));
});
afterAll(async () => {
  killServices();
  await rm(work, { recursive: true, force: true });
});

describeOutsidePostgresPass('a data folder belongs to one process', () => {
  let first: ServiceProcess;
  let dataDir: string;

  beforeAll(async () => {
    dataDir = join(work, 'in-use');
    await copyDataDir(await templateDataDir(false), dataDir);
    first = await spawnService(['--data-dir', dataDir], { INVOICEKIT_API_TOKEN: 'lock-test-token', DATABASE_URL: '' });
  }, 120_000);

  it('stops a second service on the folder, naming the folder and the process that holds it', async () => {
    const second = await runToEnd(['service', '--port', '0', '--data-dir', dataDir]);
    expect(second.code).toBe(1);
    expect(second.output).toContain(`The data folder ${dataDir} is in use by process ${first.child.pid}`);
    expect(second.output).toContain('--data-dir');
    expect(second.output).not.toContain('listening on');
    // The first one serves on, with its data.
    expect((await fetch(`${first.url}/readyz`)).status).toBe(200);
    expect(JSON.parse(await readFile(join(dataDir, DATA_LOCK_FILE), 'utf8'))).toMatchObject({ pid: first.child.pid, host: hostname() });
  }, 60_000);

  it('stops `invoicekit migrate` on the folder too', async () => {
    const migrate = await runToEnd(['migrate', '--data-dir', dataDir]);
    expect(migrate.code).toBe(1);
    expect(migrate.output).toContain(`is in use by process ${first.child.pid}`);
  }, 60_000);

  it('lets the next service in once the first stopped cleanly', async () => {
    first.child.kill('SIGTERM');
    expect((await first.exited).code).toBe(0);
    await expect(readFile(join(dataDir, DATA_LOCK_FILE), 'utf8')).rejects.toMatchObject({ code: 'ENOENT' });
    const next = await spawnService(['--data-dir', dataDir], { INVOICEKIT_API_TOKEN: 'lock-test-token', DATABASE_URL: '' });
    expect((await fetch(`${next.url}/readyz`)).status).toBe(200);
    next.child.kill('SIGTERM');
    await next.exited;
  }, 120_000);
});

describeOutsidePostgresPass('the lock itself', () => {
  it('takes over a lock left by a process that is gone', async () => {
    const dir = await mkdtemp(join(work, 'stale-'));
    const gone = await deadPid();
    await writeFile(join(dir, DATA_LOCK_FILE), JSON.stringify({ pid: gone, host: hostname(), command: 'cli.ts service', started: '2026-01-01T00:00:00.000Z' }));
    const lock = await lockDataDir(dir);
    expect(JSON.parse(await readFile(join(dir, DATA_LOCK_FILE), 'utf8'))).toMatchObject({ pid: process.pid });
    await lock.release();
    await expect(readFile(join(dir, DATA_LOCK_FILE), 'utf8')).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('takes over a lock file left half-written', async () => {
    const dir = await mkdtemp(join(work, 'torn-'));
    await writeFile(join(dir, DATA_LOCK_FILE), '{"pid":');
    const lock = await lockDataDir(dir);
    expect(JSON.parse(await readFile(join(dir, DATA_LOCK_FILE), 'utf8'))).toMatchObject({ pid: process.pid });
    await lock.release();
  });

  it('refuses a folder a live process holds, and one held from another machine', async () => {
    const dir = await mkdtemp(join(work, 'held-'));
    const held = await lockDataDir(dir);
    const error = await lockDataDir(dir).catch((failure: unknown) => failure);
    expect(error).toBeInstanceOf(DataDirInUseError);
    expect((error as DataDirInUseError).holder.pid).toBe(process.pid);
    expect((error as Error).message).toContain(`The data folder ${dir} is in use by process ${process.pid}`);
    await held.release();

    const gone = await deadPid();
    await writeFile(join(dir, DATA_LOCK_FILE), JSON.stringify({ pid: gone, host: 'build-runner-7', command: 'cli.ts service', started: '2026-01-01T00:00:00.000Z' }));
    await expect(lockDataDir(dir)).rejects.toThrow(`is in use by process ${gone} on build-runner-7`);
  });

  it('lets exactly one of two processes take over the same stale lock, every time', async () => {
    const dead = await deadPid();
    // Raced again and again: one taker could once read the other's lock between its creation and
    // its content, take it for a stale one and move it aside.
    for (let round = 0; round < 40; round += 1) {
      const dir = await mkdtemp(join(work, 'race-'));
      await writeFile(join(dir, DATA_LOCK_FILE), JSON.stringify({ pid: dead, host: hostname() }));
      // Two takers in one process stand for two processes: each sees the other's pid as alive.
      const results = await Promise.allSettled([lockDataDir(dir), lockDataDir(dir)]);
      expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1);
      expect(results.filter((result) => result.status === 'rejected').map((result) => (result as PromiseRejectedResult).reason)[0]).toBeInstanceOf(DataDirInUseError);
      // What is left in the folder is the winner's lock alone.
      expect((await readdir(dir)).sort()).toEqual([DATA_LOCK_FILE]);
    }
  });
});

describeOutsidePostgresPass('a port in use', () => {
  let taken: Server;
  let port: number;
  beforeAll(async () => {
    taken = createServer();
    await new Promise<void>((listening) => taken.listen(0, '127.0.0.1', listening));
    port = (taken.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((closed) => taken.close(() => closed())));

  it('names --port when the service cannot listen, and frees its data folder', async () => {
    const dataDir = join(work, 'port-service');
    await copyDataDir(await templateDataDir(false), dataDir);
    const result = await runToEnd(['service', '--port', String(port), '--data-dir', dataDir]);
    expect(result.code).toBe(1);
    expect(result.output).toContain(`Port ${port} is already in use by another program. Stop it, or choose another port with --port <port>`);
    await expect(readFile(join(dataDir, DATA_LOCK_FILE), 'utf8')).rejects.toMatchObject({ code: 'ENOENT' });
  }, 60_000);

  it('names --service-port when the demo’s service cannot listen', async () => {
    const dataDir = join(work, 'port-dev');
    await copyDataDir(await templateDataDir(true), dataDir);
    const result = await runToEnd(['dev', '--port', '0', '--service-port', String(port), '--data-dir', dataDir]);
    expect(result.code).toBe(1);
    expect(result.output).toContain(`choose another port with --service-port <port>`);
  }, 120_000);

  it('names --port when the BFF cannot listen', async () => {
    const result = await runToEnd(['bff', '--port', String(port), '--service', 'http://127.0.0.1:9'], { INVOICEKIT_PORTAL_SECRET: 'a-portal-secret-of-at-least-32-characters' });
    expect(result.code).toBe(1);
    expect(result.output).toContain(`Port ${port} is already in use by another program. Stop it, or choose another port with --port <port>`);
  }, 60_000);
});
