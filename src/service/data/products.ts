import { decimal, toWire } from '../../kernel/money.js';
import type { Sql } from '../db.js';
import type { StoredRow } from '../store.js';
import type { SupplyKind } from '../../kernel/tax/index.js';

/** The products table and the stock levels kept beside it: a product record's stored shape, and the SQL of both. */

export interface ProductData {
  name: string;
  code: string | null;
  ean_code: string | null;
  description: string | null;
  price_net: string;
  price_gross: string;
  tax: string;
  currency: string;
  quantity_unit: string | null;
  service: boolean;
  /** Absent on products stored before it: their `service` flag says (`supplyKindOf`). */
  supply_kind?: SupplyKind;
  category_id: number | null;
  token: string;
}

/** Stock levels of products, in one warehouse or summed over all of them. */
export async function stockLevels(sql: Sql, accountId: number, productIds: number[], warehouseId?: number | null): Promise<Map<number, string>> {
  if (productIds.length === 0) return new Map();
  const rows = await sql.query<{ product_id: number; level: string }>(
    `select product_id, sum(level)::text as level from stock_levels
      where account_id = $1 and product_id = any($2::int[]) and ($3::int is null or warehouse_id = $3)
      group by product_id`,
    [accountId, productIds, warehouseId ?? null],
  );
  return new Map(rows.map((r) => [r.product_id, toWire(decimal(r.level))]));
}

/** Whether another product of the account (not `exceptId`) has the token. */
export async function productTokenTaken(sql: Sql, accountId: number, token: string, exceptId: number): Promise<boolean> {
  const rows = await sql.query(`select id from products where account_id = $1 and data->>'token' = $2 and id <> $3`, [
    accountId,
    token,
    exceptId,
  ]);
  return rows.length > 0;
}

/** The account's first product of that name, whatever its case. */
export async function productByName(sql: Sql, accountId: number, name: string): Promise<StoredRow<ProductData> | undefined> {
  const rows = await sql.query<StoredRow<ProductData>>(
    `select id, data, created_at, updated_at from products where account_id = $1 and lower(data->>'name') = lower($2) order by id limit 1`,
    [accountId, name],
  );
  return rows[0];
}

/** Takes every product of the account out of a category (which is being deleted). */
export async function clearCategory(sql: Sql, accountId: number, categoryId: number): Promise<void> {
  await sql.query(
    `update products set data = jsonb_set(data, '{category_id}', 'null'), updated_at = now()
          where account_id = $1 and (data->>'category_id')::int = $2`,
    [accountId, categoryId],
  );
}

/** Adds `quantity` (a plain decimal, negative to take away) to a product's level in a warehouse. */
export async function addToStockLevel(sql: Sql, accountId: number, warehouseId: number, productId: number, quantity: string): Promise<void> {
  await sql.query(
    `insert into stock_levels (account_id, warehouse_id, product_id, level) values ($1, $2, $3, $4::numeric)
       on conflict (account_id, warehouse_id, product_id) do update set level = stock_levels.level + excluded.level`,
    [accountId, warehouseId, productId, quantity],
  );
}

/** Forgets every stock level of a warehouse (which is being deleted). */
export async function deleteStockLevels(sql: Sql, accountId: number, warehouseId: number): Promise<void> {
  await sql.query(`delete from stock_levels where account_id = $1 and warehouse_id = $2`, [accountId, warehouseId]);
}
