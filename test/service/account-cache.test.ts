import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type RunningService } from '../../src/service/server.js';
import { startTestService, type TestService } from '../helpers/service.js';
import type { Sql } from '../../src/service/db.js';
import { openSecret, tokenHash } from '../../src/service/secrets/keyring.js';
import { storedToken } from '../../src/service/secrets/stored.js';

/** Replaces an account's api_token in the database, as an operator's SQL would: sealed, with its lookup hash. */
async function changeToken(sql: Sql, current: string, next: string): Promise<void> {
  const stored = storedToken(next);
  await sql.query(`update accounts set api_token = $1, api_token_hash = $2 where api_token_hash = $3`, [stored.sealed, stored.hash, tokenHash(current)]);
}

/**
 * Accounts are kept by token between requests (see docs/decisions/service-speed.md): a changed or
 * revoked token must stop working at once in the process that changed it, and in every other
 * process on the same PostgreSQL server as soon as the change notification arrives.
 */
describe('accounts kept by token', () => {
  let service: TestService;
  let other: RunningService | undefined;

  beforeAll(async () => {
    service = await startTestService();
    // A second process on the same database: another pool, another cache, another listener.
    if (service.databaseUrl) other = await startService({ port: 0, databaseUrl: service.databaseUrl, integrationToken: service.integrationToken });
  });
  afterAll(async () => {
    await other?.close();
    await service.stop();
  });

  const status = async (base: string, token: string) => (await fetch(`${base}/products.json?api_token=${token}`)).status;

  it('stops taking a token the moment it changes, and takes the new one', async () => {
    // Several rounds, each answered from the cache just before the change: the change's own
    // notification may reach this process after the next request, and must not be needed.
    let current = service.apiToken;
    for (let round = 0; round < 20; round += 1) {
      expect(await status(service.url, current)).toBe(200);
      expect(await status(service.url, current)).toBe(200);
      const next = `changed-${randomBytes(8).toString('hex')}`;
      await changeToken(service.db, current, next);
      expect(await status(service.url, current)).toBe(401);
      expect(await status(service.url, next)).toBe(200);
      current = next;
    }
  });

  it('stops taking a token the moment a transaction that changed it commits', async () => {
    const current = openSecret((await service.db.query<{ api_token: string }>(`select api_token from accounts order by id limit 1`))[0]!.api_token);
    expect(await status(service.url, current)).toBe(200);
    const next = `committed-${randomBytes(8).toString('hex')}`;
    await service.db.transaction(async (tx) => {
      await changeToken(tx, current, next);
      // Not yet committed: on PostgreSQL other connections still read the old token, and what is
      // read now must not be kept past the commit. (PGlite runs one transaction at a time: a
      // request would wait for this one.)
      if (service.db.kind === 'postgres') expect(await status(service.url, current)).toBe(200);
    });
    expect(await status(service.url, current)).toBe(401);
    expect(await status(service.url, next)).toBe(200);
  });

  it.runIf(process.env.DATABASE_URL)('stops taking a changed token in another process once notified', async () => {
    const current = openSecret((await service.db.query<{ api_token: string }>(`select api_token from accounts order by id limit 1`))[0]!.api_token);
    expect(await status(other!.url, current)).toBe(200);
    const next = `moved-${randomBytes(8).toString('hex')}`;
    await changeToken(service.db, current, next);
    const deadline = Date.now() + 5000;
    let answer = await status(other!.url, current);
    while (answer !== 401 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      answer = await status(other!.url, current);
    }
    expect(answer).toBe(401);
    expect(await status(other!.url, next)).toBe(200);
  });
});
