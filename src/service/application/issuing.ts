import type { Account } from '../account.js';
import type { Database, Sql } from '../db.js';
import { ValidationError } from '../domain-errors.js';
import { waitForRate } from '../data/exchange-rates.js';
import { buildInvoice, type CreateInput } from '../invoicing/issue.js';
import { type BuyerMatching, type InvoiceData, insertInvoice } from '../invoicing/invoices.js';
import { checkForKsef, errorMessages, sendAfterSave } from '../ksef/invoices.js';
import type { KsefRuntime } from '../ksef/runtime.js';
import { type KsefSettings, readKsefSettings } from '../ksef/settings.js';
import type { StoredRow } from '../store.js';
import { applyExchangeRate, prefetchRate, type RateSource, taxPointOf } from './exchange-rates.js';
import { type EmailRequest, type InvoiceMail, oweEmail } from './invoice-mail.js';
import { type Attention, markAttention, type SellerAlerts } from './seller-alerts.js';

/**
 * Issuing an invoice: the one step every invoice takes, whether the API, a checkout, a recurring
 * schedule, a copy or a correction asks for it (docs/decisions/one-way-to-issue.md). In the caller's
 * transaction it builds the document (numbering, defaults, buyer and seller), gives a foreign-currency
 * invoice its NBP rate, checks it against what KSeF takes (`validate_invoices_for_gov`), stores it
 * (the only insert of an invoice), queues it for KSeF and keeps the e-mail it owes. After the commit,
 * `afterIssue` lets the owed e-mail go when KSeF and the rate allow, and tells the seller of trouble.
 */

/** What issuing needs at run time, made once where the service is composed. */
export interface Issuing {
  readonly db: Database;
  readonly ksef: KsefRuntime;
  readonly mail: InvoiceMail;
  readonly rates: RateSource;
  readonly alerts: SellerAlerts;
  readonly clock: () => Date;
  /** The service's public address, for the links an e-mail carries. */
  readonly publicUrl: () => string;
  /** Wakes the rate worker (an invoice now waits for its rate). */
  readonly rateWaiting: () => void;
}

export interface IssueRequest {
  input: CreateInput;
  /** The API matches the buyer to an existing client; a checkout's buyer is always a new client record. */
  matching: BuyerMatching;
  /**
   * The API refuses an invoice KSeF would refuse (422). A paid sale or a schedule cannot be refused:
   * its invoice is issued with the problems recorded, and the seller is told.
   */
  refusable: boolean;
  /** `gov_save_and_send`: send to KSeF whatever `auto_send_mode` says. */
  sendToKsef?: boolean;
  /** Sets what the caller knows beyond the request (paid state, the schedule, the VIES evidence) before the checks. */
  amend?: (data: InvoiceData & Record<string, unknown>) => void;
  /** The e-mail to the buyer, sent once KSeF has the invoice's number wherever it goes to KSeF. */
  email?: EmailRequest | null;
  /** The account's KSeF settings, when the caller read them already. */
  ksefSettings?: KsefSettings;
}

type Stored = InvoiceData & Record<string, unknown>;

/** The currency and tax point a request's invoice will have, when the request says them. */
function rateKeyOf(input: CreateInput, today: string): { currency: string; taxPoint: string } | undefined {
  const currency = (input.currency ?? '').toUpperCase();
  if (!currency || currency === 'PLN' || input.exchange_currency_rate) return undefined;
  return { currency, taxPoint: taxPointOf({ sell_date: input.sell_date ?? '', issue_date: input.issue_date ?? today }) };
}

/**
 * Before the transaction: fetches the NBP rate the invoice will need, so that the issuing step reads
 * it instead of waiting on NBP while it holds locks. Quiet when NBP cannot answer.
 */
export async function prepareIssue(issuing: Issuing, input: CreateInput | { currency?: string | null; sell_date?: string | null; issue_date?: string | null }): Promise<void> {
  const key = rateKeyOf(input as CreateInput, issuing.clock().toISOString().slice(0, 10));
  if (key) await prefetchRate(issuing.db, issuing.rates, key.currency, key.taxPoint);
}

/** Issues an invoice in the caller's transaction; call `afterIssue` once it has committed. */
export async function issueInvoice(tx: Sql, account: Account, request: IssueRequest, issuing: Issuing): Promise<StoredRow<InvoiceData>> {
  const settings = request.ksefSettings ?? (await readKsefSettings(tx, account.id));
  let data = (await buildInvoice(tx, account, request.input, { numberOnInsert: true, matching: request.matching, now: issuing.clock() })) as Stored;
  request.amend?.(data);
  const rate = await applyExchangeRate(tx, data);
  if (rate === 'waiting') markAttention(data, 'awaiting_exchange_rate');
  try {
    data = await checkForKsef(tx, account, data, undefined, settings, { ratePending: rate === 'waiting' });
  } catch (error) {
    if (request.refusable || !(error instanceof ValidationError)) throw error;
    data.gov_error_messages = errorMessages(error.fields);
    markAttention(data, 'ksef_invalid');
  }
  // Asked to go to KSeF while it waits for its rate: it goes once the rate is in.
  if (rate === 'waiting' && request.sendToKsef) data.ksef_send_requested = true;
  let row = await insertInvoice(tx, account.id, data);
  if (rate === 'waiting') {
    await waitForRate(tx, { invoiceId: row.id, accountId: account.id, currency: data.currency.toUpperCase(), taxPoint: taxPointOf(data) }, issuing.clock());
  } else {
    row = await sendAfterSave(tx, account, row, request.sendToKsef ?? false, issuing.ksef, settings);
  }
  if (request.email) row = await oweEmail(tx, account.id, row, request.email);
  return row;
}

/** After the issuing transaction committed: the owed e-mail goes if it may, the rate worker wakes, the seller hears of trouble. */
export async function afterIssue(issuing: Issuing, accountId: number, row: StoredRow<InvoiceData>): Promise<void> {
  const data = row.data as Stored;
  if (data.exchange_rate_pending === true) issuing.rateWaiting();
  const attention = data.attention as Attention | null | undefined;
  if (attention) await issuing.alerts.tell(accountId, row.id).catch(() => undefined);
  if (Array.isArray(data.ksef_held_emails) && data.ksef_held_emails.length > 0) await issuing.mail.release({ accountId, invoiceId: row.id });
}
