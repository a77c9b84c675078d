import type { Sql } from '../sql.js';

/**
 * The e-mail log (`mail_log`, migration 102): every message the service sent or tried to send for
 * an invoice, over SMTP or into the outbox, with the result and the mail server's words when it
 * failed. No body and no attachment: what went, to whom, and how it went.
 */

export type MailStatus = 'sent' | 'failed';

export interface MailLogEntry {
  accountId: number;
  invoiceId: number;
  to: string[];
  cc: string[];
  subject: string;
  transport: 'smtp' | 'outbox';
  status: MailStatus;
  error: string | null;
}

export interface MailLogRow {
  id: number;
  sent_at: Date;
  recipients: { to: string[]; cc: string[] };
  subject: string;
  transport: 'smtp' | 'outbox';
  status: MailStatus;
  error: string | null;
}

/** An invoice that has gone away meanwhile logs nothing: the insert selects the invoice of that account. */
export async function logMail(sql: Sql, entry: MailLogEntry): Promise<void> {
  await sql.query(
    `insert into mail_log (account_id, invoice_id, recipients, subject, transport, status, error)
     select $1, i.id, $3, $4, $5, $6, $7 from invoices i where i.id = $2 and i.account_id = $1`,
    [entry.accountId, entry.invoiceId, JSON.stringify({ to: entry.to, cc: entry.cc }), entry.subject, entry.transport, entry.status, entry.error],
  );
}

/** The invoice's e-mails, the newest first. */
export async function mailLogOf(sql: Sql, accountId: number, invoiceId: number): Promise<MailLogRow[]> {
  return sql.query<MailLogRow>(
    `select id, sent_at, recipients, subject, transport, status, error from mail_log
      where account_id = $1 and invoice_id = $2 order by id desc`,
    [accountId, invoiceId],
  );
}

export interface FailingMailRow {
  invoice_id: number;
  number: string | null;
  error: string | null;
  since: Date;
}

/**
 * The account's invoices whose last two e-mails both failed, with the last failure's words and the
 * time of the first of the two; at most `limit`, the longest failing first.
 */
export async function failingMailOf(sql: Sql, accountId: number, limit: number): Promise<FailingMailRow[]> {
  return sql.query<FailingMailRow>(
    `select l.invoice_id, i.data->>'number' as number, (array_agg(l.error order by l.id desc))[1] as error, min(l.sent_at) as since
       from (select m.*, row_number() over (partition by m.invoice_id order by m.id desc) as n
               from mail_log m where m.account_id = $1) as l
       join invoices i on i.id = l.invoice_id
      where l.n <= 2
      group by l.invoice_id, i.data->>'number'
     having count(*) = 2 and bool_and(l.status = 'failed')
      order by since, l.invoice_id
      limit $2`,
    [accountId, limit],
  );
}
