import type { Hono } from 'hono';
import { categoryCreateInput, categoryUpdateInput, warehouseCreateInput, warehouseUpdateInput } from '../../api/schemas/catalog.js';
import { invalidField, type ServiceEnv } from '../http.js';
import { type StoredRow, timestampText } from '../store.js';
import { merge, mountCrud } from './crud.js';

/** Categories and warehouses: named records with a description. */
interface NamedData {
  name: string;
  kind?: string | null;
  description: string | null;
}

function requireName(name: unknown): string {
  const text = typeof name === 'string' ? name.trim() : '';
  if (!text) throw invalidField('name', "can't be blank");
  return text;
}

const presentCategory = (row: StoredRow<NamedData>) => ({
  id: row.id,
  name: row.data.name,
  description: row.data.description,
  created_at: timestampText(row.created_at),
  updated_at: timestampText(row.updated_at),
});

const presentWarehouse = (row: StoredRow<NamedData>) => ({
  id: row.id,
  name: row.data.name,
  kind: row.data.kind ?? null,
  description: row.data.description,
  created_at: timestampText(row.created_at),
  updated_at: timestampText(row.updated_at),
});

export function mountCategories(app: Hono<ServiceEnv>): void {
  mountCrud(app, {
    table: 'categories',
    wrapper: 'category',
    listRoot: 'categories',
    createSchema: categoryCreateInput,
    updateSchema: categoryUpdateInput,
    present: presentCategory,
    create: async (_tx, _account, input) => ({ name: requireName(input.name), description: input.description ?? null }),
    update: async (_tx, _account, current, input) => ({ ...merge(current, input), name: requireName(input.name ?? current.name) }),
    async beforeDelete(tx, account, row) {
      await tx.query(
        `update products set data = jsonb_set(data, '{category_id}', 'null'), updated_at = now()
          where account_id = $1 and (data->>'category_id')::int = $2`,
        [account.id, row.id],
      );
    },
  });
}

export function mountWarehouses(app: Hono<ServiceEnv>): void {
  mountCrud(app, {
    table: 'warehouses',
    wrapper: 'warehouse',
    listRoot: 'warehouses',
    createSchema: warehouseCreateInput,
    updateSchema: warehouseUpdateInput,
    present: presentWarehouse,
    create: async (_tx, _account, input) => ({
      name: requireName(input.name),
      kind: input.kind ?? null,
      description: input.description ?? null,
    }),
    update: async (_tx, _account, current, input) => ({ ...merge(current, input), name: requireName(input.name ?? current.name) }),
    async beforeDelete(tx, account, row) {
      const documents = await tx.query(
        `select id from warehouse_documents where account_id = $1 and (data->>'warehouse_id')::int = $2 limit 1`,
        [account.id, row.id],
      );
      if (documents.length > 0) throw invalidField('base', 'warehouse has documents and cannot be deleted');
      await tx.query(`delete from stock_levels where account_id = $1 and warehouse_id = $2`, [account.id, row.id]);
    },
  });
}
