import { successBody, type PageQuery, type SuccessBody } from '../schemas/common.js';
import { priceList, priceListList, type PriceList, type PriceListCreateInput, type PriceListUpdateInput } from '../schemas/price-list.js';
import type { CallOptions, Transport } from '../transport.js';
import { idSegment, toQuery, type Id } from './shared.js';

export interface PriceListsApi {
  list(query?: Partial<PageQuery>, options?: CallOptions): Promise<PriceList[]>;
  get(id: Id, options?: CallOptions): Promise<PriceList>;
  /** A price list with its positions (`price_list_positions_attributes`, one per product). */
  create(input: PriceListCreateInput, options?: CallOptions): Promise<PriceList>;
  /** Positions are changed by `id` and removed with `_destroy: true`. */
  update(id: Id, input: PriceListUpdateInput, options?: CallOptions): Promise<PriceList>;
  delete(id: Id, options?: CallOptions): Promise<SuccessBody>;
}

/** Price lists (`/price_lists`); an invoice takes prices from one with `use_prices_from_price_lists` and `price_list_id`. */
export function priceListsApi(transport: Transport): PriceListsApi {
  return {
    list: async (query, options) => transport.request({ method: 'GET', path: 'price_lists', query: toQuery(query) }, priceListList, options),
    get: async (id, options) => transport.request({ method: 'GET', path: `price_lists/${idSegment(id)}` }, priceList, options),
    create: async (input, options) => transport.request({ method: 'POST', path: 'price_lists', body: { price_list: input } }, priceList, options),
    update: async (id, input, options) =>
      transport.request({ method: 'PUT', path: `price_lists/${idSegment(id)}`, body: { price_list: input } }, priceList, options),
    delete: async (id, options) => transport.request({ method: 'DELETE', path: `price_lists/${idSegment(id)}` }, successBody, options),
  };
}
