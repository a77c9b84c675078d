import { decimal, mul, toFixed } from '../kernel/money.js';
import { sealedTokenByPrefix } from './accounts.js';
import { createServiceApp } from './app.js';
import type { Database } from './db.js';
import { addDays } from './invoicing/numbering.js';
import { todayText } from './store.js';
import { decideTax, invoiceTaxFields, type TaxDecision } from '../kernel/tax/index.js';
import { openSecret } from './secrets/keyring.js';
import type { Registries } from '../server-kit/registries/index.js';

/**
 * Believable sample data for a new demo account: a small studio that sells design work, a few
 * physical goods and subscriptions, with a year of invoices in every state. Everything goes through
 * the service's own HTTP routes, so seeded records obey exactly the rules API records do.
 */
export const SEED_PRODUCTS = [
  { name: 'Logo design', code: 'DES-LOGO', price_gross: '1845.00', tax: '23', token: 'logo-design', service: true, supply_kind: 'service', quantity_unit: 'usł.' },
  { name: 'Website audit', code: 'WEB-AUDIT', price_gross: '615.00', tax: '23', token: 'website-audit', service: true, supply_kind: 'service', quantity_unit: 'usł.' },
  { name: 'Brand workshop (half day)', code: 'DES-WS', price_gross: '2460.00', tax: '23', token: 'brand-workshop', service: true, supply_kind: 'service', quantity_unit: 'usł.' },
  { name: 'Printed style guide', code: 'PRN-GUIDE', price_gross: '129.00', tax: '8', token: 'style-guide', service: false, supply_kind: 'goods', quantity_unit: 'szt.' },
  { name: 'Coffee beans, 1 kg', code: 'COF-1KG', price_gross: '89.90', tax: '5', token: 'coffee-beans', service: false, supply_kind: 'goods', quantity_unit: 'kg' },
  // Web hosting is an electronically supplied service (directive 2006/112/EC, annex II point 1).
  { name: 'Hosting, monthly', code: 'HOST-M', price_gross: '49.00', tax: '23', token: 'hosting-monthly', service: true, supply_kind: 'electronic_service', quantity_unit: 'mies.' },
] as const;

/**
 * Sold abroad, in other currencies: the shop shows that a zero-decimal currency (JPY) is priced right.
 * Their rate is the Polish one a Polish invoice carries; where the buyer's country changes it, the tax
 * engine decides at the sale.
 */
export const SEED_FOREIGN_PRODUCTS = [
  { name: 'Brand workshop (remote, EU)', code: 'DES-WS-EU', price_gross: '590.00', tax: '23', currency: 'EUR', token: 'brand-workshop-eur', service: true, supply_kind: 'service', quantity_unit: 'usł.' },
  { name: 'Logo licence, Japan', code: 'LIC-JP', price_gross: '15000', tax: '23', currency: 'JPY', token: 'logo-licence-jpy', service: true, supply_kind: 'service', quantity_unit: 'usł.' },
] as const;

export const SEED_CLIENTS = [
  { name: 'Zażółć Gęślą Jaźń Sp. z o.o.', tax_no: '7010012356', email: 'faktury@zazolc.example', city: 'Kraków', post_code: '31-042', street: 'Rynek Główny 12', country: 'PL', external_id: 'cust-1001' },
  { name: 'Northwind Traders Ltd', tax_no: 'GB980780684', email: 'accounts@northwind.example', city: 'London', post_code: 'EC1A 1BB', street: '1 Market Street', country: 'GB', external_id: 'cust-1002' },
  { name: 'Kawiarnia pod Lipami', tax_no: '5261040828', email: 'kontakt@podlipami.example', city: 'Gdańsk', post_code: '80-831', street: 'ul. Długa 5', country: 'PL', external_id: 'cust-1003' },
  { name: 'Acme Robotics GmbH', tax_no: 'DE811907980', email: 'billing@acme-robotics.example', city: 'Berlin', post_code: '10115', street: 'Invalidenstraße 7', country: 'DE', external_id: 'cust-1004' },
  { name: 'Anna Nowak', email: 'anna.nowak@mail.example', city: 'Poznań', post_code: '61-001', street: 'ul. Święty Marcin 3', country: 'PL', external_id: 'cust-1005', first_name: 'Anna', last_name: 'Nowak' },
  { name: 'Lumen Coffee Roasters S.A.', tax_no: '5213000104', email: 'ap@lumen-coffee.example', city: 'Wrocław', post_code: '50-001', street: 'ul. Świdnicka 20', country: 'PL', external_id: 'cust-1006' },
] as const;

/** The regular customer: a monthly subscription and coffee orders for two years, enough to page through. */
const REGULAR_CLIENT = SEED_CLIENTS.length - 1;
const REGULAR_INVOICES = 64;

interface Scenario {
  client: number;
  daysAgo: number;
  lines: [product: number, quantity: number][];
  paid?: 'full' | 'part';
  currency?: string;
}

/** A year of invoices: paid, partly paid, unpaid and overdue, for every client. */
function scenarios(): Scenario[] {
  const list: Scenario[] = [];
  for (let i = 0; i < 36; i += 1) {
    const client = i % REGULAR_CLIENT;
    const daysAgo = 3 + Math.floor((i * 353) / 36);
    const lines: [number, number][] = [[i % SEED_PRODUCTS.length, 1 + (i % 3)]];
    if (i % 4 === 0) lines.push([(i + 3) % SEED_PRODUCTS.length, 1]);
    const paid = daysAgo > 40 ? (i % 7 === 0 ? undefined : 'full') : i % 3 === 0 ? 'part' : i % 3 === 1 ? 'full' : undefined;
    list.push({ client, daysAgo, lines, ...(paid ? { paid } : {}), ...(client === 3 ? { currency: 'EUR' } : {}) });
  }
  for (let i = 0; i < REGULAR_INVOICES; i += 1) {
    const daysAgo = 2 + Math.floor((i * 720) / REGULAR_INVOICES);
    const lines: [number, number][] = i % 2 === 0 ? [[5, 1]] : [[4, 2 + (i % 5)], [5, 1]];
    const paid = i < 2 ? undefined : i === 2 ? 'part' : i === 5 || i === 6 ? undefined : 'full';
    list.push({ client: REGULAR_CLIENT, daysAgo, lines, ...(paid ? { paid } : {}) });
  }
  // Oldest first, so numbers grow with dates as they do in a real account.
  return list.sort((a, b) => b.daysAgo - a.daysAgo);
}

/**
 * A foreign company's invoices carry services only, so that each is one case of the tax engine
 * (a service to Acme in Germany is a reverse charge, to Northwind in Britain `np` under art. 28b).
 */
function abroad(scenario: Scenario): Scenario['lines'] {
  if (SEED_CLIENTS[scenario.client].country === 'PL') return scenario.lines;
  return scenario.lines.map(([product, quantity]) => [SEED_PRODUCTS[product].service ? product : 1, quantity]);
}

/** How a sale of a seeded product to a seeded client is taxed (demo numbers count as VIES-valid). */
function saleDecision(client: number, product: number): TaxDecision {
  const buyer = SEED_CLIENTS[client];
  const taxNo = 'tax_no' in buyer ? buyer.tax_no : null;
  return decideTax({
    sellerCountry: 'PL',
    ossRegistered: false,
    supply: SEED_PRODUCTS[product].supply_kind,
    domesticRate: SEED_PRODUCTS[product].tax,
    buyer: { country: buyer.country, company: taxNo !== null, vatNumber: taxNo, vies: 'valid' },
  });
}

export async function seedDemoAccount(db: Database, prefix: string, registries?: Registries): Promise<void> {
  const sealed = await sealedTokenByPrefix(db, prefix);
  const token = sealed !== undefined ? openSecret(sealed) : undefined;
  if (!token) return;
  const app = createServiceApp({ db, integrationToken: '', publicUrl: 'http://127.0.0.1', registries });
  const call = async (method: string, path: string, body?: Record<string, unknown>): Promise<Record<string, unknown>> => {
    const response = await app.request(path, {
      method,
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ api_token: token, ...body }),
    });
    if (response.status >= 300) throw new Error(`seeding ${method} ${path} failed: ${response.status} ${await response.text()}`);
    return (await response.json()) as Record<string, unknown>;
  };

  const category = await call('POST', '/categories.json', { category: { name: 'Studio services', description: 'Design and web work' } });
  const productIds: number[] = [];
  const netPrices: string[] = [];
  for (const product of SEED_PRODUCTS) {
    const created = await call('POST', '/products.json', {
      product: { ...product, category_id: product.service ? category.id : null },
    });
    productIds.push(created.id as number);
    netPrices.push(String(created.price_net));
  }
  for (const product of SEED_FOREIGN_PRODUCTS) await call('POST', '/products.json', { product: { ...product, category_id: category.id } });
  const clientIds: number[] = [];
  for (const client of SEED_CLIENTS) clientIds.push((await call('POST', '/clients.json', { client })).id as number);

  const today = todayText();
  for (const [index, scenario] of scenarios().entries()) {
    const issueDate = addDays(today, -scenario.daysAgo);
    const lines = abroad(scenario);
    const decision = saleDecision(scenario.client, lines[0]![0]);
    const invoice = await call('POST', '/invoices.json', {
      invoice: {
        ...invoiceTaxFields(decision),
        issue_date: issueDate,
        sell_date: issueDate,
        payment_to_kind: 14,
        client_id: clientIds[scenario.client],
        currency: scenario.currency ?? 'PLN',
        lang: scenario.currency === 'EUR' || decision.case !== 'domestic' ? 'en' : 'pl',
        oid: `demo-order-${1000 + index}`,
        positions: lines.map(([product, quantity]) => {
          const rate = saleDecision(scenario.client, product).rate;
          return { product_id: productIds[product], quantity, ...(rate === SEED_PRODUCTS[product].tax ? {} : { tax: rate, price_net: netPrices[product] }) };
        }),
      },
    });
    if (scenario.paid) {
      const gross = String(invoice.price_gross);
      const price = scenario.paid === 'full' ? gross : toFixed(mul(decimal(gross), decimal('0.4')), 2);
      await call('POST', '/banking/payments.json', {
        banking_payment: {
          name: `Payment for ${String(invoice.number)}`,
          price,
          invoice_id: invoice.id,
          paid: true,
          paid_date: addDays(issueDate, 5),
          kind: 'api',
          currency: invoice.currency,
        },
      });
    }
  }

  const warehouses = (await (await app.request(`/warehouses.json?api_token=${encodeURIComponent(token)}`)).json()) as { id: number }[];
  await call('POST', '/warehouse_documents.json', {
    warehouse_document: {
      kind: 'pz',
      warehouse_id: warehouses[0]?.id,
      issue_date: addDays(today, -30),
      warehouse_actions: [
        { product_id: productIds[3], quantity: 40, price_net: '60.00', tax: '8' },
        { product_id: productIds[4], quantity: 25, price_net: '45.00', tax: '5' },
      ],
    },
  });
}
