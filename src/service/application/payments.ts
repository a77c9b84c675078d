import { add, decimal, mul, sub, toPlain, toWire } from '../../kernel/money.js';
import { checkoutTaxSale } from '../../kernel/checkout.js';
import { decideTax } from '../../kernel/tax/index.js';
import { type SaleTerms, termsOfDecision } from '../../server-kit/sale.js';
import { type Account } from '../account.js';
import { defaultDepartment, type DepartmentData } from '../accounts.js';
import type { Sql } from '../db.js';
import { notFound, Problems } from '../domain-errors.js';
import { type InvoiceData, settlePaid } from '../invoicing/invoices.js';
import type { BlikFailureReason, PaymentOutcome } from '../payments/provider.js';
import type { BlikState } from '../../contract/sale.js';
import { randomToken } from '../passwords.js';
import { byToken } from '../data/public-records.js';
import { DEFAULT_CURRENCY, DEFAULT_TAX } from '../invoicing/amounts.js';
import type { ProductData } from '../data/products.js';
import { findRow, type StoredRow, todayText, updateRow } from '../store.js';
import type { CreateInput as IssueInput } from '../invoicing/issue.js';
import { markAttention } from './seller-alerts.js';
import { afterIssue, issueInvoice, type Issuing, prepareIssue } from './issuing.js';

/**
 * Payments and their settlement: the one step every provider ends in, whether the outcome came from
 * the checkout page, the return address or a signed notification, and what a paid payment does (pays
 * its invoice, or issues one). Recording the outcome and issuing the invoice commit together, so a
 * payment is never half-settled; the invoice is issued by the issuing step like every other, and its
 * e-mail to the buyer is owed on the invoice until it goes.
 */

/** Spec §2.5 fields of a `banking_payment`, in order. */
export const PAYMENT_FIELDS = [
  'name', 'price', 'quantity', 'currency', 'paid', 'paid_date', 'kind', 'invoice_id', 'client_id', 'department_id',
  'product_id', 'description', 'comment', 'email', 'first_name', 'last_name', 'phone', 'street', 'post_code', 'city',
  'country', 'invoice_name', 'invoice_tax_no', 'invoice_street', 'invoice_post_code', 'invoice_city', 'invoice_country',
  'invoice_comment', 'oid', 'promocode', 'provider', 'provider_response', 'provider_status', 'provider_title', 'deleted',
  'generate_invoice',
] as const;

export type PaymentData = Record<(typeof PAYMENT_FIELDS)[number], unknown> & {
  name: string;
  price: string;
  quantity: string;
  currency: string;
  paid: boolean;
  paid_date: string | null;
  invoice_id: number | null;
  generate_invoice: boolean;
  token: string;
  return_url?: string | null;
  cancel_url?: string | null;
  lang?: string | null;
  invoice_company?: boolean | null;
  invoice_tax_no_kind?: string | null;
  /** How the sale is taxed, as its checkout decided (with the VIES evidence). */
  sale_terms?: SaleTerms | null;
  vies_status?: string | null;
  vies_request_identifier?: string | null;
  vies_request_date?: string | null;
  /** A BLIK payment's state (never its code): see application/blik.ts. */
  blik?: StoredBlik | null;
};

/** Where a BLIK payment stands, kept on the payment as `blik`. */
export interface StoredBlik {
  status: BlikState['status'];
  reason: BlikFailureReason | null;
  /** When the code stops being good (ISO 8601). */
  expires_at: string;
}

/** This service's own fields of a payment, beside the hosted interface's. */
export const EXTRA_FIELDS = ['return_url', 'cancel_url', 'lang', 'invoice_company', 'invoice_tax_no_kind', 'vies_status', 'vies_request_identifier', 'vies_request_date', 'sale_terms'] as const;


/** Adds `amount` (negative to undo) to what an invoice has been paid, moving its status. */
export async function applyPaymentToInvoice(tx: Sql, account: Account, invoiceId: number, amount: string, paidDate: string): Promise<void> {
  const invoice = await findRow<InvoiceData>(tx, 'invoices', account.id, invoiceId, { forUpdate: true });
  if (!invoice) return;
  const data = { ...invoice.data };
  const paid = add(decimal(data.paid), decimal(amount));
  settlePaid(data, toPlain(paid.units < 0n ? decimal(0) : paid), paidDate);
  await updateRow(tx, 'invoices', account.id, invoiceId, data);
}


/**
 * A checkout's sale as its invoice will be: the buyer from the payment, the seller's department, the
 * product, and the VAT treatment the checkout core gives them (src/kernel/checkout.ts), so that the
 * checkout page, the price and the invoice agree.
 */
export async function saleOf(sql: Sql, account: Account, payment: PaymentData) {
  const text = (value: unknown) => (typeof value === 'string' && value) || null;
  const buyer = {
    email: text(payment.email) ?? '',
    name: text(payment.invoice_name),
    company: payment.invoice_company ?? null,
    tax_no: text(payment.invoice_tax_no),
    tax_no_kind: text(payment.invoice_tax_no_kind),
    country: text(payment.invoice_country) ?? text(payment.country),
  };
  const [product, seller] = await Promise.all([
    payment.product_id != null ? findRow<ProductData>(sql, 'products', account.id, payment.product_id as number) : undefined,
    payment.department_id != null ? findRow<DepartmentData>(sql, 'departments', account.id, payment.department_id as number) : defaultDepartment(sql, account.id),
  ]);
  return { buyer, product: product?.data, seller: seller?.data, terms: payment.sale_terms ?? apiSaleTerms(seller?.data, product?.data, buyer) };
}

/**
 * The terms of a payment the account made through the API, without a checkout's decision: the tax
 * engine's, with an EU VAT number of the right form taken as the account vouches for it (no VIES
 * consultation is on record for such a sale), and the product's own rate kept for a domestic one.
 */
function apiSaleTerms(seller: DepartmentData | undefined, product: ProductData | undefined, buyer: Parameters<typeof checkoutTaxSale>[0]['buyer']): SaleTerms {
  const decision = decideTax(
    checkoutTaxSale({
      sellerCountry: seller?.country,
      ossRegistered: seller?.oss_registered === true,
      product: { tax: product?.tax ?? DEFAULT_TAX, service: product?.service ?? null, supply_kind: (product as { supply_kind?: string } | undefined)?.supply_kind ?? null },
      buyer,
      vies: 'valid',
    }),
  );
  const terms = termsOfDecision(decision, null);
  return decision.case === 'domestic' ? { ...terms, tax: null } : terms;
}

/**
 * The invoice of a paid payment (`generate_invoice: true`), issued through the issuing step. The
 * buyer of a checkout is whoever typed the form: the invoice joins the payment's own `client_id` when
 * its creator gave one, and otherwise a new client record, never one found by tax number or e-mail.
 */
async function invoiceForPayment(tx: Sql, account: Account, payment: PaymentData, issuing: Issuing, options: SettleOptions): Promise<StoredRow<InvoiceData>> {
  const person = [payment.first_name, payment.last_name].filter(Boolean).join(' ');
  const { buyer, terms } = await saleOf(tx, account, payment);
  const paidDate = payment.paid_date ?? todayText(issuing.clock());
  const email = typeof payment.email === 'string' ? payment.email.trim() : '';
  return issueInvoice(tx, account, {
    input: {
      kind: terms.invoice_kind,
      lang: payment.lang ?? undefined,
      buyer_company: payment.invoice_company ?? (buyer.tax_no ? true : undefined),
      buyer_name: (payment.invoice_name as string | null) || person || email || 'Customer',
      buyer_tax_no: (payment.invoice_tax_no as string | null) ?? null,
      buyer_street: (payment.invoice_street as string | null) ?? (payment.street as string | null) ?? null,
      buyer_post_code: (payment.invoice_post_code as string | null) ?? (payment.post_code as string | null) ?? null,
      buyer_city: (payment.invoice_city as string | null) ?? (payment.city as string | null) ?? null,
      buyer_country: (payment.invoice_country as string | null) ?? (payment.country as string | null) ?? null,
      buyer_email: email || null,
      buyer_first_name: (payment.first_name as string | null) ?? null,
      buyer_last_name: (payment.last_name as string | null) ?? null,
      client_id: (payment.client_id as number | null) ?? null,
      department_id: (payment.department_id as number | null) ?? null,
      currency: payment.currency,
      description: (payment.invoice_comment as string | null) ?? null,
      oid: (payment.oid as string | null) ?? null,
      positions: [
        {
          product_id: (payment.product_id as number | null) ?? null,
          name: payment.name,
          quantity: payment.quantity,
          total_price_gross: payment.price,
          ...(terms.tax == null ? {} : { tax: terms.tax }),
        },
      ],
    } as IssueInput,
    matching: 'new-client',
    // The buyer has paid: the invoice is issued whatever KSeF would say of it, and the seller is told.
    refusable: false,
    amend: (data) => {
      if (buyer.tax_no_kind) data.buyer_tax_no_kind = buyer.tax_no_kind;
      if (terms.np_tax_kind) data.np_tax_kind = terms.np_tax_kind;
      if (terms.reverse_charge) data.reverse_charge = true;
      if (terms.use_oss) data.use_oss = true;
      if (terms.vies) {
        data.vies_status = terms.vies.status;
        data.vies_request_identifier = terms.vies.request_identifier;
        data.vies_request_date = terms.vies.request_date;
      }
      if (terms.fallback === 'vies_unavailable') markAttention(data, 'vies_unavailable');
      settlePaid(data, data.price_gross, paidDate);
    },
    email: options.emailBuyer && email
      ? { to: [email], cc: [], pdf: true, printOption: 'original', publicUrl: issuing.publicUrl(), ...(options.late ? { paymentLate: true } : {}) }
      : null,
  }, issuing);
}

interface SettleOptions {
  /** E-mail the issued invoice to the buyer. */
  emailBuyer?: boolean | undefined;
  /** The money came after the checkout had given the payment up (a BLIK code that timed out): the e-mail says so. */
  late?: boolean | undefined;
}

/** What a paid payment does: pays its invoice, or issues one when asked (and answers that invoice). */
export async function settle(tx: Sql, account: Account, data: PaymentData, issuing: Issuing, options: SettleOptions = {}): Promise<StoredRow<InvoiceData> | undefined> {
  if (!data.paid) return undefined;
  data.paid_date ??= todayText(issuing.clock());
  if (data.invoice_id != null) {
    await applyPaymentToInvoice(tx, account, data.invoice_id, data.price, data.paid_date);
    return undefined;
  }
  if (!data.generate_invoice) return undefined;
  const issued = await invoiceForPayment(tx, account, data, issuing, options);
  data.invoice_id = issued.id;
  return issued;
}

/** Undoes what a paid payment did to its invoice (the payment changed or was deleted). */
export async function unsettle(tx: Sql, account: Account, data: PaymentData): Promise<void> {
  if (data.paid && data.invoice_id != null) {
    await applyPaymentToInvoice(tx, account, data.invoice_id, toPlain(sub(decimal(0), decimal(data.price))), todayText());
  }
}

/**
 * A new payment from a create request (the API, a checkout, a pay link). A payment created paid
 * settles at once: it pays its invoice, or issues one through the issuing step; `issued` is that
 * invoice, for `afterIssue` once the caller's transaction has committed.
 */
export async function newPaymentData(tx: Sql, account: Account, input: Record<string, unknown>, issuing: Issuing): Promise<{ data: PaymentData; issued?: StoredRow<InvoiceData> | undefined }> {
  const problems = new Problems();
  let product: ProductData | undefined;
  if (input.product_id != null) {
    product = (await findRow<ProductData>(tx, 'products', account.id, input.product_id as number))?.data;
    if (!product) problems.add('product_id', 'does not exist');
  }
  let invoice: InvoiceData | undefined;
  if (input.invoice_id != null) {
    invoice = (await findRow<InvoiceData>(tx, 'invoices', account.id, input.invoice_id as number))?.data;
    if (!invoice) problems.add('invoice_id', 'does not exist');
  }
  const quantity = (input.quantity as string | null | undefined) ?? '1';
  const price =
    (input.price as string | null | undefined) ?? (product ? toWire(mul(decimal(product.price_gross), decimal(quantity))) : undefined);
  if (price == null) problems.add('price', "can't be blank");
  const name = (input.name as string | null | undefined)?.trim() || product?.name || (invoice ? `Invoice ${invoice.number}` : '');
  if (!name) problems.add('name', "can't be blank");
  problems.throwIfAny();
  const data = {} as PaymentData;
  for (const field of PAYMENT_FIELDS) (data as Record<string, unknown>)[field] = input[field] ?? null;
  Object.assign(data, {
    name,
    price: toWire(decimal(price!)),
    quantity: toWire(decimal(quantity)),
    currency: (input.currency as string | null | undefined) ?? invoice?.currency ?? product?.currency ?? DEFAULT_CURRENCY,
    paid: (input.paid as boolean | null | undefined) ?? false,
    kind: (input.kind as string | null | undefined) ?? 'api',
    deleted: (input.deleted as boolean | null | undefined) ?? false,
    generate_invoice: (input.generate_invoice as boolean | null | undefined) ?? false,
    token: randomToken(18),
  });
  for (const field of EXTRA_FIELDS) (data as Record<string, unknown>)[field] = input[field] ?? null;
  if (input.sale_terms != null) data.sale_terms = input.sale_terms as SaleTerms;
  const issued = data.paid ? await settle(tx, account, data, issuing) : undefined;
  return { data, issued };
}


/** What a checkout's outcome is, as the widget and the pages report it. */
export function checkoutOutcome(payment: PaymentData): PaymentOutcome {
  if (payment.paid) return 'paid';
  return payment.provider_status === 'declined' || payment.provider_status === 'cancelled' ? payment.provider_status : 'pending';
}

export interface SettlementInput {
  /** The payment's token (the provider's order reference). */
  token: string;
  outcome: PaymentOutcome;
  /** Stored as the payment's `provider`. */
  providerId: string;
  /** The provider's own reference (a Checkout Session id, a Przelewy24 order id), kept as `provider_title`. */
  reference?: string | undefined;
  /** The account whose provider reported it: a payment of another account is not found. */
  accountId?: number | undefined;
  /** For a BLIK payment that failed (`outcome: 'declined'`): why, kept on the payment as `blik.reason`. */
  failure?: BlikFailureReason | undefined;
}

export interface SettlementResult {
  account: Account;
  row: StoredRow<PaymentData>;
  /** False when the invoice is issued but its e-mail could not go out yet. */
  mailed: boolean;
}

/** A BLIK payment's state after the provider's outcome: paid, or failed for the reason given. */
function blikAfter(blik: StoredBlik, input: SettlementInput): StoredBlik {
  if (input.outcome === 'paid') return { ...blik, status: 'paid', reason: null };
  return { ...blik, status: 'failed', reason: input.failure ?? 'declined' };
}

/**
 * Records what the provider said, once. A paid outcome settles the payment (and issues its invoice)
 * whatever was recorded before, since money moved; a declined or cancelled one is kept only while
 * nothing else was. Any repetition changes nothing.
 */
async function recordOutcome(issuing: Issuing, input: SettlementInput): Promise<{ account: Account; row: StoredRow<PaymentData>; issued?: StoredRow<InvoiceData> | undefined }> {
  const db = issuing.db;
  // The NBP rate the invoice will need, fetched before the transaction that issues it.
  if (input.outcome === 'paid') {
    const known = await byToken<PaymentData>(db, 'payments', input.token).catch(() => undefined);
    if (known && !known.row.data.paid) await prepareIssue(issuing, { currency: known.row.data.currency });
  }
  return db.transaction(async (tx) => {
    const found = await byToken<PaymentData>(tx, 'payments', input.token, true);
    if (input.accountId !== undefined && found.account.id !== input.accountId) throw notFound();
    const current = found.row.data;
    const settles = input.outcome === 'paid' && !current.paid;
    const ends = (input.outcome === 'declined' || input.outcome === 'cancelled') && checkoutOutcome(current) === 'pending';
    if (!settles && !ends) return found;
    const data: PaymentData = { ...current, provider: input.providerId, provider_status: input.outcome, ...(input.reference ? { provider_title: input.reference } : {}) };
    if (current.blik) data.blik = blikAfter(current.blik, input);
    let issued: StoredRow<InvoiceData> | undefined;
    if (settles) {
      Object.assign(data, { paid: true, paid_date: todayText(issuing.clock()) });
      // The BLIK transaction the checkout had given up (it timed out) is paid after all: the buyer is told why the invoice comes now.
      const late = current.blik?.status === 'failed' && input.reference != null && input.reference === current.provider_title;
      issued = await settle(tx, found.account, data, issuing, { emailBuyer: true, late });
    }
    return { account: found.account, row: await updateRow(tx, 'payments', found.account.id, found.row.id, data), issued };
  });
}

/**
 * Records a provider's outcome and, when it settles the payment, issues its invoice through the
 * issuing step, whose e-mail to the buyer goes once KSeF has numbered it. `mailed` is false while
 * that e-mail could not be sent for another reason than KSeF (a mail server down): it stays owed, and
 * goes at the next release (the provider's repeated notification, or a restart).
 */
export async function settlePayment(issuing: Issuing, input: SettlementInput): Promise<SettlementResult> {
  const { account, row, issued } = await recordOutcome(issuing, input);
  const invoiceId = issued?.id ?? row.data.invoice_id;
  if (invoiceId == null) return { account, row, mailed: true };
  if (issued) await afterIssue(issuing, account.id, issued).catch(() => undefined);
  const mailed = await issuing.mail.release({ accountId: account.id, invoiceId }).then(() => true, () => false);
  return { account, row, mailed };
}
