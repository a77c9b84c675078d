import type { InvoicePage } from '../api/resources/invoices.js';
import type { EInvoiceFormat } from '../api/schemas/einvoice.js';
import type { InvoiceListQuery, InvoiceSummary } from '../api/schemas/invoice.js';
import { todayIn, type Bff, type BffContext } from './context.js';
import { BoundedMap } from '../server-kit/bounded-map.js';
import { BffError } from './errors.js';
import { einvoiceFormatOf, einvoiceLinks } from './portal-einvoice.js';
import { readWholeList } from './portal-list-fallback.js';
import type { CustomerTotals, PortalListPage } from '../contract/portal.js';
import type { ListRead, PortalListQuery } from './portal-list-read.js';
import { CUSTOMER_INVOICE_FIELDS, customerInvoice, type CustomerInvoiceSource } from './views.js';

export { PORTAL_ORDER_FIELDS } from '../contract/portal.js';
export type { CustomerTotals, ListRead, PortalListPage, PortalListQuery };
/** How long a service without the list extensions is taken at its word before it is asked again. */
const PROBE_AGAIN_MS = 10 * 60_000;
/** First pages held with their entity tags, per BFF process; the oldest makes room for a new one. */
const HELD_PAGES = 500;

/** A first page the service tagged, with the service's write count read before it was asked for (in its process). */
interface HeldPage {
  etag: string;
  page: InvoicePage<(typeof CUSTOMER_INVOICE_FIELDS)[number]>;
  writes: number | string | undefined;
}

/**
 * Answers one page of a customer's invoices. Filters, order and paging go to the service, which
 * reads one page; the count and the customer's totals come from its summary (`GET
 * /invoices/summary`), one aggregate query each. A service without these extensions (the hosted
 * one answers 404) gets the bounded whole-list read of `portal-list-fallback.ts` instead.
 * Identical reads that arrive together share one call to the service. Each row links the invoice
 * as an e-invoice in the customer's format, read from their client record once per page.
 */
export function portalList(bff: Bff): (c: BffContext, clientId: number, query: PortalListQuery) => Promise<PortalListPage> {
  const inFlight = new Map<string, Promise<unknown>>();
  let extensionsMissingSince = 0;
  /** Set once the service answered a list asked with `summary=true` without its summary (an older service). */
  let pageSummaryMissing = false;
  /**
   * First pages the service tagged (`ETag`), by customer and query. Each is asked again with its
   * tag; while the service answers 304 the held page is its answer, read and checked once. Nothing
   * is answered from here without the service saying it is current, so a change made anywhere
   * shows on the next request, and a process's pages need no sharing with other processes.
   */
  /** The customer's view of the rows of a held page, by the page's rows: gone with the page. */
  const shaped = new WeakMap<CustomerInvoiceSource[], { today: string; rows: PortalListPage['data'] }>();
  const heldPages = new BoundedMap<string, HeldPage>(HELD_PAGES);
  const writeCount = bff.options.serviceWriteCount;
  /** Customers' e-invoice formats with the write count read before each was asked for: kept while the count stands, as held pages are. */
  const heldFormats = new BoundedMap<number, { format: EInvoiceFormat | null; writes: number | string }>(HELD_PAGES);

  /** The customer's e-invoice format: from the service, or held while the service's write count stands where it stood. */
  async function formatOf(c: BffContext, clientId: number): Promise<EInvoiceFormat | null> {
    const writes = await writeCount?.();
    const held = heldFormats.get(clientId);
    if (held && writes !== undefined && held.writes === writes) return held.format;
    const format = await einvoiceFormatOf(bff, c, clientId);
    if (writes !== undefined) heldFormats.set(clientId, { format, writes });
    return format;
  }

  /**
   * The first page and its summary in one call, asked with the tag of the page held for `key`, if
   * any. Where the BFF knows the service's write count (`serviceWriteCount`), a held page is answered
   * without a call while the count stands where it stood before the page was asked for: the service
   * tags only an answer read while nothing was written, so it would answer 304.
   */
  async function currentPage(c: BffContext, key: string, pageQuery: InvoiceListQuery) {
    const listPage = bff.client.invoices.listPage!;
    const held = heldPages.get(key);
    const writes = await writeCount?.();
    if (held && writes !== undefined && held.writes === writes) {
      heldPages.set(key, held);
      return held.page;
    }
    const answered = await bff.service(c, 'invoices.list', (call) =>
      held ? listPage(CUSTOMER_INVOICE_FIELDS, pageQuery, { ...call, ifNoneMatch: held.etag }) : listPage(CUSTOMER_INVOICE_FIELDS, pageQuery, call),
    );
    // The service answers 304 only to the tag it was sent: the page held is still current.
    const page = answered.notModified ? held!.page : answered;
    // Kept (again) as the newest: a page used is held longest. The count is the one read before the
    // call: a write since then moves it, and the next request asks the service again.
    if (page.etag && page.summary) heldPages.set(key, { etag: page.etag, page, writes });
    else heldPages.delete(key);
    return page;
  }

  /** Runs `read` once for all concurrent callers asking for the same `key`. */
  function shared<T>(key: string, read: () => Promise<T>): Promise<T> {
    let reading = inFlight.get(key) as Promise<T> | undefined;
    if (!reading) {
      reading = read().finally(() => inFlight.delete(key));
      inFlight.set(key, reading);
    }
    return reading;
  }

  function serviceQuery(clientId: number, query: PortalListQuery, today: string): InvoiceListQuery {
    const order = query.order ?? 'issue_date.desc';
    return {
      client_id: clientId,
      period: (query.period ?? 'all') as InvoiceListQuery['period'],
      status: query.status ?? 'active',
      today,
      ...(query.search ? { number_contains: query.search } : {}),
      // The service's default order is issue_date.desc, the one its index serves best.
      ...(order === 'issue_date.desc' ? {} : { order: order as InvoiceListQuery['order'] }),
    };
  }

  function summary(c: BffContext, clientId: number, query: InvoiceListQuery): Promise<InvoiceSummary> {
    const { invoices } = bff.client;
    if (!invoices.summary) throw new BffError(404, 'not_found', 'The service has no summary.');
    return shared(`summary:${clientId}:${JSON.stringify(query)}`, () =>
      bff.service(c, 'invoices.summary', (call) => invoices.summary!(query, call)),
    );
  }

  async function readPage(c: BffContext, clientId: number, query: PortalListQuery, today: string): Promise<ListRead> {
    const filters = serviceQuery(clientId, query, today);
    const customerWide = { ...serviceQuery(clientId, { page: 1, per_page: 1, totals: true }, today), order: undefined };
    // The count and the customer's totals are one summary when no filter narrows the list.
    const unfiltered = JSON.stringify({ ...filters, order: undefined }) === JSON.stringify(customerWide);
    const pageQuery = { ...filters, page: query.page, per_page: query.per_page };
    const { listFields, listPage } = bff.client.invoices;
    const owed = query.totals && !unfiltered ? summary(c, clientId, customerWide) : undefined;
    if (query.totals && listPage && !pageSummaryMissing) {
      // Our service answers the page and the summary of its query in one call.
      const key = `${clientId}:${JSON.stringify(pageQuery)}`;
      const [read, totals] = await Promise.all([shared(`page+summary:${key}`, () => currentPage(c, key, pageQuery)), owed]);
      if (read.summary) return answerOf(c, clientId, read.invoices, read.summary, unfiltered ? read.summary : totals);
      pageSummaryMissing = true;
      bff.emit({ level: 'warn', msg: 'service list answered no summary: asking for it apart', request_id: c.get('requestId') });
    }
    const counted = query.totals ? summary(c, clientId, filters) : undefined;
    // Only the keys the customer's view is made from: a whole invoice has more than a hundred.
    const page = shared(`page:${clientId}:${JSON.stringify(pageQuery)}`, () =>
      bff.service(c, 'invoices.list', (call) =>
        listFields ? listFields(CUSTOMER_INVOICE_FIELDS, pageQuery, call) : bff.client.invoices.list(pageQuery, call),
      ),
    );
    const [invoices, count, totals] = await Promise.all([page, counted, unfiltered ? counted : owed]);
    return answerOf(c, clientId, invoices, count, totals);
  }

  function answerOf(c: BffContext, clientId: number, invoices: CustomerInvoiceSource[], count?: InvoiceSummary, totals?: InvoiceSummary): ListRead {
    const foreign = invoices.filter((invoice) => invoice.client_id !== clientId);
    if (foreign.length) {
      // The service ignored a filter: never show the records, and say so.
      bff.emit({ level: 'error', msg: 'service list ignored its filter', request_id: c.get('requestId'), client_id: clientId });
      throw new BffError(502, 'service_error', 'The invoicing service could not complete the request.');
    }
    return {
      invoices,
      total: count?.count,
      totals: totals?.currencies.map((each) => ({
        currency: each.currency,
        outstanding: each.outstanding,
        outstanding_count: each.outstanding_count,
        overdue: each.overdue,
        overdue_count: each.overdue_count,
      })),
    };
  }

  return async (c, clientId, query) => {
    // The customer's e-invoice format, read once for the page beside the page itself. A failed read
    // (logged by the service call) costs the rows their e-invoice links, not the customer their list.
    const format = formatOf(c, clientId).catch(() => null);
    const today = todayIn(bff.timeZone);
    let read: ListRead | undefined;
    if (!bff.client.invoices.summary) extensionsMissingSince = Date.now();
    if (Date.now() - extensionsMissingSince >= PROBE_AGAIN_MS) {
      try {
        read = await readPage(c, clientId, query, today);
      } catch (error) {
        if (!(error instanceof BffError && error.status === 404)) throw error;
        extensionsMissingSince = Date.now();
        bff.emit({ level: 'warn', msg: 'service lacks the list summary: reading whole lists', request_id: c.get('requestId') });
      }
    }
    read ??= await readWholeList(bff, c, clientId, query, today);
    // A held page (the same rows, asked on the same day) is shaped once.
    let data = shaped.get(read.invoices);
    if (!data || data.today !== today) {
      data = { today, rows: read.invoices.map((invoice) => customerInvoice(invoice, today, bff.basePath)) };
      shaped.set(read.invoices, data);
    }
    const rows = data.rows;
    const links = await einvoiceLinks(bff, c, await format, rows.map((row) => row.id));
    const page: PortalListPage = {
      data: rows.map((row, i) => ({ ...row, einvoice: links[i] ?? null })),
      page: query.page,
      per_page: query.per_page,
    };
    if (query.totals) {
      page.total = read.total ?? 0;
      page.total_pages = Math.ceil(page.total / query.per_page);
      page.totals = read.totals ?? [];
    }
    return page;
  };
}

