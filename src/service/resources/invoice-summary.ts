import type { Hono } from 'hono';
import { minorUnits, decimal, toFixed } from '../../kernel/money.js';
import { invoiceListQuery } from '../../api/schemas/invoice.js';
import { answerCacheOf } from '../answer-cache.js';
import { invoiceSummary } from '../data/invoices.js';
import { keptAnswer } from '../conditional.js';
import { queryOf, respond, type ServiceContext, type ServiceEnv, validate } from '../http.js';
import { Filters, todayText } from '../store.js';
import { invoiceListFilters } from './invoices.js';

/** Where a list asked with `summary=true` answers its summary (JSON, the shape of `GET /invoices/summary`). */
export const SUMMARY_HEADER = 'X-Invoicekit-Summary';

/**
 * `GET /invoices/summary` (an extension of our service): how many invoices match the list's filters
 * and, per currency, what is still due and overdue on them, in one query. A customer portal shows
 * a customer's balance from it without reading every invoice. Mounted before `/invoices/:id`.
 */
export function mountInvoiceSummary(app: Hono<ServiceEnv>): void {
  // `GET /invoices?…&summary=true`: the list's own answer, and the summary of the same query in a
  // header, so a portal's first page (its rows, count and totals) is one call instead of two.
  app.get('/', async (c, next) => {
    await next();
    if (c.req.query('summary') === undefined || c.res.status !== 200) return;
    const kept = answerCacheOf(c.get('db'));
    const header = async () => (validate(invoiceListQuery, queryOf(c)).summary ? JSON.stringify(await summarize(c)) : null);
    const value = kept ? await kept.get(`${c.get('account').id} ${todayText()} summary ${c.req.url}`, header) : await header();
    if (value !== null) c.res.headers.set(SUMMARY_HEADER, value);
  });
  app.get('/summary', async (c) => {
    // Like the list, a summary follows from the database, its URL and today's date alone.
    const key = `${c.get('account').id} ${todayText()} ${c.req.url}`;
    return keptAnswer(c, key, () => summarize(c), (value) => respond(c, value, { root: 'summary' }));
  });
}

async function summarize(c: ServiceContext) {
  const query = validate(invoiceListQuery, queryOf(c));
  const today = query.today ?? todayText();
  const filters = new Filters();
  invoiceListFilters(query, filters);
  const rows = await invoiceSummary(c.get('db'), c.get('account').id, filters, today);
  const currencies = rows.map((row) => {
    const currency = row.currency ?? '';
    const scale = currency ? minorUnits(currency) : 2;
    return {
      currency,
      count: row.count,
      outstanding: toFixed(decimal(row.outstanding), scale),
      outstanding_count: row.outstanding_count,
      overdue: toFixed(decimal(row.overdue), scale),
      overdue_count: row.overdue_count,
    };
  });
  return { count: currencies.reduce((n, each) => n + each.count, 0), today, currencies };
}
