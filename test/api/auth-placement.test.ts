import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NotFoundError, createInvoicingClient, type InvoicingClient } from '../../src/api/index.js';
import { sendJson, startLocalServer, type RecordedRequest } from './helpers/local-server.js';

// Where each call puts its tokens, read off the wire (spec §5 and §4.8). The recording server
// answers 404 to everything, so each call ends in a NotFoundError after being recorded.
let server: Awaited<ReturnType<typeof startLocalServer>>;
let app: Awaited<ReturnType<typeof startLocalServer>>;
beforeAll(async () => {
  server = await startLocalServer((_req, res) => sendJson(res, 404, { code: 'error', message: 'Not found' }));
  app = await startLocalServer((_req, res) => sendJson(res, 404, { code: 'error', message: 'Not found' }));
});
afterAll(async () => {
  await server.stop();
  await app.stop();
});

const TOKEN = 'acct-token-123';
const INTEGRATION = 'integration-456';

function make(format: 'json' | 'xml'): InvoicingClient {
  return createInvoicingClient({ baseUrl: server.url, appUrl: app.url, apiToken: TOKEN, integrationToken: INTEGRATION, format, retry: 0 });
}

async function record(call: () => Promise<unknown>, on = () => server): Promise<RecordedRequest> {
  on().reset((_req, res) => sendJson(res, 404, { code: 'error', message: 'Not found' }));
  await expect(call()).rejects.toBeInstanceOf(NotFoundError);
  expect(on().requests).toHaveLength(1);
  return on().requests[0]!;
}

const query = (r: RecordedRequest) => Object.fromEntries(r.url.searchParams);
const json = (r: RecordedRequest) => JSON.parse(r.body.toString('utf8')) as unknown;

describe('JSON', () => {
  const client = () => make('json');

  it('puts api_token in the query of GET and DELETE', async () => {
    const list = await record(() => client().invoices.list({ period: 'this_month', page: 2, per_page: 25 }));
    expect([list.method, list.url.pathname]).toEqual(['GET', '/invoices.json']);
    expect(query(list)).toEqual({ api_token: TOKEN, period: 'this_month', page: '2', per_page: '25' });
    expect(list.headers.accept).toBe('application/json');
    expect(list.headers.authorization).toBeUndefined();

    const removed = await record(() => client().invoices.delete(12));
    expect([removed.method, removed.url.pathname, query(removed)]).toEqual(['DELETE', '/invoices/12.json', { api_token: TOKEN }]);
    expect(removed.body.length).toBe(0);
  });

  it('puts api_token at the top level of POST and PUT bodies, beside the wrapper', async () => {
    const invoice = { kind: 'vat' as const, number: null, buyer_name: 'Client1 SA', positions: [{ name: 'Produkt A1', tax: 23, total_price_gross: 10.23, quantity: 1 }] };
    const created = await record(() => client().invoices.create(invoice));
    expect([created.method, created.url.pathname, query(created)]).toEqual(['POST', '/invoices.json', {}]);
    expect(created.headers['content-type']).toBe('application/json');
    expect(json(created)).toEqual({ api_token: TOKEN, invoice });

    const updated = await record(() => client().products.update(3, { price_gross: '12,30' }));
    expect([updated.method, updated.url.pathname, query(updated)]).toEqual(['PUT', '/products/3.json', {}]);
    expect(json(updated)).toEqual({ api_token: TOKEN, product: { price_gross: '12,30' } });

    const payment = await record(() => client().payments.create({ name: 'Payment 001', price: 100.05, invoice_id: null, paid: true, kind: 'api' }));
    expect(payment.url.pathname).toBe('/banking/payments.json');
    expect(json(payment)).toEqual({ api_token: TOKEN, banking_payment: { name: 'Payment 001', price: 100.05, invoice_id: null, paid: true, kind: 'api' } });
  });

  it('sends a POST without a body with api_token and its options in the query', async () => {
    const sent = await record(() => client().invoices.sendByEmail(5, { email_to: 'buyer@example.com', email_pdf: true }));
    expect([sent.method, sent.url.pathname]).toEqual(['POST', '/invoices/5/send_by_email.json']);
    expect(query(sent)).toEqual({ api_token: TOKEN, email_to: 'buyer@example.com', email_pdf: 'true' });
    expect(sent.body.length).toBe(0);

    const status = await record(() => client().invoices.changeStatus(5, 'paid'));
    expect([status.url.pathname, query(status)]).toEqual(['/invoices/5/change_status.json', { api_token: TOKEN, status: 'paid' }]);
  });

  it('reads a payment from the singular path and a PDF with its print option', async () => {
    const payment = await record(() => client().payments.get(9));
    expect(payment.url.pathname).toBe('/banking/payment/9.json');
    const pdf = await record(() => client().invoices.pdf(5, { printOption: 'copy' }));
    expect([pdf.url.pathname, query(pdf)]).toEqual(['/invoices/5.pdf', { api_token: TOKEN, print_option: 'copy' }]);
  });

  it('sends the logo as multipart with api_token as a form field', async () => {
    const png = new Blob([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], { type: 'image/png' });
    const logo = await record(() => client().departments.setLogo(1, png, 'logo.png'));
    expect([logo.method, logo.url.pathname, query(logo)]).toEqual(['PUT', '/departments/1.json', {}]);
    expect(logo.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    const form = await new Response(new Uint8Array(logo.body), { headers: { 'content-type': logo.headers['content-type']! } }).formData();
    expect(form.get('api_token')).toBe(TOKEN);
    const file = form.get('department[logo]') as File;
    expect(file.name).toBe('logo.png');
    expect([...new Uint8Array(await file.arrayBuffer())]).toEqual([0x89, 0x50, 0x4e, 0x47]);
  });

  it('refuses ids that are not integers before sending anything', async () => {
    server.reset((_req, res) => sendJson(res, 200, {}));
    await expect(client().invoices.get('1/../../account')).rejects.toThrow(TypeError);
    expect(server.requests).toHaveLength(0);
  });
});

describe('XML', () => {
  const client = () => make('xml');

  it('uses .xml paths, api_token in the query of GET and DELETE, and asks for XML', async () => {
    const list = await record(() => client().clients.list({ external_id: 'ext-1' }));
    expect([list.url.pathname, query(list)]).toEqual(['/clients.xml', { api_token: TOKEN, external_id: 'ext-1' }]);
    expect(list.headers.accept).toBe('application/xml');
    const payment = await record(() => client().payments.get(9));
    expect(payment.url.pathname).toBe('/banking/payments/9.xml');
    const removed = await record(() => client().warehouseDocuments.delete(4));
    expect([removed.url.pathname, query(removed)]).toEqual(['/warehouse_documents/4.xml', { api_token: TOKEN }]);
  });

  it('sends bodies as XML with the wrapper as root and the token as a Bearer header', async () => {
    const created = await record(() =>
      client().invoices.create({
        kind: 'vat',
        number: null,
        buyer_name: 'Zażółć & Co <SA>',
        show_discount: false,
        positions: [
          { name: 'Produkt A1', tax: 23, total_price_gross: 10.23, quantity: 1 },
          { name: 'Produkt A2', tax: 0, total_price_gross: '50', quantity: 2 },
        ],
      }),
    );
    expect([created.method, created.url.pathname, query(created)]).toEqual(['POST', '/invoices.xml', {}]);
    expect(created.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(created.headers['content-type']).toBe('application/xml');
    const text = created.body.toString('utf8');
    expect(text).toBe(
      '<?xml version="1.0" encoding="UTF-8"?>\n' +
        '<invoice><kind>vat</kind><number nil="true"/><buyer_name>Zażółć &amp; Co &lt;SA&gt;</buyer_name>' +
        '<show_discount type="boolean">false</show_discount><positions type="array">' +
        '<position><name>Produkt A1</name><tax type="integer">23</tax><total_price_gross>10.23</total_price_gross><quantity type="integer">1</quantity></position>' +
        '<position><name>Produkt A2</name><tax type="integer">0</tax><total_price_gross>50</total_price_gross><quantity type="integer">2</quantity></position>' +
        '</positions></invoice>\n',
    );
    expect(text).not.toContain(TOKEN);

    const updated = await record(() => client().warehouseDocuments.update(4, { warehouse_actions: [{ id: 1, _destroy: 1 }] }));
    expect([updated.method, updated.url.pathname, updated.headers.authorization]).toEqual(['PUT', '/warehouse_documents/4.xml', `Bearer ${TOKEN}`]);
    expect(updated.body.toString('utf8')).toContain('<warehouse_actions type="array"><warehouse_action><id type="integer">1</id><_destroy type="integer">1</_destroy></warehouse_action></warehouse_actions>');
  });
});

describe('integrations (§4.8), in either format', () => {
  for (const format of ['json', 'xml'] as const) {
    it(`${format}: puts integration_token in POST bodies on appUrl and in the query of GET /account.json`, async () => {
      const client = make(format);
      const user = await record(() => client.integrations.addUser({ email: 'anna@example.com', password: 'correct horse' }), () => app);
      expect([user.method, user.url.pathname]).toEqual(['POST', '/users.json']);
      expect(json(user)).toEqual({ api_token: TOKEN, user: { email: 'anna@example.com', password: 'correct horse' }, integration_token: INTEGRATION });

      const login = await record(() => client.integrations.login({ login: 'anna', password: 'correct horse' }), () => app);
      expect(login.url.pathname).toBe('/login.json');
      expect(json(login)).toEqual({ login: 'anna', password: 'correct horse', integration_token: INTEGRATION });

      const account = await record(() => client.integrations.createAccount({ account: { prefix: 'acme' }, company: { name: 'Acme' } }), () => app);
      expect(account.url.pathname).toBe('/account.json');
      expect(json(account)).toEqual({ api_token: TOKEN, account: { prefix: 'acme' }, company: { name: 'Acme' }, integration_token: INTEGRATION });

      const info = await record(() => client.integrations.getAccount());
      expect([info.method, info.url.pathname, query(info)]).toEqual(['GET', '/account.json', { api_token: TOKEN, integration_token: INTEGRATION }]);
    });
  }
});
