import {
  attachment,
  attachmentCredentials,
  attachmentList,
  type Attachment,
  type AttachmentCredentials,
} from '../schemas/attachment.js';
import type { CallOptions, Transport } from '../transport.js';
import { idSegment, type Id } from './shared.js';

export interface AttachmentsApi {
  /** Step 1 of the hosted service's upload: where and with which fields to POST the file. */
  credentials(invoiceId: Id, options?: CallOptions): Promise<AttachmentCredentials>;
  /** Step 3: attaches the file uploaded with those credentials, by its name. */
  addUploaded(invoiceId: Id, fileName: string, options?: CallOptions): Promise<Attachment>;
  /** All three steps in one request: the file goes with the call. Up to 10 MiB; PDF, images, office files, ZIP, text. */
  add(invoiceId: Id, file: Blob, fileName?: string, options?: CallOptions): Promise<Attachment>;
  list(invoiceId: Id, options?: CallOptions): Promise<Attachment[]>;
  /** Every attachment of the invoice in one ZIP archive. */
  zip(invoiceId: Id, options?: CallOptions): Promise<Uint8Array>;
}

/** Invoice attachments. */
export function attachmentsApi(transport: Transport): AttachmentsApi {
  return {
    credentials: async (invoiceId, options) =>
      transport.request({ method: 'GET', path: `invoices/${idSegment(invoiceId)}/get_new_attachment_credentials` }, attachmentCredentials, options),
    addUploaded: async (invoiceId, fileName, options) =>
      transport.request({ method: 'POST', path: `invoices/${idSegment(invoiceId)}/add_attachment`, query: { file_name: fileName } }, attachment, options),
    add: async (invoiceId, file, fileName, options) => {
      const form = new FormData();
      form.append('file', file, fileName ?? ((file as { name?: unknown }).name as string | undefined) ?? 'attachment');
      return transport.request({ method: 'POST', path: `invoices/${idSegment(invoiceId)}/add_attachment`, form }, attachment, options);
    },
    list: async (invoiceId, options) => transport.request({ method: 'GET', path: `invoices/${idSegment(invoiceId)}/attachments` }, attachmentList, options),
    zip: async (invoiceId, options) =>
      transport.bytes({ method: 'GET', path: `invoices/${idSegment(invoiceId)}/attachments_zip`, extension: 'json' }, options),
  };
}
