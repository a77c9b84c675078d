import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../helpers/service.js';
import { api, type Api, NOT_FOUND, secondAccount, today } from '../helpers/http.js';

let service: TestService;
let http: Api;

beforeAll(async () => {
  service = await startTestService();
  http = api(service);
});
afterAll(() => service.stop());

async function invoiceOf(gross: string) {
  const reply = await http.post('/invoices.json', {
    invoice: { buyer_name: 'Payer Ltd', positions: [{ name: 'Service', tax: 23, total_price_gross: gross, quantity: 1 }] },
  });
  expect(reply.status).toBe(201);
  return reply.body;
}

describe('payments', () => {
  it('creates the minimal payment and reads it on the singular JSON path and the plural XML path', async () => {
    const reply = await http.post('/banking/payments.json', {
      banking_payment: { name: 'Payment 001', price: 100.05, invoice_id: null, paid: true, kind: 'api' },
    });
    expect(reply.status, reply.text).toBe(201);
    expect(reply.body).toMatchObject({
      name: 'Payment 001',
      price: '100.05',
      invoice_id: null,
      paid: true,
      paid_date: today(),
      kind: 'api',
      currency: 'PLN',
      quantity: '1.0',
      deleted: false,
      generate_invoice: false,
    });
    const id = reply.body.id as number;
    const json = await http.get(`/banking/payment/${id}.json`);
    expect(json.status).toBe(200);
    expect(json.body).toEqual(reply.body);
    const xml = await http.get(`/banking/payments/${id}.xml`);
    expect(xml.status).toBe(200);
    expect(xml.text).toMatch(/^<\?xml[^>]*>\n<banking_payment>/);
    expect(xml.text).toContain('<price>100.05</price>');
    expect(xml.body).toEqual(reply.body);
  });

  it('keeps every field of the full set', async () => {
    const full = {
      city: 'Warszawa', country: 'PL', post_code: '00-001', street: 'Marszałkowska 1', phone: '+48 600 000 000',
      client_id: null, department_id: null, invoice_id: null, comment: 'first order', currency: 'EUR', deleted: false,
      description: 'Order #77', email: 'jan@example.com', first_name: 'Jan', last_name: 'Kowalski', generate_invoice: false,
      invoice_city: 'Kraków', invoice_comment: null, invoice_country: 'PL', invoice_name: 'Jan Kowalski Consulting',
      invoice_post_code: '30-001', invoice_street: 'Rynek 1', invoice_tax_no: '6770065406', name: 'Order 77', oid: 'order-77',
      paid: false, paid_date: null, price: '59,00', promocode: 'SPRING', provider: 'transfer', provider_response: null,
      provider_status: null, provider_title: null, quantity: 2, kind: 'api',
    };
    const reply = await http.post('/banking/payments.json', { banking_payment: full });
    expect(reply.status, reply.text).toBe(201);
    expect(reply.body).toMatchObject({ ...full, price: '59.0', quantity: '2.0' });
    expect((await http.get('/banking/payments.json', { oid: 'order-77' })).body.map((p: { id: number }) => p.id)).toEqual([reply.body.id]);
  });

  it('raises the invoice paid amount: partial, then paid; deleting undoes it', async () => {
    const invoice = await invoiceOf('123');
    const first = await http.post('/banking/payments.json', { banking_payment: { name: 'Advance', price: '23', invoice_id: invoice.id, paid: true, kind: 'api' } });
    expect(first.status).toBe(201);
    expect((await http.get(`/invoices/${invoice.id}.json`)).body).toMatchObject({ paid: '23.0', status: 'partial', paid_date: null });
    const second = await http.post('/banking/payments.json', { banking_payment: { name: 'Rest', price: 100, invoice_id: invoice.id, paid: true, kind: 'api' } });
    expect(second.status).toBe(201);
    expect((await http.get(`/invoices/${invoice.id}.json`)).body).toMatchObject({ paid: '123.0', status: 'paid', paid_date: today() });

    const unpaid = await http.post('/banking/payments.json', { banking_payment: { name: 'Pending', price: 5, invoice_id: invoice.id, paid: false, kind: 'api' } });
    expect(unpaid.body.paid_date).toBeNull();
    expect((await http.get(`/invoices/${invoice.id}.json`)).body.paid).toBe('123.0');

    const removed = await http.delete(`/banking/payments/${second.body.id}.json`);
    expect(removed.body).toEqual({ code: 'success', message: expect.any(String) });
    expect((await http.get(`/invoices/${invoice.id}.json`)).body).toMatchObject({ paid: '23.0', status: 'partial' });
    expect((await http.get(`/banking/payment/${second.body.id}.json`)).body).toEqual(NOT_FOUND);
    expect((await http.get('/banking/payments.json', { invoice_id: invoice.id })).body.map((p: { id: number }) => p.id).sort()).toEqual(
      [first.body.id, unpaid.body.id].sort(),
    );
  });

  it('adds up concurrent payments of one invoice exactly', async () => {
    const invoice = await invoiceOf('100');
    const replies = await Promise.all(
      Array.from({ length: 10 }, (_, i) => http.post('/banking/payments.json', { banking_payment: { name: `Part ${i}`, price: '10.00', invoice_id: invoice.id, paid: true, kind: 'api' } })),
    );
    expect(replies.map((r) => r.status)).toEqual(Array(10).fill(201));
    expect((await http.get(`/invoices/${invoice.id}.json`)).body).toMatchObject({ paid: '100.0', status: 'paid' });
  });

  it('marks the pending payment paid on update, which pays the invoice', async () => {
    const invoice = await invoiceOf('50');
    const pending = await http.post('/banking/payments.json', { banking_payment: { name: 'Card', price: 50, invoice_id: invoice.id, paid: false, kind: 'api' } });
    const reply = await http.put(`/banking/payments/${pending.body.id}.json`, { banking_payment: { paid: true } });
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body).toMatchObject({ paid: true, paid_date: today() });
    expect((await http.get(`/invoices/${invoice.id}.json`)).body).toMatchObject({ paid: '50.0', status: 'paid' });
  });

  it('issues a vat invoice for a paid payment with generate_invoice', async () => {
    const reply = await http.post('/banking/payments.json', {
      banking_payment: { name: 'Workshop ticket', price: '246.00', paid: true, kind: 'api', generate_invoice: true, invoice_name: 'Ticket Buyer Sp. z o.o.', invoice_tax_no: '5260250274', email: 'tickets@buyer.example' },
    });
    expect(reply.status, reply.text).toBe(201);
    expect(typeof reply.body.invoice_id).toBe('number');
    const invoice = await http.get(`/invoices/${reply.body.invoice_id}.json`);
    expect(invoice.body).toMatchObject({ kind: 'vat', status: 'paid', buyer_name: 'Ticket Buyer Sp. z o.o.', buyer_tax_no: '5260250274', price_gross: '246.0', paid: '246.0' });
  });

  it('refuses an invoice_id that does not exist or belongs to another account', async () => {
    const missing = await http.post('/banking/payments.json', { banking_payment: { name: 'X', price: 1, invoice_id: 987654, paid: true } });
    expect(missing.status).toBe(422);
    expect(missing.body).toEqual({ code: 'error', message: { invoice_id: ['does not exist'] } });
    const other = await secondAccount(service, 'payer-other');
    const invoice = await invoiceOf('10');
    const foreign = await other.post('/banking/payments.json', { banking_payment: { name: 'X', price: 10, invoice_id: invoice.id, paid: true } });
    expect(foreign.status).toBe(422);
    expect(foreign.body).toEqual({ code: 'error', message: { invoice_id: ['does not exist'] } });
    expect((await http.get(`/invoices/${invoice.id}.json`)).body.paid).toBe('0.0');
  });

  it('lists newest first as a bare array in JSON and XML', async () => {
    const list = await http.get('/banking/payments.json');
    expect(Array.isArray(list.body)).toBe(true);
    const ids = list.body.map((p: { id: number }) => p.id);
    expect(ids).toEqual([...ids].sort((a: number, b: number) => b - a));
    const xml = await http.get('/banking/payments.xml');
    expect(xml.text).toMatch(/<banking_payments type="array">\s*<banking_payment>/);
    expect(xml.body).toEqual(list.body);
  });

  it('creates from XML with a Bearer token', async () => {
    const reply = await http.postXml('/banking/payments.xml', '<banking_payment><name>XML pay</name><price type="decimal">12.5</price><invoice-id nil="true"/><paid type="boolean">true</paid><kind>api</kind></banking_payment>');
    expect(reply.status, reply.text).toBe(201);
    expect(reply.body).toMatchObject({ name: 'XML pay', price: '12.5', paid: true, invoice_id: null });
  });
});
