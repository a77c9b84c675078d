import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresStores, redisStores, type BffStores } from '../../src/bff/index.js';
import { startTestRedis, type TestRedis } from '../helpers/redis.js';

/**
 * The shared stores against real servers: Redis always, PostgreSQL when DATABASE_URL names one
 * (`npm test` runs this file again under scripts/with-postgres.sh). Two store instances stand for
 * two BFF processes: each has its own connection, as separate processes would.
 */
const kinds: { name: string; open: (options: { idempotencyLockMs?: number }) => Promise<BffStores>; enabled: boolean }[] = [];
let redis: TestRedis | undefined;
const prefix = `t${randomBytes(4).toString('hex')}_`;
kinds.push({ name: 'redis', enabled: true, open: (options) => redisStores({ url: redis!.url, keyPrefix: prefix, ...options }) });
kinds.push({
  name: 'postgres',
  enabled: Boolean(process.env.DATABASE_URL),
  open: (options) => postgresStores({ url: process.env.DATABASE_URL!, tablePrefix: prefix, ...options }),
});

beforeAll(async () => {
  redis = await startTestRedis();
});
afterAll(async () => {
  await redis?.stop();
});

for (const kind of kinds) {
  describe.skipIf(!kind.enabled)(`${kind.name} stores shared by two processes`, () => {
    let a: BffStores;
    let b: BffStores;
    beforeAll(async () => {
      // The windows below run on the servers' own time (Redis's expiry, PostgreSQL's now()), which no
      // clock in the test can move. Each is a second or more, so the two requests a test makes inside
      // one fit with room to spare while the rest of the suite keeps the cores busy; 200 and 300 ms
      // left a stall of a few hundred milliseconds no room. The waits past them sleep and cost no CPU.
      [a, b] = await Promise.all([kind.open({ idempotencyLockMs: 2_000 }), kind.open({ idempotencyLockMs: 2_000 })]);
    });
    afterAll(async () => {
      await Promise.all([a?.close(), b?.close()]);
    });

    it('lets exactly one of 50 concurrent claims of a key through, and every waiter gets its answer', async () => {
      const key = `key-${randomBytes(6).toString('hex')}`;
      const claims = await Promise.all(Array.from({ length: 50 }, (_, i) => (i % 2 ? a : b).idempotency.claim(key, 'fp-1')));
      const owners = claims.filter((claim) => claim.state === 'claimed');
      expect(owners).toHaveLength(1);
      const owner = claims.indexOf(owners[0]!) % 2 ? a : b;
      const answer = { status: 201, body: { redirectUrl: 'https://pay.example/1', amount: '58.32' } };
      await owner.idempotency.complete(key, answer);
      const waited = await Promise.all(claims.map((claim) => (claim.state === 'in-flight' ? claim.settled : Promise.resolve(answer))));
      expect(waited).toEqual(claims.map(() => answer));
      const again = await a.idempotency.claim(key, 'fp-1');
      expect(again).toEqual({ state: 'done', fingerprint: 'fp-1', answer });
      const other = await b.idempotency.claim(key, 'fp-2');
      expect(other.state === 'done' && other.fingerprint).toBe('fp-1');
    });

    it('gives a released key to the next claim, and waiters learn it is free', async () => {
      const key = `key-${randomBytes(6).toString('hex')}`;
      expect((await a.idempotency.claim(key, 'fp')).state).toBe('claimed');
      const waiter = await b.idempotency.claim(key, 'fp');
      expect(waiter.state).toBe('in-flight');
      await a.idempotency.release(key);
      expect(waiter.state === 'in-flight' && (await waiter.settled)).toBeUndefined();
      expect((await b.idempotency.claim(key, 'fp')).state).toBe('claimed');
      await b.idempotency.release(key);
    });

    it('frees a key whose owner died once its lock runs out', async () => {
      const key = `key-${randomBytes(6).toString('hex')}`;
      expect((await a.idempotency.claim(key, 'fp')).state).toBe('claimed');
      expect((await b.idempotency.claim(key, 'fp')).state).toBe('in-flight');
      await new Promise((resolve) => setTimeout(resolve, 2_300));
      expect((await b.idempotency.claim(key, 'fp')).state).toBe('claimed');
      // The first owner comes back late: its answer must not overwrite the new owner's claim.
      await a.idempotency.complete(key, { status: 500, body: {} });
      const after = await a.idempotency.claim(key, 'fp');
      expect(after.state).toBe('in-flight');
      await b.idempotency.complete(key, { status: 201, body: { ok: true } });
      expect(await a.idempotency.claim(key, 'fp')).toEqual({ state: 'done', fingerprint: 'fp', answer: { status: 201, body: { ok: true } } });
    });

    it('counts one rate-limit window across both', async () => {
      const key = `ip:${randomBytes(4).toString('hex')}`;
      const hits = await Promise.all(Array.from({ length: 40 }, (_, i) => (i % 2 ? a : b).rateLimit.hit(key, 60_000)));
      expect(hits.map((hit) => hit.count).sort((x, y) => x - y)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
      for (const hit of hits) {
        expect(hit.resetAt).toBeGreaterThan(Date.now());
        expect(hit.resetAt).toBeLessThanOrEqual(Date.now() + 61_000);
      }
      const short = `ip:${randomBytes(4).toString('hex')}`;
      expect((await a.rateLimit.hit(short, 1_000)).count).toBe(1);
      expect((await b.rateLimit.hit(short, 1_000)).count).toBe(2);
      await new Promise((resolve) => setTimeout(resolve, 1_100));
      expect((await b.rateLimit.hit(short, 1_000)).count).toBe(1);
    });

    it('shares cached values, null included, until they expire or are deleted', async () => {
      const key = `product:${randomBytes(4).toString('hex')}`;
      expect(await a.cache.get(key)).toBeUndefined();
      await a.cache.set(key, { id: 7, price_gross: '12.30' }, 60_000);
      expect(await b.cache.get(key)).toEqual({ id: 7, price_gross: '12.30' });
      await b.cache.delete(key);
      expect(await a.cache.get(key)).toBeUndefined();
      await a.cache.set(key, null, 1_000);
      expect(await b.cache.get(key)).toBeNull();
      await new Promise((resolve) => setTimeout(resolve, 1_100));
      expect(await b.cache.get(key)).toBeUndefined();
    });

    it('answers ping', async () => {
      await expect(a.ping()).resolves.toBeUndefined();
    });
  });
}
