import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../helpers/service.js';
import { api, type Api, NOT_FOUND, numberPattern, today } from '../helpers/http.js';

let service: TestService;
let http: Api;
let department: { id: number; name: string; tax_no: string; bank_account: string };

beforeAll(async () => {
  service = await startTestService();
  http = api(service);
  department = (await http.get('/departments.json')).body[0];
});
afterAll(() => service.stop());

/** The invoice of the hosted service's documentation. */
const referenceInvoice = {
  invoice: {
    kind: 'vat',
    number: null,
    sell_date: '2013-01-16',
    issue_date: '2013-01-16',
    payment_to: '2013-01-23',
    seller_name: 'Seller SA',
    seller_tax_no: '5252445767',
    buyer_name: 'Client1 SA',
    buyer_tax_no: '5252445767',
    positions: [
      { name: 'Produkt A1', tax: 23, total_price_gross: 10.23, quantity: 1 },
      { name: 'Produkt A2', tax: 0, total_price_gross: 50, quantity: 2 },
    ],
  },
};

const line = (extra: Record<string, unknown> = {}) => ({ name: 'Consulting', tax: 23, total_price_gross: 123, quantity: 1, ...extra });

async function createInvoice(invoice: Record<string, unknown>) {
  const reply = await http.post('/invoices.json', { invoice: { buyer_name: 'Acme Ltd', positions: [line()], ...invoice } });
  expect(reply.status, reply.text).toBe(201);
  return reply.body;
}

describe('creating an invoice', () => {
  it('answers 201 with the number assigned and the reference amounts', async () => {
    const reply = await http.post('/invoices.json', referenceInvoice);
    expect(reply.status).toBe(201);
    expect(reply.headers.get('content-type')).toMatch(/^application\/json/);
    const invoice = reply.body;
    expect(invoice).toMatchObject({
      number: '1/01/2013',
      kind: 'vat',
      status: 'issued',
      issue_date: '2013-01-16',
      sell_date: '2013-01-16',
      payment_to: '2013-01-23',
      price_net: '58.32',
      price_tax: '1.91',
      price_gross: '60.23',
      paid: '0.0',
      currency: 'PLN',
      seller_name: 'Seller SA',
      seller_tax_no: '5252445767',
      buyer_name: 'Client1 SA',
      buyer_tax_no: '5252445767',
    });
    expect(typeof invoice.id).toBe('number');
    expect(invoice.positions).toHaveLength(2);
    expect(invoice.positions[0]).toMatchObject({
      name: 'Produkt A1',
      tax: '23',
      quantity: '1.0',
      price_net: '8.32',
      price_gross: '10.23',
      total_price_net: '8.32',
      total_price_tax: '1.91',
      total_price_gross: '10.23',
    });
    expect(invoice.positions[1]).toMatchObject({
      name: 'Produkt A2',
      tax: '0',
      quantity: '2.0',
      price_net: '25.0',
      price_gross: '25.0',
      total_price_net: '50.0',
      total_price_gross: '50.0',
    });

    const read = await http.get(`/invoices/${invoice.id}.json`);
    expect(read.status).toBe(200);
    expect(read.body).toEqual(invoice);
  });

  it('numbers per kind and month, N/MM/YYYY, and keeps a number the client chose', async () => {
    const second = await createInvoice({ issue_date: '2013-01-20' });
    expect(second.number).toBe('2/01/2013');
    const proforma = await createInvoice({ kind: 'proforma', issue_date: '2013-01-20' });
    expect(proforma.number).toBe('1/01/2013');
    const february = await createInvoice({ issue_date: '2013-02-01' });
    expect(february.number).toBe('1/02/2013');
    const chosen = await createInvoice({ number: 'FV/2013/777', issue_date: '2013-01-21' });
    expect(chosen.number).toBe('FV/2013/777');
    const taken = await http.post('/invoices.json', { invoice: { buyer_name: 'Acme Ltd', number: 'FV/2013/777', positions: [line()] } });
    expect(taken.status).toBe(422);
    expect(taken.body).toEqual({ code: 'error', message: { number: ['has already been taken'] } });
  });

  it('takes price_net or price_gross per unit and derives the rest', async () => {
    const invoice = await createInvoice({
      positions: [
        { name: 'Hours', tax: 23, price_net: '100', quantity: 3 },
        { name: 'Licence', tax: '8', price_gross: '54.00', quantity: 2 },
        { name: 'Comma', tax: 23, price_net: '59,00', quantity: '1' },
      ],
    });
    expect(invoice.positions.map((p: Record<string, string>) => [p.price_net, p.price_gross, p.total_price_net, p.total_price_gross])).toEqual([
      ['100.0', '123.0', '300.0', '369.0'],
      ['50.0', '54.0', '100.0', '108.0'],
      ['59.0', '72.57', '59.0', '72.57'],
    ]);
    expect(invoice).toMatchObject({ price_net: '459.0', price_tax: '90.57', price_gross: '549.57' });
  });

  it('rounds each position to the currency before summing, exactly', async () => {
    const invoice = await createInvoice({
      positions: [
        { name: 'A', tax: 23, price_net: '0.01', quantity: 3 },
        { name: 'B', tax: 23, price_net: '0.01', quantity: 3 },
        { name: 'C', tax: 'zw', total_price_gross: '0.1', quantity: 1 },
        { name: 'D', tax: 'np', total_price_gross: '0.2', quantity: 1 },
      ],
    });
    expect(invoice.positions.map((p: Record<string, string>) => [p.tax, p.total_price_net, p.total_price_gross])).toEqual([
      ['23', '0.03', '0.04'],
      ['23', '0.03', '0.04'],
      ['zw', '0.1', '0.1'],
      ['np', '0.2', '0.2'],
    ]);
    expect(invoice).toMatchObject({ price_net: '0.36', price_tax: '0.02', price_gross: '0.38' });
  });

  it('takes discount_percent off each net unit price with percent_unit', async () => {
    const invoice = await createInvoice({
      show_discount: true,
      discount_kind: 'percent_unit',
      positions: [{ name: 'Course', tax: 23, price_net: 100, quantity: 2, discount_percent: 10 }],
    });
    expect(invoice).toMatchObject({ show_discount: true, discount_kind: 'percent_unit', price_net: '180.0', price_tax: '41.4', price_gross: '221.4' });
    expect(invoice.positions[0]).toMatchObject({ discount_percent: '10.0', discount: '20.0', total_price_net: '180.0', total_price_gross: '221.4' });
  });

  it('takes discount off the position with amount', async () => {
    const invoice = await createInvoice({
      show_discount: true,
      discount_kind: 'amount',
      positions: [{ name: 'Box', tax: 23, price_gross: 50, quantity: 2, discount: 5 }],
    });
    expect(invoice).toMatchObject({ discount_kind: 'amount', price_gross: '95.0', price_net: '77.24', price_tax: '17.76' });
    expect(invoice.positions[0]).toMatchObject({ discount: '5.0', discount_percent: null, total_price_gross: '95.0' });
  });

  it('lists an invoice without positions exactly as a read answers it, less the positions', async () => {
    const invoice = await createInvoice({
      show_discount: true,
      discount_kind: 'amount',
      positions: [
        { name: 'Box', tax: 23, price_gross: 50, quantity: 2, discount: 5 },
        { name: 'Łódź delivery', tax: 8, price_gross: 20, quantity: 1 },
        { name: 'Lid', tax: 23, price_gross: 10, quantity: 3, discount: '2.50' },
      ],
    });
    const [listed] = (await http.get('/invoices.json', { period: 'all', invoice_ids: String(invoice.id) })).body;
    const read = (await http.get(`/invoices/${String(invoice.id)}.json`)).body;
    expect(listed).toMatchObject({ product_cache: 'Box, Łódź delivery, Lid', discount: '7.5' });
    expect(listed.positions).toBeUndefined();
    const { positions, descriptions, settlement_positions, recipients, issuers, ...withoutParts } = read;
    expect([positions, descriptions, settlement_positions, recipients, issuers].every(Array.isArray)).toBe(true);
    expect(listed).toEqual(withoutParts);
  });

  it('refuses a discount larger than the position', async () => {
    const reply = await http.post('/invoices.json', {
      invoice: { buyer_name: 'Acme Ltd', discount_kind: 'amount', positions: [{ name: 'Box', tax: 23, price_gross: 5, quantity: 1, discount: 6 }] },
    });
    expect(reply.status).toBe(422);
    expect(reply.body.code).toBe('error');
    expect(Object.keys(reply.body.message)).toEqual(['positions.0.total_price_gross']);
  });

  it('sets payment_to from payment_to_kind: days, other_date, off', async () => {
    const days = await createInvoice({ issue_date: '2026-01-30', payment_to_kind: 14 });
    expect(days).toMatchObject({ payment_to_kind: '14', payment_to: '2026-02-13' });
    const daysText = await createInvoice({ issue_date: '2024-02-20', payment_to_kind: '10' });
    expect(daysText).toMatchObject({ payment_to_kind: '10', payment_to: '2024-03-01' });
    const other = await createInvoice({ issue_date: '2026-01-30', payment_to_kind: 'other_date', payment_to: '2026-03-31' });
    expect(other).toMatchObject({ payment_to_kind: 'other_date', payment_to: '2026-03-31' });
    const off = await createInvoice({ issue_date: '2026-01-30', payment_to_kind: 'off', payment_to: '2026-03-31' });
    expect(off).toMatchObject({ payment_to_kind: 'off', payment_to: null });
    const bad = await http.post('/invoices.json', { invoice: { buyer_name: 'Acme', payment_to_kind: 'next_week', positions: [line()] } });
    expect(bad.status).toBe(422);
    expect(bad.body).toEqual({ code: 'error', message: { payment_to_kind: ['must be a number of days, other_date or off'] } });
  });

  it('uses the default department as the seller when seller data is omitted', async () => {
    const invoice = await createInvoice({});
    expect(invoice).toMatchObject({
      department_id: department.id,
      seller_name: department.name,
      seller_tax_no: department.tax_no,
      seller_bank_account: department.bank_account,
    });
  });

  it('never mixes the department address or bank into a seller the request names', async () => {
    const [first] = (await http.get('/invoices.json', { number: '1/01/2013', kind: 'vat' })).body;
    const reference = (await http.get(`/invoices/${first.id}.json`)).body;
    expect(reference).toMatchObject({
      seller_name: 'Seller SA',
      seller_tax_no: '5252445767',
      seller_street: null,
      seller_bank_account: null,
      department_id: null,
    });
    const sameSeller = await createInvoice({ seller_name: 'Our own name for it', seller_tax_no: department.tax_no });
    expect(sameSeller).toMatchObject({ department_id: department.id, seller_name: 'Our own name for it', seller_bank_account: department.bank_account });
  });

  it('matches the buyer to an existing client, or creates one', async () => {
    const client = await http.post('/clients.json', { client: { name: 'Matched Sp. z o.o.', tax_no: '521-301-72-28', email: 'ap@matched.example' } });
    expect(client.status).toBe(201);
    const byTaxNo = await createInvoice({ buyer_name: 'Matched (other spelling)', buyer_tax_no: '5213017228' });
    expect(byTaxNo.client_id).toBe(client.body.id);
    const byEmail = await createInvoice({ buyer_name: 'Someone at Matched', buyer_email: 'AP@matched.example' });
    expect(byEmail.client_id).toBe(client.body.id);
    const byName = await createInvoice({ buyer_name: 'matched sp. z o.o.' });
    expect(byName.client_id).toBe(client.body.id);

    const fresh = await createInvoice({ buyer_name: 'Brand New GmbH', buyer_tax_no: 'DE811569869', buyer_city: 'Berlin', buyer_email: 'new@brand.example' });
    expect(fresh.client_id).not.toBe(client.body.id);
    const created = await http.get(`/clients/${fresh.client_id}.json`);
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ name: 'Brand New GmbH', tax_no: 'DE811569869', city: 'Berlin', email: 'new@brand.example' });
    const again = await createInvoice({ buyer_name: 'Brand New GmbH', buyer_tax_no: 'DE811569869' });
    expect(again.client_id).toBe(fresh.client_id);
  });

  it('copies the buyer from client_id', async () => {
    const client = await http.post('/clients.json', { client: { name: 'Copied Ltd', tax_no: '123-456-32-18', city: 'Gdańsk', street: 'Długa 1', post_code: '80-831' } });
    const invoice = await createInvoice({ buyer_name: undefined, client_id: client.body.id });
    expect(invoice).toMatchObject({ client_id: client.body.id, buyer_name: 'Copied Ltd', buyer_tax_no: '123-456-32-18', buyer_city: 'Gdańsk', buyer_street: 'Długa 1', buyer_post_code: '80-831' });
  });

  it('issues a vat invoice dated today with a 5-day term from client_id, department_id and product_id', async () => {
    const product = await http.post('/products.json', { product: { name: 'Hosting plan', code: 'HOST-1', price_net: '100', tax: '23' } });
    expect(product.status).toBe(201);
    const client = await http.post('/clients.json', { client: { name: 'Shortcut Ltd', tax_no: '6462933516' } });
    const reply = await http.post('/invoices.json', {
      invoice: { client_id: client.body.id, department_id: department.id, product_id: product.body.id },
    });
    expect(reply.status, reply.text).toBe(201);
    expect(reply.body).toMatchObject({
      kind: 'vat',
      issue_date: today(),
      sell_date: today(),
      payment_to_kind: '5',
      payment_to: today(5),
      client_id: client.body.id,
      buyer_name: 'Shortcut Ltd',
      buyer_tax_no: '6462933516',
      department_id: department.id,
      seller_name: department.name,
      price_net: '100.0',
      price_tax: '23.0',
      price_gross: '123.0',
    });
    expect(reply.body.number).toMatch(numberPattern(today()));
    expect(reply.body.positions).toHaveLength(1);
    expect(reply.body.positions[0]).toMatchObject({ product_id: product.body.id, name: 'Hosting plan', code: 'HOST-1', quantity: '1.0', tax: '23', total_price_gross: '123.0' });
  });

  it('gives 50 concurrent creations 50 distinct numbers', async () => {
    const replies = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        http.post('/invoices.json', { invoice: { issue_date: '2012-06-15', buyer_name: `Buyer ${i}`, positions: [line()] } }),
      ),
    );
    expect(replies.map((r) => r.status)).toEqual(Array(50).fill(201));
    const numbers = replies.map((r) => r.body.number as string);
    expect(new Set(numbers).size).toBe(50);
    expect([...numbers].sort((a, b) => parseInt(a) - parseInt(b))).toEqual(Array.from({ length: 50 }, (_, i) => `${i + 1}/06/2012`));
  });

  it('refuses a second invoice with the same oid when oid_unique is yes', async () => {
    const first = await createInvoice({ oid: 'order-1001', oid_unique: 'yes' });
    expect(first.oid).toBe('order-1001');
    const second = await http.post('/invoices.json', { invoice: { buyer_name: 'Acme Ltd', oid: 'order-1001', oid_unique: 'yes', positions: [line()] } });
    expect(second.status).toBe(422);
    expect(second.body).toEqual({ code: 'error', message: { oid: ['has already been taken'] } });
    const racing = await Promise.all(
      Array.from({ length: 5 }, () =>
        http.post('/invoices.json', { invoice: { buyer_name: 'Acme Ltd', oid: 'order-race', oid_unique: true, positions: [line()] } }),
      ),
    );
    expect(racing.map((r) => r.status).sort()).toEqual([201, 422, 422, 422, 422]);
    const listed = await http.get('/invoices.json', { oid: 'order-race' });
    expect(listed.body).toHaveLength(1);
  });

  it('names every missing field in one 422', async () => {
    const reply = await http.post('/invoices.json', { invoice: { kind: 'vat' } });
    expect(reply.status).toBe(422);
    expect(reply.body).toEqual({ code: 'error', message: { positions: ["can't be blank"], buyer_name: ["can't be blank"] } });
  });
});

describe('updating, changing status and deleting', () => {
  it('changes fields and positions by id, _destroy and new, and answers the whole invoice', async () => {
    const invoice = await createInvoice({
      issue_date: '2026-01-10',
      payment_to_kind: 7,
      positions: [
        { name: 'Keep', tax: 23, total_price_gross: 123, quantity: 1 },
        { name: 'Change', tax: 23, price_net: 10, quantity: 1 },
        { name: 'Drop', tax: 23, total_price_gross: 1000, quantity: 1 },
      ],
    });
    expect(invoice.price_gross).toBe('1135.3');
    const [keep, change, drop] = invoice.positions;
    const reply = await http.put(`/invoices/${invoice.id}.json`, {
      invoice: {
        buyer_name: 'Acme Renamed Ltd',
        issue_date: '2026-01-20',
        positions: [
          { id: change.id, quantity: 3 },
          { id: drop.id, _destroy: 1 },
          { name: 'Added', tax: 8, price_gross: '10.80', quantity: 2 },
        ],
      },
    });
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body).toMatchObject({
      id: invoice.id,
      number: invoice.number,
      buyer_name: 'Acme Renamed Ltd',
      issue_date: '2026-01-20',
      payment_to: '2026-01-27',
      price_net: '150.0',
      price_gross: '181.5',
    });
    expect(reply.body.positions.map((p: Record<string, unknown>) => [p.id ?? null, p.name, p.quantity, p.total_price_gross])).toEqual([
      [keep.id, 'Keep', '1.0', '123.0'],
      [change.id, 'Change', '3.0', '36.9'],
      [expect.any(Number), 'Added', '2.0', '21.6'],
    ]);
    expect((await http.get(`/invoices/${invoice.id}.json`)).body).toEqual(reply.body);
  });

  it('refuses an update that removes every position or blanks the buyer', async () => {
    const invoice = await createInvoice({});
    const empty = await http.put(`/invoices/${invoice.id}.json`, { invoice: { positions: [{ id: invoice.positions[0].id, _destroy: true }] } });
    expect(empty.status).toBe(422);
    expect(empty.body).toEqual({ code: 'error', message: { positions: ["can't be blank"] } });
    const blank = await http.put(`/invoices/${invoice.id}.json`, { invoice: { buyer_name: '  ' } });
    expect(blank.status).toBe(422);
    expect(blank.body).toEqual({ code: 'error', message: { buyer_name: ["can't be blank"] } });
    expect((await http.get(`/invoices/${invoice.id}.json`)).body).toEqual(invoice);
  });

  it('change_status moves the status; paid settles the whole amount', async () => {
    const invoice = await createInvoice({});
    const paid = await http.post(`/invoices/${invoice.id}/change_status.json?status=paid`, {});
    expect(paid.status).toBe(200);
    expect(paid.body).toMatchObject({ id: invoice.id, status: 'paid', paid: '123.0', paid_date: today() });
    const rejected = await http.post(`/invoices/${invoice.id}/change_status.json`, { status: 'rejected' });
    expect(rejected.body.status).toBe('rejected');
    const bogus = await http.post(`/invoices/${invoice.id}/change_status.json?status=lost`, {});
    expect(bogus.status).toBe(422);
    expect(Object.keys(bogus.body.message)).toEqual(['status']);
    expect((await http.post('/invoices/999999/change_status.json?status=paid', {})).body).toEqual(NOT_FOUND);
  });

  it('deletes with the success body; afterwards the invoice is not found', async () => {
    const invoice = await createInvoice({});
    const reply = await http.delete(`/invoices/${invoice.id}.json`);
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({ code: 'success', message: expect.any(String) });
    const again = await http.get(`/invoices/${invoice.id}.json`);
    expect(again.status).toBe(404);
    expect(again.body).toEqual(NOT_FOUND);
    expect((await http.delete(`/invoices/${invoice.id}.json`)).status).toBe(404);
    expect((await http.put(`/invoices/${invoice.id}.json`, { invoice: { buyer_name: 'x' } })).status).toBe(404);
  });
});

describe('listing and finding invoices', () => {
  let lister: Api;
  const ids: Record<string, number> = {};
  const thisMonth = today().slice(0, 7);
  const lastMonthDate = (() => {
    const d = new Date(`${thisMonth}-15T00:00:00Z`);
    d.setUTCMonth(d.getUTCMonth() - 1);
    return d.toISOString().slice(0, 10);
  })();

  beforeAll(async () => {
    // A fresh account keeps the counts exact.
    const { secondAccount } = await import('../helpers/http.js');
    lister = await secondAccount(service, 'lister');
    const make = async (key: string, invoice: Record<string, unknown>) => {
      const reply = await lister.post('/invoices.json', { invoice: { buyer_name: 'List Buyer', positions: [line()], ...invoice } });
      expect(reply.status, reply.text).toBe(201);
      ids[key] = reply.body.id;
      return reply.body;
    };
    await make('now', { issue_date: today(), oid: 'shop-1' });
    await make('lastMonth', { issue_date: lastMonthDate, kind: 'proforma' });
    await make('old', { issue_date: '2020-05-05', buyer_name: 'Zeta Old' });
    await make('from', { issue_date: today(), from_invoice_id: ids.lastMonth, kind: 'vat' });
    await make('generated', { issue_date: '2020-05-06', invoice_id: ids.now });
    await lister.post(`/invoices/${ids.old}/change_status.json`, { status: 'paid' });
  });

  it('lists a bare array, newest issue date first, without positions unless asked', async () => {
    const reply = await lister.get('/invoices.json');
    expect(reply.status).toBe(200);
    expect(Array.isArray(reply.body)).toBe(true);
    expect(reply.body).toHaveLength(5);
    expect(reply.body[0].positions).toBeUndefined();
    const withPositions = await lister.get('/invoices.json', { include_positions: 'true' });
    expect(withPositions.body[0].positions).toHaveLength(1);
  });

  it('filters by period', async () => {
    const idsOf = (reply: { body: { id: number }[] }) => reply.body.map((i) => i.id).sort((a, b) => a - b);
    expect(idsOf(await lister.get('/invoices.json', { period: 'this_month' }))).toEqual([ids.now, ids.from]);
    expect(idsOf(await lister.get('/invoices.json', { period: 'last_month' }))).toEqual([ids.lastMonth]);
    expect(idsOf(await lister.get('/invoices.json', { period: 'more', date_from: '2020-01-01', date_to: '2020-12-31' }))).toEqual([ids.old, ids.generated]);
    expect(idsOf(await lister.get('/invoices.json', { period: 'last_12_months' }))).toEqual([ids.now, ids.lastMonth, ids.from]);
    expect(idsOf(await lister.get('/invoices.json', { period: 'all' }))).toHaveLength(5);
    const bad = await lister.get('/invoices.json', { period: 'someday' });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.message)).toEqual(['period']);
  });

  it('finds by oid, invoice_id, from_invoice_id, number, kind, status and client', async () => {
    expect((await lister.get('/invoices.json', { oid: 'shop-1' })).body.map((i: { id: number }) => i.id)).toEqual([ids.now]);
    expect((await lister.get('/invoices.json', { oid: 'nope' })).body).toEqual([]);
    expect((await lister.get('/invoices.json', { invoice_id: ids.now })).body.map((i: { id: number }) => i.id)).toEqual([ids.generated]);
    expect((await lister.get('/invoices.json', { from_invoice_id: ids.lastMonth })).body.map((i: { id: number }) => i.id)).toEqual([ids.from]);
    expect((await lister.get('/invoices.json', { kind: 'proforma' })).body.map((i: { id: number }) => i.id)).toEqual([ids.lastMonth]);
    expect((await lister.get('/invoices.json', { status: 'paid' })).body.map((i: { id: number }) => i.id)).toEqual([ids.old]);
    const old = (await lister.get(`/invoices/${ids.old}.json`)).body;
    expect((await lister.get('/invoices.json', { number: old.number })).body.map((i: { id: number }) => i.id)).toContain(ids.old);
    const now = (await lister.get(`/invoices/${ids.now}.json`)).body;
    expect(now.client_id).not.toBe(old.client_id);
    expect((await lister.get('/invoices.json', { client_id: old.client_id })).body.map((i: { id: number }) => i.id)).toEqual([ids.old]);
    expect((await lister.get('/invoices.json', { client_id: now.client_id })).body).toHaveLength(4);
  });

  it('orders by a field', async () => {
    const byBuyer = await lister.get('/invoices.json', { order: 'buyer_name.desc' });
    expect(byBuyer.body[0].id).toBe(ids.old);
    const byDate = await lister.get('/invoices.json', { order: 'issue_date' });
    expect(byDate.body[0].id).toBe(ids.old);
    expect((await lister.get('/invoices.json', { order: 'secret; drop table invoices' })).status).toBe(422);
  });

  it('pages with page and per_page', async () => {
    const first = await lister.get('/invoices.json', { page: 1, per_page: 2, order: 'issue_date' });
    const second = await lister.get('/invoices.json', { page: 2, per_page: 2, order: 'issue_date' });
    const third = await lister.get('/invoices.json', { page: 3, per_page: 2, order: 'issue_date' });
    expect([first.body.length, second.body.length, third.body.length]).toEqual([2, 2, 1]);
    const all = [...first.body, ...second.body, ...third.body].map((i: { id: number }) => i.id);
    expect(new Set(all).size).toBe(5);
    expect((await lister.get('/invoices.json', { page: 9 })).body).toEqual([]);
  });

  it('defaults per_page to 25 and clamps it to 100', async () => {
    // The main account holds more than 100 invoices by now (the 50 concurrent ones among them).
    const count = async (query: Record<string, string | number>) => (await http.get('/invoices.json', query)).body.length;
    expect(await count({})).toBe(25);
    expect(await count({ per_page: 500 })).toBeLessThanOrEqual(100);
    const total = (await http.get('/invoices.json', { per_page: 100 })).body.length + (await http.get('/invoices.json', { per_page: 100, page: 2 })).body.length;
    expect(await count({ per_page: 500 })).toBe(Math.min(total, 100));
  });
});
