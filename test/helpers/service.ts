import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { startService, type RunningService } from '../../src/service/server.js';

export interface TestService extends RunningService {
  dataDir: string;
  stop(): Promise<void>;
}

/**
 * Starts the real service on 127.0.0.1 with an ephemeral port and a temp data dir. With
 * DATABASE_URL set it runs on that PostgreSQL server instead, in a schema of its own.
 */
export async function startTestService(options: { seed?: boolean; apiToken?: string } = {}): Promise<TestService> {
  const dataDir = await mkdtemp(join(tmpdir(), 'invoicekit-test-'));
  let databaseUrl: string | undefined;
  if (process.env.DATABASE_URL) {
    const schema = `t_${randomBytes(6).toString('hex')}`;
    const { default: pg } = await import('pg');
    const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await admin.connect();
    await admin.query(`create schema ${schema}`);
    await admin.end();
    const url = new URL(process.env.DATABASE_URL);
    url.searchParams.set('options', `-c search_path=${schema}`);
    databaseUrl = url.toString();
  }
  const service = await startService({
    port: 0,
    host: '127.0.0.1',
    dataDir,
    databaseUrl,
    seed: options.seed ?? false,
    apiToken: options.apiToken ?? `test-${randomBytes(12).toString('hex')}`,
    integrationToken: `integration-${randomBytes(8).toString('hex')}`,
  });
  return {
    ...service,
    dataDir,
    async stop() {
      await service.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
