import { compare, decimal, ZERO } from '../kernel/money.js';
import type { EInvoiceProfile } from './model.js';
import { type EInvoiceContext, type EInvoiceSource, taxFieldsOf, vatCategoryOf } from './mapping.js';
import { countryCodeOf, electronicAddressOf } from './parties.js';

/**
 * The kinds that are sales invoices, which EN 16931 describes. Estimates, orders, cash documents and
 * notes are not invoices; the margin scheme has no EN 16931 VAT category; the other kinds record
 * purchases. A proforma is written under the standard alone, as its document type 325 (UNTDID 1001):
 * Peppol BIS and XRechnung carry invoices only (PEPPOL-EN16931-P0100, BR-DE-17).
 */
export const EINVOICE_KINDS = ['vat', 'advance', 'final', 'correction', 'wdt', 'export_products', 'vat_mp', 'bill', 'invoice_other'] as const;
/** The kinds written under the `en16931` profile only. */
export const EN16931_ONLY_KINDS = ['proforma'] as const;

const blank = (value: string | null | undefined) => (value ?? '').trim() === '';
const PROFILE_NAMES: Readonly<Record<EInvoiceProfile, string>> = { en16931: 'EN 16931', peppol: 'Peppol', xrechnung: 'XRechnung' };

/**
 * What an invoice lacks for a profile, by the API's field names (the reference's 422 field map):
 * empty when the document can be written. The rules are EN 16931's, Peppol BIS 3.0's and XRechnung's
 * that data decides; the rest the mapping always fulfils.
 */
export function einvoiceProblems(source: EInvoiceSource, context: EInvoiceContext, profile: EInvoiceProfile): Record<string, string[]> {
  const problems: Record<string, string[]> = {};
  const add = (field: string, message: string) => (problems[field] ??= []).push(message);
  const name = PROFILE_NAMES[profile];
  const tax = taxFieldsOf(source, context);
  const categories = new Set(source.positions.map((line) => vatCategoryOf(line.tax, tax).category));

  if ((EN16931_ONLY_KINDS as readonly string[]).includes(source.kind)) {
    if (profile !== 'en16931') add('kind', `is ${source.kind}: ${name} carries invoices only; a ${source.kind} has an EN 16931 document (profile en16931, type 325)`);
  } else if (!(EINVOICE_KINDS as readonly string[]).includes(source.kind)) {
    add('kind', `has no e-invoice: only ${EINVOICE_KINDS.join(', ')} invoices (and proformas, under en16931) have one`);
  }
  if (source.income === false) add('income', 'is false: e-invoices are written for the invoices you issue, not for costs');
  if (source.positions.length === 0) add('positions', `can't be empty in an ${name} invoice`);
  if (blank(source.seller_name)) add('seller_name', `is required for ${name}`);
  if (blank(source.seller_tax_no)) add('seller_tax_no', `is required for ${name}`);
  if (blank(source.buyer_name) && blank(source.buyer_first_name) && blank(source.buyer_last_name)) add('buyer_name', `is required for ${name}`);
  if (!blank(source.seller_country) && !countryCodeOf(source.seller_country)) add('seller_country', 'is not an ISO 3166-1 country code');
  if (!blank(source.buyer_country) && !countryCodeOf(source.buyer_country)) add('buyer_country', 'is not an ISO 3166-1 country code');
  if (categories.has('O') && categories.size > 1) add('positions', `can't mix np positions not subject to VAT with other rates in an ${name} invoice (BR-O-11)`);
  if (categories.has('E') && blank(tax.exempt_tax_kind)) add('exempt_tax_kind', 'is required for an exempt position (BR-E-10)');
  for (const [category, what] of [['AE', 'reverse charge'], ['K', 'an intra-community supply']] as const) {
    if (categories.has(category) && blank(source.buyer_tax_no)) add('buyer_tax_no', `is required for ${what}`);
  }
  if (categories.has('K') && blank(source.sell_date)) add('sell_date', 'is required for an intra-community supply (BR-IC-11)');
  if (categories.has('K') && !countryCodeOf(source.buyer_country)) add('buyer_country', 'is required for an intra-community supply (BR-IC-12)');
  const accounting = (source.exchange_currency ?? '').trim().toUpperCase() || 'PLN';
  if (accounting !== source.currency.toUpperCase()) {
    const rate = (source.exchange_currency_rate ?? '').trim();
    if (!rate || compare(decimal(rate), ZERO) <= 0) add('exchange_currency_rate', `is required for an invoice in ${source.currency}: the VAT total in ${accounting} (BT-111)`);
  }

  const sellerAddress = context.sellerEinvoiceAddress;
  const buyerAddress = source.buyer_einvoice_address ?? context.clientEinvoiceAddress;
  const buyerReference = blank(source.buyer_reference) ? context.clientBuyerReference : source.buyer_reference;
  if (!blank(buyerAddress) && !electronicAddressOf(buyerAddress)) add('buyer_einvoice_address', 'is not an electronic address such as 0208:0123456789');
  if (!blank(sellerAddress) && !electronicAddressOf(sellerAddress)) add('seller_einvoice_address', 'is not an electronic address such as 0208:0123456789');
  // Peppol's network routes by participant identifiers: an e-mail address is none (PEPPOL-EN16931-CL008).
  if (profile === 'peppol') {
    if (electronicAddressOf(buyerAddress)?.scheme === 'EM') add('buyer_einvoice_address', 'must be a Peppol participant identifier, not an e-mail address');
    if (electronicAddressOf(sellerAddress)?.scheme === 'EM') add('seller_einvoice_address', 'must be a Peppol participant identifier, not an e-mail address');
  }
  if (profile === 'peppol' || profile === 'xrechnung') {
    if (blank(buyerAddress)) add('buyer_einvoice_address', `is required for ${name}`);
    if (blank(sellerAddress)) add('seller_einvoice_address', `is required for ${name}: set the department's einvoice_address`);
  }
  if (profile === 'peppol' && blank(buyerReference) && blank(source.oid)) add('buyer_reference', 'is required for Peppol when the invoice has no order number (oid)');
  if (profile === 'xrechnung') {
    if (blank(buyerReference)) add('buyer_reference', 'is required for XRechnung: the buyer\'s Leitweg-ID');
    for (const field of ['seller_email', 'seller_phone', 'seller_city', 'seller_post_code', 'buyer_city', 'buyer_post_code'] as const) {
      if (blank(source[field])) add(field, 'is required for XRechnung');
    }
    const transfer = blank(source.payment_type) || source.payment_type!.trim().toLowerCase() === 'transfer';
    if (transfer && blank(source.seller_bank_account)) add('seller_bank_account', 'is required for XRechnung when the invoice is paid by transfer');
  }
  return problems;
}
