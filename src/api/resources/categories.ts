import { category, categoryList, type Category, type CategoryCreateInput } from '../schemas/catalog.js';
import { successBody, type PageQuery, type SuccessBody } from '../schemas/common.js';
import type { CallOptions, Transport } from '../transport.js';
import { idSegment, toQuery, type Id } from './shared.js';

export interface CategoriesApi {
  list(query?: Partial<PageQuery>, options?: CallOptions): Promise<Category[]>;
  get(id: Id, options?: CallOptions): Promise<Category>;
  create(input: CategoryCreateInput, options?: CallOptions): Promise<Category>;
  delete(id: Id, options?: CallOptions): Promise<SuccessBody>;
}

/** The product category operations of spec §4.6. */
export function categoriesApi(transport: Transport): CategoriesApi {
  return {
    list: async (query, options) => transport.request({ method: 'GET', path: 'categories', query: toQuery(query) }, categoryList, options),
    get: async (id, options) => transport.request({ method: 'GET', path: `categories/${idSegment(id)}` }, category, options),
    create: async (input, options) =>
      transport.request({ method: 'POST', path: 'categories', body: { category: input } }, category, options),
    delete: async (id, options) => transport.request({ method: 'DELETE', path: `categories/${idSegment(id)}` }, successBody, options),
  };
}
