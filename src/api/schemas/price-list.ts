import * as z from 'zod';
import { booleanInput, currencyInput, decimalInput, decimalString, optionalId, optionalText, textInput } from './common.js';
import { taxInput } from './invoice.js';

/** Rails-style nested attributes: an array, or an object keyed `"0"`, `"1"`, … as the documentation sends them. */
const nestedList = <T extends z.ZodType>(item: T) =>
  z.preprocess(
    (value) =>
      typeof value === 'object' && value !== null && !Array.isArray(value)
        ? Object.keys(value)
            .sort((a, b) => Number(a) - Number(b))
            .map((key) => (value as Record<string, unknown>)[key])
        : value,
    z.array(item).max(5000, 'has too many positions (maximum is 5000)'),
  );

export const priceListPositionInput = z.object({
  id: optionalId,
  _destroy: booleanInput.optional(),
  priceable_id: optionalId,
  priceable_name: optionalText(500),
  priceable_type: z.enum(['Product'], { message: 'must be Product' }).nullish(),
  use_percentage: booleanInput.nullish(),
  percentage: z.preprocess((value) => (value === '' ? null : value), decimalInput.nullish()),
  price_net: z.preprocess((value) => (value === '' ? null : value), decimalInput.nullish()),
  price_gross: z.preprocess((value) => (value === '' ? null : value), decimalInput.nullish()),
  use_tax: booleanInput.nullish(),
  tax: z.preprocess((value) => (value === '' ? null : value), taxInput.nullish()),
});

const priceListFields = {
  name: textInput(300),
  description: optionalText(5000),
  currency: currencyInput.nullish(),
  price_list_positions_attributes: nestedList(priceListPositionInput).nullish(),
};

/** Body of `POST /price_lists` (inside the `price_list` wrapper). */
export const priceListCreateInput = z.object(priceListFields);
export type PriceListCreateInput = z.input<typeof priceListCreateInput>;
export const priceListUpdateInput = z.object(priceListFields).partial();
export type PriceListUpdateInput = z.input<typeof priceListUpdateInput>;

export const priceListPosition = z.looseObject({
  id: z.number(),
  price_list_id: z.number(),
  priceable_id: z.number(),
  priceable_name: z.string().nullable(),
  priceable_type: z.string(),
  use_percentage: z.boolean(),
  percentage: decimalString.nullable(),
  price_net: decimalString.nullable(),
  price_gross: decimalString.nullable(),
  use_tax: z.boolean(),
  tax: z.string().nullable(),
});
export type PriceListPosition = z.infer<typeof priceListPosition>;

export const priceList = z.looseObject({
  id: z.number(),
  name: z.string(),
  description: z.string().nullable(),
  currency: z.string(),
  price_list_positions: z.array(priceListPosition),
  created_at: z.string(),
  updated_at: z.string(),
});
export type PriceList = z.infer<typeof priceList>;
export const priceListList = z.array(priceList);
