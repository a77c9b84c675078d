import { successBody, type PageQuery, type SuccessBody } from '../schemas/common.js';
import { recurring, recurringList, type Recurring, type RecurringCreateInput, type RecurringUpdateInput } from '../schemas/recurring.js';
import type { CallOptions, Transport } from '../transport.js';
import { idSegment, toQuery, type Id } from './shared.js';

export interface RecurringsApi {
  list(query?: Partial<PageQuery>, options?: CallOptions): Promise<Recurring[]>;
  get(id: Id, options?: CallOptions): Promise<Recurring>;
  /** A definition that issues a copy of `invoice_id` every `every` (`1m`, `2w`, `1y`) from `start_date`. */
  create(input: RecurringCreateInput, options?: CallOptions): Promise<Recurring>;
  /** E.g. `{ next_invoice_date: '2026-02-01' }` to move the next issue. */
  update(id: Id, input: RecurringUpdateInput, options?: CallOptions): Promise<Recurring>;
  delete(id: Id, options?: CallOptions): Promise<SuccessBody>;
}

/** Recurring invoice definitions (`/recurrings`). */
export function recurringsApi(transport: Transport): RecurringsApi {
  return {
    list: async (query, options) => transport.request({ method: 'GET', path: 'recurrings', query: toQuery(query) }, recurringList, options),
    get: async (id, options) => transport.request({ method: 'GET', path: `recurrings/${idSegment(id)}` }, recurring, options),
    create: async (input, options) => transport.request({ method: 'POST', path: 'recurrings', body: { recurring: input } }, recurring, options),
    update: async (id, input, options) =>
      transport.request({ method: 'PUT', path: `recurrings/${idSegment(id)}`, body: { recurring: input } }, recurring, options),
    delete: async (id, options) => transport.request({ method: 'DELETE', path: `recurrings/${idSegment(id)}` }, successBody, options),
  };
}
