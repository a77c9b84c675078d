import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { load, loadAll, type LoadResult } from './load.js';
import { startCluster } from './postgres.js';
import { invoiceBody } from './invoice-body.js';
import { startChild, type Child } from './processes/protocol.js';

/**
 * `npx tsx bench/postgres-list.ts [seconds] [--repeat=N] [--cpu-prof] [--create]`: the invoice list on
 * PostgreSQL, as `npm run bench` measures it (one process, two processes on one server, 6,400 more
 * invoices on the newest date), with where the CPU went during each load: each service process, the
 * PostgreSQL server's processes, the load generator (this process) and the whole machine. CPU time
 * per request hardly depends on what else the machine runs; throughput does. Then what the server's
 * backends waited for, the statements as the server saw them (pg_stat_statements), and
 * `EXPLAIN (ANALYZE, BUFFERS)` of the exact list statement the service sends, as a custom and as a
 * generic plan. With `--cpu-prof` the first service process writes a CPU profile on exit
 * (`invoicekit-postgres-list` in the temporary directory). With `--create` the same one-against-two
 * measurement, waits and statements are taken for invoice creation (the benchmark's 5 positions)
 * instead of the list, and nothing list-specific follows.
 */
const seconds = Number(process.argv.find((arg) => /^\d+$/.test(arg)) ?? 5);
const repeat = Number(process.argv.find((arg) => arg.startsWith('--repeat='))?.slice(9) ?? 1);
const profile = process.argv.includes('--cpu-prof');
const creating = process.argv.includes('--create');
const profileDir = join(tmpdir(), 'invoicekit-postgres-list');
const API_TOKEN = 'bench-api-token-0123456789';
const TICK_MS = 10; // /proc reports CPU time in clock ticks of 10 ms (USER_HZ = 100)

type ServiceReady = { url: string };

/** CPU time (ms) a process has used so far. */
function cpuOf(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
  } catch {
    return 0;
  }
}

/** A PostgreSQL process serving a client connection (`postgres: user db host(port) state`), not a background worker. */
const isClientBackend = (pid: number) => {
  try {
    return /^postgres: \S+ \S+ \d/.test(readFileSync(`/proc/${pid}/cmdline`, 'utf8'));
  } catch {
    return false;
  }
};

function childrenOf(parent: number): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const fields = readFileSync(`/proc/${entry}/stat`, 'utf8').split(') ')[1]!.split(' ');
      if (Number(fields[1]) === parent) pids.push(Number(entry));
    } catch {
      // the process ended meanwhile
    }
  }
  return pids;
}

/** Busy CPU time (ms) of the whole machine, all cores. */
function machineBusy(): number {
  const values = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1, 9).map(Number);
  return (values.reduce((a, b) => a + b, 0) - values[3]! - values[4]!) * TICK_MS;
}

interface Snapshot {
  at: number;
  services: number[];
  server: Map<number, number>;
  /** The server's client backends; the rest are its background processes (autovacuum, checkpointer…). */
  backends: Set<number>;
  self: number;
  machine: number;
}

function snapshot(services: Child<ServiceReady>[], postmaster: number): Snapshot {
  const server = new Map<number, number>([[postmaster, cpuOf(postmaster)]]);
  const backends = new Set<number>();
  for (const pid of childrenOf(postmaster)) {
    server.set(pid, cpuOf(pid));
    if (isClientBackend(pid)) backends.add(pid);
  }
  const usage = process.cpuUsage();
  return { at: performance.now(), services: services.map((s) => cpuOf(s.process.pid!)), server, backends, self: (usage.user + usage.system) / 1000, machine: machineBusy() };
}

const fmt = (n: number) => n.toFixed(2);
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

interface Measured {
  perSecond: number;
  /** CPU ms per request: all service processes, the PostgreSQL server, the load generator. */
  service: number;
  server: number;
  load: number;
}

async function measured(label: string, services: Child<ServiceReady>[], postmaster: number, run: () => Promise<LoadResult>): Promise<Measured> {
  const before = snapshot(services, postmaster);
  const result = await run();
  const after = snapshot(services, postmaster);
  const wall = after.at - before.at;
  let server = 0;
  let background = 0;
  for (const [pid, ms] of after.server) {
    const used = ms - (before.server.get(pid) ?? 0);
    server += used;
    if (!after.backends.has(pid)) background += used;
  }
  const serviceCores = after.services.map((ms, i) => (ms - before.services[i]!) / wall);
  const cores = { services: serviceCores.reduce((a, b) => a + b, 0), server: server / wall, load: (after.self - before.self) / wall };
  const perRequest = (c: number) => (c * 1000) / result.perSecond;
  console.log(
    `${label}: ${Math.round(result.perSecond)} req/s, p50 ${result.p50} ms | cores used: services ${serviceCores.map(fmt).join(' + ')}` +
      `, postgres ${fmt(cores.server)}, load ${fmt(cores.load)}, ours ${fmt(cores.services + cores.server + cores.load)}, machine ${fmt((after.machine - before.machine) / wall)}` +
      ` | CPU ms per request: service ${fmt(perRequest(cores.services))}, postgres ${fmt(perRequest(cores.server))}` +
      ` (of it background processes ${fmt(perRequest(background / wall))}), load ${fmt(perRequest(cores.load))}`,
  );
  return { perSecond: result.perSecond, service: perRequest(cores.services), server: perRequest(cores.server), load: perRequest(cores.load) };
}

function summary(label: string, runs: Measured[]) {
  const m = (key: keyof Measured) => median(runs.map((r) => r[key]));
  console.log(`  median of ${runs.length} — ${label}: ${Math.round(m('perSecond'))} req/s; CPU ms per request: service ${fmt(m('service'))}, postgres ${fmt(m('server'))}, load ${fmt(m('load'))}`);
}

const cluster = await startCluster({ shared_preload_libraries: 'pg_stat_statements', 'pg_stat_statements.track': 'all' });
if (!cluster) throw new Error('PostgreSQL is not installed');
const postmaster = Number(readFileSync(join(cluster.dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
const children: Child<ServiceReady>[] = [];
const sql = new pg.Client({ connectionString: cluster.url });
try {
  // On PostgreSQL every process seals secrets under one key kept outside the database (docs/security.md).
  const env = { DATABASE_URL: cluster.url, BENCH_API_TOKEN: API_TOKEN, INVOICEKIT_SECRET_KEY: randomBytes(32).toString('base64') };
  const one = await startChild<ServiceReady>('service', env, profile ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : []);
  children.push(one);
  await one.call({ type: 'bulk', request: { clientName: 'Bench 1000', externalId: 'bench-1000', count: 1000, dates: 'spread' } });
  const two = await startChild<ServiceReady>('service', { ...env, BENCH_SEED: '0' });
  children.push(two);
  await sql.connect();
  await sql.query('create extension if not exists pg_stat_statements');
  const path = creating ? '/invoices.json' : `/invoices.json?api_token=${API_TOKEN}&period=all&per_page=25`;
  const post = { method: 'POST', body: invoiceBody(API_TOKEN), headers: { 'content-type': 'application/json' } };
  const options = { seconds, ...(creating ? post : {}) };
  // Warm both processes (JIT, prepared statements on every pooled connection) before measuring.
  await loadAll([one, two].map((s) => ({ url: s.ready.url + path, options: { ...options, seconds: 2, connections: 10 } })));
  await sql.query('select pg_stat_statements_reset()');

  // What the server's backends wait for while both processes load it: a lock would show here.
  const waits = new Map<string, number>();
  let sampling = false;
  const sample = async () => {
    while (sampling) {
      const { rows } = await sql.query<{ wait: string }>(
        `select coalesce(wait_event_type || ':' || wait_event, state) as wait from pg_stat_activity
          where datname = current_database() and pid <> pg_backend_pid() and backend_type = 'client backend'`,
      );
      for (const { wait } of rows) waits.set(wait, (waits.get(wait) ?? 0) + 1);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };
  const singles: Measured[] = [];
  const pairs: Measured[] = [];
  for (let i = 0; i < repeat; i += 1) {
    singles.push(await measured('one process, 20 connections', children, postmaster, () => load(one.ready.url + path, options)));
    sampling = true;
    const sampler = sample();
    pairs.push(
      await measured('two processes, 10 connections each', children, postmaster, () =>
        loadAll([one, two].map((s) => ({ url: s.ready.url + path, options: { ...options, connections: 10 } }))),
      ),
    );
    sampling = false;
    await sampler;
    console.log(`two processes against one: ${fmt(pairs.at(-1)!.perSecond / singles.at(-1)!.perSecond)}`);
  }
  summary('one process', singles);
  summary('two processes', pairs);
  console.log(`server backends sampled every 50 ms during the two-process loads (state or wait event: samples): ${[...waits].map(([k, v]) => `${k}: ${v}`).join(', ')}`);
  const statements = await sql.query(
    `select calls, round(mean_exec_time::numeric, 3) as mean_ms, rows / greatest(calls, 1) as rows_per_call, left(regexp_replace(query, '\\s+', ' ', 'g'), 150) as query
       from pg_stat_statements where calls > 10 and query not like '%pg_stat_activity%' order by total_exec_time desc limit 4`,
  );
  console.table(statements.rows);
  if (!creating) await listOnly(one);
} finally {
  await sql.end().catch(() => undefined);
  for (const child of children) await child.stop();
  await cluster.stop();
}
if (profile) console.log(`CPU profile of the first service process in ${profileDir}`);

/** The list's own figures: 6,400 more invoices on the newest date, and the list statement's plans. */
async function listOnly(one: Child<ServiceReady>): Promise<void> {
  const path = `/invoices.json?api_token=${API_TOKEN}&period=all&per_page=25`;
  const options = { seconds };

  const befores: Measured[] = [];
  for (let i = 0; i < repeat; i += 1) befores.push(await measured('list before', children, postmaster, () => load(one.ready.url + path, options)));
  await one.call({ type: 'bulk', request: { clientName: 'Bench same day', externalId: 'bench-same-day', count: 6400, dates: 'today' } });
  const afters: Measured[] = [];
  for (let i = 0; i < repeat; i += 1) afters.push(await measured('list with 6,400 more on the newest date', children, postmaster, () => load(one.ready.url + path, options)));
  summary('list before', befores);
  summary('list with 6,400 more on the newest date', afters);
  console.log(`same date against before (medians): ${fmt(median(afters.map((r) => r.perSecond)) / median(befores.map((r) => r.perSecond)))}`);

  // The exact list statement the service sends, recorded in the service process.
  const { statements: sent } = await one.call<{ statements: { text: string; params: unknown[] }[] }>({
    type: 'storage',
    request: { method: 'GET', path },
    durationMs: 100,
  });
  const list = sent.find((statement) => /from invoices/.test(statement.text))!;
  console.log(`the list statement: ${list.text.replace(/\s+/g, ' ')}\n  parameters: ${JSON.stringify(list.params)}`);
  await sql.query(`prepare list as ${list.text}`);
  const literal = (value: unknown) => (typeof value === 'number' ? String(value) : sql.escapeLiteral(String(value)));
  // `pg` runs it as a named statement: after five runs PostgreSQL may switch to a generic plan.
  for (const analyzed of [false, true]) {
    // Then as they are once autovacuum has analyzed the grown table.
    if (analyzed) await sql.query('analyze invoices');
    for (const mode of ['force_custom_plan', 'force_generic_plan']) {
      await sql.query(`set plan_cache_mode = ${mode}`);
      // Seven runs: one may land in a moment when the shared machine gives the server no CPU.
      const plans: { ms: number; lines: string[] }[] = [];
      for (let i = 0; i < 7; i += 1) {
        const plan = await sql.query<Record<string, string>>(`explain (analyze, buffers) execute list(${list.params.map(literal).join(', ')})`);
        const lines = plan.rows.map((row) => row['QUERY PLAN']!);
        plans.push({ ms: Number(/Execution Time: ([\d.]+)/.exec(lines.at(-1)!)?.[1]), lines });
      }
      plans.sort((a, b) => a.ms - b.ms);
      console.log(`${mode}${analyzed ? ', after analyze' : ''}: execution ms of 7 runs ${plans.map((p) => p.ms).join(', ')}; the fastest:`);
      console.log(plans[0]!.lines.map((line) => `  ${line}`).join('\n'));
    }
  }
}
