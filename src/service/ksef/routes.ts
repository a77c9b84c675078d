import type { Hono } from 'hono';
import { type ServiceEnv, idParam, notFound } from '../http.js';
import { requireRow } from '../store.js';
import type { InvoiceData } from '../invoicing/invoices.js';
import { askedToSend, type KsefRuntime, requestSend } from './invoices.js';
import { mountKsefSettings } from './settings.js';

/**
 * KSeF's routes beside the invoices': the account's settings, `GET /invoices/{id}.json?send_to_ksef=yes`
 * (sends, then answers the invoice as a read does) and the documents, `GET /invoices/{id}/attachment`
 * with `kind=gov` (the FA(3) XML exactly as sent) or `kind=gov_upo` (KSeF's official receipt).
 * Mounted before the invoices' own routes.
 */
export function mountKsef(groups: { invoices: Hono<ServiceEnv>; settings: Hono<ServiceEnv> }, runtime: KsefRuntime): void {
  mountKsefSettings(groups.settings, { localAvailable: () => runtime.localOrigin() !== undefined, clock: () => runtime.clock() });

  groups.invoices.get('/:id', async (c, next) => {
    if (!askedToSend(c.req.query(), {}, ['send_to_ksef'])) return next();
    const account = c.get('account');
    const id = idParam(c);
    await c.get('db').transaction(async (tx) => requestSend(tx, account, await requireRow<InvoiceData>(tx, 'invoices', account.id, id, { forUpdate: true }), runtime));
    return next();
  });

  groups.invoices.get('/:id/attachment', async (c) => {
    const account = c.get('account');
    const id = idParam(c);
    const kind = c.req.query('kind');
    if (kind !== 'gov' && kind !== 'gov_upo') throw notFound();
    await requireRow(c.get('db'), 'invoices', account.id, id);
    const rows = await c.get('db').query<{ xml: string; upo: string | null }>(
      `select xml, upo from ksef_jobs where account_id = $1 and invoice_id = $2 and state in ('submitted', 'done') order by id desc limit 1`,
      [account.id, id],
    );
    const document = kind === 'gov' ? rows[0]?.xml : rows[0]?.upo;
    if (!document) throw notFound();
    return c.body(document, 200, {
      'content-type': 'text/xml; charset=utf-8',
      'content-disposition': `attachment; filename="${kind === 'gov' ? 'ksef' : 'upo'}-${id}.xml"`,
      'cache-control': 'private, no-store',
    });
  });
}
