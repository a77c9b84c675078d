import type { Hono } from 'hono';
import { einvoiceQuery } from '../../api/schemas/einvoice.js';
import { EInvoiceDataError, type EInvoiceContext, type EInvoiceSource, type PrecedingInvoice, writeEInvoice } from '../../einvoice/index.js';
import { type DepartmentData, defaultDepartment } from '../accounts.js';
import type { Sql } from '../db.js';
import type { ClientData } from '../data/clients.js';
import { advancesOfOrder } from '../data/invoices.js';
import { idParam, invalid, notFound, type ServiceEnv, validate } from '../http.js';
import type { InvoiceData } from '../invoicing/invoices.js';
import { findRow, requireRow } from '../store.js';

type StoredInvoice = InvoiceData & Record<string, unknown>;

const textOf = (value: unknown): string | null => (typeof value === 'string' && value.trim() !== '' ? value.trim() : null);

/** The invoices a document names (a correction's corrected invoice, a final invoice's advances), and the tax decision a correction keeps. */
async function precedingOf(sql: Sql, accountId: number, invoice: StoredInvoice): Promise<Pick<EInvoiceContext, 'preceding' | 'correctedTax'>> {
  if (invoice.kind === 'correction') {
    const id = invoice.from_invoice_id ?? invoice.invoice_id;
    const corrected = typeof id === 'number' ? await findRow<StoredInvoice>(sql, 'invoices', accountId, id) : undefined;
    if (!corrected) return { preceding: [] };
    const data = corrected.data as unknown as EInvoiceSource;
    return {
      preceding: [{ number: data.number, issueDate: data.issue_date }],
      correctedTax: { kind: data.kind, reverse_charge: data.reverse_charge ?? null, np_tax_kind: data.np_tax_kind ?? null, exempt_tax_kind: data.exempt_tax_kind ?? null },
    };
  }
  if (invoice.kind === 'final' && typeof invoice.invoice_id === 'number') {
    const advances = await advancesOfOrder<StoredInvoice>(sql, accountId, invoice.invoice_id);
    return { preceding: advances.map((row): PrecedingInvoice => ({ number: row.data.number, issueDate: row.data.issue_date })) };
  }
  return { preceding: [] };
}

/** What the invoice does not hold itself: its department's address, its client's, the invoices it names. */
async function contextOf(sql: Sql, accountId: number, invoice: StoredInvoice): Promise<EInvoiceContext> {
  const department =
    (typeof invoice.department_id === 'number' ? await findRow<DepartmentData>(sql, 'departments', accountId, invoice.department_id) : undefined) ??
    (await defaultDepartment(sql, accountId));
  const client = typeof invoice.client_id === 'number' ? await findRow<ClientData & Record<string, unknown>>(sql, 'clients', accountId, invoice.client_id) : undefined;
  return {
    sellerEinvoiceAddress: textOf(department?.data.einvoice_address),
    clientEinvoiceAddress: textOf(client?.data.einvoice_address),
    clientBuyerReference: textOf(client?.data.buyer_reference),
    prepaid: null,
    ...(await precedingOf(sql, accountId, invoice)),
  };
}

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
    const context = await contextOf(db, account.id, row.data);
    let document: string;
    try {
      document = writeEInvoice(row.data as unknown as EInvoiceSource, context, query);
    } catch (error) {
      if (error instanceof EInvoiceDataError) throw invalid(error.fields);
      throw error;
    }
    return c.body(document, 200, {
      'content-type': 'application/xml; charset=utf-8',
      'content-disposition': `inline; filename="${fileName(row.data.number, query.syntax, query.profile)}"`,
      'cache-control': 'private, no-store',
    });
  });
}

/** `FV-1-03-2026-peppol-ubl.xml`: the number with only safe characters. */
const fileName = (number: string, syntax: string, profile: string) => `${number.replace(/[^A-Za-z0-9._-]+/g, '-')}-${profile}-${syntax}.xml`;
