import { warehouseActionRecordList, type WarehouseActionRecord, type WarehouseActionListQuery } from '../schemas/warehouse-action.js';
import type { CallOptions, Transport } from '../transport.js';
import { paginate, toQuery } from './shared.js';

export interface WarehouseActionsApi {
  /** One page of stock movements; filters `warehouse_id`, `kind`, `product_id`, `date_from`, `date_to`, documents. */
  list(query?: WarehouseActionListQuery, options?: CallOptions): Promise<WarehouseActionRecord[]>;
  iterate(query?: WarehouseActionListQuery, options?: CallOptions): AsyncIterable<WarehouseActionRecord>;
}

/** Warehouse actions (`/warehouse_actions`), as they follow from the warehouse documents. */
export function warehouseActionsApi(transport: Transport): WarehouseActionsApi {
  const list = async (query: WarehouseActionListQuery = {}, options?: CallOptions) =>
    transport.request({ method: 'GET', path: 'warehouse_actions', query: toQuery(query) }, warehouseActionRecordList, options);
  return { list, iterate: (query = {}, options) => paginate(list, query, options) };
}
