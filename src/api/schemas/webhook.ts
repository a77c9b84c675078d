import * as z from 'zod';
import { booleanInput, optionalText, pageQuery, textInput } from './common.js';

/** Events a webhook can subscribe to: a record of a kind was created or updated, or something needs the seller. */
export const WEBHOOK_KINDS = [
  'invoice:create',
  'invoice:update',
  'client:create',
  'client:update',
  'product:create',
  'product:update',
  'payment:create',
  'payment:update',
  // Something needs the seller (an extension of this service): the overview's item, as `GET /account/attention` lists it.
  'account:attention',
] as const;
export type WebhookKind = (typeof WEBHOOK_KINDS)[number];

const kindInput = z.enum(WEBHOOK_KINDS, { message: `must be one of ${WEBHOOK_KINDS.join(', ')}` });
const urlInput = textInput(2000).pipe(z.url({ protocol: /^https?$/, message: 'must be an http(s) URL' }));

/** Body of `POST /webhooks` (inside the `webhook` wrapper). */
export const webhookCreateInput = z.object({
  kind: kindInput,
  url: urlInput,
  /** Sent back in every delivery's body, so the subscriber can tell the deliveries are its own. */
  api_token: optionalText(200),
  active: booleanInput.nullish(),
  /** The HMAC key of the signature header; generated when not given. */
  secret: textInput(200).pipe(z.string().min(16, 'is too short (minimum is 16 characters)')).nullish(),
});
export type WebhookCreateInput = z.input<typeof webhookCreateInput>;
export const webhookUpdateInput = webhookCreateInput.partial();
export type WebhookUpdateInput = z.input<typeof webhookUpdateInput>;

export const webhook = z.looseObject({
  id: z.number(),
  kind: z.string(),
  url: z.string(),
  api_token: z.string().nullable(),
  active: z.boolean(),
  secret: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Webhook = z.infer<typeof webhook>;
export const webhookList = z.array(webhook);

export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const;

/** One delivery of one event to one webhook, with its attempts so far. */
export const webhookDelivery = z.looseObject({
  id: z.number(),
  delivery_id: z.string(),
  webhook_id: z.number(),
  kind: z.string(),
  record_id: z.number(),
  status: z.enum(WEBHOOK_DELIVERY_STATUSES),
  attempts: z.number(),
  next_attempt_at: z.string().nullable(),
  last_attempt_at: z.string().nullable(),
  last_status: z.number().nullable(),
  last_error: z.string().nullable(),
  delivered_at: z.string().nullable(),
  created_at: z.string(),
});
export type WebhookDelivery = z.infer<typeof webhookDelivery>;
export const webhookDeliveryList = z.array(webhookDelivery);
export const webhookDeliveryListQuery = pageQuery.extend({
  status: z.enum(WEBHOOK_DELIVERY_STATUSES, { message: `must be one of ${WEBHOOK_DELIVERY_STATUSES.join(', ')}` }).optional(),
});
export type WebhookDeliveryListQuery = z.input<typeof webhookDeliveryListQuery>;

/** The body of a delivery, as the hosted service sends it. `deal` is the record as the API reads it. */
export const webhookEvent = z.looseObject({
  deal: z.looseObject({ id: z.number() }),
  app_name: z.string(),
  api_token: z.string().nullable(),
  locale: z.string(),
});
export type WebhookEvent = z.infer<typeof webhookEvent>;
