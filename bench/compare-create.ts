import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { load, type LoadResult } from './load.js';
import { type Child, startChild } from './processes/protocol.js';
import { invoiceBody } from './invoice-body.js';

/**
 * `npx tsx bench/compare-create.ts <other checkout> [rounds] [seconds]`: invoice creation (5
 * positions) of this checkout against another one (say, a `git worktree` of `main`), in the same
 * run: rounds of the fixed 8 KB JSON route, the other service, this service and the fixed route
 * again, one after the other, so both services meet the same load on a shared machine. Prints each
 * round's requests per second, ratios to the fixed route and the services' CPU time per request
 * (read from /proc, where there is one).
 */
const other = resolve(process.argv[2] ?? '.');
const rounds = Number(process.argv[3] ?? 3);
const seconds = Number(process.argv[4] ?? 3);
const TOKEN = 'bench-api-token-0123456789';
type Service = Child<{ url: string }>;
const { startChild: startOther } = (await import(pathToFileURL(`${other}/bench/processes/protocol.ts`).href)) as { startChild: typeof startChild };

const cpuMs = (pid: number): number => {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return NaN;
  }
};
const measured = async (child: Child<unknown>, run: () => Promise<LoadResult>) => {
  const before = cpuMs(child.process.pid!);
  const result = await run();
  return { ...result, cpuPerRequest: (cpuMs(child.process.pid!) - before) / result.requests };
};

const fixed = await startChild<{ url: string }>('fixed');
const services: [string, Service][] = [
  ['other', await startOther<{ url: string }>('service', { BENCH_API_TOKEN: TOKEN })],
  ['this', await startChild<{ url: string }>('service', { BENCH_API_TOKEN: TOKEN })],
];
for (const [, service] of services) {
  await service.call({ type: 'bulk', request: { clientName: 'Bench 1000', externalId: 'bench-1000', count: 1000, dates: 'spread' } });
}
const body = invoiceBody(TOKEN);
const post = { method: 'POST', headers: { 'content-type': 'application/json' }, body, seconds };
const baseline = () => measured(fixed as Child<unknown>, () => load(`${fixed.ready.url}/fixed/8192`, { seconds }));
for (let round = 1; round <= rounds; round += 1) {
  const first = await baseline();
  const results = [];
  for (const [name, service] of services) results.push({ name, ...(await measured(service as Child<unknown>, () => load(`${service.ready.url}/invoices.json`, post))) });
  const last = await baseline();
  const fixedRate = (first.perSecond + last.perSecond) / 2;
  const fixedCpu = (first.cpuPerRequest + last.cpuPerRequest) / 2;
  const [a, b] = results as [(typeof results)[number], (typeof results)[number]];
  console.log(
    `round ${round}: fixed 8 KB ${Math.round(fixedRate)} req/s (${fixedCpu.toFixed(3)} ms CPU each); ` +
      results.map((r) => `${r.name} ${Math.round(r.perSecond)} req/s, ratio ${(r.perSecond / fixedRate).toFixed(4)}, ${r.cpuPerRequest.toFixed(2)} ms CPU each`).join('; ') +
      `; this/other ${(b.perSecond / a.perSecond).toFixed(2)}`,
  );
}
for (const child of [fixed, ...services.map(([, s]) => s)]) await child.stop();
