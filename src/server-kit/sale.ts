import { type CheckoutBuyer } from '../contract/sale.js';
import { checkoutTaxSale } from '../kernel/checkout.js';
import { decideTax, isEuCountry, type TaxDecision } from '../kernel/tax/index.js';
import type { ViesClient, ViesConsultation, ViesNumber } from './registries/index.js';

/**
 * A checkout's sale, decided once by both checkouts (the service's widget and the BFF): the tax
 * engine's decision for this buyer, after asking VIES whether an EU business's VAT number exists
 * before any 0 % or `np` is granted on it. The payment keeps the decision and the consultation as
 * its `sale_terms`, and its invoice follows them, so the dialog, the payment and the invoice agree.
 */

/** How a sale is taxed, as stored on its payment and followed by its invoice. */
export interface SaleTerms {
  case: string;
  /** The rate every position takes; `null` keeps the product's own. */
  tax: string | null;
  invoice_kind: string;
  np_tax_kind: string | null;
  reverse_charge: boolean;
  use_oss: boolean;
  oss_country: string | null;
  /** The VIES consultation behind a 0 % or `np` to an EU business (or the try that failed), kept as evidence. */
  vies?: { status: string; request_identifier: string | null; request_date: string | null; vat_number: string | null } | null;
  /** Why Polish VAT was kept for an EU business (`vies_unavailable`, …). */
  fallback?: string | null;
}

/** A VAT number VIES calls invalid: the checkout's 422 on `buyer.tax_no`. */
export class ViesRefusalError extends Error {
  readonly field = 'buyer.tax_no';
  constructor(readonly consultation: ViesConsultation) {
    super('is not a valid VAT number in VIES, the EU register');
    this.name = 'ViesRefusalError';
  }
}

export interface CheckoutSale {
  decision: TaxDecision;
  terms: SaleTerms;
  consultation: ViesConsultation | null;
}

/** `DE123456789` as VIES takes it (`EL…` stays Greek, `XI…` Northern Irish). */
function viesNumberOf(prefixed: string): ViesNumber {
  return { countryCode: prefixed.slice(0, 2).toUpperCase(), vatNumber: prefixed.slice(2) };
}

/** The seller's own VAT number as the requester of a consultation (its identifier needs one). */
function requesterOf(seller: { country: string; taxNo: string | null | undefined }): ViesNumber | undefined {
  const number = (seller.taxNo ?? '').replace(/[^A-Za-z0-9]/g, '').toUpperCase();
  if (!number) return undefined;
  const country = seller.country === 'GR' ? 'EL' : seller.country;
  return { countryCode: country, vatNumber: number.startsWith(country) ? number.slice(country.length) : number };
}

export function termsOfDecision(decision: TaxDecision, consultation: ViesConsultation | null): SaleTerms {
  return {
    case: decision.case,
    tax: decision.rate,
    invoice_kind: decision.invoiceKind,
    np_tax_kind: decision.npTaxKind,
    reverse_charge: decision.reverseCharge,
    use_oss: decision.oss,
    oss_country: decision.ossCountry,
    vies: consultation
      ? {
          status: consultation.status,
          request_identifier: consultation.requestIdentifier,
          request_date: consultation.requestDate,
          vat_number: `${consultation.countryCode}${consultation.vatNumber}`,
        }
      : null,
    fallback: decision.fallback,
  };
}

/**
 * Decides a checkout's sale. VIES is asked only for an EU business in another member state with a
 * well-formed VAT number: `invalid` throws `ViesRefusalError`; `unavailable` keeps Polish VAT with
 * the reason in `decision.fallback`.
 */
export async function decideCheckoutSale(order: {
  seller: { country: string | null | undefined; taxNo: string | null | undefined; ossRegistered: boolean };
  product: { tax: string; service?: boolean | null; supply_kind?: string | null };
  buyer: CheckoutBuyer;
  vies: ViesClient;
}): Promise<CheckoutSale> {
  const sellerCountry = (order.seller.country || 'PL').toUpperCase();
  const sale = checkoutTaxSale({ sellerCountry, ossRegistered: order.seller.ossRegistered, product: order.product, buyer: order.buyer, vies: 'not_checked' });
  const { country, company, vatNumber } = sale.buyer;
  let consultation: ViesConsultation | null = null;
  if (company && vatNumber && country && country !== sellerCountry && isEuCountry(country)) {
    consultation = await order.vies.check(viesNumberOf(vatNumber), requesterOf({ country: sellerCountry, taxNo: order.seller.taxNo }));
    if (consultation.status === 'invalid') throw new ViesRefusalError(consultation);
  }
  const decision = decideTax({ ...sale, buyer: { ...sale.buyer, vies: consultation?.status ?? sale.buyer.vies } });
  return { decision, terms: termsOfDecision(decision, consultation), consultation };
}
