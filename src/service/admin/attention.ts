import type { Hono } from 'hono';
import { ATTENTION_KINDS, type AttentionItem, type AttentionKind } from '../../api/schemas/seller.js';
import { ATTENTION_PER_KIND, attentionOf } from '../data/attention.js';
import { failingMailOf } from '../data/mail-log.js';
import { respond, type ServiceEnv } from '../http.js';
import { timestampText } from '../store.js';

/**
 * `GET /account/attention`: what needs the seller now, each item with the id and kind the back
 * office links to (an invoice's page, a webhook's deliveries). Kinds come in `ATTENTION_KINDS`' order;
 * within a kind, the oldest first.
 */
export function mountAttention(app: Hono<ServiceEnv>): void {
  app.get('/', async (c) => {
    const db = c.get('db');
    const accountId = c.get('account').id;
    const rows = await attentionOf(db, accountId, c.get('config').clock());
    // E-mails that keep failing: an invoice whose last two attempts failed, in the e-mail log.
    for (const mail of await failingMailOf(db, accountId, ATTENTION_PER_KIND)) {
      rows.push({ kind: 'email_failing', id: mail.invoice_id, invoice_id: mail.invoice_id, number: mail.number, message: mail.error, webhook_id: null, since: mail.since });
    }
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
