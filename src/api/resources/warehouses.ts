import { warehouse, warehouseList, type Warehouse, type WarehouseCreateInput } from '../schemas/catalog.js';
import { successBody, type PageQuery, type SuccessBody } from '../schemas/common.js';
import type { CallOptions, Transport } from '../transport.js';
import { idSegment, toQuery, type Id } from './shared.js';

export interface WarehousesApi {
  list(query?: Partial<PageQuery>, options?: CallOptions): Promise<Warehouse[]>;
  get(id: Id, options?: CallOptions): Promise<Warehouse>;
  create(input: WarehouseCreateInput, options?: CallOptions): Promise<Warehouse>;
  delete(id: Id, options?: CallOptions): Promise<SuccessBody>;
}

/** The warehouse operations of spec §4.7. */
export function warehousesApi(transport: Transport): WarehousesApi {
  return {
    list: async (query, options) => transport.request({ method: 'GET', path: 'warehouses', query: toQuery(query) }, warehouseList, options),
    get: async (id, options) => transport.request({ method: 'GET', path: `warehouses/${idSegment(id)}` }, warehouse, options),
    create: async (input, options) =>
      transport.request({ method: 'POST', path: 'warehouses', body: { warehouse: input } }, warehouse, options),
    delete: async (id, options) => transport.request({ method: 'DELETE', path: `warehouses/${idSegment(id)}` }, successBody, options),
  };
}
