import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServiceApp } from '../../src/service/app.js';
import type { Database, Sql } from '../../src/service/db.js';
import { startService } from '../../src/service/server.js';
import { bulkInvoices, type BulkRequest } from '../seed.js';
import { reply, type ServiceCommand } from './protocol.js';

/**
 * One invoicing service process, exactly as `invoicekit service` runs it, driven by the benchmark
 * over IPC. Beside serving HTTP it can replay the storage work of one request directly on its own
 * database (the same PGlite instance or the same PostgreSQL server), so the benchmark can tell the
 * cost of storage from what HTTP, authentication and JSON add.
 */
interface RecordedQuery {
  text: string;
  params: readonly unknown[] | undefined;
  inTransaction: boolean;
}

class RolledBack<T> extends Error {
  readonly value: T;
  constructor(value: T) {
    super('rolled back');
    this.value = value;
  }
}

/**
 * The service's database, noting every query. Transactions are rolled back once their work is
 * done, so a recorded request writes nothing and its writes can be replayed as they were.
 */
function recording(db: Database, log: RecordedQuery[]): Database {
  const wrap = (sql: Sql, inTransaction: boolean): Sql => ({
    query: (text, params) => {
      log.push({ text, params, inTransaction });
      return sql.query(text, params);
    },
    exec: (script) => sql.exec(script),
    // What the service keeps it keeps here too: the storage work of a request as it runs.
    ...(sql.keep ? { keep: sql.keep } : {}),
    sequenceValues: sql.sequenceValues,
    ...(sql.rowHooks ? { rowHooks: sql.rowHooks } : {}),
  });
  return {
    ...wrap(db, false),
    kind: db.kind,
    transaction: <T>(work: (tx: Sql) => Promise<T>) =>
      db
        .transaction(async (tx) => {
          throw new RolledBack(await work(wrap(tx, true)));
        })
        .catch((error: unknown) => {
          if (error instanceof RolledBack) return error.value as T;
          throw error;
        }),
    listen: (channel, onNotify, onLost) => db.listen(channel, onNotify, onLost),
    onWrite: (listener) => db.onWrite(listener),
    close: () => db.close(),
  };
}

const dataDir = process.env.DATABASE_URL ? undefined : await mkdtemp(join(tmpdir(), 'invoicekit-bench-'));
const service = await startService({
  port: 0,
  dataDir,
  databaseUrl: process.env.DATABASE_URL || undefined,
  seed: process.env.BENCH_SEED !== '0',
  apiToken: process.env.BENCH_API_TOKEN,
  integrationToken: 'bench-integration-token',
});

/** Requests answered in-process through a recording database: what storage work does one request do? */
async function storageWork(request: { method: string; path: string; body?: string }): Promise<RecordedQuery[]> {
  const log: RecordedQuery[] = [];
  const app = createServiceApp({ db: recording(service.db, log), integrationToken: 'bench-integration-token', publicUrl: service.url });
  const send = async () => {
    const init: RequestInit = { method: request.method, headers: { 'content-type': 'application/json' } };
    if (request.body) init.body = request.body;
    const response = await app.request(request.path, init);
    if (response.status >= 300) throw new Error(`${request.method} ${request.path}: ${response.status} ${await response.text()}`);
    await response.arrayBuffer();
  };
  await send(); // warms whatever a steady-state request finds kept
  log.length = 0;
  await send();
  return [...log];
}

/** Replays recorded queries for `durationMs`; writes run in a transaction that is rolled back. */
async function replay(queries: RecordedQuery[], durationMs: number): Promise<{ msPerOp: number; queries: number; ops: number }> {
  const reads = queries.filter((q) => !q.inTransaction);
  const writes = queries.filter((q) => q.inTransaction);
  const once = async () => {
    for (const q of reads) await service.db.query(q.text, q.params);
    if (writes.length > 0) {
      await service.db
        .transaction(async (tx) => {
          for (const q of writes) await tx.query(q.text, q.params);
          throw new RolledBack(undefined);
        })
        .catch((error: unknown) => {
          if (!(error instanceof RolledBack)) throw error;
        });
    }
  };
  await once();
  let ops = 0;
  const start = performance.now();
  while (performance.now() - start < durationMs) {
    await once();
    ops += 1;
  }
  return { msPerOp: (performance.now() - start) / ops, queries: queries.length, ops };
}

process.on('message', (message: ServiceCommand) => {
  void (async () => {
    try {
      switch (message.type) {
        case 'storage': {
          const queries = await storageWork(message.request);
          const statements = queries.map(({ text, params }) => ({ text, params }));
          reply(message, { ...(await replay(queries, message.durationMs)), statements });
          break;
        }
        case 'render': {
          const { renderInvoicePdf } = await import('../../src/service/documents/pdf.js');
          const rows = await service.db.query<{ data: Parameters<typeof renderInvoicePdf>[0] }>(
            `select data from invoices where id = $1`,
            [message.invoiceId],
          );
          const times: number[] = [];
          for (let i = 0; i < message.count; i += 1) {
            const start = performance.now();
            await renderInvoicePdf(rows[0]!.data);
            times.push(performance.now() - start);
          }
          reply(message, { times });
          break;
        }
        case 'bulk':
          reply(message, await bulkInvoices(service.db, message.request as BulkRequest));
          break;
        case 'stop':
          await service.close();
          if (dataDir) await rm(dataDir, { recursive: true, force: true });
          reply(message, {});
          process.exit(0);
      }
    } catch (error) {
      reply(message, { error: String(error instanceof Error ? error.stack : error) });
    }
  })();
});

/**
 * The same service on a second port, on the same database, keeping no answers: what a read costs
 * when it cannot be kept (the first read after any write, and every read on PostgreSQL).
 */
const unkept = serve({
  fetch: createServiceApp({ db: { ...service.db, writeCount: undefined }, integrationToken: 'bench-integration-token', publicUrl: service.url }).fetch,
  port: 0,
  hostname: '127.0.0.1',
});
await new Promise((resolve) => unkept.once('listening', resolve));
const unkeptUrl = `http://127.0.0.1:${(unkept.address() as AddressInfo).port}`;

/**
 * With `BENCH_PORTAL_SECRET`, a BFF in this process as the embedded default runs it (`npm start`):
 * on its own port, calling the service in-process (`service.fetch`) instead of over a socket.
 */
let bffUrl: string | undefined;
if (process.env.BENCH_PORTAL_SECRET) {
  const { createBff } = await import('../../src/bff/index.js');
  const bff = createBff({
    serviceUrl: service.url,
    apiToken: service.apiToken,
    portalSecret: process.env.BENCH_PORTAL_SECRET,
    rateLimit: false,
    logger: false,
    serviceFetch: service.fetch,
    ...(service.writeCount ? { serviceWriteCount: service.writeCount } : {}),
  });
  const server = serve({ fetch: bff.fetch, port: 0, hostname: '127.0.0.1' });
  await new Promise((resolve) => server.once('listening', resolve));
  bffUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

process.send!({ type: 'ready', url: service.url, apiToken: service.apiToken, unkeptUrl, bffUrl });
