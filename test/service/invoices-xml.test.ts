import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../helpers/service.js';
import { api, type Api, secondAccount } from '../helpers/http.js';

let service: TestService;
let http: Api;

beforeAll(async () => {
  service = await startTestService();
  http = api(service);
});
afterAll(() => service.stop());

const underscored = `<?xml version="1.0" encoding="UTF-8"?>
<invoice>
  <kind>vat</kind>
  <number></number>
  <sell_date>2013-01-16</sell_date>
  <issue_date>2013-01-16</issue_date>
  <payment_to>2013-01-23</payment_to>
  <buyer_name>Client1 SA &amp; Sons</buyer_name>
  <buyer_tax_no>5252445767</buyer_tax_no>
  <positions>
    <position>
      <name>Produkt A1</name>
      <tax>23</tax>
      <total_price_gross>10.23</total_price_gross>
      <quantity>1</quantity>
    </position>
    <position>
      <name>Produkt A2</name>
      <tax>0</tax>
      <total_price_gross>50</total_price_gross>
      <quantity>2</quantity>
    </position>
  </positions>
</invoice>`;

const railsStyle = `<?xml version="1.0" encoding="UTF-8"?>
<invoice>
  <kind>vat</kind>
  <number nil="true"/>
  <sell-date type="date">2013-01-16</sell-date>
  <issue-date type="date">2013-01-16</issue-date>
  <payment-to-kind type="integer">14</payment-to-kind>
  <buyer-name>Client1 SA</buyer-name>
  <buyer-tax-no>5252445767</buyer-tax-no>
  <show-discount type="boolean">false</show-discount>
  <oid nil="true"/>
  <positions type="array">
    <position>
      <name>Produkt A1</name>
      <tax type="decimal">23</tax>
      <total-price-gross type="decimal">10.23</total-price-gross>
      <quantity type="integer">1</quantity>
    </position>
    <position>
      <name>Produkt A2</name>
      <tax type="integer">0</tax>
      <total-price-gross type="decimal">50.0</total-price-gross>
      <quantity type="decimal">2.0</quantity>
    </position>
  </positions>
</invoice>`;

describe('invoices in XML', () => {
  it('creates from underscored XML with a Bearer token and answers XML', async () => {
    const reply = await http.postXml('/invoices.xml', underscored);
    expect(reply.status, reply.text).toBe(201);
    expect(reply.headers.get('content-type')).toMatch(/^application\/xml/);
    expect(reply.text).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<invoice>/);
    expect(reply.text).toContain('<number>1/01/2013</number>');
    expect(reply.text).toContain('<buyer_name>Client1 SA &amp; Sons</buyer_name>');
    expect(reply.text).toContain('<positions type="array">');
    expect(reply.body).toMatchObject({
      number: '1/01/2013',
      price_net: '58.32',
      price_tax: '1.91',
      price_gross: '60.23',
      buyer_name: 'Client1 SA & Sons',
      payment_to: '2013-01-23',
      paid_date: null,
      show_discount: false,
    });
    expect(typeof reply.body.id).toBe('number');
    expect(reply.body.positions.map((p: Record<string, string>) => [p.name, p.total_price_net, p.total_price_gross])).toEqual([
      ['Produkt A1', '8.32', '10.23'],
      ['Produkt A2', '50.0', '50.0'],
    ]);
    // The same record in JSON.
    const json = await http.get(`/invoices/${reply.body.id}.json`);
    expect(json.body).toEqual(reply.body);
  });

  it('creates from Rails-style XML: dasherized names, type attributes and nil', async () => {
    const reply = await http.postXml('/invoices.xml', railsStyle);
    expect(reply.status, reply.text).toBe(201);
    expect(reply.body).toMatchObject({
      number: '2/01/2013',
      issue_date: '2013-01-16',
      payment_to_kind: '14',
      payment_to: '2013-01-30',
      buyer_name: 'Client1 SA',
      price_net: '58.32',
      price_tax: '1.91',
      price_gross: '60.23',
      oid: null,
    });
    expect(reply.body.positions).toHaveLength(2);
    // Answers are in the underscored form.
    expect(reply.text).not.toMatch(/<[a-z]+-[a-z-]+[ >]/);
  });

  it('reads one position as a list of one', async () => {
    const reply = await http.postXml(
      '/invoices.xml',
      '<invoice><buyer_name>Solo</buyer_name><positions><position><name>Only</name><tax>23</tax><total_price_gross>12.30</total_price_gross><quantity>1</quantity></position></positions></invoice>',
    );
    expect(reply.status, reply.text).toBe(201);
    expect(reply.body.positions).toHaveLength(1);
    expect(reply.body).toMatchObject({ price_net: '10.0', price_gross: '12.3' });
  });

  it('reads, lists, updates, changes status and deletes in XML', async () => {
    const created = await http.postXml('/invoices.xml', underscored.replace('<issue_date>2013-01-16', '<issue_date>2014-03-03'));
    const id = created.body.id as number;

    const read = await http.get(`/invoices/${id}.xml`);
    expect(read.status).toBe(200);
    expect(read.headers.get('content-type')).toMatch(/^application\/xml/);
    expect(read.body).toEqual(created.body);

    const list = await http.get('/invoices.xml', { period: 'more', date_from: '2014-03-01', date_to: '2014-03-31' });
    expect(list.status).toBe(200);
    expect(list.text).toMatch(/<invoices type="array">\s*<invoice>/);
    expect(list.body.map((i: { id: number }) => i.id)).toEqual([id]);
    const empty = await http.get('/invoices.xml', { oid: 'no-such-oid' });
    expect(empty.text).toContain('<invoices type="array"/>');
    expect(empty.body).toEqual([]);

    const updated = await http.putXml(
      `/invoices/${id}.xml`,
      `<invoice><buyer-name>Renamed SA</buyer-name><positions type="array"><position><id type="integer">${created.body.positions[1].id}</id><_destroy type="integer">1</_destroy></position></positions></invoice>`,
    );
    expect(updated.status, updated.text).toBe(200);
    expect(updated.body).toMatchObject({ id, buyer_name: 'Renamed SA', price_net: '8.32', price_gross: '10.23' });
    expect(updated.body.positions).toHaveLength(1);

    const paid = await http.raw('POST', `/invoices/${id}/change_status.xml?status=paid`, { headers: { authorization: `Bearer ${http.token}` } });
    expect(paid.status, paid.text).toBe(200);
    expect(paid.body).toMatchObject({ id, status: 'paid', paid: '10.23' });

    const deleted = await http.delete(`/invoices/${id}.xml`);
    expect(deleted.status).toBe(200);
    expect(deleted.headers.get('content-type')).toMatch(/^application\/xml/);
    expect(deleted.body).toEqual({ code: 'success', message: expect.any(String) });
    const gone = await http.get(`/invoices/${id}.xml`);
    expect(gone.status).toBe(404);
    expect(gone.body).toEqual({ code: 'error', message: 'Not found' });
  });

  it('answers validation errors in XML naming the fields', async () => {
    const reply = await http.postXml('/invoices.xml', '<invoice><kind>vat</kind></invoice>');
    expect(reply.status).toBe(422);
    expect(reply.headers.get('content-type')).toMatch(/^application\/xml/);
    expect(reply.body).toEqual({ code: 'error', message: { positions: "can't be blank", buyer_name: "can't be blank" } });
  });

  it('keeps XML of one account away from another', async () => {
    const other = await secondAccount(service, 'xml-other');
    const mine = await http.postXml('/invoices.xml', underscored);
    const theirs = await other.get(`/invoices/${mine.body.id}.xml`);
    expect(theirs.status).toBe(404);
    expect(theirs.body).toEqual({ code: 'error', message: 'Not found' });
    const change = await other.putXml(`/invoices/${mine.body.id}.xml`, '<invoice><buyer_name>Hijacked</buyer_name></invoice>');
    expect(change.status).toBe(404);
    expect((await http.get(`/invoices/${mine.body.id}.xml`)).body.buyer_name).toBe('Client1 SA & Sons');
  });

  it('every other resource goes round in XML too: create, read, list, update, delete', async () => {
    const product = await http.postXml('/products.xml', '<product><name>XML product</name><price-net>10</price-net><tax>23</tax></product>');
    expect(product.status, product.text).toBe(201);
    const warehouseId = (await http.get('/warehouses.xml')).body[0].id;
    const resources = [
      { create: '/products.xml', read: '/products', list: 'products', item: 'product', body: '<product><name>Kept</name><price_net>5</price_net></product>', update: '<product><price-gross>12.30</price-gross></product>', expected: { price_gross: '12.3', price_net: '10.0' } },
      { create: '/clients.xml', read: '/clients', list: 'clients', item: 'client', body: '<client><name>XML client</name><country></country></client>', update: '<client><country>PL</country></client>', expected: { country: 'PL' } },
      { create: '/banking/payments.xml', read: '/banking/payments', list: 'banking_payments', item: 'banking_payment', body: '<banking_payment><name>XML payment</name><price>7</price><paid type="boolean">false</paid></banking_payment>', update: '<banking_payment><price type="decimal">8.5</price></banking_payment>', expected: { price: '8.5' } },
      { create: '/categories.xml', read: '/categories', list: 'categories', item: 'category', body: '<category><name>XML category</name></category>', update: '<category><description>Described</description></category>', expected: { description: 'Described' } },
      { create: '/warehouses.xml', read: '/warehouses', list: 'warehouses', item: 'warehouse', body: '<warehouse><name>XML warehouse</name><kind nil="true"/></warehouse>', update: '<warehouse><kind>external</kind></warehouse>', expected: { kind: 'external' } },
      { create: '/warehouse_documents.xml', read: '/warehouse_documents', list: 'warehouse_documents', item: 'warehouse_document', body: `<warehouse_document><kind>pz</kind><warehouse_id>${warehouseId}</warehouse_id><warehouse_actions><warehouse_action><product_id>${product.body.id}</product_id><quantity>2</quantity><price_net>10</price_net></warehouse_action></warehouse_actions></warehouse_document>`, update: '<warehouse-document><issue-date>2019-05-05</issue-date></warehouse-document>', expected: { issue_date: '2019-05-05', value_net: '20.0' } },
    ];
    for (const resource of resources) {
      const created = await http.postXml(resource.create, resource.body);
      expect([resource.create, created.status]).toEqual([resource.create, 201]);
      expect(created.text).toContain(`<${resource.item}>`);
      const path = `${resource.read}/${created.body.id}`;
      expect((await http.get(`${path}.xml`)).body).toEqual(created.body);
      expect((await http.get(`${path}.json`)).body).toEqual(created.body);
      const list = await http.get(`${resource.read}.xml`, { per_page: 100 });
      expect(list.text).toMatch(new RegExp(`<${resource.list} type="array">\\s*<${resource.item}>`));
      expect(list.body.map((r: { id: number }) => r.id)).toContain(created.body.id);
      const target = resource.item === 'product' ? `/products/${product.body.id}` : path;
      const updated = await http.putXml(`${target}.xml`, resource.update);
      expect([target, updated.status]).toEqual([target, 200]);
      expect(updated.body).toMatchObject(resource.expected);
      const deleted = await http.delete(`${path}.xml`);
      expect([path, deleted.status, deleted.body]).toEqual([path, 200, { code: 'success', message: expect.any(String) }]);
      expect((await http.get(`${path}.xml`)).status).toBe(404);
    }
  });
});
