import { EINVOICE_PROFILES, EINVOICE_SYNTAXES, type EInvoiceProfile, type EInvoiceSource, type EInvoiceSyntax, einvoiceProblems } from '../../einvoice/index.js';
import type { Sql } from '../db.js';
import type { InvoiceData } from '../invoicing/invoices.js';
import { contextOf, FACTUR_X_DOCUMENT, type StoredInvoice } from './document.js';

/** A document an invoice can be fetched in now, and where (docs/einvoicing.md, docs/webhooks.md). */
export interface EInvoiceFormatLink {
  syntax: EInvoiceSyntax;
  profile: EInvoiceProfile;
  /** `application/xml`, or `application/pdf` for the Factur-X PDF carrying the CII document. */
  media_type: 'application/xml' | 'application/pdf';
  url: string;
}

/**
 * The syntaxes and profiles an invoice has everything for, with their URLs: what an access point
 * needs to pull the UBL. The Factur-X PDF is listed when the CII EN 16931 document is.
 */
export async function einvoiceFormatsOf(sql: Sql, accountId: number, id: number, invoice: InvoiceData, publicUrl: string): Promise<EInvoiceFormatLink[]> {
  // A record that is no sales invoice at all (a deleted one's remains) has none, and its webhook still goes.
  if (typeof invoice.kind !== 'string' || !Array.isArray(invoice.positions)) return [];
  const stored = invoice as StoredInvoice;
  const context = await contextOf(sql, accountId, stored);
  const source = stored as unknown as EInvoiceSource;
  const links: EInvoiceFormatLink[] = [];
  for (const profile of EINVOICE_PROFILES) {
    if (Object.keys(einvoiceProblems(source, context, profile)).length > 0) continue;
    for (const syntax of EINVOICE_SYNTAXES) {
      links.push({ syntax, profile, media_type: 'application/xml', url: `${publicUrl}/invoices/${id}/einvoice.xml?syntax=${syntax}&profile=${profile}` });
    }
    if (profile === FACTUR_X_DOCUMENT.profile) {
      links.push({ ...FACTUR_X_DOCUMENT, media_type: 'application/pdf', url: `${publicUrl}/invoices/${id}.pdf?format=facturx` });
    }
  }
  return links;
}
