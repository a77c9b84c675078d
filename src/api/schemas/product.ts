import * as z from 'zod';
import { booleanInput, currencyInput, decimalInput, decimalString, optionalId, optionalText, pageQuery } from './common.js';
import { SUPPLY_KINDS } from '../../kernel/tax/rules.js';
import { taxInput } from './invoice.js';

const productFields = {
  name: optionalText(500),
  code: optionalText(100),
  ean_code: optionalText(50),
  description: optionalText(10000),
  price_net: decimalInput.nullish(),
  price_gross: decimalInput.nullish(),
  tax: taxInput.nullish(),
  currency: currencyInput.nullish(),
  quantity_unit: optionalText(30),
  service: booleanInput.nullish(),
  /** Ours, beside the hosted service's `service`: goods, a service or an electronically supplied service, which decides the VAT of a sale. */
  supply_kind: z.enum(SUPPLY_KINDS, { message: 'must be goods, service or electronic_service' }).nullish(),
  category_id: optionalId,
  token: z.string().regex(/^[A-Za-z0-9_-]{4,64}$/, 'may hold only letters, digits, - and _ (4 to 64)').nullish(),
};

export const productCreateInput = z.object(productFields);
export type ProductCreateInput = z.input<typeof productCreateInput>;
export const productUpdateInput = z.object(productFields).partial();
export type ProductUpdateInput = z.input<typeof productUpdateInput>;

export const productListQuery = pageQuery.extend({
  warehouse_id: optionalId,
  category_id: optionalId,
  /** The product a widget address names. */
  token: z.string().optional(),
});
export type ProductListQuery = z.input<typeof productListQuery>;
export const productReadQuery = z.object({ warehouse_id: optionalId });

const s = z.string().nullable();
export const product = z.looseObject({
  id: z.number(),
  name: z.string(),
  code: s,
  ean_code: s,
  description: s,
  price_net: decimalString,
  price_gross: decimalString,
  tax: z.string(),
  currency: z.string(),
  quantity_unit: s,
  service: z.boolean(),
  /** Ours: the hosted service answers without it (its `service` flag says goods or a service). */
  supply_kind: z.enum(SUPPLY_KINDS).optional(),
  category_id: z.number().nullable(),
  stock_level: decimalString,
  token: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Product = z.infer<typeof product>;
export const productList = z.array(product);
