import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../helpers/service.js';
import { api, type Api, type Reply } from '../helpers/http.js';

/**
 * Fuzzing over the shapes of the schemas (right names, any values) and over raw bytes. Each
 * property runs for a few seconds at most; whatever it sends, the service answers below 500,
 * and the records made before the fuzzing are untouched by it.
 */
let service: TestService;
let http: Api;
const kept: Record<string, unknown> = {};
/** Kept records (compared at the end) and targets (the fuzzed updates go to these). */
let ids: { client: number; product: number; invoice: number; warehouse: number; targetInvoice: number; targetClient: number; targetProduct: number; targetPayment: number; targetDocument: number; targetCategory: number };

const LIMITS = { numRuns: 150, interruptAfterTimeLimit: 2_000 };

beforeAll(async () => {
  service = await startTestService();
  http = api(service);
  // The kept records get ids far beyond any the fuzzing guesses, so only a bug could reach them.
  const sequences = ['clients', 'products', 'invoices'].map((table) => `pg_get_serial_sequence('${table}', 'id')`);
  await service.db.query(`select ${sequences.map((seq) => `setval(${seq}, 1000000)`).join(', ')}`);
  const client = await http.post('/clients.json', { client: { name: 'Kept client', tax_no: '5252445767' } });
  const product = await http.post('/products.json', { product: { name: 'Kept product', price_net: '100', tax: '23' } });
  const invoice = await http.post('/invoices.json', {
    invoice: { client_id: client.body.id, positions: [{ name: 'Kept', tax: 23, total_price_gross: 10.23, quantity: 1 }, { name: 'Kept 2', tax: 0, total_price_gross: 50, quantity: 2 }] },
  });
  await service.db.query(`select ${sequences.map((seq) => `setval(${seq}, 1, false)`).join(', ')}`);
  const warehouse = (await http.get('/warehouses.json')).body[0];
  const targetInvoice = await http.post('/invoices.json', { invoice: { buyer_name: 'Target', positions: [{ name: 'T', tax: 23, total_price_gross: 1, quantity: 1 }] } });
  const targetClient = await http.post('/clients.json', { client: { name: 'Target client' } });
  const targetProduct = await http.post('/products.json', { product: { name: 'Target product', price_net: 1 } });
  const targetPayment = await http.post('/banking/payments.json', { banking_payment: { name: 'Target', price: 1, invoice_id: targetInvoice.body.id, paid: true, kind: 'api' } });
  const targetDocument = await http.post('/warehouse_documents.json', { warehouse_document: { kind: 'pz', warehouse_actions: [{ product_id: targetProduct.body.id, quantity: 3 }] } });
  const targetCategory = await http.post('/categories.json', { category: { name: 'Target' } });
  ids = {
    targetPayment: targetPayment.body.id, targetDocument: targetDocument.body.id, targetCategory: targetCategory.body.id,
    client: client.body.id, product: product.body.id, invoice: invoice.body.id, warehouse: warehouse.id,
    targetInvoice: targetInvoice.body.id, targetClient: targetClient.body.id, targetProduct: targetProduct.body.id,
  };
  for (const path of [`/clients/${ids.client}.json`, `/products/${ids.product}.json`, `/invoices/${ids.invoice}.json`, `/warehouses/${ids.warehouse}.json`]) {
    kept[path] = (await http.get(path)).body;
  }
}, 60_000);

afterAll(async () => {
  // The records made before the fuzzing are intact.
  for (const [path, body] of Object.entries(kept)) expect((await http.get(path)).body, path).toEqual(body);
  await service.stop();
});

function noServerError(reply: Reply, sent: unknown): void {
  if (reply.status >= 500) throw new Error(`${reply.status} for ${JSON.stringify(sent).slice(0, 2000)}: ${reply.text.slice(0, 500)}`);
  expect(reply.body?.code === 'error' ? typeof reply.body.message === 'string' || typeof reply.body.message === 'object' : true).toBe(true);
}

const decimalText = fc.oneof(
  fc.integer({ min: -1_000_000, max: 1_000_000 }).map(String),
  fc.tuple(fc.integer({ min: 0, max: 99_999 }), fc.integer({ min: 0, max: 9999 })).map(([a, b]) => `${a}.${b}`),
  fc.tuple(fc.integer({ min: 0, max: 999 }), fc.integer({ min: 0, max: 99 })).map(([a, b]) => `${a},${b}`),
  fc.constantFrom('', ' ', '1e5', '-0', '0.000000001', '9'.repeat(35), 'NaN', 'Infinity', '١٢٣', '1_000'),
);
const anyValue = fc.oneof(
  { weight: 3, arbitrary: decimalText },
  fc.constant(null),
  fc.boolean(),
  fc.integer(),
  fc.double(),
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.constantFrom('2026-01-31', '2026-02-30', '0000-00-00', '9999-12-31', 'today', 'yes', 'no', '1', '0', 'zw', 'np', 'other_date', 'off'),
  fc.jsonValue({ maxDepth: 2 }),
);
const idLike = fc.oneof(fc.integer({ min: -5, max: 50 }), fc.constantFrom('1', 'x', '', null, 1.5, 2 ** 53, -1), anyValue);
const shape = <K extends string>(keys: readonly K[], value = anyValue) =>
  fc.record(Object.fromEntries(keys.map((key) => [key, value])) as Record<K, typeof value>, { requiredKeys: [] });

const position = fc.record(
  {
    name: anyValue, tax: fc.oneof(fc.constantFrom(23, '8', 0, 'zw', 'np', 'disabled', 101, -1), anyValue),
    total_price_gross: anyValue, price_net: anyValue, price_gross: anyValue, quantity: anyValue,
    discount: anyValue, discount_percent: anyValue, product_id: idLike, id: idLike, _destroy: anyValue, code: anyValue,
  },
  { requiredKeys: [] },
);
const invoiceShape = fc.record(
  {
    kind: fc.oneof(fc.constantFrom('vat', 'proforma', 'receipt', 'nope'), anyValue), number: anyValue, issue_date: anyValue,
    sell_date: anyValue, payment_to: anyValue, payment_to_kind: anyValue, buyer_name: anyValue, buyer_tax_no: anyValue,
    buyer_email: anyValue, seller_name: anyValue, client_id: idLike, department_id: idLike, product_id: idLike,
    show_discount: anyValue, discount_kind: fc.oneof(fc.constantFrom('percent_unit', 'amount', 'percent_total'), anyValue),
    currency: fc.oneof(fc.constantFrom('PLN', 'EUR', 'JPY', 'BHD', 'xx'), anyValue), oid: anyValue, oid_unique: anyValue,
    status: anyValue, paid: anyValue, positions: fc.oneof({ weight: 4, arbitrary: fc.array(position, { maxLength: 4 }) }, anyValue),
  },
  { requiredKeys: [] },
);

const positiveDecimal = fc.oneof(
  fc.integer({ min: 1, max: 100_000 }),
  fc.tuple(fc.integer({ min: 0, max: 99_999 }), fc.integer({ min: 1, max: 9999 })).map(([a, b]) => `${a}.${b}`),
  fc.tuple(fc.integer({ min: 0, max: 999 }), fc.integer({ min: 1, max: 99 })).map(([a, b]) => `${a},${b}`),
);
const date = fc.date({ min: new Date('2000-01-01'), max: new Date('2099-12-31'), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10));
const validPosition = fc.record(
  {
    name: fc.string({ minLength: 1, maxLength: 30 }).filter((text) => text.trim() !== '' && !text.includes('\u0000')),
    tax: fc.constantFrom(23, '8', 0, '5,5', 'zw', 'np'),
    quantity: positiveDecimal,
    price: fc.tuple(fc.constantFrom('total_price_gross', 'price_net', 'price_gross'), positiveDecimal),
    discount_percent: fc.integer({ min: 0, max: 100 }),
  },
  { requiredKeys: ['name', 'tax', 'quantity', 'price'] },
).map(({ price: [key, value], ...rest }) => ({ ...rest, [key]: value }));
const validInvoice = fc.record(
  {
    buyer_name: fc.string({ minLength: 1, maxLength: 40 }).filter((text) => text.trim() !== '' && !text.includes('\u0000')),
    kind: fc.constantFrom('vat', 'proforma', 'receipt', 'estimate'),
    issue_date: date,
    currency: fc.constantFrom('PLN', 'EUR', 'JPY', 'BHD'),
    payment_to_kind: fc.oneof(fc.integer({ min: 0, max: 60 }), fc.constant('off')),
    discount_kind: fc.constantFrom('percent_unit', 'percent_total'),
    positions: fc.array(validPosition, { minLength: 1, maxLength: 4 }),
  },
  { requiredKeys: ['buyer_name', 'positions'] },
);
/** Mostly valid invoices, some with a field or two replaced by anything, some anything at all. */
const someInvoice = fc.oneof(
  { weight: 3, arbitrary: validInvoice },
  { weight: 2, arbitrary: fc.tuple(validInvoice, invoiceShape).map(([valid, noise]) => ({ ...valid, ...Object.fromEntries(Object.entries(noise).slice(0, 2)) })) },
  { weight: 1, arbitrary: invoiceShape },
);

/** Amounts that came back must be exact: gross = net + tax, to the cent. */
function checkAmounts(invoice: Record<string, string>): void {
  const cents = (text: string) => {
    const [whole, fraction = ''] = text.replace('-', '').split('.');
    const value = BigInt(whole! + fraction.padEnd(4, '0').slice(0, 4));
    return text.startsWith('-') ? -value : value;
  };
  for (const key of ['price_net', 'price_tax', 'price_gross']) expect(invoice[key]).toMatch(/^-?\d+\.\d+$/);
  expect(cents(invoice.price_net!) + cents(invoice.price_tax!)).toBe(cents(invoice.price_gross!));
}

describe('fuzzing over the schemas shapes', () => {
  it('invoices: creations and updates never answer 5xx; what is created is exact', async () => {
    await fc.assert(
      fc.asyncProperty(someInvoice, fc.boolean(), async (invoice, update) => {
        const reply = update ? await http.put(`/invoices/${ids.targetInvoice}.json`, { invoice }) : await http.post('/invoices.json', { invoice });
        noServerError(reply, invoice);
        if (reply.status === 200 || reply.status === 201) {
          checkAmounts(reply.body);
          const read = await http.get(`/invoices/${reply.body.id}.json`);
          expect(read.body).toEqual(reply.body);
        }
      }),
      LIMITS,
    );
  });

  it('clients, products, payments, categories, warehouses and warehouse documents never answer 5xx', async () => {
    const clientShape = shape(['name', 'tax_no', 'email', 'country', 'external_id', 'company', 'kind', 'first_name', 'last_name', 'note'] as const);
    const productShape = shape(['name', 'code', 'price_net', 'price_gross', 'tax', 'currency', 'token', 'service', 'category_id', 'quantity_unit'] as const);
    const paymentShape = fc.record({ ...Object.fromEntries(['name', 'price', 'paid', 'kind', 'currency', 'quantity', 'paid_date', 'generate_invoice', 'email', 'oid'].map((k) => [k, anyValue])), invoice_id: idLike, product_id: idLike, client_id: idLike }, { requiredKeys: [] });
    const namedShape = shape(['name', 'description', 'kind'] as const);
    const actionShape = fc.record({ product_id: idLike, product_name: anyValue, quantity: anyValue, price_net: anyValue, purchase_price_net: anyValue, tax: anyValue, purchase_tax: anyValue }, { requiredKeys: [] });
    const documentShape = fc.record(
      { kind: fc.oneof(fc.constantFrom('pz', 'wz', 'mm'), anyValue), warehouse_id: idLike, issue_date: anyValue, number: anyValue, department_id: idLike, client_id: idLike, client_name: anyValue, warehouse_actions: fc.oneof(fc.array(actionShape, { maxLength: 3 }), anyValue) },
      { requiredKeys: [] },
    );
    const request = fc.oneof(
      clientShape.map((body) => ['/clients.json', 'client', body] as const),
      productShape.map((body) => ['/products.json', 'product', body] as const),
      paymentShape.map((body) => ['/banking/payments.json', 'banking_payment', body] as const),
      namedShape.map((body) => ['/categories.json', 'category', body] as const),
      namedShape.map((body) => ['/warehouses.json', 'warehouse', body] as const),
      documentShape.map((body) => ['/warehouse_documents.json', 'warehouse_document', body] as const),
      clientShape.map((body) => [`/clients/${ids.targetClient}.json`, 'client', body] as const),
      productShape.map((body) => [`/products/${ids.targetProduct}.json`, 'product', body] as const),
      paymentShape.map((body) => [`/banking/payments/${ids.targetPayment}.json`, 'banking_payment', body] as const),
      documentShape.map((body) => [`/warehouse_documents/${ids.targetDocument}.json`, 'warehouse_document', body] as const),
      namedShape.map((body) => [`/categories/${ids.targetCategory}.json`, 'category', body] as const),
    );
    await fc.assert(
      fc.asyncProperty(request, async ([path, wrapper, body]) => {
        const update = /\/\d+\.json$/.test(path);
        const reply = update ? await http.put(path, { [wrapper]: body }) : await http.post(path, { [wrapper]: body });
        noServerError(reply, body);
        if (reply.status === 201) expect(typeof reply.body.id).toBe('number');
      }),
      LIMITS,
    );
  });

  it('the same shapes as XML, underscored or dasherized with type attributes, never answer 5xx', async () => {
    const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
    const toXml = (name: string, value: unknown, dasherize: boolean): string => {
      const tag = dasherize ? name.replace(/_/g, '-') : name;
      if (value === null) return `<${tag} nil="true"/>`;
      if (Array.isArray(value)) return `<${tag} type="array">${value.map((item) => toXml(name.replace(/s$/, ''), item, dasherize)).join('')}</${tag}>`;
      if (typeof value === 'object') return `<${tag}>${Object.entries(value as object).map(([k, v]) => toXml(k.replace(/[^A-Za-z0-9_]/g, '') || 'x', v, dasherize)).join('')}</${tag}>`;
      const type = typeof value === 'number' ? (Number.isInteger(value) ? ' type="integer"' : ' type="decimal"') : typeof value === 'boolean' ? ' type="boolean"' : '';
      // eslint-disable-next-line no-control-regex
      return `<${tag}${type}>${escape(String(value)).replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, '')}</${tag}>`;
    };
    await fc.assert(
      fc.asyncProperty(someInvoice, fc.boolean(), async (invoice, dasherize) => {
        const body = toXml('invoice', JSON.parse(JSON.stringify(invoice)), dasherize);
        const reply = await http.postXml('/invoices.xml', body);
        noServerError(reply, body);
        if (reply.status === 201) checkAmounts(reply.body);
      }),
      LIMITS,
    );
  });

  it('list queries with any values never answer 5xx', async () => {
    const query = fc.dictionary(
      fc.constantFrom('page', 'per_page', 'period', 'date_from', 'date_to', 'client_id', 'oid', 'invoice_id', 'from_invoice_id', 'number', 'kind', 'status', 'include_positions', 'order', 'external_id', 'warehouse_id', 'category_id', 'token'),
      fc.oneof(fc.string({ maxLength: 30 }), fc.integer().map(String), fc.constantFrom('this_month', 'more', 'all', '2026-01-01', '1e300', '-1', 'number.desc', 'true')),
      { maxKeys: 4 },
    );
    const path = fc.constantFrom('/invoices.json', '/invoices.xml', '/clients.json', '/products.json', '/banking/payments.json', '/warehouse_documents.json', '/categories.json', `/products/1.json`);
    await fc.assert(
      fc.asyncProperty(path, query, async (p, q) => {
        const reply = await http.get(p, q);
        noServerError(reply, { p, q });
        if (reply.status === 200 && !/\/\d+\./.test(p)) expect(Array.isArray(reply.body)).toBe(true);
      }),
      LIMITS,
    );
  });
});

describe('fuzzing with raw bytes', () => {
  it('random bodies of any declared type never answer 5xx', async () => {
    const contentType = fc.constantFrom('application/json', 'application/xml', 'text/xml', 'text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', '', 'application/json; charset=latin1');
    const target = fc.constantFrom('/invoices.json', '/invoices.xml', '/clients.json', '/products.xml', '/banking/payments.json', `/invoices/1.json`, '/invoices/1/change_status.json', '/warehouse_documents.json');
    const bytes = fc.oneof(
      fc.uint8Array({ maxLength: 600 }),
      fc.string({ maxLength: 300 }).map((text) => new TextEncoder().encode(text)),
      fc.constantFrom('{"invoice":', '<invoice><positions><position>', '{"invoice":{"positions":[{"quantity":1e309}]}}', '<?xml version="1.0"?><invoice', '{"__proto__":{"x":1},"invoice":{}}', '{"constructor":{"prototype":{}}}').map((text) => new TextEncoder().encode(text)),
    );
    await fc.assert(
      fc.asyncProperty(fc.constantFrom('POST', 'PUT'), target, contentType, bytes, async (method, path, type, body) => {
        const headers: Record<string, string> = { authorization: `Bearer ${http.token}` };
        if (type) headers['content-type'] = type;
        const reply = await http.raw(method, `${path}?api_token=${encodeURIComponent(http.token)}`, { headers, body });
        noServerError(reply, { method, path, type, body: Buffer.from(body).toString('base64') });
      }),
      LIMITS,
    );
  });
});
