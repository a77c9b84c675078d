import { successBody, type SuccessBody } from '../schemas/common.js';
import {
  product,
  productList,
  type Product,
  type ProductCreateInput,
  type ProductListQuery,
  type ProductUpdateInput,
} from '../schemas/product.js';
import type { CallOptions, Transport } from '../transport.js';
import { idSegment, paginate, toQuery, type Id } from './shared.js';

export interface ProductReadOptions extends CallOptions {
  /** Report `stock_level` in this warehouse. */
  warehouseId?: Id;
}

export interface ProductsApi {
  /** One page of products; with `warehouse_id`, stock levels are those of that warehouse. */
  list(query?: ProductListQuery, options?: CallOptions): Promise<Product[]>;
  iterate(query?: ProductListQuery, options?: CallOptions): AsyncIterable<Product>;
  get(id: Id, options?: ProductReadOptions): Promise<Product>;
  create(input: ProductCreateInput, options?: CallOptions): Promise<Product>;
  /** With `price_gross`, the service derives `price_net` from it and `tax`. */
  update(id: Id, input: ProductUpdateInput, options?: CallOptions): Promise<Product>;
  delete(id: Id, options?: CallOptions): Promise<SuccessBody>;
  /**
   * The address of the product's payment widget script (§1 rule 4):
   * `{appUrl}/a/<accountPrefix>/p/<productToken>.js`. Without `accountPrefix`, the first label of
   * the base address's host name is used (`acme` for `https://acme.example.com`).
   */
  widgetUrl(productToken: string, accountPrefix?: string): string;
}

/** The product operations of spec §4.3. */
export function productsApi(transport: Transport): ProductsApi {
  const list = async (query: ProductListQuery = {}, options?: CallOptions) =>
    transport.request({ method: 'GET', path: 'products', query: toQuery(query) }, productList, options);

  return {
    list,
    iterate: (query = {}, options) => paginate(list, query, options),
    get: async (id, options = {}) =>
      transport.request(
        {
          method: 'GET',
          path: `products/${idSegment(id)}`,
          query: { warehouse_id: options.warehouseId === undefined ? undefined : idSegment(options.warehouseId) },
        },
        product,
        options,
      ),
    create: async (input, options) => transport.request({ method: 'POST', path: 'products', body: { product: input } }, product, options),
    update: async (id, input, options) =>
      transport.request({ method: 'PUT', path: `products/${idSegment(id)}`, body: { product: input } }, product, options),
    delete: async (id, options) => transport.request({ method: 'DELETE', path: `products/${idSegment(id)}` }, successBody, options),
    widgetUrl: (productToken, accountPrefix) => {
      const prefix = accountPrefix ?? prefixFromHost(transport.baseUrl);
      if (!prefix) throw new TypeError('widgetUrl needs the account prefix when the base address does not name it');
      return `${transport.appUrl}/a/${encodeURIComponent(prefix)}/p/${encodeURIComponent(productToken)}.js`;
    },
  };
}

function prefixFromHost(baseUrl: string): string | undefined {
  const host = new URL(baseUrl).hostname;
  const labels = host.split('.');
  if (labels.length < 3 || /^[\d.]+$/.test(host) || host.includes(':')) return undefined;
  return labels[0];
}
