import type { InvoiceData } from '../invoicing/invoices.js';
import { documentTitle, formatMoney, labelsFor } from './labels.js';
import { amountDue, isSettled } from './summary.js';
import { escapeHtml } from './html.js';
import { EMAIL_ADDRESS, type Mailer, operatorSender } from './mailer.js';

export interface InvoiceEmailContent {
  subject: string;
  text: string;
  html: string;
}

/** Longest subject a message carries, in characters; longer ones end in an ellipsis. */
export const SUBJECT_MAX = 150;

/**
 * A header value from text an invoice holds: one line (no CR/LF can reach a mail header), no
 * control, format or line-separator characters, runs of spaces made one, and at most `max`
 * characters (a longer one is cut, ending in `…`).
 */
export function headerText(value: string, max: number): string {
  const clean = value
    .replace(/[\p{Cc}\p{Cf}\u2028\u2029\uFFFE\uFFFF]+/gu, ' ')
    .replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '')
    .replace(/\s+/g, ' ')
    .trim();
  const characters = [...clean];
  return characters.length <= max ? clean : `${characters.slice(0, max - 1).join('').trimEnd()}…`;
}

/**
 * Who the message is from: always the operator's sender. The seller, whose name and address come
 * from the invoice, is only the `Reply-To`, with a display name cut to checked, quotable text.
 */
export function invoiceSender(invoice: InvoiceData, mailer: Mailer, publicUrl: string): { from: string; replyTo: string | null } {
  const sellerEmail = invoice.seller_email && invoice.seller_email.length <= 254 && EMAIL_ADDRESS.test(invoice.seller_email) ? invoice.seller_email : null;
  if (!sellerEmail) return { from: operatorSender(mailer, publicUrl), replyTo: null };
  const shown = headerText((invoice.seller_name ?? '').replace(/["\\<>]+/g, ' '), 70);
  return { from: operatorSender(mailer, publicUrl), replyTo: shown ? `"${shown}" <${sellerEmail}>` : sellerEmail };
}

function oneLine(value: string): string {
  return headerText(value, SUBJECT_MAX);
}

/**
 * The message that carries an invoice to its buyer, in the invoice's `lang`: who sends what, the
 * amount due and its date, the link to the invoice's page and, while something is due, to paying it.
 */
export function invoiceEmail(
  invoice: InvoiceData,
  links: { view_url: string; payment_url: string },
  options: { pdfAttached: boolean; paymentLate?: boolean },
): InvoiceEmailContent {
  const labels = labelsFor(invoice.lang);
  const title = documentTitle(labels, invoice.kind);
  const seller = oneLine(invoice.seller_name ?? '') || '—';
  const settled = isSettled(invoice);
  const due = labels.emailDue(formatMoney(amountDue(invoice), invoice.currency, labels), invoice.payment_to);
  const status = settled ? labels.nothingDue : due;
  const contact = [invoice.seller_email, invoice.seller_phone].filter((v): v is string => Boolean(v));

  const text = [
    labels.emailGreeting,
    '',
    labels.emailIntro(title, invoice.number, seller),
    status,
    ...(options.paymentLate ? ['', labels.emailPaymentLate] : []),
    '',
    `${labels.emailView}: ${links.view_url}`,
    ...(settled ? [] : [`${labels.emailPay}: ${links.payment_url}`]),
    ...(options.pdfAttached ? ['', labels.emailAttached] : []),
    '',
    '-- ',
    seller,
    ...contact,
  ].join('\n');

  const button = (href: string, label: string, primary: boolean) =>
    `<a href="${escapeHtml(href)}" style="display:inline-block;margin:0 8px 8px 0;padding:10px 18px;border-radius:6px;font-weight:600;text-decoration:none;${
      primary ? 'background:#1d4ed8;color:#ffffff' : 'background:#eef2f7;color:#1f2933'
    }">${escapeHtml(label)}</a>`;
  const html = `<!doctype html>
<html lang="${escapeHtml(labels.locale.slice(0, 2))}">
<head><meta charset="utf-8"><title>${escapeHtml(labels.emailSubject(title, invoice.number, seller))}</title></head>
<body style="margin:0;padding:24px;background:#f4f6f9;font-family:Helvetica,Arial,sans-serif;color:#1f2933">
<div style="max-width:560px;margin:0 auto;background:#ffffff;border:1px solid #d5dae1;border-radius:8px;padding:28px">
<p style="margin:0 0 6px;font-size:12px;letter-spacing:.06em;text-transform:uppercase;color:#6b7683">${escapeHtml(seller)}</p>
<h1 style="margin:0 0 18px;font-size:20px">${escapeHtml(title)} ${escapeHtml(labels.number)} ${escapeHtml(invoice.number)}</h1>
<p style="margin:0 0 12px">${escapeHtml(labels.emailGreeting)}</p>
<p style="margin:0 0 12px">${escapeHtml(labels.emailIntro(title, invoice.number, seller))}</p>
<p style="margin:0 0 20px;font-weight:600">${escapeHtml(status)}</p>
${options.paymentLate ? `<p style="margin:0 0 20px">${escapeHtml(labels.emailPaymentLate)}</p>` : ''}
<p style="margin:0 0 12px">${button(links.view_url, labels.emailView, settled)}${settled ? '' : button(links.payment_url, labels.emailPay, true)}</p>
${options.pdfAttached ? `<p style="margin:0 0 12px;color:#6b7683;font-size:13px">${escapeHtml(labels.emailAttached)}</p>` : ''}
<hr style="border:none;border-top:1px solid #d5dae1;margin:20px 0 12px">
<p style="margin:0;color:#6b7683;font-size:13px">${[seller, ...contact].map(escapeHtml).join('<br>')}</p>
</div>
</body>
</html>`;

  return { subject: oneLine(labels.emailSubject(title, invoice.number, seller)), text, html };
}
