import type { Hono } from 'hono';
import { warehouseActionListQuery } from '../../api/schemas/warehouse-action.js';
import { queryOf, respond, type ServiceEnv, validate } from '../http.js';
import { Filters, timestampText } from '../store.js';
import { warehouseActions } from '../data/warehouse-documents.js';

/**
 * `GET /warehouse_actions`: the movements that follow from the warehouse documents, one per line
 * of each document, read from the documents themselves so they can never disagree with them.
 * `date_from`/`date_to` bound the document's issue date.
 */
export function mountWarehouseActions(app: Hono<ServiceEnv>): void {
  app.get('/', async (c) => {
    const query = validate(warehouseActionListQuery, queryOf(c));
    const filters = new Filters();
    if (query.warehouse_id) filters.add((p) => `((d.data->>'warehouse_id')::int = ${p} or (a.value->>'warehouse2_id')::int = ${p})`, query.warehouse_id);
    if (query.kind) filters.add((p) => `d.data->>'kind' = ${p}`, query.kind);
    if (query.product_id) filters.add((p) => `(a.value->>'product_id')::int = ${p}`, query.product_id);
    if (query.date_from) filters.add((p) => `d.data->>'issue_date' >= ${p}`, query.date_from);
    if (query.date_to) filters.add((p) => `d.data->>'issue_date' <= ${p}`, query.date_to);
    if (query.warehouse_document_id) filters.add((p) => `d.id = ${p}`, query.warehouse_document_id);
    if (query.from_warehouse_document) filters.add((p) => `d.id = ${p} and d.data->>'kind' in ('wz', 'mm')`, query.from_warehouse_document);
    if (query.to_warehouse_document) filters.add((p) => `d.id = ${p} and d.data->>'kind' in ('pz', 'mm')`, query.to_warehouse_document);
    const rows = await warehouseActions(c.get('db'), c.get('account').id, filters, query.page, query.per_page);
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
