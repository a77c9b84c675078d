import { defaultDepartment, firstUserEmail } from '../accounts.js';
import type { Database, Sql } from '../db.js';
import type { InvoiceData } from '../invoicing/invoices.js';
import { findRow, timestampText, updateRow } from '../store.js';
import { ATTENTION_PER_KIND, attentionOf, type AttentionRow } from '../data/attention.js';
import { failingMailOf } from '../data/mail-log.js';
import { accountsWithFailures, claimRecordAlert, claimSellerAlert, queueAttentionEvent } from '../data/seller-alerts.js';
import { EMAIL_ADDRESS, type MailMessage, operatorSender } from '../documents/mailer.js';
import type { InvoiceMail } from './invoice-mail.js';

/**
 * Telling the seller of an invoice that needs them: one KSeF refused or would refuse, one that waits
 * for its NBP rate, a sale VIES could not confirm. The invoice carries the state (`attention`, read
 * through the API, and so in its `invoice:update` webhook), and the account's address gets one e-mail
 * per state, recorded apart from the invoice. The buyer only ever sees that the seller was told.
 *
 * The overview's other items (a payment that failed, a webhook or an invoice's e-mails that keep
 * failing) carry no state on a record: a sweep finds them as the overview does and tells the seller
 * once per record and kind. Every alert, of either sort, is also an `account:attention` webhook
 * event whose body's `deal` is the overview's item.
 */

export const ATTENTIONS = ['einvoice_unavailable', 'awaiting_exchange_rate', 'ksef_invalid', 'ksef_rejected', 'vies_unavailable'] as const;
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
  einvoice_unavailable: (n) => `Invoice ${n} went without the e-invoice its client prefers`,
  awaiting_exchange_rate: (n) => `Invoice ${n} waits for its NBP exchange rate`,
  ksef_invalid: (n) => `Invoice ${n} cannot go to KSeF as it is`,
  ksef_rejected: (n) => `KSeF refused invoice ${n}`,
  vies_unavailable: (n) => `VIES could not confirm the buyer's VAT number on invoice ${n}`,
};

const EXPLANATIONS: Record<Attention, string> = {
  einvoice_unavailable:
    'The client prefers an e-invoice, but the invoice lacks what that document needs, so the e-mail went with the plain PDF. The missing fields are listed in einvoice_problems: add them to the client, the department or the invoice, then send the invoice again.',
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

/** The overview's kinds a sweep tells the seller of, once per record. */
export const RECORD_ALERT_KINDS = ['payment_failed', 'webhook_failing', 'email_failing'] as const;
type RecordAlertKind = (typeof RECORD_ALERT_KINDS)[number];

/**
 * What needs the account's seller now (`GET /account/attention`'s rows): the overview's query, and
 * the invoices whose last two e-mails failed, from the e-mail log.
 */
export async function attentionRowsOf(sql: Sql, accountId: number, now: Date): Promise<AttentionRow[]> {
  const rows = await attentionOf(sql, accountId, now);
  for (const mail of await failingMailOf(sql, accountId, ATTENTION_PER_KIND)) {
    rows.push({ kind: 'email_failing', id: mail.invoice_id, invoice_id: mail.invoice_id, number: mail.number, message: mail.error, webhook_id: null, since: mail.since });
  }
  return rows;
}

/** An overview row as the API and the `account:attention` event show it. */
export function attentionItem(row: AttentionRow): { kind: string; id: number; invoice_id: number | null; number: string | null; message: string | null; webhook_id: number | null; since: string | null } {
  return {
    kind: row.kind,
    id: Number(row.id),
    invoice_id: row.invoice_id === null ? null : Number(row.invoice_id),
    number: row.number,
    message: row.message,
    webhook_id: row.webhook_id === null ? null : Number(row.webhook_id),
    since: row.since === null ? null : timestampText(row.since),
  };
}

const RECORD_SUBJECTS: Record<RecordAlertKind, (row: AttentionRow) => string> = {
  payment_failed: (row) => (row.number ? `A payment for invoice ${row.number} failed` : `Payment ${row.id} failed`),
  webhook_failing: (row) => `Webhook ${row.id} keeps failing`,
  email_failing: (row) => `The e-mails of invoice ${row.number ?? row.id} keep failing`,
};

const RECORD_EXPLANATIONS: Record<RecordAlertKind, string> = {
  payment_failed: 'The payment provider declined the payment. The buyer may try again; nothing was charged.',
  webhook_failing: 'The webhook’s deliveries keep failing: its receiver did not take them. Check the receiver, then send the failed deliveries again from the back office.',
  email_failing: 'The last two e-mails of the invoice could not be sent. Check the address, or the mail server, and send the invoice again.',
};

/** Where the back office shows the item. */
function backOfficePath(row: AttentionRow): string {
  if (row.kind === 'webhook_failing') return '/admin/settings/webhooks';
  return row.invoice_id === null ? '/admin/invoices' : `/admin/invoices/${row.invoice_id}`;
}

export interface SellerAlerts {
  /** E-mails the account about an invoice's state, once per state, with its `account:attention` event. */
  tell(accountId: number, invoiceId: number): Promise<void>;
  /** Tells each account of its failed payments and failing webhooks and e-mails not told yet. */
  sweep(now: Date): Promise<void>;
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
      const item = { kind: attention, id: row.id, invoice_id: row.id, number: row.data.number || null, message: messages.join('; ') || null, webhook_id: null, since: timestampText(row.updated_at) };
      await once(accountId, (tx) => claimSellerAlert(tx, accountId, invoiceId, attention), row.id, item, to ? message : null);
    },

    async sweep(now) {
      for (const accountId of await accountsWithFailures(db, now)) {
        const rows = (await attentionRowsOf(db, accountId, now)).filter((row) => (RECORD_ALERT_KINDS as readonly string[]).includes(row.kind));
        if (rows.length === 0) continue;
        const to = await addressOf(accountId);
        for (const row of rows) {
          const kind = row.kind as RecordAlertKind;
          const text = [RECORD_EXPLANATIONS[kind], '', ...(row.message ? [row.message, ''] : []), `${publicUrl()}${backOfficePath(row)}`].join('\n');
          // Not an e-mail of the invoice: it stays out of the invoice's e-mail history.
          const message: MailMessage = { accountId, invoiceId: null, from: operatorSender(mail.mailer, publicUrl()), replyTo: null, to: to ? [to] : [], cc: [], subject: RECORD_SUBJECTS[kind](row), text, html: null, attachments: [] };
          // One record's trouble (its mail server, its address) never keeps the others untold.
          await once(accountId, (tx) => claimRecordAlert(tx, accountId, kind, Number(row.id)), Number(row.id), attentionItem(row), to ? message : null).catch(() => undefined);
        }
      }
    },
  };

  /**
   * Claims an alert and, when this call claimed it, queues its webhook event and sends its e-mail.
   * The outbox's copy commits with the claim; real mail goes once claimed, so no transaction waits
   * on a mail server.
   */
  async function once(accountId: number, claim: (tx: Sql) => Promise<boolean>, recordId: number, item: Record<string, unknown>, message: MailMessage | null): Promise<void> {
    const claimed = await db.transaction(async (tx) => {
      if (!(await claim(tx))) return false;
      await queueAttentionEvent(tx, accountId, recordId, item);
      if (message && mail.mailer.transport === 'outbox') await mail.mailer.send(tx, message);
      return true;
    });
    if (claimed && message && mail.mailer.transport === 'smtp') await mail.mailer.send(db, message);
  }
}

/** Runs the sweep now and then (every minute by default), in each process; a claim makes each alert go once. */
export class SellerAlertWorker {
  readonly #alerts: SellerAlerts;
  readonly #clock: () => Date;
  readonly #intervalMs: number;
  #timer: ReturnType<typeof setInterval> | undefined;
  #running: Promise<void> | undefined;

  constructor(alerts: SellerAlerts, options: { clock: () => Date; intervalMs?: number | undefined }) {
    this.#alerts = alerts;
    this.#clock = options.clock;
    this.#intervalMs = options.intervalMs ?? 60_000;
  }

  start(): void {
    this.#timer ??= setInterval(() => void this.runOnce().catch(() => undefined), this.#intervalMs);
    this.#timer.unref?.();
  }

  async stop(): Promise<void> {
    clearInterval(this.#timer);
    this.#timer = undefined;
    await this.#running;
  }

  /** One sweep; a sweep under way is waited for, not run twice. */
  async runOnce(): Promise<void> {
    this.#running ??= this.#alerts.sweep(this.#clock()).finally(() => (this.#running = undefined));
    return this.#running;
  }
}
