import { randomBytes } from 'node:crypto';
import { cpus } from 'node:os';
import { fileURLToPath } from 'node:url';
import { issuePortalToken } from '../src/bff/index.js';
import type { BulkRequest } from './seed.js';
import { browserFigures } from './browser.js';
import { load, loadAll, type LoadResult } from './load.js';
import { startCluster } from './postgres.js';
import { startChild, type Child } from './processes/protocol.js';
import { entry, table, unavailable, writeResults, type Entry } from './report.js';
import { measureSizes } from './sizes.js';
import { lighthouseFigures } from './lighthouse.js';
import { invoiceBody } from './invoice-body.js';

/**
 * `npm run bench` (about 4.5 minutes on 2 cores, two of them Lighthouse's) and `npm run bench -- --quick` (a subset with about 20 seconds of load, half a minute in all,
 * without Lighthouse); `npm run bench -- --only bff-list` measures the BFF's portal list latency row alone, `--only lighthouse` Lighthouse's rows.
 *
 * Every process measured runs on its own: the service, the BFF and the baseline are Node processes
 * started like the CLI starts them, and the load comes from this process (autocannon) over
 * 127.0.0.1 for a fixed time. Each figure is reported with the baseline it is compared with in the
 * same run: a fixed JSON route of the same size on the same stack for throughput, the storage work
 * of the request replayed directly on the same database, a static table for first paint, Lit alone
 * for sizes. The benchmark reports targets; it never fails on them.
 */
const quick = process.argv.includes('--quick');
/** `--only <row>`: one row alone, for measuring a change to it (`bff-list`: the BFF's portal list latency; `lighthouse`: Lighthouse on the demo pages). */
const ONLY_ROWS = ['bff-list', 'lighthouse'];
const only = process.argv.includes('--only') ? (process.argv[process.argv.indexOf('--only') + 1] ?? '') : undefined;
const SECONDS = quick ? 1.5 : 3;
const STORAGE_MS = quick ? 500 : 1000;
const root = fileURLToPath(new URL('..', import.meta.url));
const resultsPath = fileURLToPath(new URL('./results.json', import.meta.url));
const API_TOKEN = 'bench-api-token-0123456789';
const PORTAL_SECRET = 'bench-portal-secret-0123456789abcdefghij';
const entries: Entry[] = [];
const children: Child<unknown>[] = [];
const started = performance.now();

/** Repeated identical reads are answered from what PGlite keeps until the next write. */
const KEPT = 'kept answer (nothing written meanwhile)';

const log = (text: string) => process.stderr.write(`[${((performance.now() - started) / 1000).toFixed(0).padStart(3)} s] ${text}\n`);

/** `bffUrl`: a BFF in the service's process (the embedded default), where the service was started with `BENCH_PORTAL_SECRET`. */
type ServiceReady = { url: string; apiToken: string; unkeptUrl: string; bffUrl?: string };
const startService = async (env: Record<string, string | undefined> = {}) => {
  const child = await startChild<ServiceReady>('service', { BENCH_API_TOKEN: API_TOKEN, ...env });
  children.push(child as Child<unknown>);
  return child;
};

async function answerBytes(url: string, init?: RequestInit): Promise<number> {
  const response = await fetch(url, init);
  if (!response.ok) throw new Error(`${init?.method ?? 'GET'} ${url}: ${response.status} ${await response.text()}`);
  return (await response.arrayBuffer()).byteLength;
}

const fixed = await startChild<{ url: string }>('fixed');
children.push(fixed as Child<unknown>);

/** The fixed JSON route, at the answer's size rounded to a power of two (within a factor of √2). */
const baselines = new Map<number, LoadResult>();
async function baselineFor(bytes: number): Promise<{ result: LoadResult; kb: number }> {
  const bucket = 2 ** Math.round(Math.log2(Math.max(1024, bytes)));
  let result = baselines.get(bucket);
  if (!result) {
    result = await load(`${fixed.ready.url}/fixed/${bucket}`, { seconds: SECONDS });
    baselines.set(bucket, result);
    entries.push(entry({ name: `baseline: fixed ${bucket / 1024} KB JSON route`, value: result.perSecond, unit: 'req/s', baseline: null, note: `p50 ${result.p50} ms` }));
  }
  return { result, kb: bucket / 1024 };
}

interface HttpFigure {
  name: string;
  url: string;
  method?: string;
  body?: string;
  headers?: Record<string, string>;
  target?: number;
  note?: string;
  /** The same request, answered in the service process through a recording database, for its storage work. */
  storage?: { child: Child<ServiceReady>; path: string };
}

async function httpFigure(figure: HttpFigure): Promise<LoadResult> {
  const init = { method: figure.method ?? 'GET', headers: { 'content-type': 'application/json', ...figure.headers }, ...(figure.body ? { body: figure.body } : {}) };
  const bytes = await answerBytes(figure.url, init);
  const result = await load(figure.url, { ...init, seconds: SECONDS });
  const base = await baselineFor(bytes);
  entries.push(
    entry({
      name: figure.name,
      value: result.perSecond,
      unit: 'req/s',
      baseline: base.result.perSecond,
      baselineName: `fixed ${base.kb} KB JSON`,
      ...(figure.target !== undefined ? { target: { on: 'ratio' as const, op: '>=' as const, limit: figure.target } } : {}),
      note: `answer ${(bytes / 1024).toFixed(1)} KB; p50 ${result.p50} ms, p97.5 ${result.p97} ms${figure.note ? `; ${figure.note}` : ''}`,
    }),
  );
  if (figure.storage) {
    const work = await figure.storage.child.call<{ msPerOp: number; queries: number }>({
      type: 'storage',
      request: { method: init.method, path: figure.storage.path, ...(figure.body ? { body: figure.body } : {}) },
      durationMs: STORAGE_MS,
    });
    entries.push(
      entry({
        name: `${figure.name}: its storage work alone`,
        value: work.msPerOp,
        unit: 'ms',
        baseline: 1000 / result.perSecond,
        baselineName: 'the whole request',
        note: `${work.queries} queries, run directly on the same database; the rest is HTTP, auth and presentation`,
      }),
    );
  }
  log(`${figure.name}: ${Math.round(result.perSecond)} req/s`);
  return result;
}


async function bulk(child: Child<ServiceReady>, request: BulkRequest) {
  return child.call<{ clientId: number }>({ type: 'bulk', request });
}

async function servicePhase(): Promise<void> {
  const service = await startService({ BENCH_PORTAL_SECRET: PORTAL_SECRET });
  const base = service.ready.url;
  const t = service.ready.apiToken;
  log('service started and seeded');
  const customers = quick
    ? { 25: await bulk(service, { clientName: 'Bench 25', externalId: 'bench-25', count: 25, dates: 'spread' }) }
    : {
        25: await bulk(service, { clientName: 'Bench 25', externalId: 'bench-25', count: 25, dates: 'spread' }),
        1000: await bulk(service, { clientName: 'Bench 1000', externalId: 'bench-1000', count: 1000, dates: 'spread' }),
        10_000: await bulk(service, { clientName: 'Bench 10000', externalId: 'bench-10000', count: 10_000, dates: 'spread' }),
      };
  log('bulk invoices written');
  const listPath = `/invoices.json?api_token=${t}&period=all&per_page=25`;
  const storage = (path: string) => ({ child: service, path });
  const list = await httpFigure({ name: 'service: list 25 invoices (JSON)', url: base + listPath, target: 0.1, storage: storage(listPath), note: KEPT });
  if (!quick) {
    const xml = `/invoices.xml?api_token=${t}&period=all&per_page=25`;
    await httpFigure({ name: 'service: list 25 invoices (XML)', url: base + xml, storage: storage(xml) });
  }
  const [first] = (await (await fetch(`${base}/invoices.json?api_token=${t}&per_page=1`)).json()) as { id: number }[];
  const read = `/invoices/${first!.id}.json?api_token=${t}`;
  await httpFigure({ name: 'service: read one invoice', url: base + read, target: 0.25, storage: storage(read), note: KEPT });
  // The same reads where nothing can be kept: the first after a write, and every one on PostgreSQL.
  await httpFigure({ name: 'service: list 25 invoices (JSON), nothing kept', url: service.ready.unkeptUrl + listPath });
  await httpFigure({ name: 'service: read one invoice, nothing kept', url: service.ready.unkeptUrl + read });
  await httpFigure({ name: 'service: create an invoice (5 positions)', url: `${base}/invoices.json`, method: 'POST', body: invoiceBody(t), target: 0.03, storage: storage('/invoices.json') });
  const pdf = `/invoices/${first!.id}.pdf?api_token=${t}`;
  await httpFigure({ name: 'service: invoice PDF, unchanged', url: base + pdf, target: 0.3, storage: storage(pdf), note: KEPT });

  // First renders: invoices never rendered before, one at a time, by a process that has rendered
  // others already, as a running service has; a worker's first renders also pay for its start and
  // for compiling the renderer, which the "new worker" figure shows apart.
  const fresh = (
    (await (await fetch(`${base}/invoices.json?api_token=${t}&period=all&per_page=100&client_id=${customers[25].clientId}`)).json()) as { id: number }[]
  ).filter((invoice) => invoice.id !== first!.id);
  const others = (
    (await (await fetch(`${base}/invoices.json?api_token=${t}&period=all&per_page=100`)).json()) as { id: number }[]
  ).filter((invoice) => invoice.id !== first!.id && !fresh.some((f) => f.id === invoice.id));
  const renderTimes = async (invoices: { id: number }[]) => {
    const times: number[] = [];
    for (const invoice of invoices) {
      const start = performance.now();
      await answerBytes(`${base}/invoices/${invoice.id}.pdf?api_token=${t}`);
      times.push(performance.now() - start);
    }
    return times;
  };
  const warmUp = await renderTimes(others.slice(0, quick ? 20 : 60));
  const firstRenders = await renderTimes(fresh.slice(0, quick ? 8 : 24));
  // Rendering in the service process itself, after as many renders again to warm it up.
  const renderCount = quick ? 5 : 15;
  const warmRenders = quick ? 20 : 60;
  const rendering = (await service.call<{ times: number[] }>({ type: 'render', invoiceId: first!.id, count: warmRenders + renderCount })).times.slice(warmRenders);
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  // The baseline is fetched the same way, one at a time: a fixed 32 KB JSON answer.
  const fixedTimes: number[] = [];
  for (let i = 0; i < 24; i += 1) {
    const start = performance.now();
    await answerBytes(`${fixed.ready.url}/fixed/32768`);
    fixedTimes.push(performance.now() - start);
  }
  const oneFixed = median(fixedTimes);
  entries.push(
    entry({
      name: 'service: invoice PDF, first render (whole request)',
      value: median(firstRenders),
      unit: 'ms',
      baseline: oneFixed,
      baselineName: 'one fixed 32 KB JSON request, fetched the same way',
      target: { on: 'value', op: '<=', limit: 20 },
      note: `median of ${firstRenders.length} invoices never rendered before, one at a time, after ${warmUp.length} others`,
    }),
    entry({
      name: 'service: invoice PDF, first renders of a just-started service',
      value: median(warmUp),
      unit: 'ms',
      baseline: median(firstRenders),
      baselineName: 'first renders once warm',
      note: `median of its first ${warmUp.length} renders after the first, other invoices than those above; the slowest ${Math.max(...warmUp).toFixed(0)} ms`,
    }),
    entry({
      name: 'service: invoice PDF, rendering alone',
      value: median(rendering),
      unit: 'ms',
      baseline: median(firstRenders),
      baselineName: 'the whole first-render request',
      note: `median of ${rendering.length} renders in the service process, after ${warmRenders} to warm it`,
    }),
  );
  log('PDF renders measured');
  if (quick) {
    await service.stop();
    return;
  }

  const payment = JSON.stringify({
    api_token: t,
    banking_payment: { name: 'Order 1001', price: '123.45', currency: 'PLN', email: 'buyer@customer.example', kind: 'api' },
  });
  await httpFigure({ name: 'service: create a payment', url: `${base}/banking/payments.json`, method: 'POST', body: payment, storage: storage('/banking/payments.json') });

  const widget = `${base}/a/demo/p/logo-design.js`;
  if ((await fetch(widget)).ok) await httpFigure({ name: 'service: public widget script', url: widget });
  else entries.push(unavailable('service: public widget script', 'req/s', 'the service has no /a/<prefix>/p/<token>.js route yet'));

  const kitPath = sizesResult!.kitPath;
  const bff = await startChild<{ url: string }>('bff', {
    BENCH_SERVICE_URL: base,
    BENCH_API_TOKEN: t,
    BENCH_PORTAL_SECRET: PORTAL_SECRET,
    BENCH_KIT_PATH: kitPath,
    BENCH_SPLIT_DIR: sizesResult!.splitDir,
  });
  children.push(bff as Child<unknown>);
  const tokens: Record<number, string> = {};
  for (const [count, customer] of Object.entries(customers)) {
    tokens[Number(count)] = await issuePortalToken({ clientId: customer.clientId, ttlSeconds: 3600 }, PORTAL_SECRET);
  }
  const bffList = `${bff.ready.url}/bff/invoices?per_page=25`;
  const auth = { authorization: `Bearer ${tokens[1000]}` };
  await httpFigure({ name: 'bff: portal list, 25 of 1,000 invoices', url: bffList, headers: auth });
  const serviceList = `${base}/invoices.json?api_token=${t}&period=all&per_page=25&client_id=${customers[1000]!.clientId}`;
  await httpFigure({ name: 'service: list 25 of one client (what the portal list shows)', url: serviceList });
  await portalListLatency(bffList, auth, serviceList, `${service.ready.bffUrl}/bff/invoices?per_page=25`);
  const checkout = JSON.stringify({ product: 'logo-design', quantity: 1, buyer: { email: 'buyer@customer.example', name: 'Jan Kowalski' }, returnUrl: 'https://shop.example/thanks' });
  await httpFigure({ name: 'bff: checkout', url: `${bff.ready.url}/bff/checkout`, method: 'POST', body: checkout });

  log('browser figures');
  try {
    entries.push(...(await browserFigures(bff.ready.url, { tokens, productToken: 'logo-design' }, { quick })));
  } catch (error) {
    entries.push(unavailable('browser figures', 'ms', `failed: ${String(error).split('\n')[0]}`));
  }
  await bff.stop();

  await bulk(service, { clientName: 'Bench same day', externalId: 'bench-same-day', count: 6400, dates: 'today' });
  const shared = await load(base + listPath, { seconds: SECONDS });
  entries.push(
    entry({
      name: 'service: list 25 with 6,400 more invoices on the newest date',
      value: shared.perSecond,
      unit: 'req/s',
      baseline: list.perSecond,
      baselineName: 'the same list before',
      target: { on: 'ratio', op: '>=', limit: 0.9 },
    }),
  );
  await service.stop();
}

/**
 * The BFF's portal list against the service list of the same page, one request at a time: the BFF
 * in its own process (over kept HTTP connections) and in the service's process (the embedded
 * default, calling the service in-process). The three are measured in turns, three rounds each, so
 * that the machine's load falls on all of them alike; each figure is the mean of its rounds.
 */
async function portalListLatency(bffList: string, auth: Record<string, string>, serviceList: string, embeddedList: string): Promise<void> {
  const rounds = 3;
  const means = { bff: 0, embedded: 0, service: 0 };
  for (let round = 0; round < rounds; round += 1) {
    means.service += (await load(serviceList, { seconds: SECONDS / 4.5, connections: 1 })).mean / rounds;
    means.bff += (await load(bffList, { seconds: SECONDS / 4.5, connections: 1, headers: auth })).mean / rounds;
    means.embedded += (await load(embeddedList, { seconds: SECONDS / 4.5, connections: 1, headers: auth })).mean / rounds;
  }
  const latency = (name: string, value: number, note: string) =>
    entry({
      name,
      value: Math.round(value * 1000) / 1000,
      unit: 'ms',
      baseline: Math.round(means.service * 1000) / 1000,
      baselineName: 'the service list of the same page',
      target: { on: 'ratio', op: '<=', limit: 1.25 },
      note,
    });
  entries.push(
    latency('bff: portal list latency against the service list', means.bff, 'the BFF in its own process; one request at a time, mean of 3 rounds in turns'),
    latency(
      "bff: portal list latency in the service's process against the service list",
      means.embedded,
      'the embedded default (npm start): the BFF calls the service in-process; one request at a time, mean of 3 rounds in turns',
    ),
  );
}

/** `--only bff-list`: that row alone, with what it needs (a service, 1,000 invoices of one customer, the BFF). */
async function bffListOnly(): Promise<void> {
  const service = await startService({ BENCH_PORTAL_SECRET: PORTAL_SECRET });
  const t = service.ready.apiToken;
  const customer = await bulk(service, { clientName: 'Bench 1000', externalId: 'bench-1000', count: 1000, dates: 'spread' });
  const bff = await startChild<{ url: string }>('bff', { BENCH_SERVICE_URL: service.ready.url, BENCH_API_TOKEN: t, BENCH_PORTAL_SECRET: PORTAL_SECRET, BENCH_KIT_PATH: '' });
  children.push(bff as Child<unknown>);
  const token = await issuePortalToken({ clientId: customer.clientId, ttlSeconds: 3600 }, PORTAL_SECRET);
  const bffList = `${bff.ready.url}/bff/invoices?per_page=25`;
  const serviceList = `${service.ready.url}/invoices.json?api_token=${t}&period=all&per_page=25&client_id=${customer.clientId}`;
  // Warm both, as the whole run has before it reaches this row.
  await load(bffList, { seconds: 1, connections: 1, headers: { authorization: `Bearer ${token}` } });
  await load(serviceList, { seconds: 1, connections: 1 });
  const embeddedList = `${service.ready.bffUrl}/bff/invoices?per_page=25`;
  await load(embeddedList, { seconds: 1, connections: 1, headers: { authorization: `Bearer ${token}` } });
  await portalListLatency(bffList, { authorization: `Bearer ${token}` }, serviceList, embeddedList);
}

async function postgresPhase(): Promise<void> {
  const names = ['postgres: list 25, two processes against one', 'postgres: create, two processes against one'];
  const cluster = await startCluster();
  if (!cluster) {
    entries.push(...names.map((name) => unavailable(name, 'req/s', 'PostgreSQL is not installed; skipped', { on: 'ratio', op: '>=', limit: 1.6 })));
    return;
  }
  try {
    log('postgres cluster started');
    // On PostgreSQL every process seals secrets under one key kept outside the database (docs/security.md).
    const secretKey = randomBytes(32).toString('base64');
    const one = await startService({ DATABASE_URL: cluster.url, INVOICEKIT_SECRET_KEY: secretKey });
    await bulk(one, { clientName: 'Bench 1000', externalId: 'bench-1000', count: 1000, dates: 'spread' });
    const two = await startService({ DATABASE_URL: cluster.url, INVOICEKIT_SECRET_KEY: secretKey, BENCH_SEED: '0' });
    const listPath = `/invoices.json?api_token=${API_TOKEN}&period=all&per_page=25`;
    const body = invoiceBody(API_TOKEN);
    const post = { method: 'POST', body, headers: { 'content-type': 'application/json' } };
    const figures = [
      { name: 'list 25', path: listPath, options: {} },
      { name: 'create', path: '/invoices.json', options: post },
    ];
    for (const [index, figure] of figures.entries()) {
      const single = await load(one.ready.url + figure.path, { ...figure.options, seconds: SECONDS });
      const pair = await loadAll(
        [one, two].map((child) => ({ url: child.ready.url + figure.path, options: { ...figure.options, seconds: SECONDS, connections: 10 } })),
      );
      entries.push(
        entry({ name: `postgres: ${figure.name}, one process`, value: single.perSecond, unit: 'req/s', baseline: null, note: `p50 ${single.p50} ms` }),
        entry({
          name: names[index]!,
          value: pair.perSecond,
          unit: 'req/s',
          baseline: single.perSecond,
          baselineName: 'one process',
          target: { on: 'ratio', op: '>=', limit: 1.6 },
          note: `${cpus().length} cores shared by PostgreSQL, both processes and the load`,
        }),
      );
      log(`postgres ${figure.name}: ${Math.round(single.perSecond)} → ${Math.round(pair.perSecond)} req/s`);
    }
    const before = await load(one.ready.url + listPath, { seconds: SECONDS });
    await bulk(one, { clientName: 'Bench same day', externalId: 'bench-same-day', count: 6400, dates: 'today' });
    const after = await load(one.ready.url + listPath, { seconds: SECONDS });
    entries.push(
      entry({
        name: 'postgres: list 25 with 6,400 more invoices on the newest date',
        value: after.perSecond,
        unit: 'req/s',
        baseline: before.perSecond,
        baselineName: 'the same list before',
        target: { on: 'ratio', op: '>=', limit: 0.9 },
      }),
    );
    await two.stop();
    await one.stop();
  } finally {
    await cluster.stop();
  }
}

/** Lighthouse on every demo page (about two minutes): the demo started as `npm start` starts it, on its own ports. */
async function lighthousePhase(): Promise<void> {
  log('Lighthouse on the demo pages');
  try {
    entries.push(...(await lighthouseFigures({ log })));
  } catch (error) {
    entries.push(unavailable('lighthouse', 'points', `failed: ${String(error).split('\n')[0]}`));
  }
}

let sizesResult: Awaited<ReturnType<typeof measureSizes>> | undefined;

async function wholeRun(): Promise<void> {
  if (!quick) {
    sizesResult = await measureSizes(root);
    log('sizes measured');
  }
  await servicePhase();
  if (!quick) await postgresPhase();
  if (!quick) await lighthousePhase();
  if (sizesResult) entries.push(...sizesResult.entries);
  const seconds = (performance.now() - started) / 1000;
  await writeResults(resultsPath, entries, { date: new Date().toISOString(), quick, seconds: Math.round(seconds), cores: cpus().length, node: process.version });
  console.log(table(entries));
  console.log(`\n${quick ? 'quick subset, ' : ''}${Math.round(seconds)} s; written to bench/results.json`);
}

try {
  if (only === undefined) await wholeRun();
  else if (!ONLY_ROWS.includes(only)) throw new Error(`--only takes one of: ${ONLY_ROWS.join(', ')}`);
  else {
    if (only === 'lighthouse') await lighthousePhase();
    else await bffListOnly();
    // One row is not a run: bench/results.json keeps the last whole run.
    console.log(table(entries));
  }
} catch (error) {
  console.error(error);
  process.exitCode = 1;
} finally {
  await Promise.all(children.map((child) => child.stop().catch(() => undefined)));
}
