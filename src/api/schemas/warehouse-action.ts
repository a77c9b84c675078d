import * as z from 'zod';
import { decimalString, optionalDate, optionalId, pageQuery } from './common.js';

/**
 * One movement of one product, as it follows from a warehouse document: `pz` receives goods
 * (`to_warehouse_document_id`), `wz` issues them (`from_warehouse_document_id`), `mm` moves them
 * between warehouses (both).
 */
export const warehouseActionRecord = z.looseObject({
  id: z.number(),
  kind: z.string(),
  warehouse_id: z.number(),
  warehouse2_id: z.number().nullable(),
  product_id: z.number(),
  product_name: z.string().nullable(),
  quantity: decimalString,
  price_net: decimalString.nullable(),
  tax: z.string().nullable(),
  issue_date: z.string(),
  warehouse_document_id: z.number(),
  from_warehouse_document_id: z.number().nullable(),
  to_warehouse_document_id: z.number().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type WarehouseActionRecord = z.infer<typeof warehouseActionRecord>;
export const warehouseActionRecordList = z.array(warehouseActionRecord);

export const warehouseActionListQuery = pageQuery.extend({
  warehouse_id: optionalId,
  kind: z.enum(['pz', 'wz', 'mm'], { message: 'must be one of pz, wz, mm' }).optional(),
  product_id: optionalId,
  date_from: optionalDate,
  date_to: optionalDate,
  /** Issues (`wz`, `mm`) of this document. */
  from_warehouse_document: optionalId,
  /** Receipts (`pz`, `mm`) of this document. */
  to_warehouse_document: optionalId,
  warehouse_document_id: optionalId,
});
export type WarehouseActionListQuery = z.input<typeof warehouseActionListQuery>;
