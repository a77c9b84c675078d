import type { ProductData } from '../data/products.js';
import { supplyKindOf } from '../../kernel/tax/index.js';
import { type StoredRow, timestampText } from '../store.js';

/** A product as the API and the webhooks answer it. */
export function presentProduct(row: StoredRow<ProductData>, stockLevel = '0.0') {
  const d = row.data;
  return {
    id: row.id,
    name: d.name,
    code: d.code,
    ean_code: d.ean_code,
    description: d.description,
    price_net: d.price_net,
    price_gross: d.price_gross,
    tax: d.tax,
    currency: d.currency,
    quantity_unit: d.quantity_unit,
    service: d.service,
    supply_kind: supplyKindOf(d),
    category_id: d.category_id,
    stock_level: stockLevel,
    token: d.token,
    created_at: timestampText(row.created_at),
    updated_at: timestampText(row.updated_at),
  };
}
