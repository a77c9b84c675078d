import type { Sql } from '../sql.js';

/**
 * The attachments table (an invoice's files) and `attachment_uploads` (the files of the three-step
 * upload, waiting under their key for `add_attachment`): the only SQL of either.
 */

/** An attachment as its answers show it: everything but the content. */
export interface AttachmentRow {
  id: number;
  invoice_id: number;
  file_name: string;
  content_type: string;
  size: number;
  created_at: Date;
}

/** A file to store: its clean name, the type its bytes are, and the bytes. */
export interface AttachmentFile {
  name: string;
  type: string;
  content: Buffer;
}

/** An upload that has its file, and may be attached. */
export interface FilledUpload {
  key: string;
  file_name: string;
  content_type: string;
  content: Buffer;
}

/** How many attachments an invoice has. */
export async function attachmentCount(sql: Sql, invoiceId: number): Promise<number> {
  const rows = await sql.query<{ n: number }>(`select count(*)::int as n from attachments where invoice_id = $1`, [invoiceId]);
  return rows[0]!.n;
}

export async function insertAttachment(sql: Sql, accountId: number, invoiceId: number, file: AttachmentFile): Promise<AttachmentRow> {
  const rows = await sql.query<AttachmentRow>(
    `insert into attachments (account_id, invoice_id, file_name, content_type, size, content) values ($1, $2, $3, $4, $5, $6)
       returning id, invoice_id, file_name, content_type, size, created_at`,
    [accountId, invoiceId, file.name, file.type, file.content.length, file.content],
  );
  return rows[0]!;
}

/** An invoice's attachments, oldest first, without their content. */
export function attachmentsOf(sql: Sql, accountId: number, invoiceId: number): Promise<AttachmentRow[]> {
  return sql.query<AttachmentRow>(
    `select id, invoice_id, file_name, content_type, size, created_at from attachments where account_id = $1 and invoice_id = $2 order by id`,
    [accountId, invoiceId],
  );
}

/** An invoice's attachments, oldest first, with their content (for the ZIP). */
export function attachmentFilesOf(sql: Sql, accountId: number, invoiceId: number): Promise<{ file_name: string; content: Buffer; created_at: Date }[]> {
  return sql.query<{ file_name: string; content: Buffer; created_at: Date }>(
    `select file_name, content, created_at from attachments where account_id = $1 and invoice_id = $2 order by id`,
    [accountId, invoiceId],
  );
}

/** Whether an upload key was handed out and has not expired. */
export async function uploadKeyValid(sql: Sql, key: string): Promise<boolean> {
  const rows = await sql.query<{ key: string }>(`select key from attachment_uploads where key = $1 and expires_at > now()`, [key]);
  return rows.length > 0;
}

/** The same question as `uploadKeyValid`, asked by the upload form's check before the file is read. */
export async function uploadKeyKnown(sql: Sql, key: string): Promise<boolean> {
  return (await sql.query(`select 1 from attachment_uploads where key = $1 and expires_at > now()`, [key])).length > 0;
}

/** Hands out an upload key for a file of an invoice, valid until `expires`. */
export async function insertUpload(sql: Sql, key: string, accountId: number, invoiceId: number, expires: Date): Promise<void> {
  await sql.query(`insert into attachment_uploads (key, account_id, invoice_id, expires_at) values ($1, $2, $3, $4)`, [
    key,
    accountId,
    invoiceId,
    expires,
  ]);
}

/** Keeps the file uploaded under a key. */
export async function fillUpload(sql: Sql, key: string, file: AttachmentFile): Promise<void> {
  await sql.query(`update attachment_uploads set file_name = $2, content_type = $3, size = $4, content = $5 where key = $1`, [
    key,
    file.name,
    file.type,
    file.content.length,
    file.content,
  ]);
}

/** The newest unexpired upload of an invoice that has its file, named `fileName` when one is given. */
export async function latestUpload(sql: Sql, accountId: number, invoiceId: number, fileName: string | null): Promise<FilledUpload | undefined> {
  const rows = await sql.query<FilledUpload>(
    `select key, file_name, content_type, content from attachment_uploads
        where account_id = $1 and invoice_id = $2 and content is not null and expires_at > now()
          and ($3::text is null or file_name = $3)
        order by created_at desc limit 1`,
    [accountId, invoiceId, fileName],
  );
  return rows[0];
}

export async function deleteUpload(sql: Sql, key: string): Promise<void> {
  await sql.query(`delete from attachment_uploads where key = $1`, [key]);
}
