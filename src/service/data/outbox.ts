import type { Sql } from '../sql.js';

/**
 * The outbox's tables (`outbox_messages`, `outbox_attachments`): the e-mail the service would have
 * sent when no SMTP server is configured, kept with its attachments for the account to read.
 */

/** The recipients of a message, as stored. */
export interface OutboxRecipients {
  to: string[];
  cc: string[];
}

/** A kept message, with how many attachments it has. */
export interface OutboxMessageRow {
  id: number;
  token: string;
  invoice_id: number | null;
  sender: string;
  reply_to: string | null;
  recipients: OutboxRecipients;
  subject: string;
  text_body: string;
  html_body: string | null;
  created_at: Date;
  attachments: number;
}

/** An attachment of a kept message, without its content. */
export interface OutboxAttachmentRow {
  id: number;
  filename: string;
  content_type: string;
  size: number;
}

/** The account's message of that token. */
export async function outboxMessage(sql: Sql, accountId: number, token: string): Promise<OutboxMessageRow | undefined> {
  const rows = await sql.query<OutboxMessageRow>(
    `select m.id, m.token, m.invoice_id, m.sender, m.reply_to, m.recipients, m.subject, m.text_body, m.html_body, m.created_at,
            (select count(*)::integer from outbox_attachments a where a.message_id = m.id) as attachments
       from outbox_messages m where m.token = $1 and m.account_id = $2`,
    [token, accountId],
  );
  return rows[0];
}

/** A page of the account's messages, newest first, without their bodies (`text_body` empty, `html_body` null). */
export function outboxPage(sql: Sql, accountId: number, limit: number, offset: number): Promise<OutboxMessageRow[]> {
  return sql.query<OutboxMessageRow>(
    `select m.id, m.token, m.invoice_id, m.sender, m.reply_to, m.recipients, m.subject, '' as text_body, null as html_body, m.created_at,
              (select count(*)::integer from outbox_attachments a where a.message_id = m.id) as attachments
         from outbox_messages m where m.account_id = $3 order by m.created_at desc, m.id desc limit $1 offset $2`,
    [limit, offset, accountId],
  );
}

/** The attachments of message `messageId`, in order. */
export function outboxAttachments(sql: Sql, messageId: number): Promise<OutboxAttachmentRow[]> {
  return sql.query<OutboxAttachmentRow>(
    `select id, filename, content_type, octet_length(content)::integer as size from outbox_attachments where message_id = $1 order by id`,
    [messageId],
  );
}

/** Attachment `attachmentId` of the account's message of that token, with its content. */
export async function outboxAttachment(
  sql: Sql,
  accountId: number,
  token: string,
  attachmentId: number,
): Promise<{ filename: string; content_type: string; content: Uint8Array } | undefined> {
  const rows = await sql.query<{ filename: string; content_type: string; content: Uint8Array }>(
    `select a.filename, a.content_type, a.content from outbox_attachments a join outbox_messages m on m.id = a.message_id
        where m.token = $1 and a.id = $2 and m.account_id = $3`,
    [token, attachmentId, accountId],
  );
  return rows[0];
}

/** A message to keep: `accountId` null for the service's own mail. */
export interface NewOutboxMessage {
  token: string;
  accountId: number | null;
  invoiceId: number | null;
  sender: string;
  replyTo: string | null;
  recipients: OutboxRecipients;
  subject: string;
  text: string;
  html: string | null;
}

/** Keeps a message (without its attachments); answers its id. */
export async function insertOutboxMessage(sql: Sql, message: NewOutboxMessage): Promise<number> {
  const rows = await sql.query<{ id: number }>(
    `insert into outbox_messages (token, account_id, invoice_id, sender, reply_to, recipients, subject, text_body, html_body)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9) returning id`,
    [
      message.token,
      message.accountId,
      message.invoiceId,
      message.sender,
      message.replyTo,
      JSON.stringify(message.recipients),
      message.subject,
      message.text,
      message.html,
    ],
  );
  return rows[0]!.id;
}

/** Keeps an attachment of message `messageId`. */
export async function insertOutboxAttachment(sql: Sql, messageId: number, attachment: { filename: string; contentType: string; content: Uint8Array }): Promise<void> {
  await sql.query(`insert into outbox_attachments (message_id, filename, content_type, content) values ($1, $2, $3, $4)`, [
    messageId,
    attachment.filename,
    attachment.contentType,
    Buffer.from(attachment.content),
  ]);
}
