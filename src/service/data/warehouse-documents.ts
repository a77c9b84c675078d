import type { Sql } from '../sql.js';
import type { Filters } from '../store.js';

/**
 * The warehouse_documents table: the reads made of it beside the generic record ones (a document
 * is written as a generic record, numbered through `number-sequences.ts`).
 */

/** Whether any document of the account moves goods in a warehouse. */
export async function warehouseHasDocuments(sql: Sql, accountId: number, warehouseId: number): Promise<boolean> {
  const documents = await sql.query(
    `select id from warehouse_documents where account_id = $1 and (data->>'warehouse_id')::int = $2 limit 1`,
    [accountId, warehouseId],
  );
  return documents.length > 0;
}

/** One line of a warehouse document, with what it takes from its document. */
export interface WarehouseActionRow {
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
 * A page of the lines of the account's warehouse documents that meet `filters` (conditions over a
 * document `d` and its line `a`), by the document's issue date, the document and the line.
 */
export function warehouseActions(sql: Sql, accountId: number, filters: Filters, page: number, perPage: number): Promise<WarehouseActionRow[]> {
  const params: unknown[] = [accountId, ...filters.params, perPage, (page - 1) * perPage];
  const where = ['d.account_id = $1', ...filters.where];
  return sql.query<WarehouseActionRow>(
    `select d.id as document_id, d.data->>'kind' as kind, d.data->>'warehouse_id' as warehouse_id,
              coalesce(a.value->>'warehouse2_id', d.data->>'warehouse2_id') as warehouse2_id,
              d.data->>'issue_date' as issue_date, a.value as action, d.created_at, d.updated_at
         from warehouse_documents d cross join lateral jsonb_array_elements(d.data->'warehouse_actions') a
        where ${where.join(' and ')}
        order by d.data->>'issue_date', d.id, (a.value->>'id')::int
        limit $${params.length - 1} offset $${params.length}`,
    params,
  );
}
