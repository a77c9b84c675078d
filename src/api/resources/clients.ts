import { successBody, type SuccessBody } from '../schemas/common.js';
import {
  client,
  clientList,
  type Client,
  type ClientCreateInput,
  type ClientListQuery,
  type ClientUpdateInput,
} from '../schemas/client.js';
import type { CallOptions, Transport } from '../transport.js';
import { idSegment, paginate, toQuery, type Id } from './shared.js';

export interface ClientsApi {
  /** One page of clients; filters `external_id`, `name`, `email`, `tax_no`. */
  list(query?: ClientListQuery, options?: CallOptions): Promise<Client[]>;
  iterate(query?: ClientListQuery, options?: CallOptions): AsyncIterable<Client>;
  get(id: Id, options?: CallOptions): Promise<Client>;
  /** The client with this `external_id` (your own id for it), or undefined. */
  findByExternalId(externalId: string, options?: CallOptions): Promise<Client | undefined>;
  create(input: ClientCreateInput, options?: CallOptions): Promise<Client>;
  update(id: Id, input: ClientUpdateInput, options?: CallOptions): Promise<Client>;
  delete(id: Id, options?: CallOptions): Promise<SuccessBody>;
}

/** The client (buyer) operations of spec §4.4. */
export function clientsApi(transport: Transport): ClientsApi {
  const list = async (query: ClientListQuery = {}, options?: CallOptions) =>
    transport.request({ method: 'GET', path: 'clients', query: toQuery(query) }, clientList, options);

  return {
    list,
    iterate: (query = {}, options) => paginate(list, query, options),
    get: async (id, options) => transport.request({ method: 'GET', path: `clients/${idSegment(id)}` }, client, options),
    findByExternalId: async (externalId, options) => (await list({ external_id: externalId }, options))[0],
    create: async (input, options) => transport.request({ method: 'POST', path: 'clients', body: { client: input } }, client, options),
    update: async (id, input, options) =>
      transport.request({ method: 'PUT', path: `clients/${idSegment(id)}`, body: { client: input } }, client, options),
    delete: async (id, options) => transport.request({ method: 'DELETE', path: `clients/${idSegment(id)}` }, successBody, options),
  };
}
