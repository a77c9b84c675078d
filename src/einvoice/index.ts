import type { EInvoiceProfile, EInvoiceSyntax } from './model.js';
import { type EInvoiceContext, type EInvoiceSource, einvoiceOf } from './mapping.js';
import { einvoiceProblems } from './problems.js';
import { toCii } from './cii.js';
import { toUbl } from './ubl.js';

/**
 * EU e-invoices (EN 16931): one model of the service's invoice, written as UBL 2.1 (Peppol BIS
 * Billing 3.0) or UN/CEFACT CII D16B, under EN 16931 alone, Peppol or XRechnung 3.0. Pure
 * TypeScript: the kernel and the contract only (docs/decisions/einvoice.md).
 */

export * from './model.js';
export { accountOf, einvoiceOf, taxFieldsOf, vatCategoryOf, type EInvoiceContext, type EInvoiceSource, type EInvoiceSourceLine, type TaxFields } from './mapping.js';
export { countryCodeOf, ELECTRONIC_ADDRESS, electronicAddressOf, unitCodeOf, vatIdOf } from './parties.js';
export { EINVOICE_KINDS } from './problems.js';
export { einvoiceProblems };
export { toCii, toUbl };

export class EInvoiceDataError extends Error {
  override readonly name = 'EInvoiceDataError';
  readonly fields: Record<string, string[]>;
  constructor(fields: Record<string, string[]>) {
    super(`The invoice lacks what its e-invoice needs: ${Object.entries(fields).map(([field, messages]) => `${field} ${messages.join(', ')}`).join('; ')}`);
    this.fields = fields;
  }
}

/** The document of an invoice in a syntax and profile; throws `EInvoiceDataError` naming each missing field. */
export function writeEInvoice(source: EInvoiceSource, context: EInvoiceContext, options: { syntax: EInvoiceSyntax; profile: EInvoiceProfile }): string {
  const problems = einvoiceProblems(source, context, options.profile);
  if (Object.keys(problems).length > 0) throw new EInvoiceDataError(problems);
  const model = einvoiceOf(source, context, options.profile);
  return options.syntax === 'ubl' ? toUbl(model) : toCii(model);
}
