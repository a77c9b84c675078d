import type { Client } from '../api/schemas/client.js';
import type { InvoiceField, InvoiceFields } from '../api/resources/invoices.js';
import type { Invoice, Position } from '../api/schemas/invoice.js';
import type { Product } from '../api/schemas/product.js';
import { compare, decimal, sub, toPlain, ZERO } from '../kernel/money.js';
import { ksefViewOf } from '../kernel/ksef.js';
import {
  CUSTOMER_CLIENT_FIELDS,
  PARTY_FIELDS,
  SELLER_FIELDS,
  type CustomerClient,
  type CustomerInvoice,
  type CustomerPosition,
  type CustomerStatus,
  type PortalListFilter,
} from '../contract/portal.js';
import type { PublicProduct } from '../contract/sale.js';

/**
 * What a browser may see of the service's records. Every view is a whitelist: a field the service
 * adds later stays inside the BFF until someone decides a customer should see it. The shapes
 * themselves are the wire contract the elements read too (`src/contract/`).
 */

type PaymentFields = Pick<Invoice, 'status' | 'price_gross' | 'paid' | 'payment_to'> & { cancelled?: unknown };

/** Shown to the customer at all: not rejected or cancelled. */
export function isActive(invoice: PaymentFields): boolean {
  return invoice.status !== 'rejected' && invoice.status !== 'cancelled' && invoice.cancelled !== true;
}

/** Money still due: issued, sent or partly paid, not cancelled, less paid than its total. */
export function isOutstanding(invoice: PaymentFields): boolean {
  return (
    ['issued', 'sent', 'partial'].includes(invoice.status) &&
    invoice.cancelled !== true &&
    compare(decimal(invoice.paid), decimal(invoice.price_gross)) < 0
  );
}

/** The same selection as the service's `status` filter extensions, for a service without them. */
export function matchesFilter(invoice: PaymentFields, filter: PortalListFilter | undefined, today: string): boolean {
  if (!isActive(invoice)) return false;
  switch (filter) {
    case undefined:
      return true;
    case 'paid':
      return invoice.status === 'paid';
    case 'partial':
      return invoice.status === 'partial';
    case 'outstanding':
      return isOutstanding(invoice);
    case 'unpaid':
      return isOutstanding(invoice) && compare(decimal(invoice.paid), ZERO) === 0;
    case 'overdue':
      return isOutstanding(invoice) && !!invoice.payment_to && invoice.payment_to < today;
  }
}

export function publicProduct(product: Product): PublicProduct {
  return {
    token: product.token,
    name: product.name,
    description: product.description ?? null,
    price_net: product.price_net,
    price_gross: product.price_gross,
    tax: product.tax,
    currency: product.currency,
    quantity_unit: product.quantity_unit ?? null,
  };
}

export function outstandingOf(invoice: Pick<Invoice, 'price_gross' | 'paid'>): string {
  const left = sub(decimal(invoice.price_gross), decimal(invoice.paid));
  return toPlain(compare(left, ZERO) > 0 ? left : ZERO);
}

/** paid → fully paid; overdue → not fully paid and due before `today`; partial → some paid; else unpaid. */
export function customerStatus(invoice: Pick<Invoice, 'status' | 'price_gross' | 'paid' | 'payment_to'>, today: string): CustomerStatus {
  const gross = decimal(invoice.price_gross);
  const paid = decimal(invoice.paid);
  if (invoice.status === 'paid' || compare(paid, gross) >= 0) return 'paid';
  if (invoice.payment_to && invoice.payment_to < today) return 'overdue';
  if (invoice.status === 'partial' || compare(paid, ZERO) > 0) return 'partial';
  return 'unpaid';
}

const text = (record: Record<string, unknown>, key: string): string | null => {
  const value = record[key];
  return typeof value === 'string' ? value : null;
};

export function customerPosition(position: Position): CustomerPosition {
  return {
    name: position.name,
    description: position.description ?? null,
    quantity: position.quantity,
    quantity_unit: position.quantity_unit ?? null,
    tax: position.tax,
    price_net: position.price_net,
    price_gross: position.price_gross,
    total_price_net: position.total_price_net,
    total_price_tax: position.total_price_tax,
    total_price_gross: position.total_price_gross,
    discount: position.discount ?? null,
    discount_percent: position.discount_percent ?? null,
  };
}

/** The keys of an invoice that the customer's view of it is made from. */
export const CUSTOMER_INVOICE_FIELDS = [
  'number', 'kind', 'status', 'issue_date', 'sell_date', 'payment_to', 'payment_type', 'currency', 'price_net', 'price_tax',
  'price_gross', 'paid', 'paid_date', 'payment_url', 'view_url', 'client_id', 'gov_status', 'gov_id', 'gov_verification_link', 'gov_send_date',
  ...SELLER_FIELDS.map((field) => `seller_${field}` as const),
  ...PARTY_FIELDS.map((field) => `buyer_${field}` as const),
] as const satisfies readonly InvoiceField[];
export type CustomerInvoiceSource = InvoiceFields<(typeof CUSTOMER_INVOICE_FIELDS)[number]> & Partial<Pick<Invoice, 'positions'>>;

export function customerInvoice(invoice: CustomerInvoiceSource, today: string, basePath: string, withPositions = false): CustomerInvoice {
  const record = invoice as Record<string, unknown>;
  const status = customerStatus(invoice, today);
  const view: CustomerInvoice = {
    id: invoice.id,
    number: invoice.number,
    kind: invoice.kind,
    status,
    issue_date: invoice.issue_date,
    sell_date: invoice.sell_date,
    payment_to: invoice.payment_to ?? null,
    payment_type: invoice.payment_type ?? null,
    currency: invoice.currency,
    price_net: invoice.price_net,
    price_tax: invoice.price_tax,
    price_gross: invoice.price_gross,
    paid: invoice.paid,
    outstanding: outstandingOf(invoice),
    paid_date: invoice.paid_date ?? null,
    seller: Object.fromEntries(SELLER_FIELDS.map((f) => [f, text(record, `seller_${f}`)])) as CustomerInvoice['seller'],
    buyer: Object.fromEntries(PARTY_FIELDS.map((f) => [f, text(record, `buyer_${f}`)])) as CustomerInvoice['buyer'],
    payment_url: status === 'paid' ? null : invoice.payment_url || null,
    view_url: invoice.view_url || null,
    pdf_url: `${basePath}/invoices/${invoice.id}/pdf`,
    ksef: ksefViewOf(invoice),
  };
  if (withPositions) view.positions = (invoice.positions ?? []).map(customerPosition);
  return view;
}

export function customerClient(client: Client): CustomerClient {
  const record = client as Record<string, unknown>;
  return {
    id: client.id,
    company: client.company,
    ...(Object.fromEntries(CUSTOMER_CLIENT_FIELDS.map((f) => [f, text(record, f)])) as Omit<CustomerClient, 'id' | 'company'>),
  };
}
