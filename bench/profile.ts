import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { Session } from 'node:inspector/promises';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { startService } from '../src/service/server.js';
import { bulkInvoices } from './seed.js';

/**
 * `npx tsx bench/profile.ts <list|read|create|pdf> [seconds]`: a CPU profile of the service under
 * load for one route, without start-up and seeding in it. The service runs in this process; the
 * load comes from an autocannon process. Open the written `.cpuprofile` in Chrome's DevTools.
 */
const figure = process.argv[2] ?? 'list';
const seconds = Number(process.argv[3] ?? 5);
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
const session = new Session();
session.connect();
await session.post('Profiler.enable');
await session.post('Profiler.start');
const { stdout, stderr } = await promisify(execFile)('npx', ['autocannon', '-d', String(seconds), '-c', '20', ...targets[figure]!], { maxBuffer: 1 << 24 });
const { profile } = await session.post('Profiler.stop');
const path = join(tmpdir(), `invoicekit-${figure}.cpuprofile`);
await writeFile(path, JSON.stringify(profile));
console.log(stdout, stderr.split('\n').filter((line) => /requests in|Req\/Sec/.test(line)).join('\n'));
console.log(`profile written to ${path}`);
await service.close();
