import { createInvoicingClient } from '../../src/api/client.js';
import type { Invoice } from '../../src/api/schemas/invoice.js';
import type { BffLogEntry } from '../../src/bff/logger.js';
import { startBff, type RunningBff, type StartBffOptions } from '../../src/bff/node.js';
import { startTestService } from '../helpers/service.js';

export const PORTAL_SECRET = 'portal-secret-for-tests-0123456789abcdef';
export const SHOP_ORIGIN = 'http://shop.example.test';
export const PRODUCT_TOKEN = 'ebook-2026';

export type Service = Awaited<ReturnType<typeof startTestService>>;
export type Api = ReturnType<typeof createInvoicingClient>;

/** One account with two customers, A and B, their invoices in every customer-visible state and a product. */
export interface Seed {
  clientA: number;
  clientB: number;
  productId: number;
  /** By number: ALPHA-001 … ALPHA-005 (005 is rejected), BETA-001, BETA-002. */
  invoices: Record<string, Invoice>;
}

export async function startService(): Promise<{ service: Service; api: Api }> {
  const service = await startTestService({ seed: false });
  const api = createInvoicingClient({ baseUrl: service.url, apiToken: service.apiToken, retry: 0 });
  return { service, api };
}

function invoiceInput(clientId: number, number: string, gross: string, paymentTo: string, extra: Record<string, unknown> = {}) {
  return {
    kind: 'vat' as const,
    number,
    client_id: clientId,
    issue_date: extra['issue_date'] as string ?? '2026-01-10',
    sell_date: '2026-01-10',
    payment_to_kind: 'other_date' as const,
    payment_to: paymentTo,
    currency: 'PLN',
    description: 'Internal note: do not show the customer',
    positions: [{ name: 'Consulting', tax: '23', quantity: '1', total_price_gross: gross }],
    ...extra,
  };
}

export async function seed(api: Api): Promise<Seed> {
  const a = await api.clients.create({ name: 'Alpha Sp. z o.o.', email: 'alpha@example.com', city: 'Kraków', note: 'VIP: secret discount', external_id: 'crm-a' });
  const b = await api.clients.create({ name: 'Beta GmbH', email: 'beta@example.com', city: 'Berlin', note: 'Beta internal' });
  const product = await api.products.create({ name: 'E-book: Invoicing done right', price_net: '40.65', tax: '23', currency: 'PLN', token: PRODUCT_TOKEN });
  const specs: [number, string, string, string, Record<string, unknown>][] = [
    [a.id, 'ALPHA-001', '100.00', '2026-01-24', { status: 'paid', paid: '100.00', issue_date: '2026-01-10' }],
    [a.id, 'ALPHA-002', '250.50', '2099-12-31', { status: 'partial', paid: '40.00', issue_date: '2026-02-10' }],
    [a.id, 'ALPHA-003', '75.00', '2099-12-31', { issue_date: '2026-03-10' }],
    [a.id, 'ALPHA-004', '999.99', '2020-02-01', { issue_date: '2020-01-18' }],
    [a.id, 'ALPHA-005', '10.00', '2099-12-31', { status: 'rejected', issue_date: '2026-01-05' }],
    [b.id, 'BETA-001', '500.00', '2099-12-31', {}],
    [b.id, 'BETA-002', '20.00', '2020-01-01', {}],
  ];
  const invoices: Record<string, Invoice> = {};
  for (const [clientId, number, gross, due, extra] of specs) {
    invoices[number] = await api.invoices.create(invoiceInput(clientId, number, gross, due, extra));
  }
  return { clientA: a.id, clientB: b.id, productId: product.id, invoices };
}

export interface TestBff extends RunningBff {
  logs: BffLogEntry[];
  base: string;
}

export async function startTestBff(service: Service, options: Partial<StartBffOptions> = {}): Promise<TestBff> {
  const logs: BffLogEntry[] = [];
  const bff = await startBff({
    serviceUrl: service.url,
    apiToken: service.apiToken,
    portalSecret: PORTAL_SECRET,
    allowedOrigins: [SHOP_ORIGIN],
    logger: (entry) => logs.push(entry),
    ...options,
  });
  return { ...bff, logs, base: `${bff.url}/bff` };
}

// Tests read answers loosely on purpose; each assertion states the shape it expects.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function json(response: Response): Promise<any> {
  const text = await response.text();
  return text ? JSON.parse(text) : undefined;
}

export function bearer(token: string): Record<string, string> {
  return { authorization: `Bearer ${token}` };
}
