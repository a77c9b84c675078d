import * as z from 'zod';

/** What `get_new_attachment_credentials` answers: an S3-style form upload, then `add_attachment`. */
export const attachmentCredentials = z.looseObject({
  url: z.string(),
  AWSAccessKeyId: z.string(),
  key: z.string(),
  policy: z.string(),
  signature: z.string(),
  acl: z.string(),
  success_action_status: z.string(),
});
export type AttachmentCredentials = z.infer<typeof attachmentCredentials>;

export const attachment = z.looseObject({
  id: z.number(),
  invoice_id: z.number(),
  file_name: z.string(),
  content_type: z.string(),
  size: z.number(),
  created_at: z.string(),
});
export type Attachment = z.infer<typeof attachment>;
export const attachmentList = z.array(attachment);
