import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Sql } from '../src/service/db.js';
import { startService } from '../src/service/server.js';
import { bulkInvoices } from './seed.js';
import { invoiceBody } from './invoice-body.js';

/**
 * `npx tsx bench/statements.ts [requests]`: where one invoice creation spends its time, statement by
 * statement. The service runs in this process on PGlite with 11,000 invoices in the account, as in
 * the benchmark; requests are sent one at a time, and each query, the transaction, the work inside
 * it and the whole request are timed. Prints the low decile and the median over `requests`.
 */
const count = Number(process.argv[2] ?? 200);
const dataDir = await mkdtemp(join(tmpdir(), 'invoicekit-statements-'));
const service = await startService({ port: 0, dataDir, seed: true, apiToken: 'statements-token-0123456789' });
await bulkInvoices(service.db, { clientName: 'Bench 1000', externalId: 'bench-1000', count: 1000, dates: 'spread' });
await bulkInvoices(service.db, { clientName: 'Bench 10000', externalId: 'bench-10000', count: 10_000, dates: 'spread' });

const times = new Map<string, number[]>();
const note = (label: string, ms: number) => {
  let list = times.get(label);
  if (!list) times.set(label, (list = []));
  list.push(ms);
};
const timed = async <T>(label: string, work: () => Promise<T>): Promise<T> => {
  const start = performance.now();
  try {
    return await work();
  } finally {
    note(label, performance.now() - start);
  }
};
const short = (text: string) => text.replace(/\s+/g, ' ').trim().slice(0, 90);
const db = service.db;
const { query, transaction } = db;
db.query = (text, params) => timed(`query: ${short(text)}`, () => query(text, params));
db.transaction = <T>(work: (tx: Sql) => Promise<T>) =>
  timed('the transaction', () =>
    transaction((tx) => timed('  the work inside', () => work({ ...tx, query: (text, params) => timed(`  in tx: ${short(text)}`, () => tx.query(text, params)) }))),
  );

const body = invoiceBody(service.apiToken);
const create = async () => {
  const response = await fetch(`${service.url}/invoices.json`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
  if (response.status !== 201) throw new Error(`${response.status} ${await response.text()}`);
  await response.arrayBuffer();
};
for (let i = 0; i < 20; i += 1) await create();
times.clear();
for (let i = 0; i < count; i += 1) await timed('the whole request (HTTP)', create);

const quantile = (list: number[], q: number) => [...list].sort((a, b) => a - b)[Math.floor(list.length * q)]!.toFixed(3).padStart(8);
// On a loaded machine the low decile shows the work itself best; the median includes waiting for a core.
console.log(`${count} creations, one at a time, PGlite, 11,000 invoices in the account: low decile and median, ms`);
for (const [label, list] of times) {
  console.log(`${quantile(list, 0.1)} ${quantile(list, 0.5)}  ×${(list.length / count).toFixed(1)}  ${label}`);
}
await service.close();
await rm(dataDir, { recursive: true, force: true });
