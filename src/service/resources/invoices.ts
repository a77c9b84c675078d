import type { Hono } from 'hono';
import { invoiceCreateInput, invoiceListQuery, invoiceUpdateInput } from '../../api/schemas/invoice.js';
import type { Period } from '../../api/schemas/invoice.js';
import { detachPaymentsFromInvoice } from '../data/payments.js';
import type { Sql } from '../db.js';
import { type Account, idParam, type ServiceContext, type ServiceEnv } from '../http.js';
import { type Filters, todayText } from '../store.js';
import type { InvoiceData } from '../invoicing/invoices.js';
import { updateInvoice } from '../invoicing/issue.js';
import { afterIssue, issueInvoice, prepareIssue } from '../application/issuing.js';
import { addDays } from '../invoicing/numbering.js';
import { addStatusFilter } from '../invoicing/payment-state.js';
import { askedToSend, checkForKsef, sendAfterSave } from '../ksef/invoices.js';
import { type KsefSettings, readKsefSettings } from '../ksef/settings.js';
import { mountCrud } from './crud.js';
import { additionalInvoiceFields, mountInvoiceActions } from './invoice-actions.js';
import { presentInvoice } from '../invoicing/invoice-answer.js';
import { withPriceListPrices } from './price-lists.js';

/** The first and last day of a `period` of the reference, relative to today. */
export function periodRange(period: Period, today: string, from?: string | null, to?: string | null): [string | null, string | null] {
  const [y, m] = today.split('-').map(Number) as [number, number];
  const first = (year: number, month: number) => new Date(Date.UTC(year, month - 1, 1)).toISOString().slice(0, 10);
  const last = (year: number, month: number) => new Date(Date.UTC(year, month, 0)).toISOString().slice(0, 10);
  switch (period) {
    case 'this_month':
      return [first(y, m), last(y, m)];
    case 'last_month':
      return m === 1 ? [first(y - 1, 12), last(y - 1, 12)] : [first(y, m - 1), last(y, m - 1)];
    case 'last_30_days':
      return [addDays(today, -30), today];
    case 'this_year':
      return [`${y}-01-01`, `${y}-12-31`];
    case 'last_year':
      return [`${y - 1}-01-01`, `${y - 1}-12-31`];
    case 'last_12_months':
      return [addDays(today, -365), today];
    case 'more':
      return [from ?? null, to ?? null];
    case 'all':
      return [null, null];
  }
}

const ORDER_COLUMNS: Record<string, string> = {
  number: `(substring(data->>'number' from '^[0-9]+'))::numeric`,
  issue_date: `data->>'issue_date'`,
  payment_to: `data->>'payment_to'`,
  price_gross: `(data->>'price_gross')::numeric`,
  price_net: `(data->>'price_net')::numeric`,
  price_tax: `(data->>'price_tax')::numeric`,
  buyer_name: `lower(data->>'buyer_name')`,
  buyer_tax_no: `data->>'buyer_tax_no'`,
  seller_name: `lower(data->>'seller_name')`,
  updated_at: 'updated_at',
  paid_date: `data->>'paid_date'`,
  transaction_date: `coalesce(data->>'transaction_date', data->>'sell_date')`,
  oid: `data->>'oid'`,
};

/** The stored date each `search_date_type` filters on. */
const SEARCH_DATE_COLUMNS: Record<string, string> = {
  issue_date: `data->>'issue_date'`,
  paid_date: `data->>'paid_date'`,
  transaction_date: `coalesce(data->>'transaction_date', data->>'sell_date')`,
  sell_date: `data->>'sell_date'`,
  payment_to: `data->>'payment_to'`,
};

/** The list's filters, shared by the list and its summary (`GET /invoices/summary`). */
export function invoiceListFilters(query: Record<string, unknown>, f: Filters): void {
  const q = query as ReturnType<typeof invoiceListQuery.parse>;
  const today = q.today ?? todayText();
  // A date range alone (without `period`) is `period=more`, as the hosted service's list reads it.
  const period = q.period ?? (q.date_from || q.date_to ? 'more' : 'all');
  const [from, to] = periodRange(period, today, q.date_from, q.date_to);
  const dateColumn = SEARCH_DATE_COLUMNS[q.search_date_type ?? 'issue_date']!;
  if (from) f.add((p) => `${dateColumn} >= ${p}`, from);
  if (to) f.add((p) => `${dateColumn} <= ${p}`, to);
  if (q.client_id) f.add((p) => `(data->>'client_id')::integer = ${p}`, q.client_id);
  if (q.oid) f.add((p) => `data->>'oid' = ${p}`, q.oid);
  if (q.invoice_id) f.add((p) => `(data->>'invoice_id')::integer = ${p}`, q.invoice_id);
  if (q.from_invoice_id) f.add((p) => `(data->>'from_invoice_id')::integer = ${p}`, q.from_invoice_id);
  if (q.number) f.add((p) => `lower(data->>'number') = lower(${p})`, q.number.trim());
  if (q.number_contains) f.add((p) => `data->>'number' ilike ${p}`, `%${q.number_contains.replace(/[%_\\]/g, '\\$&')}%`);
  if (q.kind) f.add((p) => `data->>'kind' = ${p}`, q.kind);
  if (q.kinds?.length) f.add((p) => `data->>'kind' = any(${p}::text[])`, q.kinds);
  if (q.invoice_ids?.length) f.add((p) => `id = any(${p}::int[])`, q.invoice_ids);
  if (q.income !== undefined) f.add((p) => `coalesce((data->>'income')::boolean, true) = ${p}`, q.income);
  if (q.status) addStatusFilter(f, q.status, today);
}

export function mountInvoices(app: Hono<ServiceEnv>): void {
  const publicUrl = (c: ServiceContext) => c.get('config').publicUrl;

  mountCrud<InvoiceData, typeof invoiceCreateInput, typeof invoiceUpdateInput>(app, {
    table: 'invoices',
    references: {
      from_invoice_id: 'invoices',
      invoice_id: 'invoices',
      warehouse_id: 'warehouses',
      product_id: 'products',
      client_id: 'clients',
      recipient_id: 'clients',
      department_id: 'departments',
      category_id: 'categories',
      warehouse_document_id: 'warehouse_documents',
    },
    wrapper: 'invoice',
    listRoot: 'invoices',
    createSchema: invoiceCreateInput,
    updateSchema: invoiceUpdateInput,
    listQuery: invoiceListQuery,
    // A read's answer is the stored invoice (and, when asked, its payments) presented: nothing else.
    keepAnswers: true,
    order: (query) => (typeof query.order === 'string' ? orderClause(query.order) : DEFAULT_ORDER),
    // A list without positions reads, instead of them, the names and discounts its answers derive
    // `product_cache` and `discount` from (generated columns, migration 70). Positions are most of
    // a stored invoice; sending and parsing them was the largest part of a list's time in `pg`.
    listData: (query) => (includesPositions(query.include_positions) ? { data: 'data' } : LIST_DATA),
    filters: invoiceListFilters,
    present(row, c) {
      const listing = c.req.method === 'GET' && c.req.param('id') === undefined;
      const withPositions = !listing || includesPositions(c.req.query('include_positions'));
      return presentInvoice(row, publicUrl(c), withPositions, c.get('account').id);
    },
    async presentAll(rows, c) {
      const listing = c.req.method === 'GET' && c.req.param('id') === undefined;
      const withPositions = !listing || includesPositions(c.req.query('include_positions'));
      const answers = rows.map((row) => presentInvoice(row, publicUrl(c), withPositions, c.get('account').id));
      const presented = await additionalInvoiceFields(c, rows, answers);
      // `fields[invoice]=gov_status,gov_id` (the hosted service's) on reads and lists; `fields=` on lists.
      const fields = listedFields(c.req.query('fields[invoice]') ?? (listing ? c.req.query('fields') : undefined));
      return fields ? presented.map((answer) => pickFields(answer as Record<string, unknown>, fields)) : presented;
    },
    beforeCreate: (input, c) => prepareIssue(c.get('config').issuing, input),
    createRow: async (tx, account, input, c) =>
      issueInvoice(tx, account, {
        input: await withPriceListPrices(tx, account, input, c.get('body').invoice),
        matching: 'match',
        refusable: true,
        sendToKsef: askedToSend(c.req.query(), c.get('body'), ['gov_save_and_send']),
      }, c.get('config').issuing),
    update: async (tx, account, current, input, c) =>
      checkForKsef(tx, account, await updateInvoice(tx, account, idParam(c), current, input), current, await ksefSettingsFor(c, tx, account)),
    afterWrite: (tx, account, row, c) =>
      sendAfterSave(tx, account, row, askedToSend(c.req.query(), c.get('body'), ['gov_save_and_send']), c.get('config').ksef, ksefSettingsRead.get(c)),
    afterCommit: (account, row, c) => afterIssue(c.get('config').issuing, account.id, row),
    async beforeDelete(tx, account, row) {
      await detachPaymentsFromInvoice(tx, account.id, row.id);
    },
  });

  mountInvoiceActions(app);
}

/** The account's KSeF settings as this request read them before its write, so its after-write step asks no more. */
const ksefSettingsRead = new WeakMap<ServiceContext, KsefSettings>();
async function ksefSettingsFor(c: ServiceContext, tx: Sql, account: Account): Promise<KsefSettings> {
  const settings = await readKsefSettings(tx, account.id);
  ksefSettingsRead.set(c, settings);
  return settings;
}

const includesPositions = (value: unknown) => ['true', '1', 'yes'].includes(String(value).toLowerCase());

const LIST_DATA = { data: `data - 'positions'`, columns: ['position_names', 'position_discounts'] };

/**
 * `fields=id,number,…` (an extension of our service): a list answers only these keys of each
 * invoice, so a caller that shows a few of them does not move and parse all of them. Names that
 * are not keys are ignored, like any unknown parameter; `id` is always there.
 */
function listedFields(value: string | undefined): readonly string[] | undefined {
  const names = (value ?? '').split(',').map((name) => name.trim()).filter(Boolean);
  if (names.length === 0) return undefined;
  // Whatever the shape of a name that is not a key, the answer is the same: it is left out.
  return [...new Set(['id', ...names.filter((name) => /^[a-z][a-z0-9_]{0,63}$/.test(name))])].slice(0, 200);
}

function pickFields(answer: Record<string, unknown>, fields: readonly string[]): Record<string, unknown> {
  const picked: Record<string, unknown> = {};
  for (const field of fields) if (Object.hasOwn(answer, field)) picked[field] = answer[field];
  return picked;
}

/** Newest first; `invoices_list_idx` (and `invoices_client_list_idx` for one client) is in this order. */
const DEFAULT_ORDER = `data->>'issue_date' desc nulls last, id desc`;

function orderClause(order: string): string {
  const [field, direction] = order.split('.') as [string, string | undefined];
  const column = ORDER_COLUMNS[field] ?? `data->>'issue_date'`;
  const dir = direction === 'desc' ? 'desc' : 'asc';
  // Every invoice has an issue date, so where its nulls go changes nothing but which way the index
  // is read: forwards for `desc`, backwards for `asc`.
  if (column === ORDER_COLUMNS.issue_date) return dir === 'desc' ? DEFAULT_ORDER : `${column} asc nulls first, id asc`;
  return `${column} ${dir} nulls last, id ${dir}`;
}
