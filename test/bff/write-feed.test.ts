import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { followServiceWrites, isLoopbackUrl, type ServiceWriteFeed } from '../../src/bff/node-write-feed.js';
import { startService } from '../../src/service/server.js';
import { copyDataDir, startTestService, templateDataDir, type TestService } from '../helpers/service.js';

const run = promisify(execFile);
const ROOT = resolve(import.meta.dirname, '../..');

/**
 * `followServiceWrites`, the BFF's side of the service's write feed, against the real service on
 * loopback (PGlite; on PostgreSQL the service has no feed).
 */
describe.skipIf(process.env.DATABASE_URL)('following the service writes', () => {
  let service: TestService;
  let feed: ServiceWriteFeed;

  beforeAll(async () => {
    service = await startTestService();
    feed = followServiceWrites({ serviceUrl: service.url, apiToken: service.apiToken, retryMs: [20, 100] });
    expect(await feed.ready).toBe(true);
  }, 60_000);
  afterAll(async () => {
    feed?.close();
    await service?.stop();
  });

  it('reads a count written before it was asked, even one still in its socket', async () => {
    for (let i = 0; i < 20; i += 1) {
      const before = await feed.writeCount();
      expect(before).toMatch(/^[\w-]+\.\d+$/);
      // The write has moved the count and the service has put it in the socket; this process has
      // not read that socket yet. The count asked for now must be the new one.
      await service.db.exec('select 1');
      const after = await feed.writeCount();
      expect(after).not.toBe(before);
      // A write outside any account's request (this one) moves every account's count: as it began and as it ended.
      const [epoch, count] = before!.split('.');
      expect(after).toBe(`${epoch}.${Number(count) + 2}`);
    }
  });

  it('keeps a process alive until its first answer, and not after', async () => {
    // A script with nothing else to do: `await feed.ready` settles, then the process may end.
    const script = `import { followServiceWrites } from './src/bff/node-write-feed.ts';
const feed = followServiceWrites({ serviceUrl: ${JSON.stringify(service.url)}, apiToken: ${JSON.stringify(service.apiToken)} });
console.log(await feed.ready, await feed.writeCount());`;
    const { stdout } = await run(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: ROOT, timeout: 30_000 });
    expect(stdout.trim()).toMatch(/^true [\w-]+\.\d+$/);
  });

  it('knows no count without the account token, or from a service without the feed, and says so', async () => {
    const refused = followServiceWrites({ serviceUrl: service.url, apiToken: 'not-the-token', retryMs: [60_000, 60_000] });
    const absent = followServiceWrites({ serviceUrl: `${service.url}/no-feed-here`, apiToken: service.apiToken });
    try {
      expect(await refused.ready).toBe(false);
      expect(await absent.ready).toBe(false);
      expect(await refused.writeCount()).toBeUndefined();
      expect(await absent.writeCount()).toBeUndefined();
    } finally {
      refused.close();
      absent.close();
    }
  });

  it('knows no count once the service is gone, and follows the database opened again with a new epoch', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'invoicekit-feed-'));
    await copyDataDir(await templateDataDir(false), dataDir);
    const apiToken = 'feed-restart-token-0123456789';
    const first = await startService({ port: 0, host: '127.0.0.1', dataDir, apiToken, seed: false });
    const lost = followServiceWrites({ serviceUrl: first.url, apiToken, retryMs: [20, 100] });
    let second: Awaited<ReturnType<typeof startService>> | undefined;
    try {
      expect(await lost.ready).toBe(true);
      const before = (await lost.writeCount())!;
      await first.close();
      await vi.waitFor(async () => expect(await lost.writeCount()).toBeUndefined(), { timeout: 10_000 });
      // The same folder opened again on the same address: the count starts over, the epoch is new.
      second = await startService({ port: Number(new URL(first.url).port), host: '127.0.0.1', dataDir, apiToken, seed: false });
      await vi.waitFor(async () => expect(await lost.writeCount()).toMatch(/^[\w-]+\.\d+$/), { timeout: 10_000 });
      expect((await lost.writeCount())!.split('.')[0]).not.toBe(before.split('.')[0]);
    } finally {
      lost.close();
      await second?.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});

describe('which services are followed by default', () => {
  it('follows a service on this host only', () => {
    for (const url of ['http://127.0.0.1:8787', 'http://localhost:8787/', 'http://127.3.4.5', 'http://[::1]:8787']) expect(isLoopbackUrl(url)).toBe(true);
    for (const url of ['https://invoices.example.com', 'http://10.0.0.5:8787', 'http://[::ffff:10.0.0.5]', 'http://localhost.example.com']) expect(isLoopbackUrl(url)).toBe(false);
  });
});
