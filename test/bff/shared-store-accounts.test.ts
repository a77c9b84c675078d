import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BffStores, postgresStores, redisStores } from '../../src/bff/index.js';
import { bffAccountId } from '../../src/bff/stores/account-scope.js';
import { secondAccount } from '../helpers/http.js';
import { startTestRedis, type TestRedis } from '../helpers/redis.js';
import { startTestService, type TestService } from '../helpers/service.js';
import { json, SHOP_ORIGIN, startTestBff, type TestBff } from './support.js';

/**
 * Two shops (two accounts of one service), each with its own BFF, sharing one Redis, and one
 * PostgreSQL when DATABASE_URL names one: neither ever sees the other's entries.
 */
const kinds: { name: string; open: () => Promise<BffStores>; enabled: boolean }[] = [];
let redis: TestRedis | undefined;
const prefix = `t${randomBytes(4).toString('hex')}_`;
kinds.push({ name: 'Redis', enabled: true, open: () => redisStores({ url: redis!.url, keyPrefix: prefix }) });
kinds.push({ name: 'PostgreSQL', enabled: Boolean(process.env.DATABASE_URL), open: () => postgresStores({ url: process.env.DATABASE_URL!, tablePrefix: prefix }) });

let service: TestService;
let tokenB: string;

beforeAll(async () => {
  [redis, service] = await Promise.all([startTestRedis(), startTestService()]);
  const shopB = await secondAccount(service, 'shop-b');
  tokenB = shopB.token;
  const product = (name: string, price_gross: string) => ({ product: { name, price_gross, tax: '23', token: 'same-token' } });
  const created = await Promise.all([
    fetch(`${service.url}/products.json`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ api_token: service.apiToken, ...product('Shop A e-book', '123.00') }) }),
    shopB.post('/products.json', product('Shop B course', '246.00')),
  ]);
  expect([created[0].status, created[1].status]).toEqual([201, 201]);
});
afterAll(async () => {
  await service?.stop();
  await redis?.stop();
});

for (const kind of kinds) {
  describe.skipIf(!kind.enabled)(`two accounts' BFFs sharing ${kind.name}`, () => {
    let bffA: TestBff;
    let bffB: TestBff;
    beforeAll(async () => {
      const [storesA, storesB] = await Promise.all([kind.open(), kind.open()]);
      [bffA, bffB] = await Promise.all([
        startTestBff(service, { stores: storesA, productCacheMs: 60_000 }),
        startTestBff(service, { apiToken: tokenB, stores: storesB, productCacheMs: 60_000 }),
      ]);
    });
    afterAll(async () => {
      await Promise.all([bffA?.close(), bffB?.close()]);
    });

    it('each answers its own account’s product for the same token, though the other kept its own first', async () => {
      const productOf = async (bff: TestBff) => json(await fetch(`${bff.base}/products/same-token`, { headers: { origin: SHOP_ORIGIN } }));
      expect(await productOf(bffA)).toMatchObject({ name: 'Shop A e-book', price_gross: '123.0' });
      expect(await productOf(bffB)).toMatchObject({ name: 'Shop B course', price_gross: '246.0' });
      // Both kept now: each still answers its own.
      expect(await productOf(bffA)).toMatchObject({ name: 'Shop A e-book' });
      expect(await productOf(bffB)).toMatchObject({ name: 'Shop B course' });
    });
  });
}

describe('the account a BFF names in its keys', () => {
  it('is the same for the same token whichever service process a BFF calls, another for another token, and tells nothing of the token', async () => {
    const a = await bffAccountId('token-of-a');
    expect(a).toMatch(/^[0-9a-f]{24}$/);
    expect(await bffAccountId('token-of-a')).toBe(a);
    expect(await bffAccountId('token-of-b')).not.toBe(a);
    expect(a).not.toContain('token');
  });
});
