import { gzipSync } from 'node:zlib';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import type { AddressInfo } from 'node:net';
import { createInvoicingClient } from '../src/api/index.js';
import { issuePortalToken, startBff } from '../src/bff/index.js';
import { startService } from '../src/service/server.js';

/**
 * `npm run bench`: throughput and latency of the service and the BFF, each reported as a ratio
 * against a baseline measured in the same run on the same machine (a fixed 8 KB JSON route on a
 * bare Hono server), because absolute numbers on shared machines are noise. A ratio above 1 is faster
 * than the baseline; for figures in ms it compares the time of one baseline request with the figure. Request loops are
 * bounded in count and time and talk to 127.0.0.1 only.
 */
interface Figure {
  name: string;
  value: number;
  unit: string;
  ratio?: number;
  note?: string;
}

const DURATION_MS = Number(process.env.BENCH_MS ?? 3000);
const CONCURRENCY = 8;

async function throughput(run: () => Promise<void>, durationMs = DURATION_MS): Promise<{ perSecond: number; p50: number; p95: number }> {
  const latencies: number[] = [];
  const end = performance.now() + durationMs;
  const worker = async () => {
    while (performance.now() < end && latencies.length < 200_000) {
      const start = performance.now();
      await run();
      latencies.push(performance.now() - start);
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  const elapsed = performance.now() - started;
  latencies.sort((a, b) => a - b);
  return {
    perSecond: (latencies.length / elapsed) * 1000,
    p50: latencies[Math.floor(latencies.length * 0.5)] ?? 0,
    p95: latencies[Math.floor(latencies.length * 0.95)] ?? 0,
  };
}

async function ok(response: Response): Promise<void> {
  if (!response.ok) throw new Error(`${response.url}: ${response.status} ${await response.text()}`);
  await response.arrayBuffer();
}

async function main(): Promise<void> {
  const figures: Figure[] = [];

  // Baseline: the same machine serving a fixed 8 KB JSON answer with Hono and no storage.
  const payload = Array.from({ length: 60 }, (_, i) => ({ id: i, number: `${i}/01/2026`, price_gross: '123.45', buyer_name: 'Client SA' }));
  const bare = new Hono().get('/fixed', (c) => c.json(payload));
  const bareServer = serve({ fetch: bare.fetch, port: 0, hostname: '127.0.0.1' });
  await new Promise((resolve) => bareServer.once('listening', resolve));
  const bareUrl = `http://127.0.0.1:${(bareServer.address() as AddressInfo).port}/fixed`;
  const baseline = await throughput(() => fetch(bareUrl).then(ok));
  figures.push({ name: 'baseline: fixed 8 KB JSON route', value: baseline.perSecond, unit: 'req/s', ratio: 1 });
  bareServer.close();

  const dataDir = await mkdtemp(join(tmpdir(), 'invoicekit-bench-'));
  const startedAt = performance.now();
  const service = await startService({ port: 0, dataDir, seed: true, databaseUrl: process.env.DATABASE_URL || undefined });
  figures.push({ name: 'service: first start with seeding', value: performance.now() - startedAt, unit: 'ms' });
  const token = service.apiToken;
  const base = service.url;
  const invoices = (await (await fetch(`${base}/invoices.json?api_token=${token}&per_page=1`)).json()) as { id: number }[];
  const firstId = invoices[0]!.id;

  const reads = [
    ['service: list 25 invoices (JSON)', `${base}/invoices.json?api_token=${token}&period=all&per_page=25`],
    ['service: list 25 invoices (XML)', `${base}/invoices.xml?api_token=${token}&period=all&per_page=25`],
    ['service: read one invoice with positions', `${base}/invoices/${firstId}.json?api_token=${token}`],
  ] as const;
  for (const [name, url] of reads) {
    const result = await throughput(() => fetch(url).then(ok));
    figures.push({ name, value: result.perSecond, unit: 'req/s', ratio: result.perSecond / baseline.perSecond, note: `p95 ${result.p95.toFixed(1)} ms` });
  }

  const body = JSON.stringify({
    api_token: token,
    invoice: {
      kind: 'vat',
      number: null,
      buyer_name: 'Client1 SA',
      buyer_tax_no: '5252445767',
      positions: [
        { name: 'Produkt A1', tax: 23, total_price_gross: 10.23, quantity: 1 },
        { name: 'Produkt A2', tax: 0, total_price_gross: 50, quantity: 2 },
      ],
    },
  });
  const create = await throughput(
    () => fetch(`${base}/invoices.json`, { method: 'POST', headers: { 'content-type': 'application/json' }, body }).then(ok),
    Math.min(DURATION_MS, 2000),
  );
  figures.push({ name: 'service: create an invoice', value: create.perSecond, unit: 'req/s', ratio: create.perSecond / baseline.perSecond, note: `p95 ${create.p95.toFixed(1)} ms` });

  // Each invoice's first PDF is rendered; later ones for the same state come from the service's cache.
  const all = (await (await fetch(`${base}/invoices.json?api_token=${token}&per_page=100`)).json()) as { id: number }[];
  const renderStart = performance.now();
  for (const invoice of all) await fetch(`${base}/invoices/${invoice.id}.pdf?api_token=${token}`).then(ok);
  const renderMs = (performance.now() - renderStart) / all.length;
  const baselineMs = 1000 / baseline.perSecond;
  figures.push({ name: 'service: invoice PDF, first render', value: renderMs, unit: 'ms', ratio: baselineMs / renderMs, note: `${all.length} invoices, one at a time` });
  const pdf = await throughput(() => fetch(`${base}/invoices/${firstId}.pdf?api_token=${token}`).then(ok), Math.min(DURATION_MS, 2000));
  figures.push({ name: 'service: invoice PDF, unchanged invoice', value: pdf.perSecond, unit: 'req/s', ratio: pdf.perSecond / baseline.perSecond, note: `p50 ${pdf.p50.toFixed(1)} ms` });

  // The BFF in front of the service: a portal list for one customer.
  const portalSecret = 'bench-portal-secret-0123456789abcdefghij';
  const client = createInvoicingClient({ baseUrl: base, apiToken: token });
  const customer = (await client.clients.findByExternalId('cust-1001'))!;
  const bff = await startBff({ client, portalSecret, rateLimit: false, logger: false });
  const portalToken = await issuePortalToken({ clientId: customer.id, ttlSeconds: 600 }, portalSecret);
  const portal = await throughput(() =>
    fetch(`${bff.url}/bff/invoices?per_page=25`, { headers: { authorization: `Bearer ${portalToken}` } }).then(ok),
  );
  figures.push({ name: 'bff: portal invoice list (25)', value: portal.perSecond, unit: 'req/s', ratio: portal.perSecond / baseline.perSecond, note: `p95 ${portal.p95.toFixed(1)} ms` });
  const product = await throughput(() => fetch(`${bff.url}/bff/products/logo-design`).then(ok));
  figures.push({ name: 'bff: public product (cached)', value: product.perSecond, unit: 'req/s', ratio: product.perSecond / baseline.perSecond });
  await bff.close();
  await service.close();
  await rm(dataDir, { recursive: true, force: true });

  // Sizes are deterministic (and guarded by tests); they are listed here for the table.
  const { build } = await import('esbuild');
  for (const [name, entry] of [['<invoice-list> with Lit, min+gzip', 'src/elements/invoice-list/define.ts']] as const) {
    const result = await build({ entryPoints: [entry], bundle: true, minify: true, format: 'esm', write: false, tsconfigRaw: { compilerOptions: { experimentalDecorators: true, useDefineForClassFields: false } } });
    const bytes = gzipSync(Buffer.concat(result.outputFiles.map((f) => Buffer.from(f.contents))), { level: 9 }).length;
    figures.push({ name, value: bytes / 1024, unit: 'KB' });
  }

  const rows = figures.map((f) => {
    const value = f.unit === 'req/s' ? Math.round(f.value).toString() : f.value.toFixed(1);
    return `| ${f.name} | ${value} ${f.unit} | ${f.ratio === undefined ? '–' : f.ratio.toFixed(3)} | ${f.note ?? ''} |`;
  });
  console.log(['| figure | value | ratio to baseline | note |', '|---|---|---|---|', ...rows].join('\n'));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
