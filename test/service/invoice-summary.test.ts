import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../helpers/service.js';
import { api, type Api } from '../helpers/http.js';

let service: TestService;
let http: Api;
let clientId: number;
let otherClientId: number;
const ids: Record<string, number> = {};

beforeAll(async () => {
  service = await startTestService();
  http = api(service);
  clientId = (await http.post('/clients.json', { client: { name: 'Orbit Ltd', tax_no: '' } })).body.id;
  otherClientId = (await http.post('/clients.json', { client: { name: 'Nadir GmbH' } })).body.id;
  const specs: [string, Record<string, unknown>][] = [
    ['S-PAID', { total: '100.00', status: 'paid' }],
    ['S-PARTIAL', { total: '250.50', status: 'partial', paid: '40.10', payment_to: '2099-12-31' }],
    ['S-PARTIAL-LATE', { total: '80.00', status: 'partial', paid: '30.00', payment_to: '2020-03-01' }],
    ['S-OPEN', { total: '75.00', payment_to: '2099-12-31' }],
    ['S-LATE', { total: '999.99', payment_to: '2020-02-01' }],
    ['S-REJECTED', { total: '10.00', status: 'rejected', payment_to: '2020-02-01' }],
    ['S-EUR', { total: '0.10', currency: 'EUR', payment_to: '2020-02-01' }],
    ['S-EUR2', { total: '0.20', currency: 'EUR', payment_to: '2020-02-01' }],
    ['S-JPY', { total: '1500', currency: 'JPY', payment_to: '2099-12-31' }],
  ];
  for (const [number, spec] of specs) {
    const { total, ...rest } = spec;
    const reply = await http.post('/invoices.json', {
      invoice: {
        number, client_id: clientId, issue_date: '2026-01-10', payment_to_kind: 'other_date', payment_to: '2026-01-24', currency: 'PLN',
        positions: [{ name: 'Work', tax: 23, quantity: 1, total_price_gross: total }], ...rest,
      },
    });
    expect(reply.status, reply.text).toBe(201);
    ids[number] = reply.body.id;
  }
  await http.post('/invoices.json', {
    invoice: { number: 'N-OTHER', client_id: otherClientId, payment_to: '2020-01-01', positions: [{ name: 'Work', tax: 23, quantity: 1, total_price_gross: '5' }] },
  });
}, 60_000);
afterAll(() => service.stop());

async function numbers(query: Record<string, string | number>): Promise<string[]> {
  const reply = await http.get('/invoices.json', { client_id: clientId, per_page: 100, order: 'number', ...query });
  expect(reply.status, reply.text).toBe(200);
  return reply.body.map((invoice: { number: string }) => invoice.number).sort();
}

describe('payment filters of GET /invoices (extension)', () => {
  it('status=outstanding is everything with money still due, overdue and partly paid included', async () => {
    expect(await numbers({ status: 'outstanding' })).toEqual(['S-EUR', 'S-EUR2', 'S-JPY', 'S-LATE', 'S-OPEN', 'S-PARTIAL', 'S-PARTIAL-LATE']);
  });

  it('status=overdue is what is due before today, or before the given day', async () => {
    expect(await numbers({ status: 'overdue' })).toEqual(['S-EUR', 'S-EUR2', 'S-LATE', 'S-PARTIAL-LATE']);
    expect(await numbers({ status: 'overdue', today: '2020-02-15' })).toEqual(['S-EUR', 'S-EUR2', 'S-LATE']);
  });

  it('status=unpaid has nothing paid yet; status=active leaves out only rejected invoices', async () => {
    expect(await numbers({ status: 'unpaid' })).toEqual(['S-EUR', 'S-EUR2', 'S-JPY', 'S-LATE', 'S-OPEN']);
    expect(await numbers({ status: 'active' })).not.toContain('S-REJECTED');
    expect((await numbers({ status: 'active' })).length).toBe(8);
    expect(await numbers({ status: 'rejected' })).toEqual(['S-REJECTED']);
  });

  it('pages and orders a filtered list in the service', async () => {
    const page = await http.get('/invoices.json', { client_id: clientId, status: 'outstanding', order: 'price_gross.desc', per_page: 2, page: 2 });
    expect(page.body.map((invoice: { number: string }) => invoice.number)).toEqual(['S-PARTIAL', 'S-PARTIAL-LATE']);
  });

  it('refuses an unknown status or a bad day with 422 naming the field', async () => {
    for (const [query, field] of [[{ status: 'owing' }, 'status'], [{ status: 'overdue', today: '2026-02-30' }, 'today']] as const) {
      const reply = await http.get('/invoices.json', query);
      expect(reply.status).toBe(422);
      expect(reply.body.code).toBe('error');
      expect(Object.keys(reply.body.message)).toEqual([field]);
    }
  });
});

describe('GET /invoices/summary (extension)', () => {
  it('sums what is due and overdue per currency, exactly, with counts', async () => {
    const reply = await http.get('/invoices/summary.json', { client_id: clientId, status: 'active' });
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body.count).toBe(8);
    expect(reply.body.currencies).toEqual([
      { currency: 'EUR', count: 2, outstanding: '0.30', outstanding_count: 2, overdue: '0.30', overdue_count: 2 },
      { currency: 'JPY', count: 1, outstanding: '1500', outstanding_count: 1, overdue: '0', overdue_count: 0 },
      { currency: 'PLN', count: 5, outstanding: '1335.39', outstanding_count: 4, overdue: '1049.99', overdue_count: 2 },
    ]);
  });

  it('counts what the list filters select, and only the client asked for', async () => {
    expect((await http.get('/invoices/summary.json', { client_id: clientId, status: 'overdue' })).body.count).toBe(4);
    expect((await http.get('/invoices/summary.json', { client_id: clientId, number_contains: 'S-EUR' })).body.count).toBe(2);
    const other = await http.get('/invoices/summary.json', { client_id: otherClientId });
    expect(other.body.currencies).toEqual([{ currency: 'PLN', count: 1, outstanding: '5.00', outstanding_count: 1, overdue: '5.00', overdue_count: 1 }]);
    expect((await http.get('/invoices/summary.json', { client_id: 987654 })).body).toMatchObject({ count: 0, currencies: [] });
  });

  it('answers in XML too, needs the api_token, and is not taken for an invoice id', async () => {
    const xml = await http.get('/invoices/summary.xml', { client_id: otherClientId });
    expect(xml.status, xml.text).toBe(200);
    expect(xml.body.count).toBe(1);
    expect((await http.get('/invoices/summary.json', {}, { token: null })).status).toBe(401);
    expect((await http.get('/invoices/summary.json', { status: 'owing' })).status).toBe(422);
  });

  it('follows a payment at once', async () => {
    await http.post(`/invoices/${ids['S-LATE']}/change_status.json`, { status: 'paid' });
    const pln = (await http.get('/invoices/summary.json', { client_id: clientId, status: 'active' })).body.currencies.find((c: { currency: string }) => c.currency === 'PLN');
    expect(pln).toMatchObject({ outstanding: '335.40', outstanding_count: 3, overdue: '50.00', overdue_count: 1 });
    const withList = await http.get('/invoices.json', { client_id: clientId, status: 'active', per_page: 2, summary: 'true' });
    expect(JSON.parse(withList.headers.get('x-invoicekit-summary')!).currencies).toContainEqual({ currency: 'PLN', count: 5, ...pln });
  });
});

describe('GET /invoices?summary=true (extension): the page and its summary in one answer', () => {
  const summaryOf = (reply: { headers: Headers }) => JSON.parse(reply.headers.get('x-invoicekit-summary') ?? 'null');

  it('answers the same page, and the summary of the same query in a header', async () => {
    const query = { client_id: clientId, status: 'outstanding', per_page: 3, order: 'number', today: '2026-11-24' };
    const page = await http.get('/invoices.json', { ...query, summary: 'true', fields: 'number,price_gross' });
    expect(page.status, page.text).toBe(200);
    const plain = await http.get('/invoices.json', { ...query, fields: 'number,price_gross' });
    expect(page.body).toHaveLength(3);
    expect(page.body).toEqual(plain.body);
    expect(Object.keys(page.body[0]).sort()).toEqual(['id', 'number', 'price_gross']);
    const alone = await http.get('/invoices/summary.json', query);
    expect(summaryOf(page)).toEqual(alone.body);
    expect(summaryOf(page).count).toBe(6);
    // The whole summary, whatever the page: count and totals are of the query, not of the page.
    expect(summaryOf(await http.get('/invoices.json', { ...query, page: 3, summary: 'true' }))).toEqual(alone.body);
  });

  it('sends no header unless asked, and refuses a value that is not a yes or a no', async () => {
    expect((await http.get('/invoices.json', { client_id: clientId })).headers.get('x-invoicekit-summary')).toBeNull();
    expect((await http.get('/invoices.json', { client_id: clientId, summary: 'false' })).headers.get('x-invoicekit-summary')).toBeNull();
    const bad = await http.get('/invoices.json', { client_id: clientId, summary: 'maybe' });
    expect(bad.status).toBe(422);
    expect(bad.body.message).toHaveProperty('summary');
    expect(bad.headers.get('x-invoicekit-summary')).toBeNull();
    expect((await http.get('/invoices.json', { summary: 'true' }, { token: null })).status).toBe(401);
  });

  it('follows every write at once: a new invoice, an edit and a payment show on the next read', async () => {
    const query = { client_id: otherClientId, status: 'active', summary: 'true' };
    const before = await http.get('/invoices.json', query);
    expect(summaryOf(before).currencies).toEqual([{ currency: 'PLN', count: 1, outstanding: '5.00', outstanding_count: 1, overdue: '5.00', overdue_count: 1 }]);
    const created = await http.post('/invoices.json', {
      invoice: { number: 'N-NEW', client_id: otherClientId, payment_to: '2099-01-01', positions: [{ name: 'Work', tax: 23, quantity: 1, total_price_gross: '20.00' }] },
    });
    expect(created.status, created.text).toBe(201);
    const afterCreate = await http.get('/invoices.json', query);
    expect(afterCreate.body.map((invoice: { number: string }) => invoice.number).sort()).toEqual(['N-NEW', 'N-OTHER']);
    expect(summaryOf(afterCreate).currencies[0]).toMatchObject({ count: 2, outstanding: '25.00', outstanding_count: 2, overdue: '5.00' });
    const edited = await http.put(`/invoices/${created.body.id}.json`, { invoice: { positions: [{ id: created.body.positions[0].id, _destroy: 1 }, { name: 'Work', tax: 23, quantity: 1, total_price_gross: '30.00' }] } });
    expect(edited.status, edited.text).toBe(200);
    expect(summaryOf(await http.get('/invoices.json', query)).currencies[0]).toMatchObject({ outstanding: '35.00' });
    await http.post(`/invoices/${created.body.id}/change_status.json`, { status: 'paid' });
    const afterPayment = await http.get('/invoices.json', query);
    expect(afterPayment.body.find((invoice: { number: string }) => invoice.number === 'N-NEW').status).toBe('paid');
    expect(summaryOf(afterPayment).currencies[0]).toMatchObject({ count: 2, outstanding: '5.00', outstanding_count: 1 });
  });
});
