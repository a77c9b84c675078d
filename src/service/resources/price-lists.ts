import type { Hono } from 'hono';
import type { z } from 'zod';
import { add, decimal, div, HUNDRED, mul, ONE, round, toWire } from '../../kernel/money.js';
import { minorUnits } from '../../kernel/money.js';
import { priceListCreateInput, priceListPositionInput, priceListUpdateInput } from '../../api/schemas/price-list.js';
import type { invoiceCreateInput } from '../../api/schemas/invoice.js';
import type { Sql } from '../db.js';
import { type Account, invalid, type ServiceEnv } from '../http.js';
import { findRow, type StoredRow, timestampText } from '../store.js';
import { derivePrices, normalizeTax } from '../invoicing/amounts.js';
import type { ProductData } from '../data/products.js';
import { DEFAULT_CURRENCY } from '../invoicing/amounts.js';
import { merge, mountCrud } from './crud.js';

interface PriceListPositionData {
  id: number;
  priceable_id: number;
  priceable_name: string | null;
  priceable_type: 'Product';
  use_percentage: boolean;
  percentage: string | null;
  price_net: string | null;
  price_gross: string | null;
  use_tax: boolean;
  tax: string | null;
}

export interface PriceListData {
  name: string;
  description: string | null;
  currency: string;
  positions: PriceListPositionData[];
}

type PositionInput = z.output<typeof priceListPositionInput>;

function presentPriceList(row: StoredRow<PriceListData>) {
  const d = row.data;
  return {
    id: row.id,
    name: d.name,
    description: d.description,
    currency: d.currency,
    price_list_positions: d.positions.map((p) => ({ ...p, price_list_id: row.id })),
    created_at: timestampText(row.created_at),
    updated_at: timestampText(row.updated_at),
  };
}

async function buildPosition(
  tx: Sql,
  account: Account,
  currency: string,
  input: PositionInput,
  index: number,
  current?: PriceListPositionData,
): Promise<PriceListPositionData> {
  const at = (field: string) => `price_list_positions_attributes.${index}.${field}`;
  const productId = input.priceable_id ?? current?.priceable_id;
  if (productId == null) throw invalid({ [at('priceable_id')]: ["can't be blank"] });
  const product = await findRow<ProductData>(tx, 'products', account.id, productId);
  if (!product) throw invalid({ [at('priceable_id')]: ['does not exist'] });
  const usePercentage = input.use_percentage ?? current?.use_percentage ?? false;
  const useTax = input.use_tax ?? current?.use_tax ?? input.tax != null;
  const tax = input.tax != null ? normalizeTax(input.tax) : (current?.tax ?? null);
  const position: PriceListPositionData = {
    id: current?.id ?? (await tx.sequenceValues('line_ids', 1))[0]!,
    priceable_id: productId,
    priceable_name: input.priceable_name ?? current?.priceable_name ?? product.data.name,
    priceable_type: 'Product',
    use_percentage: usePercentage,
    percentage: input.percentage != null ? toWire(decimal(input.percentage)) : input.percentage === null ? null : (current?.percentage ?? null),
    price_net: null,
    price_gross: null,
    use_tax: useTax,
    tax,
  };
  if (usePercentage) {
    if (position.percentage == null) throw invalid({ [at('percentage')]: ["can't be blank"] });
    return position;
  }
  const net = input.price_net !== undefined ? input.price_net : input.price_gross !== undefined ? null : current?.price_net;
  const gross = input.price_gross !== undefined ? input.price_gross : input.price_net !== undefined ? null : current?.price_gross;
  if (net == null && gross == null) throw invalid({ [at('price_net')]: ["can't be blank"] });
  const effectiveTax = useTax && tax ? tax : product.data.tax;
  if (net != null && gross != null) {
    position.price_net = toWire(decimal(net));
    position.price_gross = toWire(decimal(gross));
  } else {
    Object.assign(position, derivePrices({ price_net: net, price_gross: gross }, effectiveTax, currency));
  }
  return position;
}

async function buildPositions(
  tx: Sql,
  account: Account,
  currency: string,
  inputs: PositionInput[],
  existing: PriceListPositionData[] = [],
): Promise<PriceListPositionData[]> {
  const positions = [...existing];
  for (const [index, input] of inputs.entries()) {
    if (input.id != null) {
      const at = positions.findIndex((p) => p.id === input.id);
      if (at < 0) throw invalid({ [`price_list_positions_attributes.${index}.id`]: ['does not exist'] });
      if (input._destroy) positions.splice(at, 1);
      else positions[at] = await buildPosition(tx, account, currency, input, index, positions[at]);
    } else if (!input._destroy) {
      positions.push(await buildPosition(tx, account, currency, input, index));
    }
  }
  return positions;
}

/** `GET/POST /price_lists`, `GET/PUT/DELETE /price_lists/<id>`. */
export function mountPriceLists(app: Hono<ServiceEnv>): void {
  mountCrud<PriceListData, typeof priceListCreateInput, typeof priceListUpdateInput>(app, {
    table: 'price_lists',
    wrapper: 'price_list',
    listRoot: 'price_lists',
    createSchema: priceListCreateInput,
    updateSchema: priceListUpdateInput,
    present: presentPriceList,
    async create(tx, account, input) {
      if (!input.name.trim()) throw invalid({ name: ["can't be blank"] });
      const currency = input.currency ?? DEFAULT_CURRENCY;
      return {
        name: input.name.trim(),
        description: input.description ?? null,
        currency,
        positions: await buildPositions(tx, account, currency, input.price_list_positions_attributes ?? []),
      };
    },
    async update(tx, account, current, input) {
      if (input.name !== undefined && !input.name?.trim()) throw invalid({ name: ["can't be blank"] });
      const next = merge(current, { name: input.name?.trim(), description: input.description, currency: input.currency ?? undefined });
      if (input.price_list_positions_attributes) {
        next.positions = await buildPositions(tx, account, next.currency, input.price_list_positions_attributes, current.positions);
      }
      return next;
    },
  });
}

type InvoiceInput = z.output<typeof invoiceCreateInput>;

const truthy = (value: unknown) => value === true || value === 1 || (typeof value === 'string' && ['1', 'true', 'yes'].includes(value.toLowerCase()));

/**
 * Positions of a new invoice take their prices from a price list when the request asks for it
 * (`use_prices_from_price_lists` with `price_list_id`, or the client's default list): each position
 * naming a product and no price of its own gets the list's price and, where the list sets one, tax.
 */
export async function withPriceListPrices(tx: Sql, account: Account, input: InvoiceInput, raw: unknown): Promise<InvoiceInput> {
  const request = (typeof raw === 'object' && raw !== null ? raw : {}) as Record<string, unknown>;
  const wanted = truthy(request.use_prices_from_price_lists) || (request.price_list_id != null && request.price_list_id !== '');
  if (!wanted || !input.positions?.length) return input;
  let listId = Number(request.price_list_id);
  if (!Number.isSafeInteger(listId) || listId <= 0) {
    const client = input.client_id != null ? await findRow<{ price_list_id?: number | null }>(tx, 'clients', account.id, input.client_id) : undefined;
    listId = Number(client?.data.price_list_id);
    if (!Number.isSafeInteger(listId) || listId <= 0) throw invalid({ price_list_id: ["can't be blank"] });
  }
  const list = await findRow<PriceListData>(tx, 'price_lists', account.id, listId);
  if (!list) throw invalid({ price_list_id: ['does not exist'] });
  const currency = input.currency ?? list.data.currency;
  const positions = [];
  for (const position of input.positions) {
    const priced = position.total_price_gross != null || position.total_price_net != null || position.price_net != null || position.price_gross != null;
    const entry = position.product_id != null && !priced ? list.data.positions.find((p) => p.priceable_id === position.product_id) : undefined;
    if (!entry) {
      positions.push(position);
      continue;
    }
    let priceNet = entry.price_net;
    if (entry.use_percentage) {
      const product = await findRow<ProductData>(tx, 'products', account.id, entry.priceable_id);
      const base = decimal(product?.data.price_net ?? '0');
      priceNet = toWire(round(mul(base, add(ONE, div(decimal(entry.percentage ?? '0'), HUNDRED, 10))), minorUnits(currency)));
    }
    positions.push({
      ...position,
      price_net: priceNet,
      ...(entry.use_tax && entry.tax != null && position.tax == null ? { tax: entry.tax } : {}),
    });
  }
  return { ...input, currency, positions } as InvoiceInput;
}
