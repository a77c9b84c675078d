import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { cp, mkdtemp, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHash, randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { startService, type RunningService, type ServiceOptions } from '../../src/service/server.js';
import { cliArgs } from './cli.js';
import { type RegistryDoubles, startRegistryDoubles } from '../../src/service/registries/doubles/index.js';

/**
 * The key that seals the test services' secrets at rest: one for every service a test process
 * starts (and every `invoicekit` it spawns), so that copies of the template data folder, sealed
 * when the template was made, open with it.
 */
export const TEST_SECRET_KEY = 'aW52b2ljZWtpdC10ZXN0LXNlY3JldC1rZXktMzJieXQ=';
process.env.INVOICEKIT_SECRET_KEY ??= TEST_SECRET_KEY;

export interface TestService extends RunningService {
  dataDir: string;
  /**
   * The stand-ins of NBP, VIES and the white list this service asks (seeded with the demo's
   * companies and recent tables), unless the test gave registries of its own.
   */
  registryDoubles: RegistryDoubles | undefined;
  /** The PostgreSQL database it runs on (the PostgreSQL pass), or `undefined` on PGlite. */
  databaseUrl: string | undefined;
  stop(): Promise<void>;
}

/**
 * Starts the real service on 127.0.0.1 with an ephemeral port and a temp data dir. With
 * DATABASE_URL set it runs on that PostgreSQL server instead, in a database of its own.
 */
export async function startTestService(
  options: { seed?: boolean; apiToken?: string; smtpUrl?: string; testPayments?: boolean; publicUrl?: string; trustedHosts?: string[] } & Pick<
    ServiceOptions,
    'webhooks' | 'clock' | 'schedulerIntervalMs' | 'connectionLimits' | 'ksef' | 'trustProxy' | 'registries' | 'blik' | 'log' | 'logRequests'
  > = {},
): Promise<TestService> {
  const dataDir = await mkdtemp(join(tmpdir(), 'invoicekit-test-'));
  if (!process.env.DATABASE_URL) await copyDataDir(await templateDataDir(options.seed ?? false), dataDir);
  const databaseUrl = await isolatedDatabaseUrl();
  // No test reaches the real registers: without addresses of its own, a service asks seeded stand-ins.
  const registryDoubles = options.registries ? undefined : await startRegistryDoubles({ clock: options.clock });
  const registries = options.registries ?? (registryDoubles && { nbpApiUrl: registryDoubles.nbpApiUrl, viesApiUrl: registryDoubles.viesApiUrl, mfWhitelistUrl: registryDoubles.mfWhitelistUrl });
  const service = await startService({
    port: 0,
    host: '127.0.0.1',
    dataDir,
    databaseUrl,
    seed: options.seed ?? false,
    apiToken: options.apiToken ?? `test-${randomBytes(12).toString('hex')}`,
    integrationToken: `integration-${randomBytes(8).toString('hex')}`,
    smtpUrl: options.smtpUrl,
    // Tests pay through the test provider, as `npm start` does; production leaves it off.
    testPayments: options.testPayments ?? true,
    publicUrl: options.publicUrl,
    trustedHosts: options.trustedHosts,
    trustProxy: options.trustProxy,
    webhooks: options.webhooks,
    clock: options.clock,
    schedulerIntervalMs: options.schedulerIntervalMs,
    connectionLimits: options.connectionLimits,
    ksef: options.ksef,
    registries,
    blik: options.blik,
    log: options.log,
    logRequests: options.logRequests,
  });
  return {
    ...service,
    dataDir,
    databaseUrl,
    registryDoubles,
    async stop() {
      await service.close();
      await registryDoubles?.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

const SERVICE_SOURCES = fileURLToPath(new URL('../../src/service/', import.meta.url));

async function hashSources(dir: string, hash: ReturnType<typeof createHash>): Promise<void> {
  for (const entry of (await readdir(dir, { withFileTypes: true })).sort((a, b) => a.name.localeCompare(b.name))) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) await hashSources(path, hash);
    else if (entry.name.endsWith('.ts')) hash.update(entry.name).update(await readFile(path));
  }
}

/** Hashed once per test process: the sources do not change while it runs. */
const sourceHashes = new Map<string, Promise<string>>();
function sourceHash(dir: string): Promise<string> {
  let hashed = sourceHashes.get(dir);
  if (!hashed) {
    const hash = createHash('sha256');
    hashed = hashSources(dir, hash).then(() => hash.digest('hex').slice(0, 16));
    sourceHashes.set(dir, hashed);
  }
  return hashed;
}

/**
 * Copies a data dir (about 1,100 files, 40 MB) into `target`, an existing empty folder. The system's
 * `cp` does it in a fifth of the time and a tenth of the CPU of `fs.cp`, which stats and copies each
 * file in JavaScript; a PGlite test service's start was mostly this copy. `fs.cp` where there is no `cp`.
 */
export async function copyDataDir(source: string, target: string): Promise<void> {
  if (process.platform === 'win32') return cp(source, target, { recursive: true });
  await new Promise<void>((resolve, reject) =>
    execFile('cp', ['-R', `${source}/.`, target], (error) => (error ? reject(error) : resolve())),
  );
}

/**
 * A migrated (and, when asked, seeded) PGlite data dir, made once per version of the service's
 * code and copied for each test service: creating a PostgreSQL cluster costs seconds, a copy less.
 */
export async function templateDataDir(seed: boolean): Promise<string> {
  const path = join(tmpdir(), `invoicekit-template-${await sourceHash(SERVICE_SOURCES)}-${seed ? 'seeded' : 'empty'}`);
  const ready = await stat(join(path, '.ready')).then(() => true, () => false);
  if (ready) return path;
  const building = await mkdtemp(join(tmpdir(), 'invoicekit-template-build-'));
  // Seeded through the registers' stand-ins, as every test service is, so its foreign invoices carry their rate.
  const doubles = await startRegistryDoubles();
  const service = await startService({ port: 0, dataDir: building, seed, apiToken: randomBytes(12).toString('hex'), registries: { nbpApiUrl: doubles.nbpApiUrl, viesApiUrl: doubles.viesApiUrl, mfWhitelistUrl: doubles.mfWhitelistUrl } });
  await service.close();
  await doubles.close();
  await writeFile(join(building, '.ready'), '');
  // Another process may have finished first: its template is as good as this one.
  await rename(building, path).catch(() => rm(building, { recursive: true, force: true }));
  return path;
}

/**
 * With DATABASE_URL set (the PostgreSQL pass), a database of its own on that server, so tests never
 * see each other's rows; otherwise `undefined` (PGlite in a data dir). Each one is a copy
 * (`CREATE DATABASE … TEMPLATE`) of a database migrated once per version of the service's code, as
 * the PGlite data dirs are copies of `templateDataDir`: migrating anew costs the service's start
 * half a second, and every migration waits on one lock for the whole server.
 */
export async function isolatedDatabaseUrl(): Promise<string | undefined> {
  if (!process.env.DATABASE_URL) return undefined;
  const name = `t_${randomBytes(6).toString('hex')}`;
  const { default: pg } = await import('pg');
  const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await admin.connect();
  try {
    // One maker at a time: a template must have no other session while it is copied.
    await admin.query('select pg_advisory_lock($1)', [TEMPLATE_LOCK]);
    const template = await migratedTemplate(admin);
    await admin.query(`create database ${name} template ${template}`);
  } finally {
    await admin.end();
  }
  return databaseUrlNamed(name);
}

/** Held while a template database is made or copied (any number: the tests' own lock). */
const TEMPLATE_LOCK = 7_204_381;

const databaseUrlNamed = (name: string) => {
  const url = new URL(process.env.DATABASE_URL!);
  url.pathname = `/${name}`;
  return url.toString();
};

/** The name of a database migrated by the service's own `migrate`, made now unless an earlier test made it. */
async function migratedTemplate(admin: import('pg').Client): Promise<string> {
  const name = `invoicekit_template_${await sourceHash(SERVICE_SOURCES)}`;
  if ((await admin.query('select 1 from pg_database where datname = $1', [name])).rowCount) return name;
  // Made under another name and renamed once migrated: a run that stops half-way leaves no template behind.
  const building = `${name}_${randomBytes(4).toString('hex')}`;
  await admin.query(`create database ${building}`);
  const { openDatabase } = await import('../../src/service/db.js');
  const { migrate } = await import('../../src/service/migrations.js');
  const db = await openDatabase({ databaseUrl: databaseUrlNamed(building) });
  try {
    await migrate(db);
  } finally {
    await db.close();
  }
  await admin.query(`alter database ${building} rename to ${name}`);
  return name;
}

export interface ServiceProcess {
  child: ChildProcess;
  url: string;
  /** Everything it printed so far. */
  output: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

const processes = new Set<ChildProcess>();

/**
 * `invoicekit service` in a child process, as its command starts it (`node` itself, without a
 * wrapper process between a signal and the service: see `cliArgs`), once it listens.
 */
export async function spawnService(args: string[], env: Record<string, string>, startTimeoutMs = 90_000): Promise<ServiceProcess> {
  const child = spawn(process.execPath, [...cliArgs(), 'service', '--port', '0', ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  processes.add(child);
  let output = '';
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => {
      processes.delete(child);
      resolve({ code, signal });
    }),
  );
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the service did not start:\n${output}`)), startTimeoutMs);
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /invoicing service listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', read);
    void exited.then(({ code, signal }) => {
      clearTimeout(timer);
      reject(new Error(`the service exited (${code ?? signal}) before it listened:\n${output}`));
    });
  });
  return { child, url, output: () => output, exited };
}

/** Whether a spawned service is still running. */
export const isRunning = (child: ChildProcess) => processes.has(child);

/** Kills every spawned service still running (for `afterAll`). */
export function killServices(): void {
  for (const child of processes) child.kill('SIGKILL');
}
