import { successBody, type PageQuery, type SuccessBody } from '../schemas/common.js';
import {
  webhook,
  webhookDelivery,
  webhookDeliveryList,
  webhookList,
  type Webhook,
  type WebhookCreateInput,
  type WebhookDelivery,
  type WebhookDeliveryListQuery,
  type WebhookUpdateInput,
} from '../schemas/webhook.js';
import type { CallOptions, Transport } from '../transport.js';
import { idSegment, toQuery, type Id } from './shared.js';

export interface WebhooksApi {
  list(query?: Partial<PageQuery>, options?: CallOptions): Promise<Webhook[]>;
  get(id: Id, options?: CallOptions): Promise<Webhook>;
  /** Subscribes `url` to one kind of event (`invoice:create`, `payment:update`, …); the answer carries the signing `secret`. */
  create(input: WebhookCreateInput, options?: CallOptions): Promise<Webhook>;
  update(id: Id, input: WebhookUpdateInput, options?: CallOptions): Promise<Webhook>;
  delete(id: Id, options?: CallOptions): Promise<SuccessBody>;
  /** The delivery log of one webhook, newest first. */
  deliveries(id: Id, query?: WebhookDeliveryListQuery, options?: CallOptions): Promise<WebhookDelivery[]>;
  /** Queues a delivery again, e.g. after the subscriber was fixed. */
  redeliver(id: Id, deliveryId: Id, options?: CallOptions): Promise<WebhookDelivery>;
}

/** The webhook operations of the hosted service, with this service's delivery log. */
export function webhooksApi(transport: Transport): WebhooksApi {
  return {
    list: async (query, options) => transport.request({ method: 'GET', path: 'webhooks', query: toQuery(query) }, webhookList, options),
    get: async (id, options) => transport.request({ method: 'GET', path: `webhooks/${idSegment(id)}` }, webhook, options),
    create: async (input, options) => transport.request({ method: 'POST', path: 'webhooks', body: { webhook: input } }, webhook, options),
    update: async (id, input, options) =>
      transport.request({ method: 'PUT', path: `webhooks/${idSegment(id)}`, body: { webhook: input } }, webhook, options),
    delete: async (id, options) => transport.request({ method: 'DELETE', path: `webhooks/${idSegment(id)}` }, successBody, options),
    deliveries: async (id, query, options) =>
      transport.request({ method: 'GET', path: `webhooks/${idSegment(id)}/deliveries`, query: toQuery(query) }, webhookDeliveryList, options),
    redeliver: async (id, deliveryId, options) =>
      transport.request({ method: 'POST', path: `webhooks/${idSegment(id)}/deliveries/${idSegment(deliveryId)}/redeliver` }, webhookDelivery, options),
  };
}
