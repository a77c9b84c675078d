import type { Hono } from 'hono';
import { webhookCreateInput, webhookDeliveryListQuery, webhookUpdateInput } from '../../api/schemas/webhook.js';
import { idParam, invalidField, notFound, queryOf, respond, type ServiceEnv, validate } from '../http.js';
import { randomToken } from '../passwords.js';
import { requireRow, type StoredRow, timestampText } from '../store.js';
import { merge, mountCrud } from '../resources/crud.js';
import { deliveryLog, redeliver, type WebhookDeliveryRow } from '../data/webhooks.js';
import { ForbiddenAddressError, resolveTarget } from './addresses.js';
import { openSecret, sealSecret } from '../secrets/keyring.js';
import { mapWebhookSecrets } from '../secrets/stored.js';

export interface WebhookData {
  kind: string;
  url: string;
  api_token: string | null;
  active: boolean;
  secret: string;
}

function presentWebhook(stored: StoredRow<WebhookData>) {
  const row = { ...stored, data: mapWebhookSecrets(stored.data, openSecret) };
  return {
    id: row.id,
    kind: row.data.kind,
    url: row.data.url,
    api_token: row.data.api_token,
    active: row.data.active,
    secret: row.data.secret,
    created_at: timestampText(row.created_at),
    updated_at: timestampText(row.updated_at),
  };
}

const when = (value: Date | null) => (value ? timestampText(value) : null);

function presentDelivery(row: WebhookDeliveryRow) {
  return {
    id: Number(row.id),
    delivery_id: row.delivery_id,
    webhook_id: row.webhook_id,
    kind: row.kind,
    record_id: row.record_id,
    status: row.status,
    attempts: row.attempts,
    next_attempt_at: row.status === 'pending' ? when(row.next_attempt_at) : null,
    last_attempt_at: when(row.last_attempt_at),
    last_status: row.last_status,
    last_error: row.last_error,
    delivered_at: when(row.delivered_at),
    created_at: timestampText(row.created_at),
  };
}

/** A subscriber URL that may be registered: public, or anything when private targets are allowed. */
async function checkUrl(url: string, allowPrivate: boolean): Promise<void> {
  try {
    await resolveTarget(url, allowPrivate, { requireResolution: false });
  } catch (error) {
    if (error instanceof ForbiddenAddressError) throw invalidField('url', error.message);
    throw error;
  }
}

/** `GET/POST /webhooks`, `GET/PUT/DELETE /webhooks/<id>`, and the delivery log of each webhook. */
export function mountWebhooks(app: Hono<ServiceEnv>, options: { allowPrivate: boolean }): void {
  mountCrud<WebhookData, typeof webhookCreateInput, typeof webhookUpdateInput>(app, {
    table: 'webhooks',
    wrapper: 'webhook',
    listRoot: 'webhooks',
    createSchema: webhookCreateInput,
    updateSchema: webhookUpdateInput,
    present: presentWebhook,
    async create(_tx, _account, input) {
      await checkUrl(input.url, options.allowPrivate);
      return {
        kind: input.kind,
        url: input.url,
        api_token: input.api_token == null ? null : sealSecret(input.api_token),
        active: input.active ?? true,
        secret: sealSecret(input.secret ?? `whsec_${randomToken(24)}`),
      };
    },
    async update(_tx, _account, current, input) {
      for (const field of ['kind', 'url', 'active', 'secret'] as const) {
        if (input[field] === null) throw invalidField(field, "can't be blank");
      }
      if (input.url) await checkUrl(input.url, options.allowPrivate);
      // Secrets are kept sealed; a new one given is sealed before it is stored.
      return merge(current, mapWebhookSecrets(input, sealSecret));
    },
  });

  app.get('/:id/deliveries', async (c) => {
    const account = c.get('account');
    const id = idParam(c);
    await requireRow(c.get('db'), 'webhooks', account.id, id);
    const query = validate(webhookDeliveryListQuery, queryOf(c));
    const rows = await deliveryLog(c.get('db'), account.id, id, { status: query.status ?? null, limit: query.per_page, offset: (query.page - 1) * query.per_page });
    return respond(c, rows.map(presentDelivery), { root: 'webhook_deliveries' });
  });

  app.post('/:id/deliveries/:delivery/redeliver', async (c) => {
    const account = c.get('account');
    const id = idParam(c);
    const deliveryId = idParam(c, 'delivery');
    const delivery = await redeliver(c.get('db'), account.id, id, deliveryId);
    if (!delivery) throw notFound();
    return respond(c, presentDelivery(delivery), { root: 'webhook_delivery' });
  });
}
