import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json, SHOP_ORIGIN, startService, startTestBff, type Service, type TestBff } from './support.js';

/** The BFF's client check over real HTTP: the verdicts `<client-form>` shows at its fields. */
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

const check = (body: unknown, contentType = 'application/json') =>
  fetch(`${bff.base}/client-check`, { method: 'POST', headers: { origin: SHOP_ORIGIN, 'content-type': contentType }, body: typeof body === 'string' ? body : JSON.stringify(body) });
const invalid = (fields: Record<string, string[]>) => ({ error: { code: 'validation_failed', message: 'Some fields are not valid.', fields } });
const NOWAK = { company: true, name: 'Nowak Design Sp. z o.o.', tax_no: '525-244-57-67', email: 'faktury@nowak.example', phone: '+48 22 123 45 67', street: 'ul. Prosta 1', post_code: '00-950', city: 'Warszawa', country: 'PL', bank: 'mBank', bank_account: '61 1090 1014 0000 0712 1981 2874' };

describe('POST /bff/client-check', () => {
  it('answers no problem for a client the rules accept', async () => {
    const answer = await check(NOWAK);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('access-control-allow-origin')).toBe(SHOP_ORIGIN);
    expect(answer.headers.get('cache-control')).toBe('private, no-store');
    expect(answer.headers.get('ratelimit-limit')).toBe('120');
    expect(await json(answer)).toEqual({ problems: {} });
  });

  it('names each field’s problem as the rules do, with an example of the country’s post code', async () => {
    const cases: [change: Record<string, unknown>, answer: unknown][] = [
      [{ tax_no: '525-244-57-68' }, { problems: { tax_no: 'nip' } }],
      // The right shape, a check digit off by one: the EU VAT check digits.
      [{ country: 'DE', tax_no: 'DE136695977', post_code: '10115', bank_account: '' }, { problems: { tax_no: 'vat' } }],
      [{ country: 'DE', tax_no: '136695976', post_code: '10115', bank_account: 'DE89 3704 0044 0532 0130 00' }, { problems: {} }],
      [{ country: 'FR', tax_no: 'FR41303265045', post_code: '75001', bank_account: '' }, { problems: { tax_no: 'vat' } }],
      [{ country: 'US', tax_no: '12_3456789', post_code: '10001', bank_account: '' }, { problems: { tax_no: 'taxNo' } }],
      [{ post_code: '00950' }, { problems: { post_code: 'postCode' }, post_code_example: '00-950' }],
      [{ country: 'GB', tax_no: 'GB980780684', post_code: 'SW1A1AAA', bank_account: '' }, { problems: { post_code: 'postCode' }, post_code_example: 'SW1A 1AA' }],
      // A country without a known format: any letters and digits, and no example.
      [{ country: 'BR', tax_no: '12345678', post_code: '#1', bank_account: '' }, { problems: { post_code: 'postCode' } }],
      [{ country: 'XX' }, { problems: { country: 'country' } }],
      [{ country: 'Poland' }, { problems: { country: 'country' } }],
      [{ email: 'nowak@' }, { problems: { email: 'email' } }],
      [{ phone: 'call me' }, { problems: { phone: 'phone' } }],
      [{ bank_account: 'PL61109010140000071219812875' }, { problems: { bank_account: 'iban' } }],
      [{ tax_no: '' }, { problems: { tax_no: 'required' } }],
      [{ tax_no: '', company: false }, { problems: {} }],
      [{ name: '   ' }, { problems: { name: 'required' } }],
    ];
    const answers: [Record<string, unknown>, unknown][] = [];
    for (const [change] of cases) answers.push([change, await json(await check({ ...NOWAK, ...change }))]);
    expect(answers).toEqual(cases);
    // Only what is sent is checked: a blank form is only missing its name.
    expect(await json(await check({}))).toEqual({ problems: { name: 'required' } });
  });

  it('refuses what is no client: unknown fields, other types, over-long text, control characters, other bodies', async () => {
    const refused: [body: unknown, status: number, answer: unknown][] = [
      [{ ...NOWAK, kind: 'seller' }, 422, invalid({ kind: ['is not a known field'] })],
      [{ ...NOWAK, tax_no: 5252445767 }, 422, invalid({ tax_no: ['must be text'] })],
      [{ ...NOWAK, company: 'yes' }, 422, invalid({ company: ['must be true or false'] })],
      [{ ...NOWAK, tax_no: '1'.repeat(51) }, 422, invalid({ tax_no: ['is too long (maximum is 50 characters)'] })],
      [{ ...NOWAK, country: 'P'.repeat(101) }, 422, invalid({ country: ['is too long (maximum is 100 characters)'] })],
      [{ ...NOWAK, city: 'War\u0000szawa' }, 422, invalid({ city: ['must not contain NUL characters'] })],
      [[NOWAK], 422, invalid({ base: ['Invalid input: expected object, received array'] })],
      ['{"name":', 400, { error: { code: 'bad_request', message: 'The body is not valid JSON.' } }],
    ];
    const answers: [unknown, number, unknown][] = [];
    for (const [body] of refused) {
      const answer = await check(body);
      answers.push([body, answer.status, await json(answer)]);
    }
    expect(answers).toEqual(refused);
    const form = await check('name=Nowak', 'application/x-www-form-urlencoded');
    expect(form.status).toBe(415);
  });

  it('limits checks per address to 120 a minute', async () => {
    // Whatever the other tests asked first, the answer says how many are left.
    const first = await check(NOWAK);
    expect(first.status).toBe(200);
    const left = Number(first.headers.get('ratelimit-remaining'));
    expect(left).toBeGreaterThan(80);
    const statuses: number[] = [];
    for (let i = 0; i < left; i += 1) statuses.push((await check(NOWAK)).status);
    expect(statuses).toEqual(Array(left).fill(200));
    const refused = await check(NOWAK);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('ratelimit-remaining')).toBe('0');
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(await json(refused)).toEqual({ error: { code: 'rate_limited', message: 'Too many requests. Try again later.' } });
  });
});
