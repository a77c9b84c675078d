import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../helpers/service.js';
import { api, type Api, NOT_FOUND } from '../helpers/http.js';

let service: TestService;
let http: Api;

beforeAll(async () => {
  service = await startTestService();
  http = api(service);
});
afterAll(() => service.stop());

const json = { 'content-type': 'application/json', accept: 'application/json' };
const xml = () => ({ 'content-type': 'application/xml', accept: 'application/xml', authorization: `Bearer ${http.token}` });
const line = { name: 'A', tax: 23, total_price_gross: 10, quantity: 1 };

async function invoiceErrors(invoice: Record<string, unknown>) {
  const reply = await http.post('/invoices.json', { invoice: { buyer_name: 'Acme', positions: [line], ...invoice } });
  expect(reply.status, reply.text).toBe(422);
  expect(reply.body.code).toBe('error');
  return reply.body.message;
}

describe('malformed bodies', () => {
  it('answers 400 to JSON that does not parse or is not an object', async () => {
    const broken = await http.raw('POST', '/invoices.json', { headers: json, body: `{"api_token":"${http.token}","invoice":{"kind":` });
    expect(broken.status).toBe(400);
    expect(broken.body).toEqual({ code: 'error', message: 'The request body is not valid JSON' });
    for (const body of ['[1,2]', '"text"', '42', 'null']) {
      const reply = await http.raw('POST', '/invoices.json', { headers: json, body });
      expect([body, reply.status, reply.body]).toEqual([body, 400, { code: 'error', message: 'The request body must be a JSON object' }]);
    }
  });

  it('answers 422 naming the wrapper when it is missing or not an object', async () => {
    const missing = await http.post('/invoices.json', { invoices: {} });
    expect(missing.status).toBe(422);
    expect(missing.body).toEqual({ code: 'error', message: { invoice: ["can't be blank"] } });
    const text = await http.post('/clients.json', { client: 'Acme' });
    expect(text.body).toEqual({ code: 'error', message: { client: ['must be an object'] } });
    const list = await http.post('/products.json', { product: [{ name: 'x' }] });
    expect(list.body).toEqual({ code: 'error', message: { product: ['must be an object'] } });
  });

  it('answers 400 to XML that does not parse, in XML', async () => {
    for (const body of ['<invoice><kind>vat</invoice>', '<invoice>', 'not xml at all <', '<a></a><b></b>']) {
      const reply = await http.raw('POST', '/invoices.xml', { headers: xml(), body });
      expect([body, reply.status]).toEqual([body, 400]);
      expect(reply.headers.get('content-type')).toMatch(/^application\/xml/);
      expect(reply.body.code).toBe('error');
      expect(reply.body.message).toMatch(/^malformed XML/);
    }
  });

  it('refuses XML with a DTD or entities: no XXE, no expansion', async () => {
    const attacks = [
      '<?xml version="1.0"?><!DOCTYPE invoice [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><invoice><buyer_name>&xxe;</buyer_name></invoice>',
      '<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">]><invoice><buyer_name>&lol2;</buyer_name></invoice>',
      '<!doctype invoice SYSTEM "http://127.0.0.1:1/evil.dtd"><invoice/>',
    ];
    for (const body of attacks) {
      const reply = await http.raw('POST', '/invoices.xml', { headers: xml(), body });
      expect(reply.status).toBe(400);
      expect(reply.body).toEqual({ code: 'error', message: 'XML with a DTD or entity declarations is not accepted' });
    }
    // An undeclared entity stays as text: nothing is ever resolved.
    const undeclared = await http.raw('POST', '/clients.xml', { headers: xml(), body: '<client><name>A &amp; B &secret;</name></client>' });
    expect([400, 201]).toContain(undeclared.status);
    if (undeclared.status === 201) expect(undeclared.body.name).toBe('A & B &secret;');
    expect((await http.get('/clients.json')).body.every((c: { name: string }) => !c.name.includes('root:'))).toBe(true);
  });

  it('reads an XML body of another resource as a missing wrapper', async () => {
    const reply = await http.raw('POST', '/invoices.xml', { headers: xml(), body: '<client><name>Wrong root</name></client>' });
    expect(reply.status).toBe(422);
    expect(reply.body).toEqual({ code: 'error', message: { invoice: "can't be blank" } });
  });

  it('answers 413 to a body over 1 MiB, with or without a length', async () => {
    const big = JSON.stringify({ api_token: http.token, client: { name: 'x', note: 'n'.repeat(1024 * 1024) } });
    const sized = await http.raw('POST', '/clients.json', { headers: json, body: big });
    expect(sized.status).toBe(413);
    expect(sized.body).toEqual({ code: 'error', message: 'The request body is larger than 1 MiB' });
    const bigXml = `<client><name>x</name><note>${'n'.repeat(1024 * 1024)}</note></client>`;
    const sizedXml = await http.raw('POST', '/clients.xml', { headers: xml(), body: bigXml });
    expect(sizedXml.status).toBe(413);
    expect(sizedXml.headers.get('content-type')).toMatch(/^application\/xml/);
    // Chunked, with no length: the limit holds while the body streams in (the token in the query;
    // without one, the body is refused at its first 64 KiB, see authentication-first.test.ts).
    const streamed = await new Promise<number>((resolve, reject) => {
      const request = httpRequest(new URL(`/clients.json?api_token=${http.token}`, http.url), { method: 'POST', headers: json }, (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      });
      // The service may close the connection once it has answered; the answer is what counts.
      request.on('error', (error) => setTimeout(() => reject(error), 1000));
      const chunk = ' '.repeat(64 * 1024);
      let sent = 0;
      const pump = () => {
        while (sent < 20) {
          sent += 1;
          if (!request.write(chunk)) return void request.once('drain', pump);
        }
        request.end();
      };
      pump();
    });
    expect(streamed).toBe(413);
    // Under the limit, the field's own maximum speaks.
    const under = await http.post('/clients.json', { client: { name: 'Long note', note: 'n'.repeat(10_001) } });
    expect(under.status).toBe(422);
    expect(under.body).toEqual({ code: 'error', message: { note: ['is too long (maximum is 10000 characters)'] } });
  });
});

describe('wrong types and missing data', () => {
  it('names the field of each wrong value in an invoice', async () => {
    expect(await invoiceErrors({ positions: 'abc' })).toEqual({ positions: ['must be a list'] });
    expect(await invoiceErrors({ positions: [{ ...line, quantity: 'abc' }] })).toEqual({ 'positions.0.quantity': ['is not a number'] });
    expect(await invoiceErrors({ positions: [{ ...line, quantity: 0 }] })).toEqual({ 'positions.0.quantity': ['must not be zero'] });
    expect(await invoiceErrors({ positions: [{ ...line, tax: 150 }] })).toEqual({ 'positions.0.tax': ['must be a rate from 0 to 100 or zw, np, disabled'] });
    expect(await invoiceErrors({ positions: [{ name: 'No price', tax: 23, quantity: 1 }] })).toEqual({ 'positions.0.total_price_gross': ["can't be blank"] });
    expect(await invoiceErrors({ positions: [{ ...line, name: '' }] })).toEqual({ 'positions.0.name': ["can't be blank"] });
    expect(await invoiceErrors({ issue_date: '2013-02-30' })).toEqual({ issue_date: ['is not a valid date'] });
    expect(await invoiceErrors({ sell_date: '16.01.2013' })).toEqual({ sell_date: ['must be a date (YYYY-MM-DD)'] });
    expect(await invoiceErrors({ kind: 'invoice-ish' })).toHaveProperty('kind');
    expect(await invoiceErrors({ client_id: 'abc' })).toEqual({ client_id: ['must be an id'] });
    expect(await invoiceErrors({ client_id: 99999 })).toEqual({ client_id: ['does not exist'] });
    expect(await invoiceErrors({ currency: 'EURO' })).toEqual({ currency: ['must be a three-letter currency code'] });
    expect(await invoiceErrors({ show_discount: 'maybe' })).toEqual({ show_discount: ['must be true or false'] });
    expect(await invoiceErrors({ buyer_name: { first: 'x' } })).toEqual({ buyer_name: ['must be text'] });
    expect(await invoiceErrors({ buyer_name: null, buyer_tax_no: '123' })).toEqual({ buyer_name: ["can't be blank"] });
  });

  it('refuses numbers that no amount can be: huge, exponent, non-finite', async () => {
    expect(await invoiceErrors({ positions: [{ ...line, total_price_gross: 1e25 }] })).toHaveProperty(['positions.0.total_price_gross']);
    expect(await invoiceErrors({ positions: [{ ...line, total_price_gross: '1e5' }] })).toEqual({ 'positions.0.total_price_gross': ['is not a number'] });
    expect(await invoiceErrors({ positions: [{ ...line, quantity: '9'.repeat(40) }] })).toHaveProperty(['positions.0.quantity']);
    const raw = await http.raw('POST', '/invoices.json', {
      headers: json,
      body: `{"api_token":"${http.token}","invoice":{"buyer_name":"A","positions":[{"name":"A","tax":23,"total_price_gross":1e400,"quantity":1}]}}`,
    });
    expect(raw.status).toBe(422);
  });

  it('ignores unknown fields', async () => {
    const reply = await http.post('/clients.json', { client: { name: 'Known', favourite_colour: 'teal', id: 424242 }, extra: true });
    expect(reply.status).toBe(201);
    expect(reply.body.favourite_colour).toBeUndefined();
    expect(reply.body.id).not.toBe(424242);
  });

  it('answers a list with only the id and the known keys that fields= names, whatever else it names', async () => {
    await http.post('/invoices.json', { invoice: { buyer_name: 'Fields', positions: [line] } });
    const keys = async (fields: string) => {
      const reply = await http.get('/invoices.json', { period: 'all', per_page: 3, fields });
      expect(reply.status, reply.text).toBe(200);
      return [...new Set((reply.body as Record<string, unknown>[]).flatMap((invoice) => Object.keys(invoice)))].sort();
    };
    const whole = (await keys('')).length;
    expect(whole).toBeGreaterThan(30);
    expect((await keys(' , ,')).length).toBe(whole);
    for (const fields of ['nope', '__proto__', 'constructor', '%00', "id'; drop table invoices;--", 'positions', 'API_TOKEN', 'data']) {
      expect(await keys(fields), fields).toEqual(['id']);
    }
    expect(await keys('price_gross,__proto__,Number, number')).toEqual(['id', 'number', 'price_gross']);
    expect((await http.get('/invoices.json', { period: 'all', fields: 'id,'.repeat(2000) })).status).toBe(422);
    expect((await http.get('/invoices.json', { period: 'all', fields: 'id\u0000' })).body).toEqual({
      code: 'error',
      message: { fields: ['must not contain NUL characters'] },
    });
  });

  it('accepts the boolean words and comma decimals the reference lists', async () => {
    for (const [word, expected] of [['1', true], ['yes', true], [0, false], ['no', false], [true, true]] as const) {
      const reply = await http.post('/products.json', { product: { name: `Flag ${String(word)}`, service: word, price_net: '1,50' } });
      expect([word, reply.status, reply.body.service, reply.body.price_net]).toEqual([word, 201, expected, '1.5']);
    }
  });

  it('keeps text with characters PostgreSQL cannot store from becoming a 500', async () => {
    const nul = await http.post('/clients.json', { client: { name: 'Nul\u0000Byte' } });
    expect(nul.status).toBe(422);
    expect(nul.body).toEqual({ code: 'error', message: { name: ['must not contain NUL characters'] } });
    const nested = await http.post('/invoices.json', { invoice: { buyer_name: 'A', positions: [{ ...line, name: 'x\u0000' }] } });
    expect(nested.body).toEqual({ code: 'error', message: { 'positions.0.name': ['must not contain NUL characters'] } });
    const query = await http.get('/clients.json', { external_id: 'a\u0000b' });
    expect(query.status).toBe(422);
    expect(query.body).toEqual({ code: 'error', message: { external_id: ['must not contain NUL characters'] } });
    const lone = await http.raw('POST', '/clients.json', { headers: json, body: `{"api_token":"${http.token}","client":{"name":"Lone \\ud800 surrogate"}}` });
    expect(lone.status).toBe(422);
    expect(lone.body.message).toEqual({ name: ['must not contain control characters, U+FFFE, U+FFFF or unpaired surrogates (XML and KSeF cannot carry them)'] });
    const xmlNul = await http.raw('POST', '/clients.xml', { headers: xml(), body: '<client><name>a&#0;b</name></client>' });
    expect(xmlNul.status).toBeLessThan(500);
  });

  it('answers 404, never 500, to a NUL or other nonsense in any path segment of any route', async () => {
    const segments = ['%00', 'a%00b', '..%2f..%2fetc', '__proto__', '99999999999999999999', '-1', '%ff%fe', 'x'.repeat(2000)];
    const routes = [
      '/a/:x/widget/products/logo', '/a/demo/p/:x', '/a/demo/widget/checkout/:x', '/a/demo/widget/products/:x', '/account/delete/:x',
      '/banking/payments/pay/:x', '/banking/payments/pay/:x/return', '/departments/:x.json', '/departments/:x/logo', '/invoice/:x',
      '/invoice/:x.pdf', '/invoice/payment/:x', '/invoices/:x.json', '/invoices/:x.pdf', '/invoices/:x/attachments.json', '/outbox/:x',
      '/outbox/:x/body', '/webhooks/:x/deliveries.json', '/clients/:x.json', '/payments/:x.json', '/recurrings/:x.json',
    ];
    const failures: string[] = [];
    for (const route of routes) {
      for (const segment of segments) {
        for (const method of ['GET', 'POST']) {
          const path = route.replace(':x', segment);
          const reply = await http.raw(method, path.endsWith('.json') ? `${path}?api_token=${http.token}` : path, { headers: json, body: method === 'POST' ? '{}' : undefined });
          if (reply.status >= 500) failures.push(`${method} ${path.slice(0, 60)}: ${reply.status}`);
          if (segment.includes('%00') && reply.status !== 404) failures.push(`${method} ${path.slice(0, 60)}: ${reply.status}, not 404`);
        }
      }
    }
    expect(failures).toEqual([]);
    expect((await http.raw('GET', '/account/delete/a%00b', {})).body).toEqual(NOT_FOUND);
  });

  it('answers 404 to ids that are not ids, and 4xx to nonsense in queries', async () => {
    for (const path of ['/invoices/abc.json', '/invoices/0.json', '/invoices/-1.json', '/invoices/1.5.json', '/invoices/99999999999999999999.json', '/clients/%E0%A4%A.json']) {
      const reply = await http.get(path);
      expect([path, reply.status, reply.body]).toEqual([path, 404, NOT_FOUND]);
    }
    for (const query of [{ page: '1e300' }, { page: '99999999999999999' }, { per_page: '1e300' }, { date_from: 'yesterday', period: 'more' }, { client_id: 'x' }, { include_positions: 'perhaps' }]) {
      const reply = await http.get('/invoices.json', query);
      expect(reply.status).toBeLessThan(500);
    }
    expect((await http.get('/nothing-here.json')).body).toEqual(NOT_FOUND);
  });

  it('refuses an update that clears with null a field every record has', async () => {
    const invoice = await http.post('/invoices.json', { invoice: { buyer_name: 'Acme', positions: [line] } });
    const payment = await http.post('/banking/payments.json', { banking_payment: { name: 'P', price: 10, invoice_id: invoice.body.id, paid: true } });
    const product = await http.post('/products.json', { product: { name: 'P', price_net: 1 } });
    const client = await http.post('/clients.json', { client: { name: 'C' } });
    const cases: [string, string, Record<string, null>][] = [
      [`/invoices/${invoice.body.id}.json`, 'invoice', { issue_date: null, kind: null, currency: null }],
      [`/banking/payments/${payment.body.id}.json`, 'banking_payment', { price: null, paid: null, name: null }],
      [`/products/${product.body.id}.json`, 'product', { currency: null, token: null }],
      [`/clients/${client.body.id}.json`, 'client', { kind: null }],
    ];
    for (const [path, wrapper, fields] of cases) {
      const reply = await http.put(path, { [wrapper]: fields });
      expect([path, reply.status]).toEqual([path, 422]);
      expect(reply.body).toEqual({ code: 'error', message: Object.fromEntries(Object.keys(fields).map((f) => [f, ["can't be blank"]])) });
    }
    expect((await http.get(`/banking/payment/${payment.body.id}.json`)).body).toEqual(payment.body);
    expect((await http.get(`/products/${product.body.id}.json`)).body).toEqual(product.body);
    expect((await http.get(`/invoices/${invoice.body.id}.json`)).body).toMatchObject({ paid: '10.0', status: 'paid', currency: 'PLN' });
  });

  it('stays well-formed for the other resources too', async () => {
    const payment = await http.post('/banking/payments.json', { banking_payment: { price: 'ten', paid: 'maybe' } });
    expect(payment.status).toBe(422);
    expect(payment.body).toEqual({ code: 'error', message: { price: ['is not a number'], paid: ['must be true or false'] } });
    const noPrice = await http.post('/banking/payments.json', { banking_payment: { name: 'x' } });
    expect(noPrice.body).toEqual({ code: 'error', message: { price: ["can't be blank"] } });
    const product = await http.post('/products.json', { product: { name: 'x', price_net: 'free', token: 'bad token!' } });
    expect(Object.keys(product.body.message).sort()).toEqual(['price_net', 'token']);
    const document = await http.post('/warehouse_documents.json', { warehouse_document: { kind: 'pz', warehouse_actions: [{ quantity: 1 }] } });
    expect(document.body).toEqual({ code: 'error', message: { 'warehouse_actions.0.product_id': ["can't be blank"] } });
    const category = await http.post('/categories.json', { category: { name: 7 } });
    expect(category.status).toBe(201);
    expect(category.body.name).toBe('7');
  });
});
