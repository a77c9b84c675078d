import type { Hono } from 'hono';
import { ATTENTION_KINDS, type AttentionItem, type AttentionKind } from '../../api/schemas/seller.js';
import { attentionOf } from '../data/attention.js';
import { respond, type ServiceEnv } from '../http.js';
import { timestampText } from '../store.js';

/**
 * `GET /account/attention`: what needs the seller now, each item with the id and kind the back
 * office links to (an invoice's page, a webhook's deliveries). Kinds come in `ATTENTION_KINDS`' order.
 */
export function mountAttention(app: Hono<ServiceEnv>): void {
  app.get('/', async (c) => {
    const rows = await attentionOf(c.get('db'), c.get('account').id, c.get('config').clock());
    const order = (kind: string) => ATTENTION_KINDS.indexOf(kind as AttentionKind);
    const items: AttentionItem[] = rows
      .filter((row) => order(row.kind) >= 0)
      .sort((a, b) => order(a.kind) - order(b.kind))
      .map((row) => ({
        kind: row.kind as AttentionKind,
        id: Number(row.id),
        invoice_id: row.invoice_id === null ? null : Number(row.invoice_id),
        number: row.number,
        message: row.message,
        webhook_id: row.webhook_id === null ? null : Number(row.webhook_id),
        since: row.since === null ? null : timestampText(row.since),
      }));
    c.header('cache-control', 'no-store');
    return respond(c, { items }, { root: 'attention' });
  });
}
