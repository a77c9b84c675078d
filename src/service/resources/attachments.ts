import { createHash, randomBytes } from 'node:crypto';
import type { Hono, MiddlewareHandler } from 'hono';
import {
  type AttachmentFile,
  type AttachmentRow,
  attachmentCount,
  attachmentFilesOf,
  attachmentsOf,
  deleteUpload,
  fillUpload,
  insertAttachment,
  insertUpload,
  latestUpload,
  uploadKeyKnown,
  uploadKeyValid,
} from '../data/attachments.js';
import type { Sql } from '../db.js';
import { ApiError, idParam, invalidField, replayedBody, respond, type ServiceContext, type ServiceEnv } from '../http.js';
import { requireRow, timestampText, updateRow } from '../store.js';
import type { InvoiceData } from '../invoicing/invoices.js';
import { contentDisposition } from '../documents/pdf.js';
import { zipArchive } from './zip.js';

/**
 * Invoice attachments, stored in the database (in the data dir on PGlite, on the server with
 * PostgreSQL), so every service process sees them and a backup holds them. The hosted service's
 * three steps work as its clients expect: credentials, an S3-style form upload to the answered
 * `url`, then `add_attachment`. `add_attachment` also takes the file itself in one multipart step.
 */
export const MAX_ATTACHMENT_BYTES = 10 * 1024 * 1024;
const MAX_ATTACHMENTS_PER_INVOICE = 50;
const UPLOAD_TTL_SECONDS = 3600;

/** The type a file really is, by its first bytes; undefined for anything not accepted. */
export function sniffType(bytes: Uint8Array, fileName: string): string | undefined {
  const head = Buffer.from(bytes.subarray(0, 16));
  const ext = fileName.toLowerCase().split('.').pop() ?? '';
  if (head.subarray(0, 5).toString('latin1') === '%PDF-') return 'application/pdf';
  if (head.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'image/png';
  if (head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return 'image/jpeg';
  if (/^GIF8[79]a/.test(head.subarray(0, 6).toString('latin1'))) return 'image/gif';
  if (head.subarray(0, 4).toString('latin1') === 'RIFF' && head.subarray(8, 12).toString('latin1') === 'WEBP') return 'image/webp';
  if (head.subarray(0, 4).equals(Buffer.from([0x50, 0x4b, 0x03, 0x04]))) {
    const office: Record<string, string> = {
      docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
      odt: 'application/vnd.oasis.opendocument.text',
      ods: 'application/vnd.oasis.opendocument.spreadsheet',
    };
    return office[ext] ?? 'application/zip';
  }
  // Text (CSV, TXT, XML, JSON) must be valid UTF-8 without control characters.
  if (['txt', 'csv', 'xml', 'json'].includes(ext)) {
    const text = Buffer.from(bytes).toString('utf8');
    // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
    if (!text.includes('\uFFFD') && !/[\u0000-\u0008\u000e-\u001f]/.test(text)) {
      return ext === 'csv' ? 'text/csv' : ext === 'xml' ? 'application/xml' : ext === 'json' ? 'application/json' : 'text/plain';
    }
  }
  return undefined;
}

/** A file name safe to store and to put in a ZIP: no path, no control characters. */
function cleanFileName(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is removed
  const clean = base.replace(/[\u0000-\u001f\u007f"]/g, '').trim().slice(0, 200);
  return clean && clean !== '.' && clean !== '..' ? clean : 'attachment';
}

async function checkedFile(file: unknown, fileName?: string): Promise<AttachmentFile> {
  if (!(file instanceof Blob)) throw invalidField('file', "can't be blank");
  if (file.size > MAX_ATTACHMENT_BYTES) throw new ApiError(413, `The file is larger than ${MAX_ATTACHMENT_BYTES / 1024 / 1024} MiB`);
  if (file.size === 0) throw invalidField('file', 'is empty');
  const name = cleanFileName(fileName || (file as File).name || 'attachment');
  const content = Buffer.from(await file.arrayBuffer());
  const type = sniffType(content, name);
  if (!type) throw invalidField('file', 'must be a PDF, an image (PNG, JPEG, GIF, WebP), an office document, a ZIP or a text file');
  return { name, type, content };
}

async function refreshCount(tx: Sql, accountId: number, invoiceId: number): Promise<number> {
  const count = await attachmentCount(tx, invoiceId);
  const invoice = await requireRow<InvoiceData & { attachments_count?: number }>(tx, 'invoices', accountId, invoiceId, { forUpdate: true });
  if (invoice.data.attachments_count !== count) await updateRow(tx, 'invoices', accountId, invoiceId, { ...invoice.data, attachments_count: count });
  return count;
}

const presentAttachment = (row: AttachmentRow) => ({
  id: row.id,
  invoice_id: row.invoice_id,
  file_name: row.file_name,
  content_type: row.content_type,
  size: row.size,
  created_at: timestampText(row.created_at),
});

async function attach(c: ServiceContext, invoiceId: number, file: AttachmentFile) {
  const account = c.get('account');
  return c.get('db').transaction(async (tx) => {
    await requireRow(tx, 'invoices', account.id, invoiceId, { forUpdate: true });
    if ((await attachmentCount(tx, invoiceId)) >= MAX_ATTACHMENTS_PER_INVOICE) throw invalidField('file', `the invoice already has ${MAX_ATTACHMENTS_PER_INVOICE} attachments`);
    const row = await insertAttachment(tx, account.id, invoiceId, file);
    await refreshCount(tx, account.id, invoiceId);
    return row;
  });
}

/** How much of an upload form may come before its `key` field. */
const UPLOAD_HEAD_BYTES = 64 * 1024;

const unknownUploadKey = () => new ApiError(403, 'The upload key is unknown or has expired', undefined, { connection: 'close' });

/**
 * Reads an upload form (`POST /attachments/uploads`) only as far as its `key` field, and refuses an
 * unknown or expired key before a byte of the file is read: a stranger's 10 MiB costs the service
 * at most the form's first 64 KiB. As in S3's form uploads, the key comes before the file.
 */
export const uploadKeyFirst: MiddlewareHandler<ServiceEnv> = async (c, next) => {
  const body = c.req.raw.body;
  const boundary = /^multipart\/form-data\b.*;\s*boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(c.req.header('content-type') ?? '');
  if (!body) return next();
  if (!boundary) throw new ApiError(415, 'Send the upload as multipart/form-data');
  const delimiter = `\r\n--${boundary[1] ?? boundary[2]}`;
  const reader = body.getReader();
  const head: Uint8Array[] = [];
  let text = '';
  let done = false;
  let key: string | undefined;
  while (key === undefined && !done) {
    const chunk = await reader.read();
    done = chunk.done;
    if (chunk.value) {
      head.push(chunk.value);
      text += Buffer.from(chunk.value).toString('latin1');
    }
    const part = /content-disposition:\s*form-data;\s*name="key"[^\r\n]*\r\n(?:[^\r\n]+\r\n)*\r\n/i.exec(text);
    const end = part ? text.indexOf(delimiter, part.index + part[0].length) : -1;
    if (part && end >= 0) key = Buffer.from(text.slice(part.index + part[0].length, end), 'latin1').toString('utf8');
    else if (/content-disposition:\s*form-data;\s*name="file"/i.test(text) || text.length > UPLOAD_HEAD_BYTES) break;
  }
  const known = key !== undefined && (await uploadKeyKnown(c.get('db'), key));
  if (!known && !done) {
    await reader.cancel().catch(() => undefined);
    throw unknownUploadKey();
  }
  // The part already read, then the rest as it comes.
  const rest = replayedBody(head, done, reader);
  c.req.raw = new Request(c.req.raw, { body: rest, duplex: 'half' } as RequestInit);
  await next();
};

/** An invoice's attachments, on the invoices' group: credentials, the direct upload, the list and the zip. */
export function mountInvoiceAttachments(app: Hono<ServiceEnv>): void {
  app.get('/:id/get_new_attachment_credentials', async (c) => {
    const account = c.get('account');
    const invoiceId = idParam(c);
    await requireRow(c.get('db'), 'invoices', account.id, invoiceId);
    const key = `uploads/${randomBytes(24).toString('base64url')}`;
    const expires = new Date(Date.now() + UPLOAD_TTL_SECONDS * 1000);
    await insertUpload(c.get('db'), key, account.id, invoiceId, expires);
    const policy = Buffer.from(
      JSON.stringify({
        expiration: expires.toISOString(),
        conditions: [{ key }, { acl: 'private' }, { success_action_status: '201' }, ['content-length-range', 1, MAX_ATTACHMENT_BYTES]],
      }),
    ).toString('base64');
    return respond(c, {
      url: `${c.get('config').publicUrl}/attachments/uploads`,
      AWSAccessKeyId: 'invoicekit',
      key,
      policy,
      signature: createHash('sha256').update(`${policy}.${key}`).digest('base64'),
      acl: 'private',
      success_action_status: '201',
    }, { root: 'credentials' });
  });

  app.post('/:id/add_attachment', async (c) => {
    const account = c.get('account');
    const invoiceId = idParam(c);
    const body = c.get('body');
    const fileName = c.req.query('file_name') ?? (typeof body.file_name === 'string' ? body.file_name : undefined);
    if (body.file !== undefined) {
      const row = await attach(c, invoiceId, await checkedFile(body.file, fileName));
      return respond(c, presentAttachment(row), { status: 201, root: 'attachment' });
    }
    await requireRow(c.get('db'), 'invoices', account.id, invoiceId);
    const upload = await latestUpload(c.get('db'), account.id, invoiceId, fileName ? cleanFileName(fileName) : null);
    if (!upload) throw invalidField('file_name', 'names no file uploaded for this invoice');
    const row = await attach(c, invoiceId, { name: cleanFileName(fileName ?? upload.file_name), type: upload.content_type, content: Buffer.from(upload.content) });
    await deleteUpload(c.get('db'), upload.key);
    return respond(c, presentAttachment(row), { status: 201, root: 'attachment' });
  });

  app.get('/:id/attachments', async (c) => {
    const account = c.get('account');
    const invoiceId = idParam(c);
    await requireRow(c.get('db'), 'invoices', account.id, invoiceId);
    const rows = await attachmentsOf(c.get('db'), account.id, invoiceId);
    return respond(c, rows.map(presentAttachment), { root: 'attachments' });
  });

  app.get('/:id/attachments_zip', async (c) => {
    const account = c.get('account');
    const invoiceId = idParam(c);
    const invoice = await requireRow<InvoiceData>(c.get('db'), 'invoices', account.id, invoiceId);
    const rows = await attachmentFilesOf(c.get('db'), account.id, invoiceId);
    const used = new Map<string, number>();
    const files = rows.map((row) => {
      const seen = used.get(row.file_name) ?? 0;
      used.set(row.file_name, seen + 1);
      const name = seen === 0 ? row.file_name : row.file_name.replace(/(\.[^.]*)?$/, ` (${seen + 1})$1`);
      return { name, content: new Uint8Array(row.content), modified: new Date(row.created_at) };
    });
    const zip = zipArchive(files);
    const name = `attachments-${invoice.data.number.replace(/[^A-Za-z0-9._-]+/g, '-')}.zip`;
    return c.body(new Uint8Array(zip), 200, {
      'content-type': 'application/zip',
      'content-disposition': contentDisposition('attachment', name),
      'content-length': String(zip.length),
      'cache-control': 'private, no-store',
    });
  });
}

/** The uploads group (`/attachments/uploads`): the form upload of a key handed out by `get_new_attachment_credentials`. */
export function mountAttachmentUploads(app: Hono<ServiceEnv>): void {
  // The form upload of step 2; the unguessable key from step 1 is the permission.
  app.post('/uploads', async (c) => {
    const body = c.get('body');
    const key = typeof body.key === 'string' ? body.key : '';
    if (!(await uploadKeyValid(c.get('db'), key))) throw unknownUploadKey();
    const file = await checkedFile(body.file);
    await fillUpload(c.get('db'), key, file);
    const location = `${c.get('config').publicUrl}/attachments/uploads`;
    return c.body(
      `<?xml version="1.0" encoding="UTF-8"?>\n<PostResponse><Location>${location}</Location><Key>${key}</Key></PostResponse>`,
      201,
      { 'content-type': 'application/xml; charset=utf-8' },
    );
  });
}
