import type { Hono } from 'hono';
import { einvoiceQuery } from '../../api/schemas/einvoice.js';
import { idParam, notFound, type ServiceEnv, validate } from '../http.js';
import { requireRow } from '../store.js';
import { einvoiceDocumentOf, type StoredInvoice } from './document.js';

/**
 * `GET /invoices/<id>/einvoice.xml?syntax=ubl|cii&profile=en16931|peppol|xrechnung`: the invoice as
 * an EN 16931 e-invoice (docs/einvoicing.md). What the profile needs and the invoice lacks is a 422
 * naming each field.
 */
export function mountEInvoices(app: Hono<ServiceEnv>): void {
  app.get('/:id/einvoice', async (c) => {
    if (c.get('format') !== 'xml') throw notFound();
    const account = c.get('account');
    const db = c.get('db');
    const query = validate(einvoiceQuery, { syntax: c.req.query('syntax') || undefined, profile: c.req.query('profile') || undefined });
    const row = await requireRow<StoredInvoice>(db, 'invoices', account.id, idParam(c));
    const document = await einvoiceDocumentOf(db, account.id, row.data, query);
    return c.body(document, 200, {
      'content-type': 'application/xml; charset=utf-8',
      'content-disposition': `inline; filename="${fileName(row.data.number, query.syntax, query.profile)}"`,
      'cache-control': 'private, no-store',
    });
  });
}

/** `FV-1-03-2026-peppol-ubl.xml`: the number with only safe characters. */
const fileName = (number: string, syntax: string, profile: string) => `${number.replace(/[^A-Za-z0-9._-]+/g, '-')}-${profile}-${syntax}.xml`;
