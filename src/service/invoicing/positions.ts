import { decimal, div, toPlain, toWire } from '../../kernel/money.js';
import type { invoiceCreateInput } from '../../api/schemas/invoice.js';
import type { z } from 'zod';
import type { Account } from '../account.js';
import type { Sql } from '../db.js';
import { invalid, type Problems } from '../domain-errors.js';
import { findRow } from '../store.js';
import type { ProductData } from '../data/products.js';
import { AmountError, computeLine, DEFAULT_TAX, type LineAmounts, normalizeTax } from './amounts.js';

/**
 * An invoice's positions: each built from what a request gave, its product and the position it
 * replaces, with its amounts computed exactly; their limit and the ids new ones take.
 */

type PositionValues = NonNullable<z.output<typeof invoiceCreateInput>['positions']>[number];

/** The price fields of a position as they were given, kept so that an update can recompute exactly. */
interface Pricing {
  total_price_gross?: string | null;
  total_price_net?: string | null;
  price_gross?: string | null;
  price_net?: string | null;
}

export interface StoredPosition extends LineAmounts {
  id: number;
  product_id: number | null;
  name: string;
  code: string | null;
  description: string | null;
  quantity: string;
  quantity_unit: string | null;
  tax: string;
  pricing: Pricing;
}

/**
 * Most positions one invoice may have (docs/security.md). Every position is stored, summed and
 * drawn in the PDF; beyond this an invoice is refused with 422 rather than slowing everyone down.
 */
export const MAX_POSITIONS = 1000;
export const tooManyPositions = () => invalid({ positions: [`has too many positions (maximum is ${MAX_POSITIONS})`] });

async function loadProduct(tx: Sql, accountId: number, id: number): Promise<ProductData | undefined> {
  return (await findRow<ProductData>(tx, 'products', accountId, id))?.data;
}

function pricingOf(input: PositionValues): Pricing | undefined {
  const pricing: Pricing = {};
  for (const key of ['total_price_gross', 'total_price_net', 'price_gross', 'price_net'] as const) {
    if (input[key] != null) pricing[key] = input[key];
  }
  return Object.keys(pricing).length > 0 ? pricing : undefined;
}

/** Per-unit pricing, used when the quantity of a position given by its total changes. */
function perUnit(pricing: Pricing, quantity: string): Pricing {
  if (pricing.total_price_gross != null) {
    return { price_gross: toPlain(div(decimal(pricing.total_price_gross), decimal(quantity), 10)) };
  }
  if (pricing.total_price_net != null) {
    return { price_net: toPlain(div(decimal(pricing.total_price_net), decimal(quantity), 10)) };
  }
  return pricing;
}

export interface PositionContext {
  tx: Sql;
  account: Account;
  currency: string;
  discountKind: NonNullable<z.output<typeof invoiceCreateInput>['discount_kind']> | null;
  problems: Problems;
  lineIds: () => Promise<number>;
}

export async function buildPosition(
  ctx: PositionContext,
  input: PositionValues,
  index: number,
  current?: StoredPosition,
): Promise<StoredPosition | undefined> {
  const at = (field: string) => `positions.${index}.${field}`;
  let product: ProductData | undefined;
  const productId = input.product_id !== undefined ? input.product_id : (current?.product_id ?? null);
  if (productId != null && (input.product_id != null || !current)) {
    product = await loadProduct(ctx.tx, ctx.account.id, productId);
    if (!product) {
      ctx.problems.add(at('product_id'), 'does not exist');
      return undefined;
    }
  }
  const name = (input.name ?? current?.name ?? product?.name ?? '').trim();
  if (!name) ctx.problems.add(at('name'), "can't be blank");
  const tax = normalizeTax(input.tax ?? current?.tax ?? product?.tax ?? DEFAULT_TAX);
  const quantity = input.quantity ?? current?.quantity ?? '1';
  let pricing = pricingOf(input);
  if (!pricing && current) {
    pricing = quantity !== current.quantity ? perUnit(current.pricing, current.quantity) : current.pricing;
  }
  if (!pricing && product) pricing = { price_gross: product.price_gross };
  if (!pricing) {
    ctx.problems.add(at('total_price_gross'), "can't be blank");
    return undefined;
  }
  let amounts: LineAmounts;
  try {
    amounts = computeLine(
      {
        quantity,
        tax,
        ...pricing,
        discount_percent: input.discount_percent !== undefined ? input.discount_percent : current?.discount_percent,
        discount: input.discount !== undefined ? input.discount : current?.discount,
      },
      ctx.currency,
      ctx.discountKind,
    );
  } catch (error) {
    if (error instanceof AmountError) {
      ctx.problems.add(at('total_price_gross'), error.message);
      return undefined;
    }
    throw error;
  }
  return {
    id: current?.id ?? (await ctx.lineIds()),
    product_id: productId,
    name,
    code: input.code !== undefined ? (input.code ?? null) : (current?.code ?? product?.code ?? null),
    description: input.description !== undefined ? (input.description ?? null) : (current?.description ?? null),
    quantity: toWire(decimal(quantity)),
    quantity_unit:
      input.quantity_unit !== undefined ? (input.quantity_unit ?? null) : (current?.quantity_unit ?? product?.quantity_unit ?? 'szt.'),
    tax,
    ...amounts,
    pricing,
  };
}

/**
 * Ids for new positions, taken from the sequence in one query for as many as the request may need
 * (at most `expected`, which is bounded by the position limit) rather than one query each. Ids a
 * request took but did not use are gaps, as a rolled-back transaction leaves.
 */
export function lineIdSource(tx: Sql, expected: number): () => Promise<number> {
  let taken: number[] = [];
  return async () => {
    if (taken.length === 0) taken = await tx.sequenceValues('line_ids', Math.max(1, Math.min(expected, MAX_POSITIONS)));
    return taken.shift()!;
  };
}
