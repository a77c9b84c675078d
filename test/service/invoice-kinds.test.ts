import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../helpers/service.js';
import { api, type Api, NOT_FOUND } from '../helpers/http.js';

/**
 * Invoice kinds, corrections, advance and final invoices, cancelling, status changes, PATCH, the
 * nested parts of an invoice and the list filters, from the hosted service's documentation
 * examples: literal request bodies, exact expected amounts.
 */

let service: TestService;
let http: Api;

beforeAll(async () => {
  service = await startTestService();
  http = api(service);
});
afterAll(() => service.stop());

async function create(invoice: Record<string, unknown>) {
  const reply = await http.post('/invoices.json', { invoice });
  expect(reply.status, reply.text).toBe(201);
  return reply.body;
}

const ids = (list: { id: number }[]) => list.map((invoice) => invoice.id);

describe('invoice kinds and their numbering', () => {
  it('numbers each kind in its own N/MM/YYYY sequence', async () => {
    const line = { name: 'Audit', tax: 23, total_price_gross: 123, quantity: 1 };
    const vat1 = await create({ kind: 'vat', issue_date: '2025-03-03', buyer_name: 'Kinds Ltd', positions: [line] });
    const proforma = await create({ kind: 'proforma', issue_date: '2025-03-04', buyer_name: 'Kinds Ltd', positions: [line] });
    const vat2 = await create({ kind: 'vat', issue_date: '2025-03-05', buyer_name: 'Kinds Ltd', positions: [line] });
    const bill = await create({ kind: 'bill', issue_date: '2025-03-05', buyer_name: 'Kinds Ltd', positions: [{ ...line, tax: 'zw' }] });
    expect([vat1.number, proforma.number, vat2.number, bill.number]).toEqual(['1/03/2025', '1/03/2025', '2/03/2025', '1/03/2025']);
    expect([vat1.kind, proforma.kind, bill.kind]).toEqual(['vat', 'proforma', 'bill']);
    expect(vat2).toMatchObject({ pattern_nr_m: 2, issue_year: 2025, pattern: '{{nr}}/{{mm}}/{{yyyy}}' });
  });
});

describe('corrections', () => {
  it('takes the exact difference of before and after lines (the documentation example)', async () => {
    const corrected = await create({
      issue_date: '2025-04-02',
      buyer_name: 'Klient1 Sp. z o.o.',
      buyer_tax_no: '6272616681',
      positions: [{ name: 'Product A1', tax: 23, total_price_gross: 20, quantity: 2 }],
    });
    expect(corrected).toMatchObject({ price_gross: '20.0', price_net: '16.26', price_tax: '3.74' });

    const reply = await http.post('/invoices.json', {
      invoice: {
        kind: 'correction',
        correction_reason: 'Zła ilość',
        invoice_id: String(corrected.id),
        from_invoice_id: String(corrected.id),
        client_id: corrected.client_id,
        issue_date: '2025-04-20',
        positions: [
          {
            name: 'Product A1',
            quantity: -1,
            total_price_gross: '-10',
            tax: '23',
            kind: 'correction',
            correction_before_attributes: { name: 'Product A1', quantity: '2', total_price_gross: '20', tax: '23', kind: 'correction_before' },
            correction_after_attributes: { name: 'Product A1', quantity: '1', total_price_gross: '10', tax: '23', kind: 'correction_after' },
          },
        ],
      },
    });
    expect(reply.status, reply.text).toBe(201);
    const correction = reply.body;
    expect(correction).toMatchObject({
      kind: 'correction',
      number: '1/04/2025',
      from_invoice_id: corrected.id,
      invoice_id: corrected.id,
      correction_reason: 'Zła ilość',
      buyer_name: 'Klient1 Sp. z o.o.',
      buyer_tax_no: '6272616681',
      price_gross: '-10.0',
      price_net: '-8.13',
      price_tax: '-1.87',
      paid: '0.0',
      status: 'issued',
    });
    expect(correction.positions).toHaveLength(1);
    expect(correction.positions[0]).toMatchObject({
      kind: 'correction',
      name: 'Product A1',
      quantity: '-1.0',
      tax: '23',
      price_gross: '10.0',
      price_net: '8.13',
      total_price_gross: '-10.0',
      total_price_net: '-8.13',
      total_price_tax: '-1.87',
      correction_before_attributes: { name: 'Product A1', quantity: '2.0', total_price_gross: '20.0', total_price_net: '16.26', total_price_tax: '3.74' },
      correction_after_attributes: { name: 'Product A1', quantity: '1.0', total_price_gross: '10.0', total_price_net: '8.13', total_price_tax: '1.87' },
    });

    const read = await http.get(`/invoices/${correction.id}.json`, {
      'additional_fields[invoice]': 'corrected_content_before,corrected_content_after',
    });
    expect(read.body.corrected_content_before).toBe('Product A1: 2.0 × 10.0 = 20.0 (23%)');
    expect(read.body.corrected_content_after).toBe('Product A1: 1.0 × 10.0 = 10.0 (23%)');
    expect(ids((await http.get('/invoices.json', { from_invoice_id: corrected.id, kind: 'correction' })).body)).toEqual([correction.id]);
  });

  it('corrects a price and a tax rate across lines to the cent, and refuses a correction of nothing', async () => {
    const corrected = await create({
      issue_date: '2025-04-03',
      buyer_name: 'Price Fix Ltd',
      positions: [
        { name: 'Consulting', tax: 23, price_net: '100.00', quantity: 3 },
        { name: 'Book', tax: 5, total_price_gross: '52.50', quantity: 1 },
      ],
    });
    const correction = await create({
      kind: 'correction',
      from_invoice_id: corrected.id,
      issue_date: '2025-04-21',
      positions: [
        {
          correction_before_attributes: { name: 'Consulting', quantity: 3, price_net: '100.00', tax: 23 },
          correction_after_attributes: { name: 'Consulting', quantity: 3, price_net: '90.00', tax: 23 },
        },
        {
          correction_before_attributes: { name: 'Book', quantity: 1, total_price_gross: '52.50', tax: 5 },
          correction_after_attributes: { name: 'Book', quantity: 1, total_price_gross: '52.50', tax: 8 },
        },
      ],
    });
    // Consulting: 300.00/69.00/369.00 → 270.00/62.10/332.10; Book: 50.00/2.50 → 48.61/3.89.
    expect(correction.positions.map((p: Record<string, string>) => [p.total_price_net, p.total_price_tax, p.total_price_gross])).toEqual([
      ['-30.0', '-6.9', '-36.9'],
      ['-1.39', '1.39', '0.0'],
    ]);
    expect(correction).toMatchObject({ price_net: '-31.39', price_tax: '-5.51', price_gross: '-36.9', number: '2/04/2025' });

    const none = await http.post('/invoices.json', { invoice: { kind: 'correction', positions: [{ name: 'X', quantity: -1, total_price_gross: -1 }] } });
    expect(none.status).toBe(422);
    expect(none.body).toEqual({ code: 'error', message: { from_invoice_id: ["can't be blank"] } });
    const missing = await http.post('/invoices.json', { invoice: { kind: 'correction', from_invoice_id: 999999, positions: [] } });
    expect(missing.body).toEqual({ code: 'error', message: { from_invoice_id: ['does not exist'] } });
  });
});

describe('advance and final invoices', () => {
  it('takes 30% and then 150.00 in advance of an order and settles the rest on the final invoice', async () => {
    const order = await create({
      kind: 'estimate',
      issue_date: '2025-05-05',
      buyer_name: 'Kitchen Buyer Sp. z o.o.',
      positions: [{ name: 'Kitchen cabinets', tax: 23, price_net: 1000, quantity: 2 }],
    });
    expect(order).toMatchObject({ price_net: '2000.0', price_tax: '460.0', price_gross: '2460.0' });

    const percent = await http.post('/invoices.json', {
      invoice: {
        copy_invoice_from: order.id,
        kind: 'advance',
        advance_creation_mode: 'percent',
        advance_value: '30',
        position_name: `Zaliczka na wykonanie zamówienia ${order.number}`,
      },
    });
    expect(percent.status, percent.text).toBe(201);
    expect(percent.body).toMatchObject({
      kind: 'advance',
      invoice_id: order.id,
      from_invoice_id: order.id,
      buyer_name: 'Kitchen Buyer Sp. z o.o.',
      price_gross: '738.0',
      price_net: '600.0',
      price_tax: '138.0',
    });
    expect(percent.body.positions).toEqual([
      expect.objectContaining({ name: `Zaliczka na wykonanie zamówienia ${order.number}`, tax: '23', quantity: '1.0', total_price_gross: '738.0' }),
    ]);

    const amount = await create({ copy_invoice_from: order.id, kind: 'advance', advance_creation_mode: 'amount', advance_value: '150' });
    expect(amount).toMatchObject({ price_gross: '150.0', price_net: '121.95', price_tax: '28.05' });

    const tooMuch = await http.post('/invoices.json', {
      invoice: { copy_invoice_from: order.id, kind: 'advance', advance_creation_mode: 'amount', advance_value: '1572.01' },
    });
    expect(tooMuch.status).toBe(422);
    expect(tooMuch.body.message.advance_value[0]).toContain('1572.0');

    const final = await http.post('/invoices.json', {
      invoice: { copy_invoice_from: order.id, kind: 'final', invoice_ids: [percent.body.id, amount.id] },
    });
    expect(final.status, final.text).toBe(201);
    expect(final.body).toMatchObject({ kind: 'final', invoice_id: order.id, price_gross: '1572.0', price_net: '1278.05', price_tax: '293.95' });
    expect(final.body.positions.map((p: Record<string, string>) => [p.name, p.total_price_gross])).toEqual([
      ['Kitchen cabinets', '2460.0'],
      [`Zaliczka ${percent.body.number}`, '-738.0'],
      [`Zaliczka ${amount.number}`, '-150.0'],
    ]);

    const second = await http.post('/invoices.json', { invoice: { copy_invoice_from: order.id, kind: 'final' } });
    expect(second.status).toBe(422);
    expect(second.body.message).toEqual({ copy_invoice_from: ['already has a final invoice'] });
    expect(ids((await http.get('/invoices.json', { invoice_id: order.id, kind: 'advance' })).body).sort()).toEqual([percent.body.id, amount.id].sort());
  });

  it('splits an advance over the order tax rates, the rounding remainder on the last rate', async () => {
    const order = await create({
      kind: 'proforma',
      issue_date: '2025-05-06',
      buyer_name: 'Mixed Rates Ltd',
      positions: [
        { name: 'Service', tax: 23, total_price_gross: '1230.00', quantity: 1 },
        { name: 'Books', tax: 8, total_price_gross: '1080.00', quantity: 1 },
      ],
    });
    const advance = await create({ copy_invoice_from: order.id, kind: 'advance', advance_creation_mode: 'amount', advance_value: 1000, position_name: 'Advance' });
    expect(advance.positions.map((p: Record<string, string>) => [p.name, p.tax, p.total_price_gross, p.total_price_net])).toEqual([
      ['Advance (23%)', '23', '532.47', '432.9'],
      ['Advance (8%)', '8', '467.53', '432.9'],
    ]);
    expect(advance).toMatchObject({ price_gross: '1000.0', price_net: '865.8', price_tax: '134.2' });
  });

  it('issues a VAT invoice from a proforma with the same lines and amounts', async () => {
    const proforma = await create({
      kind: 'proforma',
      issue_date: '2025-05-07',
      buyer_name: 'Proforma Buyer',
      buyer_email: 'buyer@testemail.pl',
      positions: [
        { name: 'Produkt A1', tax: 23, total_price_gross: 10.23, quantity: 1 },
        { name: 'Produkt A2', tax: 0, total_price_gross: 50, quantity: 3 },
      ],
    });
    const vat = await create({ copy_invoice_from: proforma.id, kind: 'vat', issue_date: '2025-05-08' });
    expect(vat).toMatchObject({
      kind: 'vat',
      from_invoice_id: proforma.id,
      buyer_name: 'Proforma Buyer',
      buyer_email: 'buyer@testemail.pl',
      price_net: '58.32',
      price_tax: '1.91',
      price_gross: '60.23',
      issue_date: '2025-05-08',
    });
    expect(vat.positions.map((p: Record<string, string>) => [p.name, p.quantity, p.total_price_gross])).toEqual([
      ['Produkt A1', '1.0', '10.23'],
      ['Produkt A2', '3.0', '50.0'],
    ]);
    const missing = await http.post('/invoices.json', { invoice: { copy_invoice_from: 999999, kind: 'vat' } });
    expect(missing.status).toBe(422);
    expect(missing.body.message).toEqual({ copy_invoice_from: ['does not exist'] });
  });
});

describe('cancel and change_status', () => {
  it('cancels with a reason that additional_fields reads back', async () => {
    const invoice = await create({ issue_date: '2025-06-02', buyer_name: 'Cancel Me', positions: [{ name: 'X', tax: 23, total_price_gross: 100, quantity: 1 }] });
    const reply = await http.post('/invoices/cancel.json', { cancel_invoice_id: invoice.id, cancel_reason: 'Powód anulowania (opcjonalnie)' });
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body).toMatchObject({ id: invoice.id, cancelled: true, cancel_reason: 'Powód anulowania (opcjonalnie)' });
    const read = await http.get(`/invoices/${invoice.id}.json`, { 'additional_fields[invoice]': 'cancel_reason' });
    expect(read.body).toMatchObject({ cancelled: true, cancel_reason: 'Powód anulowania (opcjonalnie)' });
    const plain = await http.get(`/invoices/${invoice.id}.json`);
    expect(plain.body).not.toHaveProperty('cancel_reason');

    const again = await http.post('/invoices/cancel.json', { cancel_invoice_id: invoice.id });
    expect(again.status).toBe(422);
    expect(again.body).toEqual({ code: 'error', message: { cancel_invoice_id: ['is already cancelled'] } });
    expect((await http.post('/invoices/cancel.json', { cancel_invoice_id: 99999999 })).body).toEqual(NOT_FOUND);
    expect((await http.post('/invoices/cancel.json', {})).body).toEqual({ code: 'error', message: { cancel_invoice_id: ["can't be blank"] } });
    const xml = await http.get(`/invoices/${invoice.id}.xml`, { 'additional_fields[invoice]': 'cancel_reason' });
    expect(xml.text).toContain('<cancel_reason>Powód anulowania (opcjonalnie)</cancel_reason>');
  });

  it('takes the status inside the invoice wrapper with a paid_date, or from the query', async () => {
    const invoice = await create({ issue_date: '2025-06-03', buyer_name: 'Status Ltd', positions: [{ name: 'X', tax: 23, total_price_gross: '99.99', quantity: 1 }] });
    const wrapped = await http.post(`/invoices/${invoice.id}/change_status.json`, { invoice: { status: 'paid', paid_date: '2025-06-10' } });
    expect(wrapped.status, wrapped.text).toBe(200);
    expect(wrapped.body).toMatchObject({ status: 'paid', paid: '99.99', paid_date: '2025-06-10' });
    const query = await http.raw('POST', `/invoices/${invoice.id}/change_status.json?api_token=${http.token}&status=sent`);
    expect(query.body).toMatchObject({ status: 'sent', paid: '0.0', paid_date: null });
    const bad = await http.post(`/invoices/${invoice.id}/change_status.json`, { invoice: { status: 'done' } });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.message)).toEqual(['status']);
  });

  it('reads connected payments with additional_fields', async () => {
    const invoice = await create({ issue_date: '2025-06-04', buyer_name: 'Payer Ltd', positions: [{ name: 'X', tax: 23, total_price_gross: 200, quantity: 1 }] });
    const payment = await http.post('/banking/payments.json', { banking_payment: { name: 'Part', price: '80.50', invoice_id: invoice.id, paid: true, kind: 'api' } });
    expect(payment.status, payment.text).toBe(201);
    const read = await http.get(`/invoices/${invoice.id}.json`, { 'additional_fields[invoice]': 'connected_payments' });
    expect(read.body).toMatchObject({ status: 'partial', paid: '80.5' });
    expect(read.body.connected_payments).toEqual([expect.objectContaining({ id: payment.body.id, price: '80.5', paid: true, invoice_id: invoice.id })]);
  });
});

describe('PATCH is PUT', () => {
  it('updates invoices, clients and products, in JSON and XML', async () => {
    const invoice = await create({ issue_date: '2025-07-01', buyer_name: 'Old Name', positions: [{ name: 'X', tax: 23, total_price_gross: 10, quantity: 1 }] });
    const patched = await http.patch(`/invoices/${invoice.id}.json`, { invoice: { buyer_name: 'Nowa nazwa klienta Sp. z o.o.' } });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body.buyer_name).toBe('Nowa nazwa klienta Sp. z o.o.');

    const client = (await http.post('/clients.json', { client: { name: 'Klient1' } })).body;
    const patchedClient = await http.patch(`/clients/${client.id}.json`, { client: { name: 'Klient2', www: 'https://klient2.example' } });
    expect(patchedClient.body).toMatchObject({ name: 'Klient2', www: 'https://klient2.example' });

    const product = (await http.post('/products.json', { product: { name: 'PoroductAA', code: 'A001', price_net: '100', tax: '23' } })).body;
    const xml = await http.raw('PATCH', `/products/${product.id}.xml`, {
      headers: { 'content-type': 'application/xml', accept: 'application/xml', authorization: `Bearer ${http.token}` },
      body: '<product><price-gross type="decimal">102</price-gross></product>',
    });
    expect(xml.status, xml.text).toBe(200);
    expect(xml.body).toMatchObject({ price_gross: '102.0', price_net: '82.93' });
    expect((await http.patch('/invoices/99999999.json', { invoice: { buyer_name: 'X' } })).body).toEqual(NOT_FOUND);
  });
});

describe('descriptions, settlement positions and recipients', () => {
  it('creates them with the invoice, reads them back, updates by id and deletes with _destroy', async () => {
    const invoice = await create({
      issue_date: '2024-08-01',
      seller_name: 'Wystawca Sp. z o.o.',
      buyer_name: 'Klient1 Sp. z o.o.',
      positions: [
        { name: 'Produkt A1', tax: 23, total_price_gross: 10.23, quantity: 1, additional_info: 'PKWiU 62.01' },
        { name: 'Produkt A2', tax: 0, total_price_gross: 50, quantity: 3 },
      ],
      recipients: [
        { name: 'Odbiorca1', company: 'true', email: 'odbiorca1@email.pl' },
        { name: 'Odbiorca2', company: 'true', email: 'odbiorca2@email.pl' },
      ],
      descriptions: [{ title: 'Uwagi', content: 'Płatne przelewem' }],
      settlement_positions: [{ kind: 'charge', description: 'Transport', amount: '15.50' }],
    });
    expect(invoice).toMatchObject({ price_gross: '60.23', recipient_name: 'Odbiorca1' });
    expect(invoice.recipients.map((r: Record<string, unknown>) => [r.name, r.company, r.email])).toEqual([
      ['Odbiorca1', true, 'odbiorca1@email.pl'],
      ['Odbiorca2', true, 'odbiorca2@email.pl'],
    ]);
    expect(invoice.descriptions).toEqual([{ id: expect.any(Number), title: 'Uwagi', content: 'Płatne przelewem' }]);
    expect(invoice.settlement_positions).toEqual([{ id: expect.any(Number), kind: 'charge', description: 'Transport', amount: '15.5' }]);

    const [first, second] = invoice.recipients;
    const renamed = await http.put(`/invoices/${invoice.id}.json`, { invoice: { recipients: [{ id: first.id, name: 'Nowa nazwa' }] } });
    expect(renamed.body.recipients.map((r: Record<string, unknown>) => [r.id, r.name, r.email])).toEqual([
      [first.id, 'Nowa nazwa', 'odbiorca1@email.pl'],
      [second.id, 'Odbiorca2', 'odbiorca2@email.pl'],
    ]);
    const removed = await http.put(`/invoices/${invoice.id}.json`, {
      invoice: {
        recipients: [{ id: second.id, _destroy: 1 }],
        descriptions: [{ id: invoice.descriptions[0].id, _destroy: 1 }, { content: 'Nowa uwaga' }],
        settlement_positions: [{ id: invoice.settlement_positions[0].id, amount: 20 }],
      },
    });
    expect(removed.status, removed.text).toBe(200);
    expect(removed.body.recipients.map((r: Record<string, unknown>) => r.id)).toEqual([first.id]);
    expect(removed.body.descriptions.map((d: Record<string, unknown>) => d.content)).toEqual(['Nowa uwaga']);
    expect(removed.body.settlement_positions[0]).toMatchObject({ kind: 'charge', amount: '20.0' });
    expect(removed.body.price_gross).toBe('60.23');
    const line = await http.patch(`/invoices/${invoice.id}.json`, { invoice: { positions: [{ id: invoice.positions[0].id, name: 'test' }] } });
    expect(line.body.positions[0]).toMatchObject({ id: invoice.positions[0].id, name: 'test', additional_info: 'PKWiU 62.01', total_price_gross: '10.23' });
    expect(line.body.positions[1]).toMatchObject({ additional_info: null, name: 'Produkt A2' });
    const unknown = await http.put(`/invoices/${invoice.id}.json`, { invoice: { recipients: [{ id: 1, _destroy: 1 }] } });
    expect(unknown.status).toBe(422);
    expect(unknown.body.message).toEqual({ 'recipients.0.id': ['does not exist'] });

    const xml = await http.get(`/invoices/${invoice.id}.xml`);
    expect(xml.body.recipients).toEqual(removed.body.recipients);
    expect(xml.body.descriptions).toEqual(removed.body.descriptions);
  });
});

describe('list filters and order', () => {
  it('filters by number, invoice_ids, kind, kinds[], income, client_id, dates and sorts by a field', async () => {
    const line = (gross: number) => [{ name: 'Filter line', tax: 23, total_price_gross: gross, quantity: 1 }];
    const a = await create({ kind: 'vat', issue_date: '2023-02-01', buyer_name: 'Filter A', positions: line(300) });
    const b = await create({ kind: 'proforma', issue_date: '2023-02-10', buyer_name: 'Filter B', positions: line(100) });
    const c = await create({ kind: 'receipt', issue_date: '2023-02-20', buyer_name: 'Filter A', positions: line(200) });
    const cost = await create({ kind: 'vat', income: '0', issue_date: '2023-02-15', buyer_name: 'Supplier', positions: line(50) });
    await http.post(`/invoices/${a.id}/change_status.json`, { status: 'paid', paid_date: '2023-03-05' });
    const list = async (query: Record<string, string | number>) =>
      ids((await http.get('/invoices.json', { period: 'more', date_from: '2023-02-01', date_to: '2023-02-28', ...query })).body).sort((x, y) => x - y);

    expect(await list({ number: a.number, kind: 'vat' })).toEqual([a.id]);
    expect(await list({ invoice_ids: `${a.id},${c.id}` })).toEqual([a.id, c.id]);
    expect(await list({ kind: 'proforma' })).toEqual([b.id]);
    const kinds = await http.raw('GET', `/invoices.json?api_token=${http.token}&period=all&kinds[]=proforma&kinds[]=receipt&invoice_ids=${a.id},${b.id},${c.id}`);
    expect(ids(kinds.body).sort((x, y) => x - y)).toEqual([b.id, c.id]);
    expect(await list({ income: 'no' })).toEqual([cost.id]);
    expect(await list({ client_id: a.client_id, income: 'yes' })).toEqual([a.id, c.id]);
    expect(await list({ date_from: '2023-02-05', date_to: '2023-02-12' })).toEqual([b.id]);
    expect(await list({ search_date_type: 'paid_date', date_from: '2023-03-01', date_to: '2023-03-31' })).toEqual([a.id]);
    const ordered = await http.get('/invoices.json', { period: 'more', date_from: '2023-02-01', date_to: '2023-02-28', income: 'yes', order: 'price_gross.desc' });
    expect(ids(ordered.body)).toEqual([a.id, c.id, b.id]);
    const ascending = await http.get('/invoices.json', { period: 'more', date_from: '2023-02-01', date_to: '2023-02-28', order: 'price_gross' });
    expect(ids(ascending.body)).toEqual([cost.id, b.id, c.id, a.id]);
    const bad = await http.get('/invoices.json', { kinds: 'vat,nonsense' });
    expect(bad.status).toBe(422);
  });
});
