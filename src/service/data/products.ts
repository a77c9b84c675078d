import { decimal, toWire } from '../../kernel/money.js';
import type { Sql } from '../db.js';
import type { SupplyKind } from '../../kernel/tax/index.js';

/** The products table: a product record's stored shape, and the stock levels read beside it. */

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
