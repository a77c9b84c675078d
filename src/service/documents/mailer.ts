import nodemailer from 'nodemailer';
import type { RateLimitStore } from '../../server-kit/rate-limit.js';
import type { Sql } from '../db.js';
import { randomToken } from '../passwords.js';
import { logMail, type MailStatus } from '../data/mail-log.js';
import { insertOutboxAttachment, insertOutboxMessage } from '../data/outbox.js';
import { SqlRateLimitStore } from '../data/rate-limits.js';

export interface MailAttachment {
  filename: string;
  contentType: string;
  content: Uint8Array;
}

export interface MailMessage {
  accountId: number | null;
  invoiceId: number | null;
  from: string;
  replyTo: string | null;
  to: string[];
  cc: string[];
  subject: string;
  text: string;
  html: string | null;
  attachments: MailAttachment[];
}

export interface MailReceipt {
  transport: 'smtp' | 'outbox';
  /** The outbox message's token, when the message was kept there. */
  token: string | null;
}

/** Raised when the SMTP server refuses the message or cannot be reached. */
export class MailDeliveryError extends Error {
  /** True when the server refused the recipients: the caller's input, not an outage. */
  readonly rejectedRecipients: boolean;

  constructor(message: string, rejectedRecipients: boolean) {
    super(message);
    this.name = 'MailDeliveryError';
    this.rejectedRecipients = rejectedRecipients;
  }
}

/** Raised when an account has sent to as many recipients as its hour allows. */
export class MailLimitError extends Error {
  /** Seconds until the account may send again. */
  readonly retryAfter: number;

  constructor(limit: number, retryAfter: number) {
    super(`The account has sent e-mail to ${limit} recipients in the last hour, the most it may: try again in ${retryAfter} s`);
    this.name = 'MailLimitError';
    this.retryAfter = retryAfter;
  }
}

/** Raised at start when the mail settings cannot work: the service refuses to start with its message. */
export class MailSettingsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MailSettingsError';
  }
}

export interface Mailer {
  readonly transport: 'smtp' | 'outbox';
  /**
   * The operator's sender (`?from=` on the SMTP URL, or `INVOICEKIT_MAIL_FROM`): every message's
   * `From:` and envelope sender. Required with SMTP; `null` for the outbox.
   */
  readonly from: string | null;
  /**
   * Sends `message` as the operator, counting its recipients against the account's hourly limit.
   * Without SMTP it is written to the outbox through `sql`, so that it commits or rolls back with
   * the caller's transaction.
   */
  send(sql: Sql, message: MailMessage): Promise<MailReceipt>;
}

/** Recipients an account may send to per hour, by default (`?per_hour=` / `INVOICEKIT_MAIL_PER_HOUR`). */
export const DEFAULT_MAIL_PER_HOUR = 500;
const MAIL_WINDOW_MS = 60 * 60 * 1000;

/** One address, as a mail header or envelope can carry it: no spaces, brackets or line breaks. */
export const EMAIL_ADDRESS = /^[\p{L}\p{N}.!#$%&'*+/=?^_`{|}~-]+@[\p{L}\p{N}](?:[\p{L}\p{N}-]*[\p{L}\p{N}])?(?:\.[\p{L}\p{N}](?:[\p{L}\p{N}-]*[\p{L}\p{N}])?)*$/u;

/** Who a message is from: the operator's sender, else (the outbox) `no-reply@` the public host. */
export function operatorSender(mailer: Mailer, publicUrl: string): string {
  return mailer.from ?? `no-reply@${new URL(publicUrl).hostname}`;
}

/** The address inside `Name <address>`, or the value itself. */
export function addressOf(mailbox: string): string {
  return /<([^<>]*)>\s*$/.exec(mailbox)?.[1] ?? mailbox.trim();
}

/**
 * The SMTP URL with the operator's sender and hourly limit folded in from the environment
 * (`INVOICEKIT_MAIL_FROM`, `INVOICEKIT_MAIL_PER_HOUR`); a `from` already on the URL wins.
 */
export function mailTransportUrl(smtpUrl: string | undefined, env: { from?: string | undefined; perHour?: string | undefined }): string | undefined {
  if (!smtpUrl) return undefined;
  let url: URL;
  try {
    url = new URL(smtpUrl);
  } catch {
    throw new MailSettingsError('SMTP_URL is not a URL: write it as smtp://user:password@host:587');
  }
  if (env.from && !url.searchParams.has('from')) url.searchParams.set('from', env.from);
  if (env.perHour && !url.searchParams.has('per_hour')) url.searchParams.set('per_hour', env.perHour);
  return url.toString();
}

function mailSettings(smtpUrl: string): { url: URL; from: string; perHour: number } {
  let url: URL;
  try {
    url = new URL(smtpUrl);
  } catch {
    throw new MailSettingsError('SMTP_URL is not a URL: write it as smtp://user:password@host:587');
  }
  const from = url.searchParams.get('from')?.trim();
  if (!from) {
    throw new MailSettingsError(
      'SMTP is configured without a sender: set INVOICEKIT_MAIL_FROM (or ?from= on SMTP_URL) to the address mail goes out from, such as invoices@your-domain.example. ' +
        'Invoices are sent as that address, with the seller in Reply-To; without it the relay would send mail in any seller’s name.',
    );
  }
  if (/\p{Cc}/u.test(from) || !EMAIL_ADDRESS.test(addressOf(from))) {
    throw new MailSettingsError(`The mail sender "${from.replace(/\p{Cc}/gu, '')}" is not an e-mail address: set INVOICEKIT_MAIL_FROM to one, such as invoices@your-domain.example`);
  }
  const perHourText = url.searchParams.get('per_hour');
  const perHour = perHourText === null ? DEFAULT_MAIL_PER_HOUR : Number(perHourText);
  if (!Number.isInteger(perHour) || perHour < 1) {
    throw new MailSettingsError(`The mail limit per account "${perHourText}" is not a whole number of recipients per hour: set INVOICEKIT_MAIL_PER_HOUR to one, such as ${DEFAULT_MAIL_PER_HOUR}`);
  }
  url.searchParams.delete('from');
  url.searchParams.delete('per_hour');
  return { url, from, perHour };
}

/**
 * Counts the message's recipients against its account's hourly limit, in the database's
 * `rate_limits` table (shared by every process on it); throws `MailLimitError` past the limit.
 */
async function countRecipients(store: RateLimitStore, message: MailMessage, perHour: number): Promise<void> {
  if (message.accountId === null) return;
  const recipients = message.to.length + message.cc.length;
  for (let counted = 0; counted < recipients; counted += 1) {
    const hit = await store.hit(`mail-account:${message.accountId}`, MAIL_WINDOW_MS);
    if (hit.count > perHour) throw new MailLimitError(perHour, Math.max(1, Math.ceil((hit.resetAt - Date.now()) / 1000)));
  }
}

/**
 * SMTP through nodemailer when `smtpUrl` is given (`smtp://user:pass@host:587?from=invoices@example.com`),
 * otherwise the outbox tables. Messages sent over SMTP are not copied into the outbox: the outbox
 * page is public in the demo, and real mail to real buyers must not be readable there. With SMTP
 * and no sender it throws `MailSettingsError`: the service does not start.
 */
export function createMailer(smtpUrl?: string): Mailer {
  if (!smtpUrl) {
    return {
      transport: 'outbox',
      from: null,
      async send(sql, message) {
        await countRecipients(new SqlRateLimitStore(sql), message, DEFAULT_MAIL_PER_HOUR);
        const receipt = await storeInOutbox(sql, message);
        await logInvoiceMail(sql, message, 'outbox', 'sent', null);
        return receipt;
      },
    };
  }
  const { url, from, perHour } = mailSettings(smtpUrl);
  // A request waits for the mail server, so a silent one must not hold it for minutes; the URL's
  // own query (`?connectionTimeout=…`) still wins over these.
  const transporter = nodemailer.createTransport({ url: url.toString(), connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 });
  return {
    transport: 'smtp',
    from,
    async send(sql, message) {
      try {
        await countRecipients(new SqlRateLimitStore(sql), message, perHour);
      } catch (error) {
        if (error instanceof MailLimitError) await logInvoiceMail(sql, message, 'smtp', 'failed', error.message);
        throw error;
      }
      try {
        await transporter.sendMail({
          // The operator's address, whatever the caller put in `from`: the relay never sends in a seller's name.
          from,
          envelope: { from: addressOf(from), to: [...message.to, ...message.cc] },
          replyTo: message.replyTo ?? undefined,
          to: message.to,
          cc: message.cc.length > 0 ? message.cc : undefined,
          subject: message.subject,
          text: message.text,
          html: message.html ?? undefined,
          attachments: message.attachments.map((a) => ({ filename: a.filename, contentType: a.contentType, content: Buffer.from(a.content) })),
        });
      } catch (error) {
        const problem = deliveryProblem(error);
        await logInvoiceMail(sql, message, 'smtp', 'failed', problem);
        throw new MailDeliveryError(problem, (error as { code?: unknown }).code === 'EENVELOPE');
      }
      await logInvoiceMail(sql, message, 'smtp', 'sent', null);
      return { transport: 'smtp', token: null };
    },
  };
}

/** Logs a message about an invoice (its e-mail history); a message of no invoice is not logged. */
async function logInvoiceMail(sql: Sql, message: MailMessage, transport: 'smtp' | 'outbox', status: MailStatus, error: string | null): Promise<void> {
  if (message.accountId === null || message.invoiceId === null) return;
  await logMail(sql, { accountId: message.accountId, invoiceId: message.invoiceId, to: message.to, cc: message.cc, subject: message.subject, transport, status, error });
}

/** What went wrong, in words that name no host, port or credential of the mail server. */
function deliveryProblem(error: unknown): string {
  const { code, response } = error as { code?: unknown; response?: unknown };
  if (typeof response === 'string' && response) return response;
  if (code === 'EAUTH') return 'the mail server refused the login';
  if (code === 'ETIMEDOUT') return 'the mail server did not answer in time';
  return 'the mail server could not be reached';
}

async function storeInOutbox(sql: Sql, message: MailMessage): Promise<MailReceipt> {
  const token = randomToken(18);
  const messageId = await insertOutboxMessage(sql, {
    token,
    accountId: message.accountId,
    invoiceId: message.invoiceId,
    sender: message.from,
    replyTo: message.replyTo,
    recipients: { to: message.to, cc: message.cc },
    subject: message.subject,
    text: message.text,
    html: message.html,
  });
  for (const attachment of message.attachments) await insertOutboxAttachment(sql, messageId, attachment);
  return { transport: 'outbox', token };
}
