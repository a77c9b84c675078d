import { defaultDepartment, firstUserEmail } from '../accounts.js';
import type { Database } from '../db.js';
import type { InvoiceData } from '../invoicing/invoices.js';
import { findRow, updateRow } from '../store.js';
import { claimSellerAlert } from '../data/seller-alerts.js';
import { EMAIL_ADDRESS, operatorSender } from '../documents/mailer.js';
import type { InvoiceMail } from './invoice-mail.js';

/**
 * Telling the seller of an invoice that needs them: one KSeF refused or would refuse, one that waits
 * for its NBP rate, a sale VIES could not confirm. The invoice carries the state (`attention`, read
 * through the API, and so in its `invoice:update` webhook), and the account's address gets one e-mail
 * per state, recorded apart from the invoice. The buyer only ever sees that the seller was told.
 */

export const ATTENTIONS = ['awaiting_exchange_rate', 'ksef_invalid', 'ksef_rejected', 'vies_unavailable'] as const;
export type Attention = (typeof ATTENTIONS)[number];

type Stored = InvoiceData & Record<string, unknown>;

/** Marks an invoice as needing its seller; the most pressing state stays when there are two. */
export function markAttention(data: Stored, attention: Attention): void {
  const current = data.attention as Attention | null | undefined;
  if (!current || ATTENTIONS.indexOf(attention) > ATTENTIONS.indexOf(current)) data.attention = attention;
}

/** Clears a state once it is resolved (the rate came, KSeF accepted), keeping any other. */
export function clearAttention(data: Stored, attention: Attention): void {
  if (data.attention === attention) data.attention = null;
}

const SUBJECTS: Record<Attention, (number: string) => string> = {
  awaiting_exchange_rate: (n) => `Invoice ${n} waits for its NBP exchange rate`,
  ksef_invalid: (n) => `Invoice ${n} cannot go to KSeF as it is`,
  ksef_rejected: (n) => `KSeF refused invoice ${n}`,
  vies_unavailable: (n) => `VIES could not confirm the buyer's VAT number on invoice ${n}`,
};

const EXPLANATIONS: Record<Attention, string> = {
  awaiting_exchange_rate:
    'NBP could not be asked for the exchange rate of the day before the tax point. The invoice is issued and waits for the rate: it goes to KSeF, and to the buyer, as soon as NBP answers. Nothing needs doing unless it keeps waiting.',
  ksef_invalid: 'The invoice is issued but KSeF would refuse it. Its problems are listed in gov_error_messages: correct the invoice, then send it to KSeF again.',
  ksef_rejected: 'KSeF refused the invoice. Its reasons are in gov_error_messages: issue a correction or fix the invoice and send it again.',
  vies_unavailable:
    "VIES could not be asked whether the buyer's EU VAT number is valid, so the sale was charged Polish VAT. If the number is valid, you may issue a correction under the reverse charge or as an intra-community supply.",
};

/** Marks an invoice KSeF refused (`send_error`, or `server_error` after its last try); true when it did. */
export async function markKsefRefusal(db: Database, accountId: number, invoiceId: number): Promise<boolean> {
  // A plain read first: most settled invoices were accepted and need nothing, and a transaction
  // counts as a write on PGlite (it would retire every kept answer).
  const seen = await findRow<Stored>(db, 'invoices', accountId, invoiceId);
  const seenStatus = typeof seen?.data.gov_status === 'string' ? seen.data.gov_status : '';
  const accepted = /(^|_)ok$/.test(seenStatus);
  if (!seen || (accepted && seen.data.attention !== 'ksef_rejected' && seen.data.attention !== 'ksef_invalid')) return false;
  if (!accepted && !/(^|_)(send_error|server_error)$/.test(seenStatus)) return false;
  return db.transaction(async (tx) => {
    const row = await findRow<Stored>(tx, 'invoices', accountId, invoiceId, { forUpdate: true });
    const status = typeof row?.data.gov_status === 'string' ? row.data.gov_status : '';
    if (!row) return false;
    // Accepted at last (sent again after a fix): what KSeF said before no longer needs the seller.
    if (/(^|_)ok$/.test(status) && (row.data.attention === 'ksef_rejected' || row.data.attention === 'ksef_invalid')) {
      await updateRow(tx, 'invoices', accountId, invoiceId, { ...row.data, attention: null });
      return false;
    }
    if (!/(^|_)(send_error|server_error)$/.test(status) || row.data.attention === 'ksef_rejected') return false;
    const data = { ...row.data };
    markAttention(data, 'ksef_rejected');
    await updateRow(tx, 'invoices', accountId, invoiceId, data);
    return true;
  });
}

export interface SellerAlerts {
  /** E-mails the account about an invoice's state, once per state. */
  tell(accountId: number, invoiceId: number): Promise<void>;
}

export function createSellerAlerts(db: Database, mail: InvoiceMail, publicUrl: () => string): SellerAlerts {
  async function addressOf(accountId: number): Promise<string | null> {
    const candidates = [await firstUserEmail(db, accountId), (await defaultDepartment(db, accountId))?.data.email];
    return candidates.find((address): address is string => typeof address === 'string' && EMAIL_ADDRESS.test(address.trim()))?.trim() ?? null;
  }

  return {
    async tell(accountId, invoiceId) {
      const row = await findRow<Stored>(db, 'invoices', accountId, invoiceId);
      const attention = row?.data.attention as Attention | null | undefined;
      if (!row || !attention) return;
      const to = await addressOf(accountId);
      const number = row.data.number || String(row.id);
      const messages = Array.isArray(row.data.gov_error_messages) ? (row.data.gov_error_messages as string[]) : [];
      const text = [
        EXPLANATIONS[attention],
        '',
        ...messages.map((message) => `- ${message}`),
        ...(messages.length ? [''] : []),
        `${publicUrl()}/invoices/${row.id}.json`,
      ].join('\n');
      const message = {
        accountId,
        invoiceId,
        from: operatorSender(mail.mailer, publicUrl()),
        replyTo: null,
        to: to ? [to] : [],
        cc: [],
        subject: SUBJECTS[attention](number),
        text,
        html: null,
        attachments: [],
      };
      // Once per invoice and state: claimed with the message (the outbox's copy commits with the
      // claim; real mail goes once claimed, so no transaction waits on a mail server).
      if (mail.mailer.transport === 'smtp') {
        if (to && (await claimSellerAlert(db, accountId, invoiceId, attention))) await mail.mailer.send(db, message);
        return;
      }
      await db.transaction(async (tx) => {
        if ((await claimSellerAlert(tx, accountId, invoiceId, attention)) && to) await mail.mailer.send(tx, message);
      });
    },
  };
}
