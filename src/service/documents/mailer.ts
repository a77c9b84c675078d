import nodemailer from 'nodemailer';
import type { Sql } from '../db.js';
import { randomToken } from '../passwords.js';

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

export interface Mailer {
  readonly transport: 'smtp' | 'outbox';
  /** The envelope sender set by `?from=` on the SMTP URL, if any. */
  readonly from: string | null;
  /**
   * Sends `message`. Without SMTP it is written to the outbox through `sql`, so that it commits or
   * rolls back with the caller's transaction.
   */
  send(sql: Sql, message: MailMessage): Promise<MailReceipt>;
}

/**
 * SMTP through nodemailer when `smtpUrl` is given (`smtp://user:pass@host:587?from=invoices@example.com`),
 * otherwise the outbox tables. Messages sent over SMTP are not copied into the outbox: the outbox
 * page is public in the demo, and real mail to real buyers must not be readable there.
 */
export function createMailer(smtpUrl?: string): Mailer {
  if (!smtpUrl) {
    return { transport: 'outbox', from: null, send: (sql, message) => storeInOutbox(sql, message) };
  }
  const url = new URL(smtpUrl);
  const from = url.searchParams.get('from');
  url.searchParams.delete('from');
  // A request waits for the mail server, so a silent one must not hold it for minutes; the URL's
  // own query (`?connectionTimeout=…`) still wins over these.
  const transporter = nodemailer.createTransport({ url: url.toString(), connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 });
  return {
    transport: 'smtp',
    from,
    async send(_sql, message) {
      try {
        await transporter.sendMail({
          from: message.from,
          replyTo: message.replyTo ?? undefined,
          to: message.to,
          cc: message.cc.length > 0 ? message.cc : undefined,
          subject: message.subject,
          text: message.text,
          html: message.html ?? undefined,
          attachments: message.attachments.map((a) => ({ filename: a.filename, contentType: a.contentType, content: Buffer.from(a.content) })),
        });
      } catch (error) {
        throw new MailDeliveryError(deliveryProblem(error), (error as { code?: unknown }).code === 'EENVELOPE');
      }
      return { transport: 'smtp', token: null };
    },
  };
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
  const rows = await sql.query<{ id: number }>(
    `insert into outbox_messages (token, account_id, invoice_id, sender, reply_to, recipients, subject, text_body, html_body)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9) returning id`,
    [
      token,
      message.accountId,
      message.invoiceId,
      message.from,
      message.replyTo,
      JSON.stringify({ to: message.to, cc: message.cc }),
      message.subject,
      message.text,
      message.html,
    ],
  );
  const messageId = rows[0]!.id;
  for (const attachment of message.attachments) {
    await sql.query(`insert into outbox_attachments (message_id, filename, content_type, content) values ($1, $2, $3, $4)`, [
      messageId,
      attachment.filename,
      attachment.contentType,
      Buffer.from(attachment.content),
    ]);
  }
  return { transport: 'outbox', token };
}
