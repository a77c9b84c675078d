import { readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { load, loadAll, type LoadResult } from './load.js';
import { startCluster } from './postgres.js';
import { startChild, type Child } from './processes/protocol.js';

/**
 * `npx tsx bench/postgres-list.ts [seconds] [--cpu-prof]`: the invoice list on PostgreSQL, as
 * `npm run bench` measures it (one process, two processes on one server, 6,400 more invoices on the
 * newest date), with where the CPU went during each load: each service process, the PostgreSQL
 * server's processes, the load generator (this process) and the whole machine. Then the list's
 * statements as the server saw them (pg_stat_statements) and `EXPLAIN (ANALYZE, BUFFERS)` of the list.
 * With `--cpu-prof` the first service process writes a CPU profile on exit (`invoicekit-postgres-list`
 * in the temporary directory).
 */
const seconds = Number(process.argv.find((arg) => /^\d+$/.test(arg)) ?? 5);
const profile = process.argv.includes('--cpu-prof');
const profileDir = join(tmpdir(), 'invoicekit-postgres-list');
const API_TOKEN = 'bench-api-token-0123456789';
const TICK_MS = 10; // /proc reports CPU time in clock ticks of 10 ms (USER_HZ = 100)

type ServiceReady = { url: string };

/** CPU time (ms) a process and, optionally, all of its children have used so far. */
function cpuOf(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
  } catch {
    return 0;
  }
}

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

/** Busy and total CPU time (ms) of the whole machine, all cores. */
function machine(): { busy: number; total: number } {
  const [, ...values] = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/);
  const n = values.map(Number);
  const idle = n[3]! + n[4]!;
  const total = n.slice(0, 8).reduce((a, b) => a + b, 0);
  return { busy: (total - idle) * TICK_MS, total: total * TICK_MS };
}

interface Snapshot {
  at: number;
  services: number[];
  server: Map<number, number>;
  self: number;
  machine: { busy: number; total: number };
}

function snapshot(services: Child<ServiceReady>[], postmaster: number): Snapshot {
  const server = new Map<number, number>([[postmaster, cpuOf(postmaster)]]);
  for (const pid of childrenOf(postmaster)) server.set(pid, cpuOf(pid));
  const usage = process.cpuUsage();
  return {
    at: performance.now(),
    services: services.map((s) => cpuOf(s.process.pid!)),
    server,
    self: (usage.user + usage.system) / 1000,
    machine: machine(),
  };
}

/** CPU used between two snapshots, in cores (1.0 = one core busy the whole time). */
function cores(before: Snapshot, after: Snapshot) {
  const wall = after.at - before.at;
  let server = 0;
  for (const [pid, ms] of after.server) server += ms - (before.server.get(pid) ?? 0);
  return {
    services: after.services.map((ms, i) => (ms - before.services[i]!) / wall),
    server: server / wall,
    load: (after.self - before.self) / wall,
    machine: (after.machine.busy - before.machine.busy) / wall,
  };
}

const fmt = (n: number) => n.toFixed(2);

async function measured(label: string, services: Child<ServiceReady>[], postmaster: number, run: () => Promise<LoadResult>) {
  const before = snapshot(services, postmaster);
  const result = await run();
  const used = cores(before, snapshot(services, postmaster));
  const perRequest = (c: number) => ((c * 1000) / result.perSecond).toFixed(2);
  const serviceCores = used.services.reduce((a, b) => a + b, 0);
  console.log(
    `${label}: ${Math.round(result.perSecond)} req/s, p50 ${result.p50} ms | cores used: services ${used.services.map(fmt).join(' + ')}` +
      `, postgres ${fmt(used.server)}, load ${fmt(used.load)}, ours ${fmt(serviceCores + used.server + used.load)}, machine ${fmt(used.machine)}` +
      ` | CPU ms per request: service ${perRequest(serviceCores)}, postgres ${perRequest(used.server)}, load ${perRequest(used.load)}`,
  );
  return result;
}

const cluster = await startCluster({ shared_preload_libraries: 'pg_stat_statements', 'pg_stat_statements.track': 'all' });
if (!cluster) throw new Error('PostgreSQL is not installed');
const postmaster = Number(readFileSync(join(cluster.dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
const children: Child<ServiceReady>[] = [];
const sql = new pg.Client({ connectionString: cluster.url });
try {
  const env = { DATABASE_URL: cluster.url, BENCH_API_TOKEN: API_TOKEN };
  const one = await startChild<ServiceReady>('service', env, profile ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : []);
  children.push(one);
  await one.call({ type: 'bulk', request: { clientName: 'Bench 1000', externalId: 'bench-1000', count: 1000, dates: 'spread' } });
  const two = await startChild<ServiceReady>('service', { ...env, BENCH_SEED: '0' });
  children.push(two);
  await sql.connect();
  await sql.query('create extension if not exists pg_stat_statements');
  const path = `/invoices.json?api_token=${API_TOKEN}&period=all&per_page=25`;
  const options = { seconds };
  // Warm both processes (JIT, prepared statements on every pooled connection) before measuring.
  await loadAll([one, two].map((s) => ({ url: s.ready.url + path, options: { seconds: 2, connections: 10 } })));
  await sql.query('select pg_stat_statements_reset()');
  const single = await measured('one process, 20 connections', children, postmaster, () => load(one.ready.url + path, options));
  // What the server's backends wait for while both processes load it: a lock would show here.
  const waits = new Map<string, number>();
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      const { rows } = await sql.query<{ wait: string }>(
        `select coalesce(wait_event_type || ':' || wait_event, state) as wait from pg_stat_activity
          where datname = current_database() and pid <> pg_backend_pid() and backend_type = 'client backend'`,
      );
      for (const { wait } of rows) waits.set(wait, (waits.get(wait) ?? 0) + 1);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  })();
  const pair = await measured('two processes, 10 connections each', children, postmaster, () =>
    loadAll([one, two].map((s) => ({ url: s.ready.url + path, options: { ...options, connections: 10 } }))),
  );
  sampling = false;
  await sampler;
  console.log(`server backends sampled every 50 ms during the two-process load (state or wait event: samples): ${[...waits].map(([k, v]) => `${k}: ${v}`).join(', ')}`);
  console.log(`two processes against one: ${fmt(pair.perSecond / single.perSecond)}`);
  const statements = await sql.query(
    `select calls, round(mean_exec_time::numeric, 3) as mean_ms, round(total_exec_time::numeric) as total_ms, rows / greatest(calls, 1) as rows_per_call, left(regexp_replace(query, '\\s+', ' ', 'g'), 160) as query
       from pg_stat_statements where calls > 10 order by total_exec_time desc limit 8`,
  );
  console.table(statements.rows);

  const before = await measured('list before', children, postmaster, () => load(one.ready.url + path, options));
  await one.call({ type: 'bulk', request: { clientName: 'Bench same day', externalId: 'bench-same-day', count: 6400, dates: 'today' } });
  const after = await measured('list with 6,400 more on the newest date', children, postmaster, () => load(one.ready.url + path, options));
  console.log(`same date against before: ${fmt(after.perSecond / before.perSecond)}`);
  const again = await measured('the same once more', children, postmaster, () => load(one.ready.url + path, options));
  console.log(`once more against before: ${fmt(again.perSecond / before.perSecond)}`);

  const listSql = (
    await sql.query<{ query: string }>(`select query from pg_stat_statements where query like 'select id,%from invoices%order by%' order by calls desc limit 1`)
  ).rows[0]?.query;
  if (listSql) {
    const account = (await sql.query<{ id: number }>(`select id from accounts where api_token = $1`, [API_TOKEN])).rows[0]!.id;
    await sql.query(`prepare list as ${listSql}`);
    console.log(listSql.replace(/\s+/g, ' '));
    const sizes = await sql.query(
      `select count(*) as invoices, round(avg(pg_column_size(data))) as stored_bytes, round(avg(length(data::text))) as text_bytes,
              round(avg(length((data - 'positions')::text))) as text_bytes_without_positions from invoices where account_id = $1`,
      [account],
    );
    console.table(sizes.rows);
    // Plans as they would be once autovacuum has analyzed the grown table.
    await sql.query('analyze invoices');
    // `pg` runs it as a named statement: after five runs PostgreSQL may switch to a generic plan.
    for (const mode of ['force_custom_plan', 'force_generic_plan']) {
      await sql.query(`set plan_cache_mode = ${mode}`);
      const plan = await sql.query(`explain (analyze, buffers) execute list(${account}, 25, 0)`);
      console.log(`${mode}:\n${plan.rows.map((row: Record<string, string>) => row['QUERY PLAN']).join('\n')}`);
    }
  }
} finally {
  await sql.end().catch(() => undefined);
  for (const child of children) await child.stop();
  await cluster.stop();
}
if (profile) console.log(`CPU profile of the first service process in ${profileDir}`);
