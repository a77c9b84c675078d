import * as z from 'zod';
import { optionalText, textInput } from './common.js';

/** Categories and warehouses: small named records. */
export const categoryCreateInput = z.object({
  name: textInput(200),
  description: optionalText(5000),
});
export type CategoryCreateInput = z.input<typeof categoryCreateInput>;
export const categoryUpdateInput = categoryCreateInput.partial();

export const category = z.looseObject({
  id: z.number(),
  name: z.string(),
  description: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Category = z.infer<typeof category>;
export const categoryList = z.array(category);

export const warehouseCreateInput = z.object({
  name: textInput(200),
  kind: optionalText(50),
  description: optionalText(5000),
});
export type WarehouseCreateInput = z.input<typeof warehouseCreateInput>;
export const warehouseUpdateInput = warehouseCreateInput.partial();

export const warehouse = z.looseObject({
  id: z.number(),
  name: z.string(),
  kind: z.string().nullable(),
  description: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Warehouse = z.infer<typeof warehouse>;
export const warehouseList = z.array(warehouse);
