import { execFile } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { Session } from 'node:inspector/promises';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { startBff } from '../src/bff/node.js';
import { issuePortalToken } from '../src/bff/portal-token.js';
import { startService } from '../src/service/server.js';
import { startChild } from './processes/protocol.js';
import { bulkInvoices } from './seed.js';

/**
 * `npx tsx bench/profile.ts <list|read|create|pdf|bff-list> [seconds]`: a CPU profile of one route
 * under load, without start-up and seeding in it. The load comes from an autocannon process. Open
 * the written `.cpuprofile` in Chrome's DevTools.
 *
 * `list|read|create|pdf` profile the service, which runs in this process under 20 connections.
 * `bff-list` profiles the BFF's portal list (25 of a customer's 1,000 invoices) as the benchmark
 * measures it: the service runs in its own process, the BFF in this one, one request at a time,
 * and the service's list of the same page is timed the same way in the same run.
 */
const figure = process.argv[2] ?? 'list';
const seconds = Number(process.argv[3] ?? 5);

async function profiled<T>(work: () => Promise<T>): Promise<T> {
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  const result = await work();
  const { profile } = await session.post('Profiler.stop');
  const path = join(tmpdir(), `invoicekit-${figure}.cpuprofile`);
  await writeFile(path, JSON.stringify(profile));
  console.log(`profile written to ${path}`);
  return result;
}

async function profileService(): Promise<void> {
  const dataDir = process.env.DATABASE_URL ? undefined : await mkdtemp(join(tmpdir(), 'invoicekit-profile-'));
  const service = await startService({ port: 0, dataDir, databaseUrl: process.env.DATABASE_URL || undefined, seed: true, apiToken: 'profile-token-0123456789' });
  await bulkInvoices(service.db, { clientName: 'Bench 1000', externalId: 'bench-1000', count: 1000, dates: 'spread' });
  const t = service.apiToken;
  const [first] = (await (await fetch(`${service.url}/invoices.json?api_token=${t}&per_page=1`)).json()) as { id: number }[];
  const body = JSON.stringify({
    api_token: t,
    invoice: { kind: 'vat', buyer_name: 'Client1 SA', positions: Array.from({ length: 5 }, (_, i) => ({ name: `P${i}`, tax: 23, total_price_gross: '10.23', quantity: 1 })) },
  });
  const targets: Record<string, string[]> = {
    list: [`${service.url}/invoices.json?api_token=${t}&period=all&per_page=25`],
    read: [`${service.url}/invoices/${first!.id}.json?api_token=${t}`],
    pdf: [`${service.url}/invoices/${first!.id}.pdf?api_token=${t}`],
    create: ['-m', 'POST', '-H', 'content-type=application/json', '-b', body, `${service.url}/invoices.json`],
  };
  const { stdout, stderr } = await profiled(() =>
    promisify(execFile)('npx', ['autocannon', '-d', String(seconds), '-c', '20', ...targets[figure]!], { maxBuffer: 1 << 24 }),
  );
  console.log(stdout, stderr.split('\n').filter((line) => /requests in|Req\/Sec/.test(line)).join('\n'));
  await service.close();
}

/** CPU time (user + system) a process has used so far, in ms, from `/proc` (Linux). */
async function cpuMsOf(pid: number): Promise<number> {
  const fields = (await readFile(`/proc/${pid}/stat`, 'utf8')).split(') ')[1]!.split(' ');
  // utime and stime are fields 14 and 15 of stat, in clock ticks of 10 ms.
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

interface Alone {
  mean: number;
  p50: number;
  requests: number;
  /** CPU per request of this process (the BFF) and of the service process. */
  bffCpuMs: number;
  serviceCpuMs: number;
}

async function profileBffList(): Promise<void> {
  const apiToken = 'profile-token-0123456789';
  const portalSecret = 'profile-portal-secret-0123456789abcdef';
  const service = await startChild<{ url: string }>('service', { BENCH_API_TOKEN: apiToken });
  try {
    const { clientId } = await service.call<{ clientId: number }>({
      type: 'bulk',
      request: { clientName: 'Bench 1000', externalId: 'bench-1000', count: 1000, dates: 'spread' },
    });
    // As the benchmark's BFF process: rate limits off, since all load comes from one address.
    const bff = await startBff({ serviceUrl: service.ready.url, apiToken, portalSecret, rateLimit: false, logger: false });
    const token = await issuePortalToken({ clientId, ttlSeconds: 3600 }, portalSecret);
    const bffList = ['-H', `authorization=Bearer ${token}`, `${bff.url}/bff/invoices?per_page=25`];
    const serviceList = [`${service.ready.url}/invoices.json?api_token=${apiToken}&period=all&per_page=25&client_id=${clientId}`];
    // One request at a time from an autocannon process, so neither the BFF's nor the service's CPU
    // figure includes the load generator's.
    const alone = async (target: string[], duration: number): Promise<Alone> => {
      const bffCpu = process.cpuUsage();
      const serviceCpu = await cpuMsOf(service.process.pid!);
      const { stdout } = await promisify(execFile)('npx', ['autocannon', '-j', '-c', '1', '-d', String(duration), ...target], { maxBuffer: 1 << 24 });
      const result = JSON.parse(stdout) as { latency: { mean: number; p50: number }; requests: { total: number }; non2xx: number; errors: number };
      if (result.non2xx + result.errors > 0) throw new Error(`${target.at(-1)}: ${result.non2xx + result.errors} requests failed`);
      const used = process.cpuUsage(bffCpu);
      const requests = result.requests.total;
      return {
        mean: result.latency.mean,
        p50: result.latency.p50,
        requests,
        bffCpuMs: (used.user + used.system) / 1000 / requests,
        serviceCpuMs: ((await cpuMsOf(service.process.pid!)) - serviceCpu) / requests,
      };
    };
    // The BFF's own hop with no service call behind it: the least a proxied request can add.
    const bffHealth = [`${bff.url}/bff/health`];
    // The page alone (the following pages of a scroll): what the summary call adds.
    const bffPage = ['-H', `authorization=Bearer ${token}`, `${bff.url}/bff/invoices?per_page=25&totals=false`];
    const line = (name: string, r: Alone) =>
      `  ${name}: mean ${r.mean.toFixed(2)} ms, p50 ${r.p50} ms, ${r.requests} requests; CPU per request: BFF ${r.bffCpuMs.toFixed(2)} ms, service ${r.serviceCpuMs.toFixed(2)} ms`;
    const show = (run: string, viaBff: Alone, direct: Alone, hop?: Alone, pageAlone?: Alone) =>
      console.log(
        `${run}: latency ratio ${(viaBff.mean / direct.mean).toFixed(2)}\n${line('bff list    ', viaBff)}\n${line('service list', direct)}` +
          (hop ? `\n${line('bff /health ', hop)}` : '') +
          (pageAlone ? `\n${line('bff page without totals', pageAlone)}` : ''),
      );
    await alone(bffList, 1);
    await alone(serviceList, 1);
    const profiledBff = await profiled(() => alone(bffList, seconds));
    show('profiled BFF', profiledBff, await alone(serviceList, seconds));
    for (let run = 1; run <= 2; run += 1) show(`run ${run}`, await alone(bffList, seconds), await alone(serviceList, seconds), await alone(bffHealth, seconds), await alone(bffPage, seconds));
    await bff.close();
  } finally {
    await service.stop();
  }
}

if (figure === 'bff-list') await profileBffList();
else await profileService();
