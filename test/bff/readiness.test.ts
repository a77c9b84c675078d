import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redisStores, startBff, type BffStores, type RunningBff } from '../../src/bff/index.js';
import { startTestRedis, type TestRedis } from '../helpers/redis.js';
import { startTestService, type TestService } from '../helpers/service.js';

describe('health and readiness', () => {
  let service: TestService;
  let redis: TestRedis;
  let stores: BffStores;
  let bff: RunningBff;
  let draining = false;

  beforeAll(async () => {
    [service, redis] = await Promise.all([startTestService(), startTestRedis()]);
    stores = await redisStores({ url: redis.url, onError: () => undefined });
    bff = await startBff({
      serviceUrl: service.url,
      apiToken: service.apiToken,
      portalSecret: 'a-portal-secret-of-at-least-32-characters',
      stores,
      logger: false,
      draining: () => draining,
    });
  });
  afterAll(async () => {
    await bff?.close();
    await stores?.close().catch(() => undefined);
    await redis?.stop();
    await service?.stop();
  });

  it('the service is alive and ready while its database answers', async () => {
    const alive = await fetch(`${service.url}/healthz`);
    expect(alive.status).toBe(200);
    expect(await alive.json()).toEqual({ status: 'ok' });
    const ready = await fetch(`${service.url}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ready', database: service.db.kind });
    expect(ready.headers.get('cache-control')).toBe('no-store');
  });

  it('the BFF is ready while Redis answers and not while it drains or Redis is gone', async () => {
    for (const path of ['/healthz', '/bff/healthz']) expect(await (await fetch(`${bff.url}${path}`)).json()).toEqual({ status: 'ok' });
    const ready = await fetch(`${bff.url}/bff/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ready', stores: 'redis' });

    draining = true;
    expect((await fetch(`${bff.url}/readyz`)).status).toBe(503);
    draining = false;
    expect((await fetch(`${bff.url}/readyz`)).status).toBe(200);

    await redis.stop();
    const down = await fetch(`${bff.url}/bff/readyz`);
    expect(down.status).toBe(503);
    expect(await down.json()).toMatchObject({ error: { code: 'unavailable' } });
    // Liveness does not depend on Redis: the process is fine, only not ready.
    expect((await fetch(`${bff.url}/bff/healthz`)).status).toBe(200);
  });
});
