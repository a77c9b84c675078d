import { afterAll, beforeAll, expect, it } from 'vitest';
import { isPolishInvoiceRate } from '../../src/kernel/tax/index.js';
import { startTestService, type TestService } from '../helpers/service.js';

/** The demo's data is taxed as the law and the tax engine say. */

let service: TestService;
const get = async <T>(path: string): Promise<T> => (await fetch(`${service.url}${path}${path.includes('?') ? '&' : '?'}api_token=${service.apiToken}`)).json() as Promise<T>;

beforeAll(async () => {
  service = await startTestService({ seed: true });
});
afterAll(() => service.stop());

it('sells goods, services and an electronically supplied service, each at a rate a Polish invoice may carry', async () => {
  const products = await get<{ token: string; tax: string; service: boolean; supply_kind: string }[]>('/products.json?per_page=100');
  expect(products.map((p) => [p.token, p.tax, p.service, p.supply_kind])).toEqual([
    ['logo-design', '23', true, 'service'],
    ['website-audit', '23', true, 'service'],
    ['brand-workshop', '23', true, 'service'],
    ['style-guide', '8', false, 'goods'],
    ['coffee-beans', '5', false, 'goods'],
    ['hosting-monthly', '23', true, 'electronic_service'],
    ['brand-workshop-eur', '23', true, 'service'],
    ['logo-licence-jpy', '23', true, 'service'],
  ]);
  expect(products.every((p) => isPolishInvoiceRate(p.tax))).toBe(true);
});

it('invoices the German company by reverse charge and the British one by art. 28b, never at Polish VAT', async () => {
  type Listed = { buyer_country: string; kind: string; np_tax_kind?: string; reverse_charge: boolean; price_tax: string; positions: { tax: string }[] };
  const invoices = await get<Listed[]>('/invoices.json?per_page=100&include_positions=true');
  const abroad = (country: string) => invoices.filter((i) => i.buyer_country === country);
  expect(abroad('DE')).toHaveLength(7);
  expect(abroad('GB')).toHaveLength(7);
  for (const invoice of abroad('DE')) {
    expect(invoice).toMatchObject({ kind: 'vat', np_tax_kind: 'export_service_eu', reverse_charge: true, price_tax: '0.0' });
    expect(new Set(invoice.positions.map((p) => p.tax))).toEqual(new Set(['np']));
  }
  for (const invoice of abroad('GB')) {
    expect(invoice).toMatchObject({ kind: 'vat', np_tax_kind: 'export_service', reverse_charge: false, price_tax: '0.0' });
    expect(new Set(invoice.positions.map((p) => p.tax))).toEqual(new Set(['np']));
  }
});

it('issues its euro invoices with their NBP rate already set, never waiting on a register it could not reach', async () => {
  type Listed = { currency: string; exchange_kind: string; exchange_currency_rate: string | null; exchange_table?: string; exchange_rate_pending?: boolean; attention?: string };
  const invoices = await get<Listed[]>('/invoices.json?per_page=100&period=all');
  const euro = invoices.filter((i) => i.currency === 'EUR');
  expect(euro.length).toBeGreaterThan(0);
  for (const invoice of euro) {
    expect(invoice.exchange_kind).toBe('nbp');
    expect(invoice.exchange_currency_rate).toMatch(/^\d+\.\d+$/);
    expect(invoice.exchange_table).toMatch(/^\d+\/A\/NBP\/\d{4}$/);
    expect(invoice.exchange_rate_pending ?? null).toBeNull();
    expect(invoice.attention ?? null).toBeNull();
  }
});
