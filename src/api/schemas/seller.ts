import * as z from 'zod';

/**
 * The operations the seller's back office needs beyond the interface's seed (an extension of this
 * service): the api_token rotated, what needs the seller now, and whether the payment provider and
 * KSeF answer with the stored keys.
 */

/** `POST /account/api_token/rotate`: the new token, shown this once. */
export const apiTokenRotation = z.object({ api_token: z.string() });
export type ApiTokenRotation = z.infer<typeof apiTokenRotation>;

/** What an item of the overview is about, and so where the seller fixes it. */
export const ATTENTION_KINDS = [
  'ksef_rejected',
  'ksef_invalid',
  'awaiting_ksef_number',
  'awaiting_exchange_rate',
  'vies_unavailable',
  'einvoice_unavailable',
  'overdue',
  'payment_failed',
  'payment_pending',
  'webhook_failing',
  'email_failing',
] as const;
export type AttentionKind = (typeof ATTENTION_KINDS)[number];

export const attentionItem = z.object({
  kind: z.enum(ATTENTION_KINDS),
  /** The record's id: the invoice's, the payment's, the webhook's or the e-mail's, by `kind`. */
  id: z.number(),
  /** The invoice it concerns (the record itself for the invoices' kinds); `null` for a webhook. */
  invoice_id: z.number().nullable(),
  /** The invoice's number, when there is one. */
  number: z.string().nullable(),
  /** What went wrong, in the words of whoever said it (KSeF, the provider, the receiver). */
  message: z.string().nullable(),
  /** The webhook, for `webhook_failing`. */
  webhook_id: z.number().nullable(),
  /** Since when it needs the seller (ISO 8601). */
  since: z.string().nullable(),
});
export type AttentionItem = z.infer<typeof attentionItem>;

/** `GET /account/attention`: every item, the oldest first within each kind, kinds in `ATTENTION_KINDS`' order. */
export const attentionOverview = z.object({ items: z.array(attentionItem) });
export type AttentionOverview = z.infer<typeof attentionOverview>;

/** `POST /account/connection_tests/payments` and `…/ksef`: what the provider or KSeF answered the stored keys. */
export const connectionTest = z.object({
  ok: z.boolean(),
  /** `stripe`, `przelewy24`, `test`, or the KSeF environment (`test`, `demo`, `prod`, `local`). */
  target: z.string(),
  /** Whether the target moves no real money (a test key, a sandbox, a KSeF test environment). */
  test_mode: z.boolean(),
  /** What was asked and what came back, in a sentence. */
  message: z.string(),
});
export type ConnectionTest = z.infer<typeof connectionTest>;

/** One e-mail the service sent or tried to send for an invoice (over SMTP, or kept in the outbox). */
export const invoiceEmail = z.object({
  id: z.number(),
  /** When it was sent or tried (ISO 8601). */
  time: z.string(),
  to: z.array(z.string()),
  cc: z.array(z.string()),
  subject: z.string(),
  /** `smtp`: handed to the mail server; `outbox`: kept in the outbox (no mail server configured). */
  transport: z.enum(['smtp', 'outbox']),
  status: z.enum(['sent', 'failed']),
  /** The mail server's words when it failed; it names no host or credential. */
  error: z.string().nullable(),
});
export type InvoiceEmail = z.infer<typeof invoiceEmail>;

/** `GET /invoices/{id}/emails.json`: the invoice's e-mails, the newest first. */
export const invoiceEmailList = z.array(invoiceEmail);
export type InvoiceEmailList = z.infer<typeof invoiceEmailList>;
