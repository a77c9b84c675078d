import type { Hono } from 'hono';
import { ATTENTION_KINDS, type AttentionItem, type AttentionKind } from '../../api/schemas/seller.js';
import { attentionItem, attentionRowsOf } from '../application/seller-alerts.js';
import { respond, type ServiceEnv } from '../http.js';

/**
 * `GET /account/attention`: what needs the seller now, each item with the id and kind the back
 * office links to (an invoice's page, a webhook's deliveries). Kinds come in `ATTENTION_KINDS`' order;
 * within a kind, the oldest first.
 */
export function mountAttention(app: Hono<ServiceEnv>): void {
  app.get('/', async (c) => {
    const rows = await attentionRowsOf(c.get('db'), c.get('account').id, c.get('config').clock());
    const order = (kind: string) => ATTENTION_KINDS.indexOf(kind as AttentionKind);
    const items = rows
      .filter((row) => order(row.kind) >= 0)
      .sort((a, b) => order(a.kind) - order(b.kind))
      .map((row) => attentionItem(row) as AttentionItem);
    c.header('cache-control', 'no-store');
    return respond(c, { items }, { root: 'attention' });
  });
}
