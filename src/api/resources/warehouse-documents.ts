import { successBody, type SuccessBody } from '../schemas/common.js';
import {
  warehouseDocument,
  warehouseDocumentList,
  type WarehouseDocument,
  type WarehouseDocumentCreateInput,
  type WarehouseDocumentListQuery,
  type WarehouseDocumentUpdateInput,
} from '../schemas/warehouse-document.js';
import type { CallOptions, Transport } from '../transport.js';
import { idSegment, paginate, toQuery, type Id } from './shared.js';

export interface WarehouseDocumentsApi {
  list(query?: WarehouseDocumentListQuery, options?: CallOptions): Promise<WarehouseDocument[]>;
  iterate(query?: WarehouseDocumentListQuery, options?: CallOptions): AsyncIterable<WarehouseDocument>;
  get(id: Id, options?: CallOptions): Promise<WarehouseDocument>;
  /** A `pz` (goods received) raises and a `wz` (goods issued) lowers the products' stock. */
  create(input: WarehouseDocumentCreateInput, options?: CallOptions): Promise<WarehouseDocument>;
  update(id: Id, input: WarehouseDocumentUpdateInput, options?: CallOptions): Promise<WarehouseDocument>;
  delete(id: Id, options?: CallOptions): Promise<SuccessBody>;
}

/** The warehouse document operations of spec §4.2. */
export function warehouseDocumentsApi(transport: Transport): WarehouseDocumentsApi {
  const list = async (query: WarehouseDocumentListQuery = {}, options?: CallOptions) =>
    transport.request({ method: 'GET', path: 'warehouse_documents', query: toQuery(query) }, warehouseDocumentList, options);

  return {
    list,
    iterate: (query = {}, options) => paginate(list, query, options),
    get: async (id, options) =>
      transport.request({ method: 'GET', path: `warehouse_documents/${idSegment(id)}` }, warehouseDocument, options),
    create: async (input, options) =>
      transport.request({ method: 'POST', path: 'warehouse_documents', body: { warehouse_document: input } }, warehouseDocument, options),
    update: async (id, input, options) =>
      transport.request(
        { method: 'PUT', path: `warehouse_documents/${idSegment(id)}`, body: { warehouse_document: input } },
        warehouseDocument,
        options,
      ),
    delete: async (id, options) =>
      transport.request({ method: 'DELETE', path: `warehouse_documents/${idSegment(id)}` }, successBody, options),
  };
}
