import type { Hono } from 'hono';
import type { ServiceEnv } from './http.js';
import { mountAccountOperations } from './account-operations.js';
import { mountAttachments } from './resources/attachments.js';
import { mountIssuers } from './resources/issuers.js';
import { mountPriceLists } from './resources/price-lists.js';
import { mountRecurrings } from './resources/recurrings.js';
import { mountWarehouseActions } from './resources/warehouse-actions.js';
import { mountWebhooks } from './webhooks/routes.js';

/** Paths of the hosted service's resources beyond the interface's seed, each needing the api_token. */
export const HOSTED_EXTRA_PATHS = ['/webhooks', '/recurrings', '/price_lists', '/warehouse_actions', '/issuers'];

/**
 * Webhooks, recurring invoices, price lists, warehouse actions, issuers, invoice attachments and
 * the account operations, mounted on the service.
 */
export function mountHostedExtras(app: Hono<ServiceEnv>, options: { allowPrivateWebhooks: boolean; smtpUrl?: string | undefined }): void {
  mountWebhooks(app, { allowPrivate: options.allowPrivateWebhooks });
  mountRecurrings(app);
  mountPriceLists(app);
  mountWarehouseActions(app);
  mountIssuers(app);
  mountAttachments(app);
  mountAccountOperations(app, { smtpUrl: options.smtpUrl });
}
