import type { Hono } from 'hono';
import { changeStatusInput, invoiceCreateInput, invoiceListQuery, invoiceUpdateInput } from '../../api/schemas/invoice.js';
import type { Period } from '../../api/schemas/invoice.js';
import { idParam, respond, type ServiceContext, type ServiceEnv, validate } from '../http.js';
import { requireRow, type StoredRow, timestampText, todayText, updateRow } from '../store.js';
import { applyInvoiceUpdate, applyStatus, buildNewInvoice, type InvoiceData, type StoredPosition } from '../invoicing/invoices.js';
import { addDays } from '../invoicing/numbering.js';
import { mountCrud } from './crud.js';
import { withPriceListPrices } from './price-lists.js';

export function presentPosition(position: StoredPosition, invoiceId: number) {
  return {
    id: position.id,
    invoice_id: invoiceId,
    product_id: position.product_id,
    name: position.name,
    code: position.code,
    description: position.description,
    quantity: position.quantity,
    quantity_unit: position.quantity_unit,
    tax: position.tax,
    price_net: position.price_net,
    price_gross: position.price_gross,
    price_tax: position.price_tax,
    total_price_net: position.total_price_net,
    total_price_gross: position.total_price_gross,
    total_price_tax: position.total_price_tax,
    discount: position.discount,
    discount_percent: position.discount_percent,
  };
}

/** Public links carry the invoice's own token, never an id or the api_token. */
export function invoiceLinks(publicUrl: string, token: string) {
  return {
    view_url: `${publicUrl}/invoice/${token}`,
    payment_url: `${publicUrl}/invoice/payment/${token}`,
  };
}

/** Invoice fields in the order of the reference; links and timestamps are added around them. */
const INVOICE_FIELDS = [
  'number', 'kind', 'status', 'income', 'issue_date', 'sell_date', 'payment_to', 'payment_to_kind', 'payment_type',
  'place', 'price_net', 'price_tax', 'price_gross', 'paid', 'paid_date', 'currency', 'lang', 'client_id', 'department_id',
  'seller_name', 'seller_tax_no', 'seller_street', 'seller_post_code', 'seller_city', 'seller_country', 'seller_email',
  'seller_phone', 'seller_bank', 'seller_bank_account', 'buyer_name', 'buyer_tax_no', 'buyer_street', 'buyer_post_code',
  'buyer_city', 'buyer_country', 'buyer_email', 'buyer_phone', 'buyer_first_name', 'buyer_last_name', 'buyer_company',
  'show_discount', 'discount_kind', 'oid', 'from_invoice_id', 'invoice_id', 'product_id', 'warehouse_id', 'description',
  'token',
] as const satisfies readonly (keyof InvoiceData)[];

export function presentInvoice(row: StoredRow<InvoiceData>, publicUrl: string, withPositions: boolean) {
  const d = row.data;
  const invoice: Record<string, unknown> = { id: row.id };
  for (const field of INVOICE_FIELDS) invoice[field] = d[field] ?? null;
  Object.assign(invoice, invoiceLinks(publicUrl, d.token), {
    sent_time: d.sent_time,
    attachments_count: (d as { attachments_count?: number }).attachments_count ?? 0,
    has_attachments: ((d as { attachments_count?: number }).attachments_count ?? 0) > 0,
    recurring_id: (d as { recurring_id?: number }).recurring_id ?? null,
    from_api: d.from_api,
    test: d.test,
    created_at: timestampText(row.created_at),
    updated_at: timestampText(row.updated_at),
  });
  if (withPositions) invoice.positions = d.positions.map((p) => presentPosition(p, row.id));
  return invoice;
}

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
  number: `(substring(data->>'number' from '^[0-9]+'))::bigint`,
  issue_date: `data->>'issue_date'`,
  payment_to: `data->>'payment_to'`,
  price_gross: `(data->>'price_gross')::numeric`,
  buyer_name: `lower(data->>'buyer_name')`,
  updated_at: 'updated_at',
};

export function mountInvoices(app: Hono<ServiceEnv>): void {
  const publicUrl = (c: ServiceContext) => c.get('config').publicUrl;

  mountCrud<InvoiceData, typeof invoiceCreateInput, typeof invoiceUpdateInput>(app, {
    table: 'invoices',
    path: '/invoices',
    wrapper: 'invoice',
    listRoot: 'invoices',
    createSchema: invoiceCreateInput,
    updateSchema: invoiceUpdateInput,
    listQuery: invoiceListQuery,
    order: (query) => (typeof query.order === 'string' ? orderClause(query.order) : `data->>'issue_date' desc, id desc`),
    filters(query, f) {
      const q = query as ReturnType<typeof invoiceListQuery.parse>;
      const [from, to] = periodRange(q.period ?? 'all', todayText(), q.date_from, q.date_to);
      if (from) f.add((p) => `data->>'issue_date' >= ${p}`, from);
      if (to) f.add((p) => `data->>'issue_date' <= ${p}`, to);
      if (q.client_id) f.add((p) => `(data->>'client_id')::integer = ${p}`, q.client_id);
      if (q.oid) f.add((p) => `data->>'oid' = ${p}`, q.oid);
      if (q.invoice_id) f.add((p) => `(data->>'invoice_id')::integer = ${p}`, q.invoice_id);
      if (q.from_invoice_id) f.add((p) => `(data->>'from_invoice_id')::integer = ${p}`, q.from_invoice_id);
      if (q.number) f.add((p) => `data->>'number' ilike ${p}`, `%${q.number.replace(/[%_\\]/g, '\\$&')}%`);
      if (q.kind) f.add((p) => `data->>'kind' = ${p}`, q.kind);
      if (q.status) f.add((p) => `data->>'status' = ${p}`, q.status);
    },
    present(row, c) {
      const listing = c.req.method === 'GET' && c.req.param('id') === undefined;
      const withPositions = !listing || ['true', '1', 'yes'].includes(String(c.req.query('include_positions')).toLowerCase());
      return presentInvoice(row, publicUrl(c), withPositions);
    },
    create: async (tx, account, input, c) => buildNewInvoice(tx, account, await withPriceListPrices(tx, account, input, c.get('body').invoice)),
    update: (tx, account, current, input, c) => applyInvoiceUpdate(tx, account, idParam(c), current, input),
    async beforeDelete(tx, account, row) {
      await tx.query(
        `update payments set data = jsonb_set(data, '{invoice_id}', 'null'), updated_at = now()
          where account_id = $1 and (data->>'invoice_id')::integer = $2`,
        [account.id, row.id],
      );
    },
  });

  app.post('/invoices/:id/change_status', async (c) => {
    const id = idParam(c);
    const account = c.get('account');
    const body = c.get('body');
    const { status } = validate(changeStatusInput, { status: c.req.query('status') ?? body.status });
    const row = await c.get('db').transaction(async (tx) => {
      const current = await requireRow<InvoiceData>(tx, 'invoices', account.id, id, { forUpdate: true });
      const data = { ...current.data };
      applyStatus(data, status, todayText());
      return updateRow(tx, 'invoices', account.id, id, data);
    });
    return respond(c, presentInvoice(row, publicUrl(c), true), { root: 'invoice' });
  });
}

function orderClause(order: string): string {
  const [field, direction] = order.split('.') as [string, string | undefined];
  const column = ORDER_COLUMNS[field] ?? `data->>'issue_date'`;
  const dir = direction === 'desc' ? 'desc' : 'asc';
  return `${column} ${dir} nulls last, id ${dir}`;
}
