import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type RegistryDoubles, startRegistryDoubles, viesErrorBody, WL_INTERNAL_ERROR } from '../../src/service/registries/doubles/index.js';
import { startTestService, type TestService } from '../helpers/service.js';

/**
 * The widget's company lookup over real HTTP, against the stand-ins of the white list and VIES.
 * The rate limit test runs last: it spends this address's lookup budget.
 */
const NOW = new Date('2026-11-28T12:00:00.000Z');
let doubles: RegistryDoubles;
let service: TestService;

beforeAll(async () => {
  doubles = await startRegistryDoubles({ clock: () => NOW });
  service = await startTestService({
    clock: () => NOW,
    registries: { nbpApiUrl: doubles.nbpApiUrl, viesApiUrl: doubles.viesApiUrl, mfWhitelistUrl: doubles.mfWhitelistUrl },
  });
});
afterAll(async () => {
  await service?.stop();
  await doubles?.close();
});
beforeEach(() => {
  doubles.vies.recover();
  doubles.whitelist.recover();
});

const lookup = (path: string) => fetch(`${service.url}/a/${service.prefix}/widget/company/${path}`, { headers: { origin: 'https://shop.example' } });

describe('GET /a/<prefix>/widget/company/<country>/<tax_no>', () => {
  it('fills a Polish company from the white list, whatever way its NIP is written', async () => {
    const response = await lookup('PL/PL%20677-123-45-61');
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.headers.get('cache-control')).toBe('public, max-age=300');
    expect(await response.json()).toEqual({
      name: 'KWADRAT SPÓŁKA Z OGRANICZONĄ ODPOWIEDZIALNOŚCIĄ',
      street: 'UL. FLORIAŃSKA 3/5',
      post_code: '31-019',
      city: 'KRAKÓW',
      country: 'PL',
      tax_no: '6771234561',
      vat_active: true,
    });
    expect(doubles.whitelist.searches.at(-1)).toBe('6771234561');
    expect(await (await lookup('pl/8981234568.json')).json()).toMatchObject({ name: 'PIEKARNIA ZŁOTY KŁOS JAN NOWAK', vat_active: false });
  });

  it('asks the register once for a company asked for again within the hour', async () => {
    const searches = doubles.whitelist.searches.length;
    expect((await lookup('PL/6771234561')).status).toBe(200);
    expect(doubles.whitelist.searches.length).toBe(searches);
  });

  it('fills an EU company from VIES', async () => {
    const response = await lookup('FR/FR19812345676');
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      name: 'ATELIER LUMIERE SARL',
      street: '12 RUE DE LA PAIX',
      post_code: '75002',
      city: 'PARIS',
      country: 'FR',
      tax_no: 'FR19812345676',
      vat_active: true,
    });
  });

  it('answers 404 with the reference body for a number no register knows', async () => {
    for (const path of ['PL/5260250274', 'DE/DE129273398']) {
      const response = await lookup(path);
      expect(response.status).toBe(404);
      expect(await response.json()).toEqual({ code: 'error', message: 'No company with this tax number' });
    }
    const stranger = await fetch(`${service.url}/a/no-such-shop/widget/company/PL/6771234561`);
    expect(stranger.status).toBe(404);
  });

  it('answers 422 naming the field for a malformed number or a country outside the EU', async () => {
    const badNip = await lookup('PL/5260250275');
    expect(badNip.status).toBe(422);
    expect(await badNip.json()).toEqual({ code: 'error', message: { tax_no: ['is not a valid NIP'] } });
    const badVat = await lookup('DE/12345');
    expect(await badVat.json()).toEqual({ code: 'error', message: { tax_no: ['is not a valid VAT number of DE'] } });
    const badCountry = await lookup('US/123456789');
    expect(badCountry.status).toBe(422);
    expect(await badCountry.json()).toEqual({ code: 'error', message: { country: ['is not a member state of the EU'] } });
    const hostile = await lookup(`PL/${'9'.repeat(5000)}`);
    expect(hostile.status).toBe(422);
  });

  it('answers 503 with Retry-After when the register cannot answer', async () => {
    doubles.whitelist.fail({ kind: 'answer', status: 500, body: WL_INTERNAL_ERROR });
    const whitelistDown = await lookup('PL/5861234564');
    expect(whitelistDown.status).toBe(503);
    expect(whitelistDown.headers.get('retry-after')).toBe('60');
    expect(await whitelistDown.json()).toEqual({ code: 'error', message: 'The VAT register cannot answer now. Try again later.' });

    doubles.vies.makeUnavailable('AT');
    const memberStateDown = await lookup('AT/ATU12345675');
    doubles.vies.restore('AT');
    expect(memberStateDown.status).toBe(503);
    expect(await memberStateDown.json()).toEqual({ code: 'error', message: 'The VIES register cannot answer now. Try again later.' });

    // Longer than the outbound client waits between attempts: passed on to the caller at once.
    doubles.vies.fail({ kind: 'answer', status: 503, body: viesErrorBody('SERVICE_UNAVAILABLE'), headers: { 'retry-after': '30' } });
    const viesDown = await lookup('AT/ATU12345675');
    expect([viesDown.status, viesDown.headers.get('retry-after')]).toEqual([503, '30']);
  });

  it('limits lookups per address', async () => {
    let status = 0;
    let remaining: string | null = null;
    for (let i = 0; i < 40 && status !== 429; i += 1) {
      const response = await lookup('PL/6771234561');
      status = response.status;
      remaining = response.headers.get('ratelimit-remaining');
    }
    expect(status).toBe(429);
    expect(remaining).toBe('0');
  });
});
