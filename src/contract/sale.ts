/**
 * The sale's wire shapes, declared once: what the product routes and the checkouts (the BFF's
 * `GET /products/:token`, `POST /checkout`, `GET /checkout/:attempt`, and the service's widget routes)
 * take and answer, and what `<product-pay-button>` sends and reads. The rules that compute them are the
 * checkout core's (src/kernel/checkout.ts).
 */

/** The buyer as a checkout body carries them. */
export interface CheckoutBuyer {
  email: string;
  name?: string | null | undefined;
  first_name?: string | null | undefined;
  last_name?: string | null | undefined;
  company?: boolean | null | undefined;
  tax_no?: string | null | undefined;
  tax_no_kind?: string | null | undefined;
  street?: string | null | undefined;
  post_code?: string | null | undefined;
  city?: string | null | undefined;
  country?: string | null | undefined;
  phone?: string | null | undefined;
}

/** How an invoice to the buyer is taxed: the product's own rate, reverse charge, or an intra-EU supply at 0%. */
export type VatTreatmentKind = 'standard' | 'reverse_charge' | 'intra_eu_supply';

/** The tax engine's cases (src/kernel/tax/rules.ts, docs/decisions/tax-engine.md). */
export type SaleTaxCase =
  | 'domestic'
  | 'intra_eu_supply'
  | 'eu_reverse_charge'
  | 'non_eu_service'
  | 'export'
  | 'oss'
  | 'eu_consumer_domestic'
  | 'non_eu_consumer_electronic'
  | 'exempt';

/** What the checkout's rules find wrong with a buyer's field (the kernel's codes; each side words them itself). */
export type ClientFieldProblem = 'required' | 'email' | 'phone' | 'country' | 'nip' | 'vat' | 'taxNo' | 'iban' | 'postCode';

/** What the buyer a product query describes pays, by the checkout's VAT rule. */
export interface ProductQuote {
  vat_treatment: VatTreatmentKind;
  quantity: number;
  /** What the buyer pays for `quantity`, exact, in the currency's minor unit. */
  amount: string;
  unit_price: string;
  /** The line's tax as the invoice prints it: a percentage or a code such as `np`. */
  tax: string;
  /** The tax engine's case of the sale. */
  case?: SaleTaxCase;
  /** The decision's rate (as `tax`): `'23'`, `'0'`, `'np'`, an OSS state's rate such as `'19'`. */
  rate?: string;
  /** The words the invoice will carry for this case, in the buyer's language. */
  notes?: string[];
  /** The OSS member state whose VAT is charged. */
  oss_country?: string | null;
  /** Why Polish VAT was kept for an EU business (VIES refused, could not answer, was not asked). */
  fallback?: 'vies_invalid' | 'vies_unavailable' | 'vies_not_checked' | null;
  /**
   * What the checkout would refuse in the buyer the query describes, by the checkout's own rules, for
   * each buyer field the query names (blank ones too): `required`, `email`, `postCode`, a company's tax
   * number that fails its country's check digits (`nip`, `vat`) or is no tax number (`taxNo`)… Absent
   * when nothing is wrong; a field the query does not name is not asked about.
   */
  problems?: Partial<Record<keyof CheckoutBuyer, ClientFieldProblem>>;
}

/** What anyone may see of a product: its schema's public fields, nothing more. */
export interface PublicProduct {
  token: string;
  name: string;
  description: string | null;
  price_net: string;
  price_gross: string;
  /** A percentage (`"23"`) or a code such as `"zw"`. */
  tax: string;
  currency: string;
  quantity_unit: string | null;
}

/** A product for sale, from the BFF's `GET /products/:token` or the service's widget routes. */
export interface SaleProduct extends PublicProduct {
  /** The seller's name (widget routes). */
  seller?: string;
  /** False when the service takes no online payments. */
  available?: boolean;
  /** True while a test provider takes the payments. */
  test_mode?: boolean;
  /** A service rather than goods: with the seller's and buyer's countries it decides the VAT of a sale. */
  service?: boolean;
  /** Goods, a service or an electronically supplied service, which the tax engine reads. */
  supply_kind?: 'goods' | 'service' | 'electronic_service';
  seller_country?: string;
  /** The price for the buyer the query described (`?country=…&tax_no=…&company=1&quantity=2`), by the checkout's VAT rule. */
  quote?: ProductQuote;
  /**
   * True when the checkout takes a BLIK code on the page: the account's provider does BLIK "level 0"
   * and the product is sold in PLN. The dialog then offers the six-digit field.
   */
  blik?: boolean;
}

/** How the buyer pays in the checkout itself, instead of on the provider's page. */
export interface CheckoutPayment {
  method: 'blik';
  /** The six-digit code from the buyer's bank app. Used once, sent only to the provider, never stored or echoed. */
  code: string;
}

/**
 * Why a BLIK payment failed, as the buyer is told: the code was wrong, the code had expired, the
 * buyer declined in the bank app, the bank app gave no answer in time, or the provider failed.
 */
export type BlikFailureReason = 'wrong_code' | 'expired_code' | 'declined' | 'timeout' | 'provider_error';

/** Where a BLIK payment stands: `pending` while the buyer confirms in the bank app. */
export interface BlikState {
  method: 'blik';
  status: 'pending' | 'paid' | 'failed';
  reason: BlikFailureReason | null;
  /** When the code stops being good (ISO 8601): a BLIK code lives two minutes. */
  expires_at: string;
}

/** What the element sends to start a checkout. */
export interface CheckoutRequest {
  product: string;
  quantity: number;
  /** Absent for a signed-in customer: the BFF invoices them to their own record. */
  buyer?: CheckoutBuyer | undefined;
  returnUrl: string;
  cancelUrl: string;
  /** The buyer's language, which the checkout page, invoice and e-mail then speak. */
  lang?: string;
  /** Pay in the checkout itself (BLIK level 0); absent, the buyer pays on the page at `redirectUrl`. */
  payment?: CheckoutPayment | undefined;
}

/** A checkout started: where the buyer pays, and what. */
export interface CheckoutAnswer {
  /** Names this attempt when asking for its outcome later. */
  attempt: string;
  /** The payment page. */
  redirectUrl: string;
  amount: string;
  /** The line's tax as the invoice prints it. */
  tax: string;
  vat_treatment: VatTreatmentKind;
  /** The tax engine's case of the sale, as decided for this buyer (after VIES, for an EU business). */
  case?: SaleTaxCase;
  /** The words the invoice will carry for this case, in the checkout's language. */
  notes?: string[];
  /** Why Polish VAT was kept for an EU business: `vies_unavailable` when VIES could not answer. */
  fallback?: 'vies_invalid' | 'vies_unavailable' | 'vies_not_checked' | null;
  currency: string;
  quantity: number;
  product: { token: string; name: string };
  /** True while a test provider takes the payment (the service's widget checkout). */
  test_mode?: boolean;
  /** The VIES consultation asked before a sale without Polish VAT (the BFF's checkout). */
  vies?: CheckoutVies;
  /** For a checkout with `payment`: `pending` while the buyer confirms in the bank app, `failed` when the code was refused at once. */
  status?: 'pending' | 'failed';
  /** For a checkout with `payment`: the BLIK payment's state. */
  payment?: BlikState;
}

/** A VIES consultation as a checkout answers it: its number and date are the seller's evidence. */
export interface CheckoutVies {
  status: 'valid' | 'unavailable';
  request_identifier: string | null;
  request_date: string | null;
  /** For `unavailable`: VIES's own code (`MS_UNAVAILABLE`, `TIMEOUT`) or how the call failed. */
  reason: string | null;
}

/** How a payment ended: `pending` until the provider says. */
export type CheckoutStatus = 'paid' | 'declined' | 'cancelled' | 'pending';

/** A checkout's outcome, as the buyer's return page asks for it. */
export interface CheckoutOutcome {
  /** The attempt asked about (the service's widget route). */
  attempt?: string;
  /** `failed` (with `reason`) is a BLIK payment that did not go through. */
  status: CheckoutStatus | 'failed';
  amount: string;
  currency: string;
  quantity?: number;
  product?: { token?: string | null; name: string };
  invoice: { number: string; view_url: string | null } | null;
  /** For `failed`: why, in the words of `BlikFailureReason`. */
  reason?: BlikFailureReason | null;
  /** For a BLIK payment: its state, with when the code expires. */
  payment?: BlikState;
}

/** A payment started for one of the customer's invoices in the portal. */
export interface PaymentAttempt {
  attempt: string;
  redirectUrl: string;
  amount: string;
  currency: string;
}
