/**
 * The EN 16931 semantic model of an invoice, as far as the service fills it: each field is named
 * after the business term (BT-) or group (BG-) of the standard that it carries. Amounts are plain
 * decimal text with two decimals, already signed as the document states them.
 */

export { EINVOICE_PROFILES, EINVOICE_SYNTAXES, type EInvoiceProfile, type EInvoiceSyntax } from '../contract/einvoice.js';

/** EN 16931's VAT category codes (UNCL5305 subset): standard, zero, exempt, reverse charge, intra-community, export, not subject. */
export type VatCategory = 'S' | 'Z' | 'E' | 'AE' | 'K' | 'G' | 'O';

/** An electronic address (BT-34, BT-49): the scheme (EAS code list, such as `0208` or `EM`) and the identifier. */
export interface ElectronicAddress {
  readonly scheme: string;
  readonly id: string;
}

/** BG-5, BG-8: a postal address. */
export interface PostalAddress {
  /** BT-35, BT-50. */
  readonly street: string | null;
  /** BT-37, BT-52. */
  readonly city: string | null;
  /** BT-38, BT-53. */
  readonly postCode: string | null;
  /** BT-40, BT-55: ISO 3166-1 alpha-2. */
  readonly country: string;
}

/** BG-4 seller, BG-7 buyer. */
export interface Party {
  /** BT-27, BT-44. */
  readonly name: string;
  /** BT-31, BT-48: the VAT identifier with its country prefix. */
  readonly vatId: string | null;
  /** BT-30: the legal registration identifier (the seller's tax number where BT-31 may not appear). */
  readonly legalRegistrationId: string | null;
  /** BT-34, BT-49. */
  readonly electronicAddress: ElectronicAddress | null;
  readonly address: PostalAddress;
  /** BG-6, BG-9: contact point. */
  readonly contact: { readonly name: string | null; readonly phone: string | null; readonly email: string | null } | null;
}

/** BG-27: a line allowance (here: the position's discount). */
export interface LineAllowance {
  /** BT-136. */
  readonly amount: string;
  /** BT-137 and BT-138: given together or not at all (PEPPOL-EN16931-R041, R042). */
  readonly baseAmount: string | null;
  readonly percent: string | null;
  /** BT-139 and BT-140. */
  readonly reason: string;
  readonly reasonCode: string;
}

/** BG-25: an invoice line. */
export interface InvoiceLine {
  /** BT-126. */
  readonly id: string;
  /** BT-129. */
  readonly quantity: string;
  /** BT-130: UN/ECE Recommendation 20. */
  readonly unitCode: string;
  /** BT-131. */
  readonly netAmount: string;
  /** BT-146. */
  readonly netPrice: string;
  readonly allowance: LineAllowance | null;
  /** BT-151. */
  readonly vatCategory: VatCategory;
  /** BT-152: absent for category O. */
  readonly vatRate: string | null;
  /** BT-153. */
  readonly itemName: string;
  /** BT-155. */
  readonly sellerItemId: string | null;
}

/** BG-23: the VAT breakdown of one category and rate. */
export interface VatBreakdown {
  /** BT-116. */
  readonly taxableAmount: string;
  /** BT-117. */
  readonly taxAmount: string;
  /** BT-118. */
  readonly category: VatCategory;
  /** BT-119: absent for category O. */
  readonly rate: string | null;
  /** BT-120. */
  readonly exemptionReason: string | null;
  /** BT-121: VATEX code list. */
  readonly exemptionReasonCode: string | null;
}

/** BG-3: a preceding invoice (the corrected one, or an advance a final invoice settles). */
export interface PrecedingInvoice {
  /** BT-25. */
  readonly number: string;
  /** BT-26. */
  readonly issueDate: string | null;
}

/** BG-16 and BG-17: how to pay. */
export interface PaymentInstructions {
  /** BT-81: UNCL4461 (30 credit transfer, 58 SEPA credit transfer, 10 cash, 48 card). */
  readonly meansCode: string;
  /** BT-83: the remittance information (the invoice's number). */
  readonly remittanceInformation: string;
  /** BT-84: the seller's account (IBAN or other). */
  readonly account: string | null;
  /** BT-85. */
  readonly accountName: string | null;
}

export interface EInvoice {
  /** BT-24: the specification identifier. */
  readonly customizationId: string;
  /** BT-23: the business process. */
  readonly profileId: string | null;
  /** BT-1. */
  readonly number: string;
  /** BT-2. */
  readonly issueDate: string;
  /** BT-9. */
  readonly dueDate: string | null;
  /** BT-3: 380 commercial invoice, 381 credit note, 384 corrected invoice, 386 prepayment invoice, 325 proforma invoice. */
  readonly typeCode: '380' | '381' | '384' | '386' | '325';
  /** Written as a UBL `CreditNote`: amounts then read as credited. */
  readonly creditNote: boolean;
  /** BT-22. */
  readonly note: string | null;
  /** BT-5. */
  readonly currency: string;
  /** BT-6: set only when it differs from BT-5. */
  readonly vatAccountingCurrency: string | null;
  /** BT-10: the buyer reference (in Germany the Leitweg-ID). */
  readonly buyerReference: string | null;
  /** BT-13: the order reference. */
  readonly orderReference: string | null;
  readonly precedingInvoices: readonly PrecedingInvoice[];
  readonly seller: Party;
  readonly buyer: Party;
  /** BT-72. */
  readonly deliveryDate: string | null;
  /** BG-15: where goods are delivered (an intra-community supply needs its country, BT-80): the buyer's address. */
  readonly deliveryAddress: PostalAddress | null;
  readonly payment: PaymentInstructions | null;
  /** BT-20. */
  readonly paymentTerms: string | null;
  readonly vatBreakdown: readonly VatBreakdown[];
  readonly totals: {
    /** BT-106. */
    readonly lineNet: string;
    /** BT-109. */
    readonly taxExclusive: string;
    /** BT-110. */
    readonly vat: string;
    /** BT-111: the VAT total in the accounting currency (BT-6). */
    readonly vatInAccountingCurrency: string | null;
    /** BT-112. */
    readonly taxInclusive: string;
    /** BT-113. */
    readonly prepaid: string;
    /** BT-115. */
    readonly payable: string;
  };
  readonly lines: readonly InvoiceLine[];
}
