import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json, SHOP_ORIGIN, startService, startTestBff, type Service, type TestBff } from './support.js';

/** The BFF's tax number check over real HTTP: the verdict `<client-form>` shows for the check digits it does not carry. */
let service: Service;
let bff: TestBff;

beforeAll(async () => {
  ({ service } = await startService());
  bff = await startTestBff(service);
}, 60_000);
afterAll(async () => {
  await bff?.close();
  await service?.stop();
});

const check = (query: string) => fetch(`${bff.base}/tax-number?${query}`, { headers: { origin: SHOP_ORIGIN } });
const invalid = (field: string, message: string) => ({ error: { code: 'validation_failed', message: 'Some fields are not valid.', fields: { [field]: [message] } } });

describe('GET /bff/tax-number', () => {
  it('answers the full check’s problem with a tax number for its country, or none', async () => {
    const right = await check('country=DE&tax_no=DE136695976');
    expect(right.status).toBe(200);
    expect(right.headers.get('access-control-allow-origin')).toBe(SHOP_ORIGIN);
    expect(right.headers.get('cache-control')).toBe('private, max-age=86400');
    expect(right.headers.get('ratelimit-limit')).toBe('120');
    expect(await json(right)).toEqual({ problem: null });
    const cases: [query: string, problem: string | null][] = [
      // A German number whose last check digit is off by one: the right shape, the wrong digits.
      ['country=DE&tax_no=DE136695977', 'vat'],
      // Without its prefix, read as the client's country's own.
      ['country=AT&tax_no=U13585627', null],
      ['country=AT&tax_no=U13585628', 'vat'],
      ['country=FR&tax_no=FR 40 303 265 045', null],
      ['country=FR&tax_no=FR41303265045', 'vat'],
      ['country=ES&tax_no=ESA28015865', null],
      ['country=ES&tax_no=ESA28015866', 'vat'],
      // A NIP, with and without its prefix; a Polish company's bare number; no country at all.
      ['country=PL&tax_no=525-244-57-67', null],
      ['country=PL&tax_no=5252445768', 'nip'],
      ['tax_no=PL5252445768', 'nip'],
      ['country=&tax_no=IT00743110157', null],
      // Beyond the EU only the characters are checked.
      ['country=US&tax_no=12-3456789', null],
      ['country=US&tax_no=12_3456789', 'taxNo'],
      ['country=gb&tax_no=980780684', null],
    ];
    const answers: [string, string | null][] = [];
    for (const [query] of cases) answers.push([query, (await json(await check(query))).problem]);
    expect(answers).toEqual(cases);
  });

  it('refuses a country that is no ISO code, a missing number and one longer than a client keeps', async () => {
    const refused: [query: string, body: unknown][] = [
      ['country=XX&tax_no=DE136695976', invalid('country', 'must be a two-letter ISO 3166-1 country code')],
      ['country=Germany&tax_no=DE136695976', invalid('country', 'must be a two-letter ISO 3166-1 country code')],
      ['country=DE', invalid('tax_no', "can't be blank")],
      ['country=DE&tax_no=%20%20', invalid('tax_no', "can't be blank")],
      [`country=DE&tax_no=${'1'.repeat(51)}`, invalid('tax_no', 'is too long (maximum is 50 characters)')],
    ];
    for (const [query, body] of refused) {
      const answer = await check(query);
      expect([query, answer.status, await json(answer)]).toEqual([query, 422, body]);
    }
    // Fifty characters are still a number to check: NUL and all, it is only not one.
    expect(await json(await check(`country=DE&tax_no=${'%00'.repeat(50)}`))).toEqual({ problem: 'vat' });
  });

  it('limits checks per address to 120 a minute', async () => {
    // Whatever the other tests asked first, the answer says how many are left.
    const first = await check('country=DE&tax_no=DE136695976');
    expect(first.status).toBe(200);
    const left = Number(first.headers.get('ratelimit-remaining'));
    expect(left).toBeGreaterThan(90);
    const statuses: number[] = [];
    for (let i = 0; i < left; i += 1) statuses.push((await check('country=DE&tax_no=DE136695976')).status);
    expect(statuses).toEqual(Array(left).fill(200));
    const refused = await check('country=DE&tax_no=DE136695976');
    expect(refused.status).toBe(429);
    expect(refused.headers.get('ratelimit-remaining')).toBe('0');
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(await json(refused)).toEqual({ error: { code: 'rate_limited', message: 'Too many requests. Try again later.' } });
  });
});
