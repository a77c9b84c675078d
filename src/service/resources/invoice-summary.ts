import type { Hono } from 'hono';
import { minorUnits, decimal, toFixed } from '../../api/money.js';
import { invoiceListQuery } from '../../api/schemas/invoice.js';
import { queryOf, respond, type ServiceEnv, validate } from '../http.js';
import { AMOUNT_DUE, IS_OUTSTANDING, isOverdue } from '../invoicing/payment-state.js';
import { Filters, todayText } from '../store.js';
import { invoiceListFilters } from './invoices.js';

interface SummaryRow {
  currency: string | null;
  count: number;
  outstanding: string;
  outstanding_count: number;
  overdue: string;
  overdue_count: number;
}

/**
 * `GET /invoices/summary` (an extension of our service): how many invoices match the list's filters
 * and, per currency, what is still due and overdue on them, in one query. A customer portal shows
 * a customer's balance from it without reading every invoice. Mounted before `/invoices/:id`.
 */
export function mountInvoiceSummary(app: Hono<ServiceEnv>): void {
  app.get('/invoices/summary', async (c) => {
    const query = validate(invoiceListQuery, queryOf(c));
    const today = query.today ?? todayText();
    const filters = new Filters();
    invoiceListFilters(query, filters);
    const todayParam = `$${filters.params.length + 2}`;
    const where = ['account_id = $1', ...filters.where].join(' and ');
    const rows = await c.get('db').query<SummaryRow>(
      `select data->>'currency' as currency, count(*)::int as count,
              coalesce(sum(${AMOUNT_DUE}) filter (where ${IS_OUTSTANDING}), 0)::text as outstanding,
              (count(*) filter (where ${IS_OUTSTANDING}))::int as outstanding_count,
              coalesce(sum(${AMOUNT_DUE}) filter (where ${isOverdue(todayParam)}), 0)::text as overdue,
              (count(*) filter (where ${isOverdue(todayParam)}))::int as overdue_count
         from invoices where ${where}
        group by 1 order by 1`,
      [c.get('account').id, ...filters.params, today],
    );
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
    const summary = { count: currencies.reduce((n, each) => n + each.count, 0), today, currencies };
    return respond(c, summary, { root: 'summary' });
  });
}
