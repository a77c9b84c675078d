import type { Hono } from 'hono';
import { productCreateInput, productListQuery, productReadQuery, productUpdateInput } from '../../api/schemas/product.js';
import { categoryExists } from '../data/categories.js';
import { type ProductData, productTokenTaken, stockLevels } from '../data/products.js';
import type { Sql } from '../db.js';
import { type Account, invalidField, queryOf, type ServiceContext, type ServiceEnv, validate } from '../http.js';
import { randomToken } from '../passwords.js';
import type { StoredRow } from '../store.js';
import { DEFAULT_CURRENCY, DEFAULT_TAX, derivePrices, normalizeTax } from '../invoicing/amounts.js';
import { presentProduct } from '../invoicing/products.js';
import { merge, mountCrud, refuseNulls } from './crud.js';
import { isPolishInvoiceRate, supplyKindOf } from '../../kernel/tax/index.js';
import { readKsefSettings } from '../ksef/settings.js';

async function ensureFreeToken(tx: Sql, accountId: number, token: string, exceptId?: number): Promise<void> {
  if (await productTokenTaken(tx, accountId, token, exceptId ?? 0)) throw invalidField('token', 'has already been taken');
}

async function ensureCategory(tx: Sql, accountId: number, categoryId: number | null | undefined): Promise<void> {
  if (categoryId == null) return;
  if (!(await categoryExists(tx, accountId, categoryId))) throw invalidField('category_id', 'does not exist');
}

async function presentProducts(rows: StoredRow<ProductData>[], c: ServiceContext) {
  const { warehouse_id } = validate(productReadQuery, queryOf(c));
  const levels = await stockLevels(c.get('db'), c.get('account').id, rows.map((r) => r.id), warehouse_id);
  return rows.map((row) => presentProduct(row, levels.get(row.id) ?? '0.0'));
}

/**
 * The supply kind and the hosted service's `service` flag, kept in agreement: a kind given decides the
 * flag, a flag alone decides the kind (`service: true` is a service), and a flag that contradicts the
 * kind is refused.
 */
function supplyOf(input: { service?: boolean | null; supply_kind?: string | null }, current?: Pick<ProductData, 'service' | 'supply_kind'>): Pick<ProductData, 'service' | 'supply_kind'> {
  const given = input.supply_kind ?? undefined;
  if (given) {
    const kind = supplyKindOf({ supply_kind: given });
    if (input.service != null && input.service !== (kind !== 'goods')) throw invalidField('service', `must be ${String(kind !== 'goods')} for ${kind}`);
    return { service: kind !== 'goods', supply_kind: kind };
  }
  if (input.service != null) {
    const kept = current && supplyKindOf(current);
    // A service stays electronic when only the flag is repeated.
    if (input.service && kept && kept !== 'goods') return { service: true, supply_kind: kept };
    return { service: input.service, supply_kind: input.service ? 'service' : 'goods' };
  }
  return current ? { service: current.service, supply_kind: supplyKindOf(current) } : { service: false, supply_kind: 'goods' };
}

/** A rate no Polish invoice may carry is refused where KSeF would refuse the invoice: the account sends to KSeF and validates for it. */
async function ensureInvoiceRate(tx: Sql, account: Account, tax: string): Promise<void> {
  if (isPolishInvoiceRate(tax)) return;
  const settings = await readKsefSettings(tx, account.id);
  if (settings.environment !== 'off' && settings.validate_invoices_for_gov) {
    throw invalidField('tax', `${tax} is not a rate KSeF accepts (23, 22, 8, 7, 5, 4, 3, 0, zw, np)`);
  }
}

export async function newProductData(tx: Sql, account: Account, input: Record<string, unknown>): Promise<ProductData> {
  const name = typeof input.name === 'string' ? input.name.trim() : '';
  if (!name) throw invalidField('name', "can't be blank");
  const tax = normalizeTax((input.tax as string | null | undefined) ?? DEFAULT_TAX);
  await ensureInvoiceRate(tx, account, tax);
  const currency = (input.currency as string | null | undefined) ?? DEFAULT_CURRENCY;
  const token = (input.token as string | null | undefined) ?? randomToken(12);
  await ensureFreeToken(tx, account.id, token);
  await ensureCategory(tx, account.id, input.category_id as number | null | undefined);
  return {
    name,
    code: (input.code as string | null | undefined) ?? null,
    ean_code: (input.ean_code as string | null | undefined) ?? null,
    description: (input.description as string | null | undefined) ?? null,
    ...derivePrices(
      { price_net: input.price_net as string | null | undefined, price_gross: input.price_gross as string | null | undefined },
      tax,
      currency,
    ),
    tax,
    currency,
    quantity_unit: (input.quantity_unit as string | null | undefined) ?? null,
    ...supplyOf(input as { service?: boolean | null; supply_kind?: string | null }),
    category_id: (input.category_id as number | null | undefined) ?? null,
    token,
  };
}

export function mountProducts(app: Hono<ServiceEnv>): void {
  mountCrud(app, {
    table: 'products',
    references: { category_id: 'categories' },
    wrapper: 'product',
    listRoot: 'products',
    createSchema: productCreateInput,
    updateSchema: productUpdateInput,
    listQuery: productListQuery,
    filters(query, f) {
      if (query.category_id) f.add((p) => `(data->>'category_id')::int = ${p}`, query.category_id);
      if (query.token) f.add((p) => `data->>'token' = ${p}`, query.token);
    },
    present: (row) => presentProduct(row),
    presentAll: presentProducts,
    create: (tx, account, input) => newProductData(tx, account, input),
    async update(tx, account, current, input, c) {
      refuseNulls(input, ['name', 'currency', 'service', 'supply_kind', 'token']);
      const id = Number(c.req.param('id'));
      if (input.token) await ensureFreeToken(tx, account.id, input.token, id);
      if (input.category_id !== undefined) await ensureCategory(tx, account.id, input.category_id);
      const next = merge(current, { ...input, price_net: undefined, price_gross: undefined, tax: undefined });
      if (input.name !== undefined && !String(input.name ?? '').trim()) throw invalidField('name', "can't be blank");
      if (input.tax != null) {
        next.tax = normalizeTax(input.tax);
        await ensureInvoiceRate(tx, account, next.tax);
      }
      Object.assign(next, supplyOf(input, current));
      // A new gross price wins: the net price is derived from it and the tax (reference, "Product").
      const prices =
        input.price_gross != null
          ? { price_gross: input.price_gross }
          : { price_net: input.price_net ?? current.price_net };
      return { ...next, ...derivePrices(prices, next.tax, next.currency) };
    },
  });
}
