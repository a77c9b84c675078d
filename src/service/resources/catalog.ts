import type { Hono } from 'hono';
import { categoryCreateInput, categoryUpdateInput, warehouseCreateInput, warehouseUpdateInput } from '../../api/schemas/catalog.js';
import { clearCategory, deleteStockLevels } from '../data/products.js';
import { warehouseHasDocuments } from '../data/warehouse-documents.js';
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
      await clearCategory(tx, account.id, row.id);
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
      if (await warehouseHasDocuments(tx, account.id, row.id)) throw invalidField('base', 'warehouse has documents and cannot be deleted');
      await deleteStockLevels(tx, account.id, row.id);
    },
  });
}
