import type { Invoice } from '../api/schemas/invoice.js';
import type { PERIODS } from '../api/schemas/invoice.js';
import { add, compare, decimal, toPlain, ZERO, type Decimal } from '../api/money.js';
import { todayIn, type Bff, type BffContext } from './context.js';
import type { PortalListQuery } from './routes/portal-invoices.js';
import { customerInvoice, customerStatus, outstandingOf, type CustomerInvoice } from './views.js';

export const PORTAL_ORDER_FIELDS = ['issue_date', 'payment_to', 'price_gross'] as const;
const SERVICE_PAGE_SIZE = 100;
const LARGE_LIST = 500;
const LARGE_LIST_MS = 10_000;

export interface PortalListPage {
  data: CustomerInvoice[];
  page: number;
  per_page: number;
  total: number;
  total_pages: number;
  totals: { currency: string; outstanding: string; overdue: string }[];
}

/** Answers one page of a customer's invoices, with what they owe per currency. */
export function portalList(bff: Bff): (c: BffContext, clientId: number, query: PortalListQuery) => Promise<PortalListPage> {
  const maxInvoices = bff.options.maxInvoicesPerClient ?? 20_000;
  /**
   * A customer with thousands of invoices scrolls through them a page at a time; reading them all
   * from the service for every page would be slow, so large lists are kept for a few seconds.
   * Small lists, where a fresh status right after paying matters most, are always read anew.
   */
  const largeLists = new Map<string, { until: number; invoices: Promise<Invoice[]> }>();

  async function ownInvoices(c: BffContext, clientId: number, query: PortalListQuery): Promise<Invoice[]> {
    const key = `${clientId}|${query.period ?? 'all'}|${query.status === 'paid' ? 'paid' : ''}`;
    const kept = largeLists.get(key);
    if (kept && kept.until > Date.now()) return kept.invoices;
    const reading = readOwnInvoices(c, clientId, query);
    const invoices = await reading;
    if (invoices.length >= LARGE_LIST) {
      for (const [k, entry] of largeLists) if (entry.until <= Date.now()) largeLists.delete(k);
      largeLists.set(key, { until: Date.now() + LARGE_LIST_MS, invoices: reading });
    }
    return invoices;
  }

  async function readOwnInvoices(c: BffContext, clientId: number, query: PortalListQuery): Promise<Invoice[]> {
    const all: Invoice[] = [];
    for (let page = 1; all.length < maxInvoices; page += 1) {
      const batch = await bff.service(c, 'invoices.list', (signal) =>
        bff.client.invoices.list(
          {
            client_id: clientId,
            page,
            per_page: SERVICE_PAGE_SIZE,
            period: (query.period ?? 'all') as (typeof PERIODS)[number],
            ...(query.status === 'paid' ? { status: 'paid' as const } : {}),
          },
          { signal },
        ),
      );
      // The filter is asked of the service and checked again on every record.
      for (const invoice of batch) if (invoice.client_id === clientId && invoice.status !== 'rejected') all.push(invoice);
      if (batch.length < SERVICE_PAGE_SIZE) return all;
    }
    bff.emit({ level: 'warn', msg: 'portal list truncated', request_id: c.get('requestId'), client_id: clientId, limit: maxInvoices });
    return all;
  }

  return async (c, clientId, query) => {
    const today = todayIn(bff.timeZone);
    const search = query.search?.toLowerCase();
    const [field, direction] = (query.order ?? 'issue_date.desc').split('.') as [(typeof PORTAL_ORDER_FIELDS)[number], string?];
    const sign = direction === 'desc' ? -1 : 1;

    const matching = (await ownInvoices(c, clientId, query))
      .filter((invoice) => !query.status || customerStatus(invoice, today) === query.status)
      .filter((invoice) => !search || invoice.number.toLowerCase().includes(search))
      .sort((a, b) => sign * compareBy(field, a, b) || sign * (a.id - b.id));

    const totals = new Map<string, { outstanding: Decimal; overdue: Decimal }>();
    for (const invoice of matching) {
      const entry = totals.get(invoice.currency) ?? { outstanding: ZERO, overdue: ZERO };
      const left = decimal(outstandingOf(invoice));
      entry.outstanding = add(entry.outstanding, left);
      if (customerStatus(invoice, today) === 'overdue') entry.overdue = add(entry.overdue, left);
      totals.set(invoice.currency, entry);
    }
    const start = (query.page - 1) * query.per_page;
    return {
      data: matching.slice(start, start + query.per_page).map((invoice) => customerInvoice(invoice, today, bff.basePath)),
      page: query.page,
      per_page: query.per_page,
      total: matching.length,
      total_pages: Math.ceil(matching.length / query.per_page),
      totals: [...totals].map(([currency, sums]) => ({ currency, outstanding: toPlain(sums.outstanding), overdue: toPlain(sums.overdue) })),
    };
  };
}

function compareBy(field: (typeof PORTAL_ORDER_FIELDS)[number], a: Invoice, b: Invoice): number {
  if (field === 'price_gross') return compare(decimal(a.price_gross), decimal(b.price_gross));
  const x = (field === 'payment_to' ? a.payment_to : a.issue_date) ?? '';
  const y = (field === 'payment_to' ? b.payment_to : b.issue_date) ?? '';
  return x < y ? -1 : x > y ? 1 : 0;
}
