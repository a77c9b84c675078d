import type { Hono } from 'hono';
import { warehouseActionListQuery } from '../../api/schemas/warehouse-action.js';
import { queryOf, respond, type ServiceEnv, validate } from '../http.js';
import { timestampText } from '../store.js';

interface ActionRow {
  document_id: number;
  kind: string;
  warehouse_id: string;
  warehouse2_id: string | null;
  issue_date: string;
  action: { id: number; product_id: number; product_name: string | null; quantity: string; price_net: string | null; tax: string | null };
  created_at: Date;
  updated_at: Date;
}

/**
 * `GET /warehouse_actions`: the movements that follow from the warehouse documents, one per line
 * of each document, read from the documents themselves so they can never disagree with them.
 * `date_from`/`date_to` bound the document's issue date.
 */
export function mountWarehouseActions(app: Hono<ServiceEnv>): void {
  app.get('/', async (c) => {
    const query = validate(warehouseActionListQuery, queryOf(c));
    const params: unknown[] = [c.get('account').id];
    const where = ['d.account_id = $1'];
    const add = (condition: (p: string) => string, value: unknown) => {
      params.push(value);
      where.push(condition(`$${params.length}`));
    };
    if (query.warehouse_id) add((p) => `((d.data->>'warehouse_id')::int = ${p} or (a.value->>'warehouse2_id')::int = ${p})`, query.warehouse_id);
    if (query.kind) add((p) => `d.data->>'kind' = ${p}`, query.kind);
    if (query.product_id) add((p) => `(a.value->>'product_id')::int = ${p}`, query.product_id);
    if (query.date_from) add((p) => `d.data->>'issue_date' >= ${p}`, query.date_from);
    if (query.date_to) add((p) => `d.data->>'issue_date' <= ${p}`, query.date_to);
    if (query.warehouse_document_id) add((p) => `d.id = ${p}`, query.warehouse_document_id);
    if (query.from_warehouse_document) add((p) => `d.id = ${p} and d.data->>'kind' in ('wz', 'mm')`, query.from_warehouse_document);
    if (query.to_warehouse_document) add((p) => `d.id = ${p} and d.data->>'kind' in ('pz', 'mm')`, query.to_warehouse_document);
    params.push(query.per_page, (query.page - 1) * query.per_page);
    const rows = await c.get('db').query<ActionRow>(
      `select d.id as document_id, d.data->>'kind' as kind, d.data->>'warehouse_id' as warehouse_id,
              coalesce(a.value->>'warehouse2_id', d.data->>'warehouse2_id') as warehouse2_id,
              d.data->>'issue_date' as issue_date, a.value as action, d.created_at, d.updated_at
         from warehouse_documents d cross join lateral jsonb_array_elements(d.data->'warehouse_actions') a
        where ${where.join(' and ')}
        order by d.data->>'issue_date', d.id, (a.value->>'id')::int
        limit $${params.length - 1} offset $${params.length}`,
      params,
    );
    const actions = rows.map((row) => ({
      id: row.action.id,
      kind: row.kind,
      warehouse_id: Number(row.warehouse_id),
      warehouse2_id: row.warehouse2_id == null ? null : Number(row.warehouse2_id),
      product_id: row.action.product_id,
      product_name: row.action.product_name ?? null,
      quantity: row.action.quantity,
      price_net: row.action.price_net ?? null,
      tax: row.action.tax ?? null,
      issue_date: row.issue_date,
      warehouse_document_id: row.document_id,
      from_warehouse_document_id: row.kind === 'wz' || row.kind === 'mm' ? row.document_id : null,
      to_warehouse_document_id: row.kind === 'pz' || row.kind === 'mm' ? row.document_id : null,
      created_at: timestampText(row.created_at),
      updated_at: timestampText(row.updated_at),
    }));
    return respond(c, actions, { root: 'warehouse_actions' });
  });
}
