import * as z from 'zod';
import { booleanInput, decimalInput, decimalString, optionalDate, optionalId, optionalText, pageQuery } from './common.js';
import { taxInput } from './invoice.js';

export const WAREHOUSE_DOCUMENT_KINDS = ['pz', 'wz', 'mm'] as const;

export const warehouseActionInput = z.object({
  id: optionalId,
  _destroy: booleanInput.optional(),
  product_id: optionalId,
  product_name: optionalText(500),
  purchase_tax: taxInput.nullish(),
  purchase_price_net: decimalInput.nullish(),
  price_net: decimalInput.nullish(),
  tax: taxInput.nullish(),
  quantity: decimalInput.nullish(),
});

const documentFields = {
  kind: z.enum(WAREHOUSE_DOCUMENT_KINDS, { message: 'must be pz, wz or mm' }).nullish(),
  number: optionalText(100),
  warehouse_id: optionalId,
  issue_date: optionalDate,
  department_id: optionalId,
  department_name: optionalText(300),
  client_id: optionalId,
  client_name: optionalText(300),
  description: optionalText(5000),
  warehouse_actions: z.array(warehouseActionInput).max(1000).nullish(),
};

export const warehouseDocumentCreateInput = z.object(documentFields);
export type WarehouseDocumentCreateInput = z.input<typeof warehouseDocumentCreateInput>;
export const warehouseDocumentUpdateInput = z.object(documentFields).partial();
export type WarehouseDocumentUpdateInput = z.input<typeof warehouseDocumentUpdateInput>;
export const warehouseDocumentListQuery = pageQuery.extend({
  kind: z.enum(WAREHOUSE_DOCUMENT_KINDS).optional(),
  warehouse_id: optionalId,
});
export type WarehouseDocumentListQuery = z.input<typeof warehouseDocumentListQuery>;

export const warehouseAction = z.looseObject({
  id: z.number(),
  product_id: z.number(),
  product_name: z.string(),
  quantity: decimalString,
  price_net: decimalString,
  tax: z.string(),
});

export const warehouseDocument = z.looseObject({
  id: z.number(),
  kind: z.string(),
  number: z.string(),
  warehouse_id: z.number(),
  issue_date: z.string(),
  department_id: z.number().nullable(),
  department_name: z.string().nullable(),
  client_id: z.number().nullable(),
  client_name: z.string().nullable(),
  value_net: decimalString,
  value_gross: decimalString,
  warehouse_actions: z.array(warehouseAction),
  created_at: z.string(),
  updated_at: z.string(),
});
export type WarehouseDocument = z.infer<typeof warehouseDocument>;
export const warehouseDocumentList = z.array(warehouseDocument);
