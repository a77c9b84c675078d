import type { Database, Sql } from '../db.js';
import { HELD_EMAILS, invoicesHoldingEmails } from '../data/ksef-invoices.js';
import { ksefJobInFlight, lastKsefJobOffline } from '../data/ksef-jobs.js';
import type { PrintOption } from '../documents/print-option.js';
import type { InvoiceData } from '../invoicing/invoices.js';
import { findRow, type StoredRow, updateRow } from '../store.js';
import { isKsefKind } from './fa3/build.js';
import { isConnected, readKsefSettings } from './settings.js';

/**
 * E-mail and KSeF (hosted guide, "Wysyłanie faktur emailem do klientów"): while KSeF is on, a
 * company's invoice goes to its buyer with its KSeF number. An e-mail asked for while an invoice is
 * on its way to KSeF is held in the invoice's record and sent, with the number on its PDF, once the
 * sender has settled the invoice. In production a company's invoice without a number that is not
 * on its way, nor marked offline, is refused (`status: "error"`, as the hosted service answers); outside production
 * nothing is refused, as the hosted service's DEMO mode blocks nothing, and a consumer's invoice is
 * never refused.
 */

/** An e-mail as `send_by_email` asked for it; the message itself is made when it is sent. */
export interface EmailRequest {
  readonly to: string[];
  readonly cc: string[];
  readonly pdf: boolean;
  readonly printOption: PrintOption;
  readonly publicUrl: string;
  /** The buyer's payment arrived after the checkout had given it up (a BLIK code that timed out): the message says so. */
  readonly paymentLate?: boolean;
}

/** Where held e-mails wait, in the invoice's record. */
const HELD = HELD_EMAILS;

type Stored = InvoiceData & Record<string, unknown>;

/** An invoice waiting for its exchange rate goes to KSeF, and so to its buyer, only once it has one. */
const waitsForRate = (data: Stored) => data.exchange_rate_pending === true;

/**
 * Keeps an e-mail owed on an invoice, in the caller's transaction: the issuing step's e-mail, which
 * `releaseHeldEmails` sends after the commit, once KSeF and the exchange rate let it go.
 */
export async function oweEmail(tx: Sql, accountId: number, row: StoredRow<InvoiceData>, ...requests: EmailRequest[]): Promise<StoredRow<InvoiceData>> {
  const data = row.data as Stored;
  const held = Array.isArray(data[HELD]) ? (data[HELD] as EmailRequest[]) : [];
  return updateRow(tx, 'invoices', accountId, row.id, { ...data, [HELD]: [...held, ...requests] } as Stored);
}

/** Whether KSeF lets the e-mail go now (`send`), holds it for the number (`held`) or refuses it. */
export async function holdForKsef(db: Database, accountId: number, id: number, request: EmailRequest): Promise<'send' | 'held' | 'refused'> {
  return db.transaction(async (tx) => {
    const row = await findRow<Stored>(tx, 'invoices', accountId, id, { forUpdate: true });
    if (!row) return 'send';
    const data = row.data;
    if (!isKsefKind(data.kind) || (typeof data.gov_id === 'string' && data.gov_id)) return 'send';
    // On its way, any invoice waits a moment for its number, to carry it on its PDF.
    if (waitsForRate(data) || (await ksefJobInFlight(tx, id))) {
      const held = Array.isArray(data[HELD]) ? (data[HELD] as EmailRequest[]) : [];
      await updateRow(tx, 'invoices', accountId, id, { ...data, [HELD]: [...held, request] });
      return 'held';
    }
    // A consumer's invoice goes as it always did, and so does one marked offline (hosted guide).
    if (data.buyer_company === false || (await lastKsefJobOffline(tx, id))) return 'send';
    const settings = await readKsefSettings(tx, accountId);
    return settings.environment === 'production' && isConnected(settings) ? 'refused' : 'send';
  });
}

export type Deliver = (accountId: number, invoiceId: number, request: EmailRequest) => Promise<void>;

/**
 * Sends the e-mails held for an invoice the sender has settled (or, without one, for every
 * invoice: after a restart). Numbered, they go with the number; refused by KSeF, they go outside
 * production and for consumers, and are dropped for a company's invoice in production, which may
 * not go out without its number.
 */
export async function releaseHeldEmails(db: Database, settled: { accountId: number; invoiceId: number } | undefined, deliver: Deliver): Promise<void> {
  const invoices = settled ? [settled] : await invoicesHoldingEmails(db);
  const failures: unknown[] = [];
  for (const { accountId, invoiceId } of invoices) {
    const due = await db.transaction(async (tx) => {
      const row = await findRow<Stored>(tx, 'invoices', accountId, invoiceId, { forUpdate: true });
      const held = row && Array.isArray(row.data[HELD]) ? (row.data[HELD] as EmailRequest[]) : [];
      if (!row || held.length === 0 || waitsForRate(row.data) || (await ksefJobInFlight(tx, invoiceId))) return [];
      const { [HELD]: _released, ...data } = row.data;
      await updateRow(tx, 'invoices', accountId, invoiceId, data as Stored);
      const numbered = typeof row.data.gov_id === 'string' && row.data.gov_id !== '';
      if (numbered || row.data.buyer_company === false || (await lastKsefJobOffline(tx, invoiceId))) return held;
      const settings = await readKsefSettings(tx, accountId);
      return settings.environment === 'production' ? [] : held;
    });
    const undelivered: EmailRequest[] = [];
    for (const request of due) {
      await deliver(accountId, invoiceId, request).catch((error: unknown) => {
        failures.push(error);
        undelivered.push(request);
      });
    }
    // What could not go is owed again, to go at the next release (a repeated notification, a restart).
    if (undelivered.length > 0) {
      await db.transaction(async (tx) => {
        const row = await findRow<Stored>(tx, 'invoices', accountId, invoiceId, { forUpdate: true });
        if (row) await oweEmail(tx, accountId, row, ...undelivered);
      });
    }
  }
  if (failures.length > 0) throw new AggregateError(failures, `${failures.length} held e-mail(s) could not be sent`);
}
