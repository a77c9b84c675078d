import * as z from 'zod';
import { booleanInput, decimalInput, decimalString, optionalId, optionalText } from './common.js';

export const TAX_CODES = ['zw', 'np', 'disabled'] as const;

/** A position's tax: a rate in percent (`23`, `"8"`, `"5,5"`) or a code (`zw`, `np`, `disabled`). */
export const taxInput = z.union([
  z.enum(TAX_CODES),
  decimalInput.refine((rate) => Number(rate) >= 0 && Number(rate) <= 100, {
    message: 'must be a rate from 0 to 100 or zw, np, disabled',
  }),
], { message: 'must be a rate from 0 to 100 or zw, np, disabled' });

export const nonNegativeDecimal = decimalInput.refine((v) => !v.startsWith('-'), { message: 'must not be negative' });

/** One side of a correction line: the line before or after the correction. */
export const correctionSide = z.object({
  name: optionalText(500),
  product_id: optionalId,
  tax: taxInput.nullish(),
  quantity: decimalInput.nullish(),
  quantity_unit: optionalText(30),
  total_price_gross: decimalInput.nullish(),
  total_price_net: decimalInput.nullish(),
  price_net: decimalInput.nullish(),
  price_gross: decimalInput.nullish(),
  kind: optionalText(50),
});

/**
 * The names, codes and descriptions of one invoice's positions, together, at most: a real invoice
 * never comes near, and one that does would take the PDF renderer's time from everyone else.
 */
export const MAX_POSITIONS_TEXT = 200_000;

export function positionsText(positions: readonly { name?: string | null | undefined; code?: string | null | undefined; description?: string | null | undefined }[]): number {
  return positions.reduce((sum, p) => sum + (p.name?.length ?? 0) + (p.code?.length ?? 0) + (p.description?.length ?? 0), 0);
}

export const positionInput = z.object({
  id: optionalId,
  _destroy: booleanInput.optional(),
  product_id: optionalId,
  name: optionalText(500),
  code: optionalText(100),
  description: optionalText(5000),
  tax: taxInput.nullish(),
  quantity: decimalInput.refine((q) => Number(q) !== 0, { message: 'must not be zero' }).nullish(),
  quantity_unit: optionalText(30),
  total_price_gross: decimalInput.nullish(),
  total_price_net: decimalInput.nullish(),
  price_net: decimalInput.nullish(),
  price_gross: decimalInput.nullish(),
  discount_percent: nonNegativeDecimal.refine((v) => Number(v) <= 100, { message: 'must be at most 100' }).nullish(),
  discount: nonNegativeDecimal.nullish(),
  /** `correction` on a correction's line; the hosted service also sends `correction_before` / `_after`. */
  kind: optionalText(50),
  additional_info: optionalText(500),
  /** A correction's line as it was and as it is now; the line's amounts are the exact difference. */
  correction_before_attributes: correctionSide.nullish(),
  correction_after_attributes: correctionSide.nullish(),
});
export type PositionInput = z.input<typeof positionInput>;

const s = z.string().nullable();
const n = z.number().nullable();
const d = decimalString.nullable();

/** One side of a correction line as answered. */
export const correctionLine = z.looseObject({
  name: z.string(),
  quantity: decimalString,
  tax: z.string(),
  price_net: decimalString,
  price_gross: decimalString,
  total_price_net: decimalString,
  total_price_tax: decimalString,
  total_price_gross: decimalString,
});

/**
 * A position as the service answers it: the reference's fields and every key of the hosted
 * service's position (28), `null` where unset.
 */
export const position = z.looseObject({
  id: z.number(),
  invoice_id: z.number(),
  product_id: n,
  name: z.string(),
  code: s,
  description: s,
  quantity: decimalString,
  quantity_unit: s,
  tax: z.string(),
  price_net: decimalString,
  price_gross: decimalString,
  price_tax: decimalString,
  total_price_net: decimalString,
  total_price_gross: decimalString,
  total_price_tax: decimalString,
  discount: d,
  discount_percent: d,
  account_id: z.number(),
  created_at: z.string(),
  updated_at: z.string(),
  additional_info: s,
  kind: s,
  invoice_position_id: n,
  deleted: z.boolean(),
  tax2: decimalString,
  exchange_rate: decimalString,
  accounting_tax_kind: s,
  additional_fields: z.record(z.string(), z.unknown()).nullable(),
  correction_before_attributes: correctionLine.optional(),
  correction_after_attributes: correctionLine.optional(),
});
export type Position = z.infer<typeof position>;
