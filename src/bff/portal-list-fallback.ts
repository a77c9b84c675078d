import { add, compare, decimal, minorUnits, sub, toFixed, ZERO, type Decimal } from '../kernel/money.js';
import type { Invoice, InvoiceListQuery } from '../api/schemas/invoice.js';
import type { Bff, BffContext } from './context.js';
import type { CustomerTotals } from '../contract/portal.js';
import type { ListRead, PortalListQuery } from './portal-list-read.js';
import { isOutstanding, matchesFilter } from './views.js';

const SERVICE_PAGE_SIZE = 100;
const LARGE_LIST = 500;
const LARGE_LIST_MS = 10_000;
const reading = new WeakMap<Bff, Map<string, Promise<Invoice[]>>>();

/**
 * The portal list for a service without the list extensions (`status=outstanding|overdue|…` and
 * `GET /invoices/summary`), such as the hosted one: every invoice of the customer is read, 100 at
 * a time, then filtered, sorted, counted and totalled here. It costs one service call per 100
 * invoices, so large lists (500 or more) are kept in the cache store for 10 s while the customer
 * pages through them, and concurrent requests share one read. At most `maxInvoicesPerClient` are read.
 */
export async function readWholeList(bff: Bff, c: BffContext, clientId: number, query: PortalListQuery, today: string): Promise<ListRead> {
  const all = await ownInvoices(bff, c, clientId, query.period ?? 'all');
  const search = query.search?.toLowerCase();
  const [field, direction] = (query.order ?? 'issue_date.desc').split('.') as [string, string?];
  const sign = direction === 'desc' ? -1 : 1;
  const matching = all
    .filter((invoice) => matchesFilter(invoice, query.status, today))
    .filter((invoice) => !search || invoice.number.toLowerCase().includes(search))
    .sort((a, b) => sign * compareBy(field, a, b) || sign * (a.id - b.id));
  const start = (query.page - 1) * query.per_page;
  const invoices = matching.slice(start, start + query.per_page);
  if (!query.totals) return { invoices };
  // What the customer owes does not depend on the period chosen: read it over all of them.
  const everything = query.period && query.period !== 'all' ? await ownInvoices(bff, c, clientId, 'all') : all;
  return { invoices, total: matching.length, totals: totalsOf(everything.filter((invoice) => matchesFilter(invoice, undefined, today)), today) };
}

export function totalsOf(invoices: Invoice[], today: string): CustomerTotals[] {
  const sums = new Map<string, { outstanding: Decimal; overdue: Decimal; outstanding_count: number; overdue_count: number }>();
  for (const invoice of invoices) {
    const entry = sums.get(invoice.currency) ?? { outstanding: ZERO, overdue: ZERO, outstanding_count: 0, overdue_count: 0 };
    sums.set(invoice.currency, entry);
    if (!isOutstanding(invoice)) continue;
    const left = sub(decimal(invoice.price_gross), decimal(invoice.paid));
    entry.outstanding = add(entry.outstanding, left);
    entry.outstanding_count += 1;
    if (invoice.payment_to && invoice.payment_to < today) {
      entry.overdue = add(entry.overdue, left);
      entry.overdue_count += 1;
    }
  }
  return [...sums]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([currency, each]) => ({
      currency,
      outstanding: toFixed(each.outstanding, minorUnits(currency)),
      outstanding_count: each.outstanding_count,
      overdue: toFixed(each.overdue, minorUnits(currency)),
      overdue_count: each.overdue_count,
    }));
}

async function ownInvoices(bff: Bff, c: BffContext, clientId: number, period: string): Promise<Invoice[]> {
  const key = `portal-list:${clientId}:${period}`;
  const kept = (await bff.cache.get(key)) as Invoice[] | undefined;
  if (kept) return kept;
  let running = reading.get(bff);
  if (!running) reading.set(bff, (running = new Map()));
  let read = running.get(key);
  if (!read) {
    read = readAll(bff, c, clientId, period).finally(() => running.delete(key));
    running.set(key, read);
    const invoices = await read;
    if (invoices.length >= LARGE_LIST) await bff.cache.set(key, invoices, LARGE_LIST_MS);
    return invoices;
  }
  return read;
}

async function readAll(bff: Bff, c: BffContext, clientId: number, period: string): Promise<Invoice[]> {
  const maxInvoices = bff.options.maxInvoicesPerClient ?? 20_000;
  const all: Invoice[] = [];
  for (let page = 1; all.length < maxInvoices; page += 1) {
    const query: InvoiceListQuery = { client_id: clientId, page, per_page: SERVICE_PAGE_SIZE, period: period as InvoiceListQuery['period'] };
    const batch = await bff.service(c, 'invoices.list', (call) => bff.client.invoices.list(query, call));
    // The filter is asked of the service and checked again on every record.
    for (const invoice of batch) if (invoice.client_id === clientId) all.push(invoice);
    if (batch.length < SERVICE_PAGE_SIZE) return all;
  }
  bff.emit({ level: 'warn', msg: 'portal list truncated', request_id: c.get('requestId'), client_id: clientId, limit: maxInvoices });
  return all;
}

function compareBy(field: string, a: Invoice, b: Invoice): number {
  if (field === 'price_gross') return compare(decimal(a.price_gross), decimal(b.price_gross));
  const x = (field === 'payment_to' ? a.payment_to : a.issue_date) ?? '';
  const y = (field === 'payment_to' ? b.payment_to : b.issue_date) ?? '';
  return x < y ? -1 : x > y ? 1 : 0;
}
