import * as z from 'zod';
import { booleanInput, idInput, optionalDate, optionalText } from './common.js';
import { INVOICE_STATUSES } from './invoice-kinds.js';

/** Query of `POST /invoices/<id>/send_by_email`. */
export const sendByEmailInput = z.object({
  email_to: optionalText(1000),
  email_cc: optionalText(1000),
  email_pdf: booleanInput.optional(),
  print_option: z.enum(['original', 'copy']).optional(),
});
export type SendByEmailInput = z.input<typeof sendByEmailInput>;

/** Answer of `POST /invoices/<id>/send_by_email`. */
/** `status: "error"` when KSeF holds the invoice back: in production, a company's invoice without its KSeF number. */
export const sendByEmailResult = z.looseObject({ status: z.enum(['ok', 'error']), message: z.string() });
export type SendByEmailResult = z.infer<typeof sendByEmailResult>;

/** `change_status`: the status (from the query, the body or the `invoice` wrapper) and, for `paid`, the date. */
export const changeStatusInput = z.object({
  status: z.enum(INVOICE_STATUSES, { message: `must be one of ${INVOICE_STATUSES.join(', ')}` }),
  paid_date: optionalDate,
});

/** `POST /invoices/cancel`: the invoice to cancel and why. */
export const cancelInvoiceInput = z.object({
  cancel_invoice_id: idInput,
  cancel_reason: optionalText(2000),
});
export type CancelInvoiceInput = z.input<typeof cancelInvoiceInput>;
