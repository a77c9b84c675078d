import { successBody, type PageQuery, type SuccessBody } from '../schemas/common.js';
import { issuer, issuerList, type Issuer, type IssuerCreateInput, type IssuerUpdateInput } from '../schemas/issuer.js';
import type { CallOptions, Transport } from '../transport.js';
import { idSegment, toQuery, type Id } from './shared.js';

export interface IssuersApi {
  list(query?: Partial<PageQuery>, options?: CallOptions): Promise<Issuer[]>;
  get(id: Id, options?: CallOptions): Promise<Issuer>;
  create(input: IssuerCreateInput, options?: CallOptions): Promise<Issuer>;
  update(id: Id, input: IssuerUpdateInput, options?: CallOptions): Promise<Issuer>;
  delete(id: Id, options?: CallOptions): Promise<SuccessBody>;
}

/** Issuers (`/issuers`). */
export function issuersApi(transport: Transport): IssuersApi {
  return {
    list: async (query, options) => transport.request({ method: 'GET', path: 'issuers', query: toQuery(query) }, issuerList, options),
    get: async (id, options) => transport.request({ method: 'GET', path: `issuers/${idSegment(id)}` }, issuer, options),
    create: async (input, options) => transport.request({ method: 'POST', path: 'issuers', body: { issuer: input } }, issuer, options),
    update: async (id, input, options) =>
      transport.request({ method: 'PUT', path: `issuers/${idSegment(id)}`, body: { issuer: input } }, issuer, options),
    delete: async (id, options) => transport.request({ method: 'DELETE', path: `issuers/${idSegment(id)}` }, successBody, options),
  };
}
