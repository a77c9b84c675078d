import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { createInvoicingClient } from '../src/api/client.js';
import { keepAliveFetch } from '../src/bff/node-fetch.js';
import { startBff, type RunningBff } from '../src/bff/node.js';
import { issuePortalToken } from '../src/bff/portal-token.js';
import { startChild } from './processes/protocol.js';

/**
 * `npx tsx bench/bff-list-ab.ts [rounds] [seconds]`: the BFF's portal list as it was and as it is,
 * measured in turns in one process against one service process, so that the machine's load falls
 * on both alike. "two calls, global fetch": the page and the summary asked apart over the global
 * `fetch` (a client without `listPage`); "one call, kept node:http": as `startBff` runs now. Each
 * turn is one request at a time from an autocannon process; CPU per request is this process's.
 */
const rounds = Number(process.argv[2] ?? 4);
const seconds = Number(process.argv[3] ?? 2);
const apiToken = 'profile-token-0123456789';
const portalSecret = 'profile-portal-secret-0123456789abcdef';
const service = await startChild<{ url: string }>('service', { BENCH_API_TOKEN: apiToken });
try {
  const { clientId } = await service.call<{ clientId: number }>({ type: 'bulk', request: { clientName: 'Bench 1000', externalId: 'bench-1000', count: 1000, dates: 'spread' } });
  const token = await issuePortalToken({ clientId, ttlSeconds: 3600 }, portalSecret);
  const common = { portalSecret, rateLimit: false as const, logger: false as const };
  const full = createInvoicingClient({ baseUrl: service.ready.url, apiToken, retry: { limit: 1 } });
  const { listPage: _listPage, ...olderInvoices } = full.invoices;
  const sides: Record<string, RunningBff> = {
    'two calls, global fetch': await startBff({ ...common, client: { ...full, invoices: olderInvoices } }),
    'one call, global fetch': await startBff({ ...common, serviceUrl: service.ready.url, apiToken, serviceFetch: fetch }),
    'one call, kept node:http': await startBff({ ...common, serviceUrl: service.ready.url, apiToken, serviceFetch: keepAliveFetch() }),
  };
  const serviceList = `${service.ready.url}/invoices.json?api_token=${apiToken}&period=all&per_page=25&client_id=${clientId}`;
  const figures = new Map<string, { mean: number[]; cpu: number[] }>();
  const run = async (name: string, target: string[], duration: number) => {
    const cpu = process.cpuUsage();
    const { stdout } = await promisify(execFile)('npx', ['autocannon', '-j', '-c', '1', '-d', String(duration), ...target], { maxBuffer: 1 << 24 });
    const result = JSON.parse(stdout) as { latency: { mean: number }; requests: { total: number }; non2xx: number; errors: number };
    if (result.non2xx + result.errors > 0) throw new Error(`${name}: ${result.non2xx + result.errors} requests failed`);
    const used = process.cpuUsage(cpu);
    const figure = figures.get(name) ?? { mean: [], cpu: [] };
    figure.mean.push(result.latency.mean);
    figure.cpu.push((used.user + used.system) / 1000 / result.requests.total);
    figures.set(name, figure);
  };
  const bffTarget = (bff: RunningBff) => ['-H', `authorization=Bearer ${token}`, `${bff.url}/bff/invoices?per_page=25`];
  for (const bff of Object.values(sides)) await run('warm-up', bffTarget(bff), 1);
  for (let round = 0; round < rounds; round += 1) {
    for (const [name, bff] of Object.entries(sides)) await run(name, bffTarget(bff), seconds);
    await run('service list', [serviceList], seconds);
  }
  figures.delete('warm-up');
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  const serviceMean = median(figures.get('service list')!.mean);
  for (const [name, figure] of figures) {
    console.log(
      `${name.padEnd(26)} mean latency, median of ${figure.mean.length}: ${median(figure.mean).toFixed(2)} ms (ratio ${(median(figure.mean) / serviceMean).toFixed(2)});` +
        ` BFF CPU per request ${median(figure.cpu).toFixed(2)} ms; each turn: ${figure.mean.map((m) => m.toFixed(1)).join(' ')}`,
    );
  }
  for (const bff of Object.values(sides)) await bff.close();
} finally {
  await service.stop();
}
