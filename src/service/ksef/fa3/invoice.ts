import type { ThirdPartyFields } from './third-parties.js';
import type { VatContext } from './rates.js';

/**
 * The invoice as FA(3) reads it: the kinds that go to KSeF, the lines and invoice the document is
 * written from (read from a stored or answered record), and the invoices it names.
 */

/** The kinds of invoice that go to KSeF (hosted guide, "Typy faktur wysyłane do KSeF"). */
export const KSEF_KINDS = ['vat', 'correction', 'advance', 'final', 'wdt', 'export_products', 'vat_margin', 'vat_mp'] as const;
export type KsefKind = (typeof KSEF_KINDS)[number];
export const isKsefKind = (kind: string): kind is KsefKind => (KSEF_KINDS as readonly string[]).includes(kind);

/** A line as the service stores it (amounts already rounded to the currency's minor unit). */
export interface Fa3Line {
  readonly name: string;
  readonly code?: string | null;
  readonly quantity: string;
  readonly quantity_unit?: string | null;
  readonly tax: string;
  readonly price_net: string;
  readonly price_gross: string;
  readonly total_price_net: string;
  readonly total_price_tax: string;
  readonly total_price_gross: string;
  readonly additional_info?: string | null;
  readonly correction_before?: Omit<Fa3Line, 'correction_before' | 'correction_after'> | null;
  readonly correction_after?: Omit<Fa3Line, 'correction_before' | 'correction_after'> | null;
}

/** The stored invoice's fields FA(3) reads (the hosted service's names). */
export interface Fa3Invoice {
  readonly kind: string;
  readonly number: string;
  readonly issue_date: string;
  readonly sell_date?: string | null;
  readonly place?: string | null;
  readonly currency: string;
  readonly price_gross: string;
  readonly payment_to?: string | null;
  readonly payment_type?: string | null;
  readonly paid?: string | null;
  readonly paid_date?: string | null;
  readonly status?: string | null;
  readonly seller_name?: string | null;
  readonly seller_tax_no?: string | null;
  readonly seller_tax_no_kind?: string | null;
  readonly seller_street?: string | null;
  readonly seller_post_code?: string | null;
  readonly seller_city?: string | null;
  readonly seller_country?: string | null;
  readonly seller_email?: string | null;
  readonly seller_phone?: string | null;
  readonly seller_bank?: string | null;
  readonly seller_bank_account?: string | null;
  readonly buyer_name?: string | null;
  readonly buyer_first_name?: string | null;
  readonly buyer_last_name?: string | null;
  readonly buyer_company?: boolean | null;
  readonly buyer_tax_no?: string | null;
  readonly buyer_tax_no_kind?: string | null;
  readonly buyer_street?: string | null;
  readonly buyer_post_code?: string | null;
  readonly buyer_city?: string | null;
  readonly buyer_country?: string | null;
  readonly buyer_email?: string | null;
  readonly buyer_phone?: string | null;
  readonly exempt_tax_kind?: string | null;
  readonly np_tax_kind?: string | null;
  readonly reverse_charge?: boolean | null;
  readonly use_moss?: boolean | null;
  readonly exchange_currency?: string | null;
  readonly exchange_currency_rate?: string | null;
  readonly correction_reason?: string | null;
  readonly description?: string | null;
  readonly description_footer?: string | null;
  readonly descriptions?: readonly { readonly title?: string | null; readonly content?: string | null }[] | null;
  readonly positions: readonly Fa3Line[];
  /** Who issues the invoice for the seller (`Podmiot3`, hosted guide "Wystawca faktury"). */
  readonly issuers?: readonly ThirdPartyFields[] | null;
  /** Parties beside the buyer (`Podmiot3`, hosted guide "Odbiorca faktury"). */
  readonly recipients?: readonly ThirdPartyFields[] | null;
}

/** Another invoice this one names: the corrected one, an advance a final invoice settles. */
export interface Fa3Reference {
  readonly number: string;
  readonly issue_date: string;
  /** Its KSeF number, when it went through KSeF. */
  readonly ksefNumber: string | null;
  /** The corrected invoice's kind (a correction of an advance is `KOR_ZAL`). */
  readonly kind?: string;
  /** A corrected advance's total and rate before the correction (`P_15ZK`, `KursWalutyZK`). */
  readonly price_gross?: string;
  readonly currency?: string;
  readonly exchange_currency_rate?: string | null;
  /** Whether it is on its way to KSeF without a number yet: a correction waits for that number. */
  readonly pending?: boolean;
}

export interface Fa3Context {
  /** `DataWytworzeniaFa`. */
  readonly createdAt: Date;
  /** A correction's corrected invoice. */
  readonly corrected?: Fa3Reference | null;
  /** An advance invoice's order (its lines and total), when it was made from one. */
  readonly order?: Pick<Fa3Invoice, 'price_gross' | 'positions'> | null;
  /** The advances a final invoice settles. */
  readonly advances?: readonly Fa3Reference[];
  readonly systemInfo?: string;
}

/** `xsd:token`: whitespace collapsed, as the schema compares it. */
export const token = (text: string | null | undefined) => (text ?? '').replace(/\s+/g, ' ').trim();

/** The buyer's name, or a person's first and last name. */
export function buyerName(invoice: Fa3Invoice): string {
  const person = [invoice.buyer_first_name, invoice.buyer_last_name].map(token).filter(Boolean).join(' ');
  return token(invoice.buyer_name) || person;
}

type LineSide = Omit<Fa3Line, 'correction_before' | 'correction_after'>;

/**
 * An invoice record, as stored or as answered, read as FA(3)'s input. Correction sides are the
 * stored `correction_before`/`_after` or the answer's `…_attributes`.
 */
export function fa3InvoiceOf(record: Record<string, unknown>): Fa3Invoice {
  const positions = ((record.positions ?? []) as Record<string, unknown>[]).map((p): Fa3Line => {
    const before = (p.correction_before ?? p.correction_before_attributes ?? null) as LineSide | null;
    const after = (p.correction_after ?? p.correction_after_attributes ?? null) as LineSide | null;
    return { ...(p as unknown as Fa3Line), correction_before: before, correction_after: after };
  });
  return { ...(record as unknown as Fa3Invoice), positions };
}

export function vatContext(invoice: Pick<Fa3Invoice, 'kind' | 'np_tax_kind' | 'reverse_charge' | 'use_moss'>): VatContext {
  return {
    kind: invoice.kind,
    npTaxKind: invoice.np_tax_kind ?? null,
    reverseCharge: invoice.reverse_charge === true,
    oss: invoice.use_moss === true,
  };
}
