import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../helpers/service.js';
import { api, type Api } from '../helpers/http.js';

/**
 * The contract of strictly typed clients: every invoice, position, client, product, payment and
 * warehouse document the service answers (reads and lists) carries every key the hosted service
 * sends, with the recorded type, and `null` where unset. The key lists below are the facts file's
 * (invoices, positions, clients) and the service reference's (products, payments, warehouse
 * documents), written out here so that a change of our schemas cannot silently change them.
 */

const INVOICE_KEYS = `id number, user_id number, accounting_income_tax_date date, accounting_kind null,
accounting_other_tax_date null, accounting_scheme null, accounting_status null, accounting_vat_tax_date date,
additional_info boolean, additional_info_desc null, adjust_invoice_price decimal, app null, approval_status null,
attachments_count number, buyer_bank null, buyer_bank_account null, buyer_city string, buyer_company boolean,
buyer_country string, buyer_email string, buyer_fax null, buyer_first_name string, buyer_last_name string,
buyer_mass_payment_code null, buyer_name string, buyer_note null, buyer_person string, buyer_phone null,
buyer_post_code string, buyer_street string, buyer_tax_no string, buyer_tax_no_kind null, buyer_www null,
cancelled boolean, category_id null, check_fiscal_print boolean, client_company boolean, client_id number,
correction null, created_at timestamp, currency string, delivery_address null, delivery_date date, department_id number,
description null, description_footer null, description_long null, discount decimal, discount_kind string,
discount_net null, email_status null, exchange_currency null, exchange_currency_rate null,
exchange_currency_rate_den decimal, exchange_date null, exchange_difference decimal, exchange_kind string,
exchange_note string, exchange_rate decimal, exchange_rate_den decimal, exclude_from_accounting boolean,
exclude_from_stock_level boolean, fiscal_status null, from_api boolean, from_invoice_id null, has_attachments boolean,
income boolean, internal_note null, invoice_id null, invoice_template_id number, issue_date date, issue_year number,
issuer null, kind string, lang string, not_cost boolean, number string, oid null, paid decimal, paid_date null,
pattern string, pattern_nr null, pattern_nr_d null, pattern_nr_m number, payment_to date, payment_to_kind string,
payment_type null, payment_url string, place null, price_gross decimal, price_net decimal, price_tax decimal,
print_time timestamp, product_cache string, product_id null, recipient_id null, recipient_name null, recurring_id null,
reverse_charge boolean, sales_code string, sell_date date, sell_date_kind null, seller_bank null,
seller_bank_account string, seller_bank_account_id null, seller_city string, seller_country string, seller_email null,
seller_fax null, seller_name string, seller_person null, seller_phone null, seller_post_code string,
seller_street string, seller_tax_no string, seller_tax_no_kind null, seller_www null, sent_time timestamp,
show_attachments boolean, show_discount boolean, status string, tax2_visible boolean, test boolean, token string,
transaction_date date, updated_at timestamp, use_delivery_address boolean, use_issuer boolean, use_moss boolean,
warehouse_document_id null, warehouse_id null, exempt_tax_kind null, np_tax_kind null, gov_status null, gov_id null,
gov_send_date null, gov_sell_date null, gov_error_messages null, gov_verification_link null, gov_link null,
gov_corrected_invoice_number null`;

const POSITION_KEYS = `id number, invoice_id number, name string, description null, price_net decimal, quantity decimal,
total_price_gross decimal, total_price_net decimal, account_id number, created_at timestamp, updated_at timestamp,
additional_info null, quantity_unit null, tax string, price_gross decimal, price_tax decimal, total_price_tax decimal,
kind null, invoice_position_id null, product_id number, deleted boolean, discount null, discount_percent null,
tax2 string, exchange_rate decimal, accounting_tax_kind null, code null, additional_fields null`;

const CLIENT_KEYS = `accounting_id null, attachments_count number, balance decimal, bank null, bank_account null,
bank_account_id null, buyer_id null, category_id null, city string, company boolean, country string,
created_at timestamp, default_payment_type null, deleted boolean, delivery_address null, department_id null,
disable_auto_reminders boolean, discount null, dynamic_fields object, email string, external_id null, fax null,
femail null, first_name string, fname null, fuid null, import null, kind string, last_name string,
mass_payment_code null, mobile_phone null, name string, note null, panel_user_id null, password_hash null,
password_salt null, payment_to_kind null, person null, phone null, post_code string, referrer null,
register_number null, shortcut string, street string, street_no null, tax_no string, tax_no_check string,
tax_no_kind null, title null, token string, updated_at timestamp, use_delivery_address boolean,
use_mass_payment boolean, www null, id number`;

const PRODUCT_KEYS = `id number, name string, code string, ean_code string, description string, price_net decimal,
price_gross decimal, tax string, currency string, quantity_unit string, service boolean, category_id number,
stock_level decimal, token string, created_at timestamp, updated_at timestamp`;

const PAYMENT_KEYS = `id number, name string, price decimal, quantity decimal, currency string, paid boolean, paid_date date,
kind string, invoice_id number, client_id number, department_id number, product_id number, description string,
comment string, email string, first_name string, last_name string, phone string, street string, post_code string,
city string, country string, invoice_name string, invoice_tax_no string, invoice_street string,
invoice_post_code string, invoice_city string, invoice_country string, invoice_comment string, oid string,
promocode string, provider string, provider_response string, provider_status string, provider_title string,
deleted boolean, generate_invoice boolean, created_at timestamp, updated_at timestamp`;

const WAREHOUSE_DOCUMENT_KEYS = `id number, kind string, number string, warehouse_id number, issue_date date,
department_id number, department_name string, client_id number, client_name string, value_net decimal,
value_gross decimal, warehouse_actions array, created_at timestamp, updated_at timestamp`;

type KeyType = 'number' | 'string' | 'decimal' | 'date' | 'timestamp' | 'boolean' | 'object' | 'array' | 'null';

function keyList(text: string): [string, KeyType][] {
  return text.split(',').map((entry) => {
    const [key, type] = entry.trim().split(/\s+/) as [string, KeyType];
    return [key, type];
  });
}

const DECIMAL = /^-?\d+\.\d+$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?([+-]\d{2}:\d{2})$/;

/** What is wrong with one value of a recorded type; booleans, decimals and ids are never null. */
function problem(value: unknown, type: KeyType, key: string): string | undefined {
  if (value === null) {
    const neverNull = type === 'boolean' || type === 'decimal' || type === 'object' || type === 'array' || key === 'id' || key === 'created_at' || key === 'updated_at';
    return neverNull ? 'is null' : undefined;
  }
  switch (type) {
    case 'number':
      return Number.isInteger(value) ? undefined : `is ${JSON.stringify(value)}, not a number`;
    case 'string':
      return typeof value === 'string' ? undefined : `is ${JSON.stringify(value)}, not a string`;
    case 'decimal':
      return typeof value === 'string' && DECIMAL.test(value) ? undefined : `is ${JSON.stringify(value)}, not a decimal string`;
    case 'date':
      return typeof value === 'string' && DATE.test(value) ? undefined : `is ${JSON.stringify(value)}, not a date`;
    case 'timestamp':
      return typeof value === 'string' && TIMESTAMP.test(value) ? undefined : `is ${JSON.stringify(value)}, not a timestamp with a zone`;
    case 'boolean':
      return typeof value === 'boolean' ? undefined : `is ${JSON.stringify(value)}, not a boolean`;
    case 'object':
      return typeof value === 'object' && !Array.isArray(value) ? undefined : `is ${JSON.stringify(value)}, not an object`;
    case 'array':
      return Array.isArray(value) ? undefined : `is ${JSON.stringify(value)}, not an array`;
    case 'null':
      // Unset on the hosted service's recorded answers: null, or the value the record was given.
      return ['string', 'number', 'boolean'].includes(typeof value) || typeof value === 'object' ? undefined : `is ${JSON.stringify(value)}`;
  }
}

/** Every problem of one answer against a key list: missing keys and wrong types. */
function check(answer: Record<string, unknown>, keys: [string, KeyType][], where: string): string[] {
  const problems: string[] = [];
  for (const [key, type] of keys) {
    if (!(key in answer)) problems.push(`${where}: ${key} is missing`);
    else {
      const wrong = problem(answer[key], type, key);
      if (wrong) problems.push(`${where}: ${key} ${wrong}`);
    }
  }
  return problems;
}

let service: TestService;
let http: Api;

beforeAll(async () => {
  service = await startTestService({ seed: true });
  http = api(service);
  // Beside the seeded year of invoices: every kind of document this service makes, and nested parts.
  const post = async (invoice: Record<string, unknown>) => {
    const reply = await http.post('/invoices.json', { invoice });
    expect(reply.status, reply.text).toBe(201);
    return reply.body as { id: number; client_id: number };
  };
  const order = await post({ kind: 'proforma', buyer_first_name: 'Jan', buyer_last_name: 'Kowalski', buyer_company: false, positions: [{ name: 'Chair', tax: 8, price_net: '99.99', quantity: 4 }] });
  const advance = await post({ copy_invoice_from: order.id, kind: 'advance', advance_creation_mode: 'percent', advance_value: 25 });
  await post({ copy_invoice_from: order.id, kind: 'final', invoice_ids: [advance.id] });
  const vat = await post({ copy_invoice_from: order.id, kind: 'vat', recipients: [{ name: 'Odbiorca' }], descriptions: [{ content: 'Uwaga' }] });
  await post({
    kind: 'correction',
    from_invoice_id: vat.id,
    positions: [{ correction_before_attributes: { name: 'Chair', quantity: 4, price_net: '99.99', tax: 8 }, correction_after_attributes: { name: 'Chair', quantity: 3, price_net: '99.99', tax: 8 } }],
  });
  await http.post('/invoices/cancel.json', { cancel_invoice_id: advance.id, cancel_reason: 'test' });
  await post({ kind: 'vat', income: 0, buyer_name: 'Supplier', payment_to_kind: 'off', positions: [{ name: 'Paper', tax: 'zw', total_price_gross: 12, quantity: 1 }] });
});
afterAll(() => service.stop());

async function everyPage(path: string, query: Record<string, string | number> = {}): Promise<Record<string, unknown>[]> {
  const all: Record<string, unknown>[] = [];
  for (let page = 1; ; page += 1) {
    const reply = await http.get(path, { ...query, page, per_page: 100 });
    expect(reply.status, reply.text).toBe(200);
    all.push(...reply.body);
    if (reply.body.length < 100) return all;
  }
}

describe('every answer carries the hosted service key set, typed as recorded', () => {
  it('invoices and their positions, listed and read', async () => {
    const invoiceKeys = keyList(INVOICE_KEYS);
    const positionKeys = keyList(POSITION_KEYS);
    expect(invoiceKeys).toHaveLength(141);
    expect(positionKeys).toHaveLength(28);
    const listed = await everyPage('/invoices.json', { period: 'all', include_positions: 'true' });
    expect(listed.length).toBeGreaterThan(40);
    const problems: string[] = [];
    let positions = 0;
    for (const invoice of listed) {
      problems.push(...check(invoice, invoiceKeys, `invoice ${String(invoice.id)} (list)`));
      const read = (await http.get(`/invoices/${String(invoice.id)}.json`)).body as Record<string, unknown>;
      problems.push(...check(read, invoiceKeys, `invoice ${String(invoice.id)}`));
      for (const position of read.positions as Record<string, unknown>[]) {
        positions += 1;
        problems.push(...check(position, positionKeys, `position ${String(position.id)} of ${String(invoice.id)}`));
      }
      expect(read).toEqual({ ...invoice, positions: read.positions, descriptions: read.descriptions, settlement_positions: read.settlement_positions, recipients: read.recipients });
    }
    expect(problems).toEqual([]);
    expect(positions).toBeGreaterThan(listed.length);
    const kinds = new Set(listed.map((invoice) => invoice.kind));
    expect([...kinds].sort()).toEqual(['advance', 'correction', 'final', 'proforma', 'vat']);
    expect(listed.some((invoice) => invoice.cancelled === true)).toBe(true);
    expect(listed.every((invoice) => typeof invoice.payment_to_kind === 'string')).toBe(true);
  });

  it('values follow the record where the service knows them', async () => {
    const [invoice] = (await http.get('/invoices.json', { period: 'all', kind: 'proforma' })).body;
    const read = (await http.get(`/invoices/${String(invoice.id)}.json`)).body;
    expect(read).toMatchObject({
      issue_year: Number(read.issue_date.slice(0, 4)),
      buyer_company: false,
      client_company: false,
      buyer_person: 'Jan Kowalski',
      cancelled: false,
      attachments_count: 0,
      has_attachments: false,
      exchange_rate: '1.0',
      seller_fax: null,
      seller_www: null,
      seller_person: null,
      payment_to_kind: '7',
      product_cache: 'Chair',
      transaction_date: read.sell_date,
      from_api: true,
    });
    expect(read.positions[0]).toMatchObject({ tax2: '0', exchange_rate: '1.0', deleted: false, kind: null, created_at: read.created_at });
    const xml = await http.get(`/invoices/${String(invoice.id)}.xml`);
    expect(xml.text).toContain('<seller_fax nil="true"/>');
    expect(xml.text).toContain('<payment_to_kind>7</payment_to_kind>');
    expect(xml.body).toEqual(read);
  });

  it('clients, listed and read, with balance and shortcut from the record', async () => {
    const clientKeys = keyList(CLIENT_KEYS);
    expect(clientKeys).toHaveLength(55);
    const listed = await everyPage('/clients.json');
    const problems: string[] = [];
    for (const client of listed) {
      problems.push(...check(client, clientKeys, `client ${String(client.id)} (list)`));
      const read = (await http.get(`/clients/${String(client.id)}.json`)).body;
      problems.push(...check(read, clientKeys, `client ${String(client.id)}`));
      expect(read).toEqual(client);
      expect(client.shortcut).toBe(client.name);
    }
    expect(problems).toEqual([]);
    const created = await http.post('/clients.json', { client: { name: 'Balance Ltd', shortcut: 'Balance' } });
    const invoice = await http.post('/invoices.json', { invoice: { client_id: created.body.id, positions: [{ name: 'X', tax: 23, total_price_gross: '100.00', quantity: 1 }] } });
    await http.post('/banking/payments.json', { banking_payment: { name: 'X', price: '30.00', invoice_id: invoice.body.id, paid: true } });
    const read = (await http.get(`/clients/${String(created.body.id)}.json`)).body;
    expect(read).toMatchObject({ balance: '-70.0', shortcut: 'Balance', dynamic_fields: {}, deleted: false });
    expect((await http.get(`/clients/${String(created.body.id)}.xml`)).body).toEqual(read);
  });

  it('keeps the documented invoice and client fields as given, and answers them back', async () => {
    const invoice = await http.post('/invoices.json', {
      invoice: {
        kind: 'vat',
        seller_name: 'Radgost Sp. z o.o.',
        seller_tax_no: '525-244-57-67',
        seller_www: 'https://radgost.example',
        seller_fax: '22 000 00 01',
        seller_person: 'Imię Nazwisko',
        seller_tax_no_kind: '',
        buyer_name: 'Nazwa klienta',
        buyer_note: 'dodatkowy opis nabywcy',
        buyer_person: '',
        additional_info: '1',
        additional_info_desc: 'PKWiU',
        payment_type: 'transfer',
        payment_to_kind: 'other_date',
        payment_to: '2013-01-16',
        issue_date: '2013-01-16',
        description_footer: 'stopka',
        description_long: 'na odwrocie',
        internal_note: 'notatka prywatna',
        exclude_from_stock_level: true,
        use_oss: '1',
        reverse_charge: false,
        accounting_vat_tax_date: '2020-12-18',
        positions: [{ name: 'Fakturownia Start', quantity: '1', quantity_unit: 'szt', price_net: '59,00', tax: '23', additional_info: '62.01' }],
      },
    });
    expect(invoice.status, invoice.text).toBe(201);
    expect(invoice.body).toMatchObject({
      seller_www: 'https://radgost.example',
      seller_fax: '22 000 00 01',
      seller_person: 'Imię Nazwisko',
      buyer_note: 'dodatkowy opis nabywcy',
      buyer_person: '',
      additional_info: true,
      additional_info_desc: 'PKWiU',
      payment_type: 'transfer',
      payment_to_kind: 'other_date',
      payment_to: '2013-01-16',
      description_footer: 'stopka',
      description_long: 'na odwrocie',
      internal_note: 'notatka prywatna',
      exclude_from_stock_level: true,
      use_moss: true,
      accounting_vat_tax_date: '2020-12-18',
      accounting_income_tax_date: '2013-01-16',
      price_net: '59.0',
      price_gross: '72.57',
    });
    expect(invoice.body.positions[0]).toMatchObject({ additional_info: '62.01', quantity_unit: 'szt', price_gross: '72.57' });

    const client = await http.post('/clients.json', {
      client: {
        name: 'Klient testowy', shortcut: 'Klient', tax_no_kind: 'NIP', tax_no: '1234567890', register_number: '123456789',
        post_code: '00-100', city: 'Warszawa', street: 'Długa 1', country: 'PL', use_delivery_address: '1',
        delivery_address: 'Krótka 2', email: 'k@example.com', mobile_phone: '600 000 000', www: 'https://k.example', fax: '22 1',
        note: 'opis', company: '1', kind: 'buyer', discount: '10', payment_to_kind: '30', default_payment_type: 'transfer',
        disable_auto_reminders: '1', external_id: '77',
      },
    });
    expect(client.status, client.text).toBe(201);
    expect(client.body).toMatchObject({
      shortcut: 'Klient', tax_no_kind: 'NIP', register_number: '123456789', use_delivery_address: true, delivery_address: 'Krótka 2',
      mobile_phone: '600 000 000', www: 'https://k.example', fax: '22 1', discount: '10.0', payment_to_kind: '30',
      default_payment_type: 'transfer', disable_auto_reminders: true, company: true, balance: '0.0',
    });
    const updated = await http.put(`/clients/${String(client.body.id)}.json`, { client: { shortcut: 'K2', www: null } });
    expect(updated.body).toMatchObject({ shortcut: 'K2', www: null, fax: '22 1' });
  });

  it('products, payments and warehouse documents, listed and read', async () => {
    const problems: string[] = [];
    const walk = async (list: string, read: string, text: string, name: string) => {
      const keys = keyList(text);
      const listed = await everyPage(list);
      expect(listed.length, name).toBeGreaterThan(0);
      for (const record of listed) {
        problems.push(...check(record, keys, `${name} ${String(record.id)} (list)`));
        const one = (await http.get(`${read}/${String(record.id)}.json`)).body;
        problems.push(...check(one, keys, `${name} ${String(record.id)}`));
      }
    };
    await walk('/products.json', '/products', PRODUCT_KEYS, 'product');
    await walk('/banking/payments.json', '/banking/payment', PAYMENT_KEYS, 'payment');
    await walk('/warehouse_documents.json', '/warehouse_documents', WAREHOUSE_DOCUMENT_KEYS, 'warehouse document');
    expect(problems).toEqual([]);
  });
});
