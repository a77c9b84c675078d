import type { EInvoiceFormatName } from './einvoice.js';
import type { KsefView } from './ksef.js';

/**
 * The BFF's portal shapes, declared once: what its portal routes answer and what the elements
 * read. Plain TypeScript with no zod, DOM or Node, so the BFF (`src/bff/views.ts`) builds its answers
 * to these types and the elements import them type-only; the few lists here are short literals, so an
 * element that needs one at run time pays only for that list.
 */

/** The one status a customer's invoice shows. */
export const CUSTOMER_STATUSES = ['paid', 'partial', 'unpaid', 'overdue'] as const;
export type CustomerStatus = (typeof CUSTOMER_STATUSES)[number];

/**
 * The portal list's filters: a customer status, or `outstanding`, everything with money still due
 * (unpaid, partly paid and overdue alike). `partial` and `unpaid` select by what has been paid, so
 * they include overdue invoices too; each invoice still shows the one status that describes it best.
 */
export const PORTAL_LIST_FILTERS = ['outstanding', 'paid', 'partial', 'unpaid', 'overdue'] as const satisfies readonly ['outstanding', ...CustomerStatus[]];
export type PortalListFilter = (typeof PORTAL_LIST_FILTERS)[number];

/** The portal list's periods of issue dates, in the order a customer picks from them. */
export const PORTAL_LIST_PERIODS = ['all', 'this_month', 'last_month', 'last_30_days', 'this_year', 'last_year', 'last_12_months'] as const;
export type PortalListPeriod = (typeof PORTAL_LIST_PERIODS)[number];

/** The fields the portal list sorts by; an order is one of them, optionally with `.asc` or `.desc`. */
export const PORTAL_ORDER_FIELDS = ['issue_date', 'payment_to', 'price_gross'] as const;
export type PortalOrderField = (typeof PORTAL_ORDER_FIELDS)[number];
/** The orders a customer picks from, newest first by default. */
export const PORTAL_LIST_ORDERS = [
  'issue_date.desc', 'issue_date.asc', 'payment_to.asc', 'payment_to.desc', 'price_gross.desc', 'price_gross.asc',
] as const satisfies readonly `${PortalOrderField}.${'asc' | 'desc'}`[];
export type PortalListOrder = (typeof PORTAL_LIST_ORDERS)[number];

/** A query of the portal list, as the browser sends it; unset filters stay out of the query string. */
export interface PortalListQuery {
  page: number;
  per_page: number;
  status?: PortalListFilter | undefined;
  period?: PortalListPeriod | undefined;
  search?: string | undefined;
  /** A `PortalListOrder`, or a bare `PortalOrderField` (ascending). */
  order?: string | undefined;
  /** `false` for the following pages of a list already counted: the BFF skips the count and totals. */
  totals?: boolean | undefined;
}

/** What the customer owes in one currency, over all their invoices, whatever the filters. */
export interface CustomerTotals {
  currency: string;
  /** Still to pay, exact, in the currency's minor unit. */
  outstanding: string;
  outstanding_count: number;
  /** The part of `outstanding` due before today. */
  overdue: string;
  overdue_count: number;
}

/** The fields of a party (buyer or seller) a customer sees on an invoice. */
export const PARTY_FIELDS = ['name', 'tax_no', 'street', 'post_code', 'city', 'country', 'email', 'phone'] as const;
/** A seller's, which add where to pay. */
export const SELLER_FIELDS = ['name', 'tax_no', 'street', 'post_code', 'city', 'country', 'email', 'phone', 'bank', 'bank_account'] as const satisfies readonly [
  ...typeof PARTY_FIELDS,
  'bank',
  'bank_account',
];

export interface CustomerPosition {
  name: string;
  description: string | null;
  quantity: string;
  quantity_unit: string | null;
  tax: string;
  price_net: string;
  price_gross: string;
  total_price_net: string;
  total_price_tax: string;
  total_price_gross: string;
  discount: string | null;
  discount_percent: string | null;
}

/**
 * An invoice as a customer sees it. Amounts are decimal strings; `status` is derived by the BFF from
 * `payment_to` and what has been paid.
 */
export interface CustomerInvoice {
  id: number;
  number: string;
  kind: string;
  status: CustomerStatus;
  issue_date: string;
  sell_date: string;
  payment_to: string | null;
  payment_type: string | null;
  currency: string;
  price_net: string;
  price_tax: string;
  price_gross: string;
  paid: string;
  /** What is left to pay: `"0"` once paid. */
  outstanding: string;
  paid_date: string | null;
  seller: Record<(typeof SELLER_FIELDS)[number], string | null>;
  buyer: Record<(typeof PARTY_FIELDS)[number], string | null>;
  /** The service's public page where the buyer pays this invoice, while something is left to pay. */
  payment_url: string | null;
  /** The service's public page showing this invoice. */
  view_url: string | null;
  /** The BFF route of the PDF (send the portal token, or ask `pdf-link` for a link that needs none). */
  pdf_url: string;
  /** The invoice in KSeF (Poland's e-invoicing system): sent with its number, pending or an error; null when it does not go to KSeF. */
  ksef: KsefView | null;
  /**
   * The invoice as an e-invoice in the customer's format, beside the PDF: null when the customer has
   * none set. The list answers it on every row; one invoice's answer leaves it out.
   */
  einvoice?: PortalEInvoice | null;
  /** One invoice's answer only; the list leaves them out. */
  positions?: CustomerPosition[];
}

/** A download of one invoice as an e-invoice in the customer's format. */
export interface PortalEInvoice {
  format: EInvoiceFormatName;
  /** The format as a customer reads it: `Peppol`, `CII`, `XRechnung`, `Factur-X`. */
  label: string;
  /** The document, as an absolute link signed for this customer and invoice: it opens without the portal token until the session ends (at most a day). */
  url: string;
}

/** A row of the portal list as a server-rendered page hands it over: with a PDF link that needs no token. */
export type RenderedInvoice = Omit<CustomerInvoice, 'positions'> & {
  /** A PDF link that needs no token, signed by the server that rendered the list (absent in the BFF's list). */
  pdf_link?: string;
};

/** One page of the portal list. */
export interface PortalListPage<Row = CustomerInvoice> {
  data: Row[];
  page: number;
  per_page: number;
  /** Invoices matching the query across all pages (absent when `totals` was `false`). */
  total?: number;
  total_pages?: number;
  totals?: CustomerTotals[];
}

/** A short-lived link that opens one invoice's PDF without the portal token. */
export interface PdfLink {
  url: string;
  expires_at: string;
}

/** The fields of its own client record a customer reads and may change. */
export const CUSTOMER_CLIENT_FIELDS = [
  'name', 'first_name', 'last_name', 'person', 'tax_no', 'email', 'phone', 'street', 'post_code', 'city', 'country', 'bank', 'bank_account',
] as const;
export type CustomerClientField = (typeof CUSTOMER_CLIENT_FIELDS)[number];

/** The customer's own client record, as the BFF shows it to them. */
export type CustomerClient = { id: number; company: boolean } & Record<CustomerClientField, string | null>;

/** What `POST /clients` answers: the new client and, where the BFF is set up for it, a portal token. */
export interface SignupResult {
  client: CustomerClient;
  portalToken?: string;
}
