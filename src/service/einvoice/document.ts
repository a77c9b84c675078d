import { EInvoiceDataError, type EInvoiceContext, type EInvoiceProfile, type EInvoiceSource, type EInvoiceSyntax, type PrecedingInvoice, writeEInvoice } from '../../einvoice/index.js';
import { type DepartmentData, defaultDepartment } from '../accounts.js';
import type { Sql } from '../db.js';
import type { ClientData } from '../data/clients.js';
import { advancesOfOrder } from '../data/invoices.js';
import { invalid } from '../domain-errors.js';
import type { InvoiceData } from '../invoicing/invoices.js';
import { findRow } from '../store.js';

export type StoredInvoice = InvoiceData & Record<string, unknown>;

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
export async function contextOf(sql: Sql, accountId: number, invoice: StoredInvoice): Promise<EInvoiceContext> {
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

/** The document a Factur-X PDF carries (Factur-X 1.0, EN 16931 profile). */
export const FACTUR_X_DOCUMENT = { syntax: 'cii', profile: 'en16931' } as const;

/**
 * A stored invoice's e-invoice in a syntax and profile. What the profile needs and the invoice
 * lacks is the 422 naming each field.
 */
export async function einvoiceDocumentOf(sql: Sql, accountId: number, invoice: InvoiceData, options: EInvoiceDocumentOptions): Promise<string> {
  const written = await writeEInvoiceOf(sql, accountId, invoice, options);
  if ('problems' in written) throw invalid(written.problems);
  return written.xml;
}

export interface EInvoiceDocumentOptions {
  syntax: EInvoiceSyntax;
  profile: EInvoiceProfile;
}

/** The document, or what the profile needs and the invoice lacks, by field. */
export async function writeEInvoiceOf(sql: Sql, accountId: number, invoice: InvoiceData, options: EInvoiceDocumentOptions): Promise<{ xml: string } | { problems: Record<string, string[]> }> {
  const stored = invoice as StoredInvoice;
  const context = await contextOf(sql, accountId, stored);
  try {
    return { xml: writeEInvoice(stored as unknown as EInvoiceSource, context, options) };
  } catch (error) {
    if (error instanceof EInvoiceDataError) return { problems: error.fields };
    throw error;
  }
}
