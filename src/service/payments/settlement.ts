import type { Hono } from 'hono';
import type { Database } from '../db.js';
import { type Account, notFound, type ServiceEnv } from '../http.js';
import { byToken } from '../data/public-records.js';
import { type PaymentData, settle } from '../resources/payments.js';
import { type StoredRow, todayText, updateRow } from '../store.js';
import type { PaymentOutcome } from './provider.js';

/**
 * The one step every provider ends in, whether the outcome came from the checkout page, the return
 * address or a signed notification. Recording the outcome and issuing the invoice commit together, so
 * a payment is never half-settled; the invoice's e-mail follows the commit and is kept owed on the
 * payment (`invoice_mail_pending`) until it went out, so a repeated notification sends it then.
 */

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
}

export interface SettlementResult {
  account: Account;
  row: StoredRow<PaymentData>;
  /** False when the invoice is issued but its e-mail could not go out yet. */
  mailed: boolean;
}

/**
 * Records what the provider said, once. A paid outcome settles the payment (and issues its invoice)
 * whatever was recorded before, since money moved; a declined or cancelled one is kept only while
 * nothing else was. Any repetition changes nothing.
 */
async function recordOutcome(db: Database, input: SettlementInput) {
  return db.transaction(async (tx) => {
    const found = await byToken<PaymentData>(tx, 'payments', input.token, true);
    if (input.accountId !== undefined && found.account.id !== input.accountId) throw notFound();
    const current = found.row.data;
    const settles = input.outcome === 'paid' && !current.paid;
    const ends = (input.outcome === 'declined' || input.outcome === 'cancelled') && checkoutOutcome(current) === 'pending';
    if (!settles && !ends) return found;
    const data: PaymentData = { ...current, provider: input.providerId, provider_status: input.outcome, ...(input.reference ? { provider_title: input.reference } : {}) };
    if (settles) {
      Object.assign(data, { paid: true, paid_date: todayText() });
      await settle(tx, found.account, data);
      if (data.generate_invoice && data.invoice_id != null && current.invoice_id == null && data.email) data.invoice_mail_pending = true;
    }
    return { account: found.account, row: await updateRow(tx, 'payments', found.account.id, found.row.id, data) };
  });
}

/** Sends the issued invoice to the buyer, as the hosted service does after a paid order. */
async function mailInvoice(service: Hono<ServiceEnv>, account: Account, payment: PaymentData): Promise<boolean> {
  const send = new URL(`http://service.invalid/invoices/${payment.invoice_id}/send_by_email.json`);
  send.searchParams.set('api_token', account.api_token);
  const response = await service.request(`${send.pathname}${send.search}`, { method: 'POST', headers: { accept: 'application/json' } });
  return response.ok;
}

/** `service`: the whole service app, which mails an issued invoice through its own `send_by_email`. */
export async function settlePayment(service: Hono<ServiceEnv>, db: Database, input: SettlementInput): Promise<SettlementResult> {
  const { account, row } = await recordOutcome(db, input);
  if (row.data.invoice_mail_pending !== true) return { account, row, mailed: true };
  if (!(await mailInvoice(service, account, row.data).catch(() => false))) return { account, row, mailed: false };
  const sent = await db.transaction(async (tx) => {
    const found = await byToken<PaymentData>(tx, 'payments', input.token, true);
    const data = { ...found.row.data };
    delete data.invoice_mail_pending;
    return updateRow(tx, 'payments', found.account.id, found.row.id, data);
  });
  return { account, row: sent, mailed: true };
}
