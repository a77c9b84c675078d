import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type RegistryDoubles, startRegistryDoubles, WL_INTERNAL_ERROR } from '../../src/service/registries/doubles/index.js';
import { json, SHOP_ORIGIN, startService, startTestBff, type Service, type TestBff } from './support.js';

/** The BFF's company lookup over real HTTP, against the stand-ins of the white list and VIES. */
const NOW = new Date('2026-11-28T12:00:00.000Z');
let doubles: RegistryDoubles;
let service: Service;
let bff: TestBff;

beforeAll(async () => {
  doubles = await startRegistryDoubles({ clock: () => NOW });
  ({ service } = await startService());
  bff = await startTestBff(service, {
    registries: {
      nbpApiUrl: doubles.nbpApiUrl,
      viesApiUrl: doubles.viesApiUrl,
      mfWhitelistUrl: doubles.mfWhitelistUrl,
      clock: () => NOW,
      lookupRateLimit: { limit: 8, windowMs: 60_000 },
    },
  });
}, 60_000);
afterAll(async () => {
  await bff?.close();
  await service?.stop();
  await doubles?.close();
});
beforeEach(() => {
  doubles.vies.recover();
  doubles.whitelist.recover();
});

const lookup = (path: string) => fetch(`${bff.base}/company/${path}`, { headers: { origin: SHOP_ORIGIN } });

describe('GET /bff/company/:country/:tax_no', () => {
  it('fills a Polish company from the white list and an EU company from VIES', async () => {
    const polish = await lookup('PL/586-123-45-64');
    expect(polish.status).toBe(200);
    expect(polish.headers.get('access-control-allow-origin')).toBe(SHOP_ORIGIN);
    expect(polish.headers.get('ratelimit-limit')).toBe('8');
    expect(await json(polish)).toEqual({
      name: 'BAŁTYK LOGISTYKA SPÓŁKA AKCYJNA',
      street: 'UL. PORTOWA 12 LOK. 4',
      post_code: '81-350',
      city: 'GDYNIA',
      country: 'PL',
      tax_no: '5861234564',
      vat_active: true,
    });
    const czech = await lookup('cz/CZ28123450');
    expect(await json(czech)).toEqual({
      name: 'VLTAVA DATA s.r.o.',
      street: 'Václavské náměstí 1, NOVÉ MĚSTO',
      post_code: '110 00',
      city: 'PRAHA 1',
      country: 'CZ',
      tax_no: 'CZ28123450',
      vat_active: true,
    });
  });

  it('answers 404 for a number no register knows and 422 naming the field for a malformed one', async () => {
    const unknown = await lookup('PL/5260250274');
    expect(unknown.status).toBe(404);
    expect(await json(unknown)).toEqual({ error: { code: 'not_found', message: 'No company with this tax number.' } });
    const malformed = await lookup('PL/123');
    expect(malformed.status).toBe(422);
    expect(await json(malformed)).toEqual({ error: { code: 'validation_failed', message: 'Some fields are not valid.', fields: { tax_no: ['is not a valid NIP'] } } });
    const outside = await lookup('CH/CHE123456789');
    expect(await json(outside)).toEqual({ error: { code: 'validation_failed', message: 'Some fields are not valid.', fields: { country: ['is not a member state of the EU'] } } });
  });

  it('answers 503 with Retry-After when the register cannot answer, and logs which one', async () => {
    doubles.whitelist.fail({ kind: 'answer', status: 500, body: WL_INTERNAL_ERROR });
    const down = await lookup('PL/6771234561');
    expect(down.status).toBe(503);
    expect(down.headers.get('retry-after')).toBe('60');
    expect(await json(down)).toEqual({ error: { code: 'service_busy', message: 'The VAT register cannot answer now. Try again later.' } });
    expect(bff.logs.find((entry) => entry.msg === 'register unavailable')).toMatchObject({ level: 'warn', call: 'whitelist', error: 'WL-100' });
  });

  it('limits lookups per address, counting only those that reach a register', async () => {
    // The tests above made four such lookups of the eight a minute; the malformed ones were not counted.
    const statuses: number[] = [];
    for (let i = 0; i < 6; i += 1) statuses.push((await lookup('BE/BE0412345614')).status);
    expect(statuses).toEqual([200, 200, 200, 200, 429, 429]);
  });
});
