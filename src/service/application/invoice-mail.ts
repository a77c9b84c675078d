import type { Database, Sql } from '../db.js';
import { invoiceEmail, invoiceSender } from '../documents/email.js';
import { createMailer, type Mailer } from '../documents/mailer.js';
import { pdfFileName } from '../documents/pdf.js';
import { renderInvoicePdfForRow } from '../documents/invoice-pdf.js';
import type { InvoiceData } from '../invoicing/invoices.js';
import { invoiceLinks } from '../invoicing/presentation.js';
import { einvoiceForMail, recordEInvoiceMail } from '../einvoice/mail.js';
import { type EmailRequest, oweEmail as holdEmail, releaseHeldEmails } from '../ksef/email.js';
import { requireRow, timestampText, updateRow } from '../store.js';

export type { EmailRequest };

/**
 * Sending an invoice to its buyer: the one way every e-mail of an invoice goes, whether the API's
 * `send_by_email`, a paid checkout or a recurring schedule asked for it. An e-mail the issuing step
 * owes is kept on the invoice in the issuing transaction and goes once KSeF has numbered the
 * invoice (wherever it goes to KSeF) and its exchange rate is known: never before, never lost.
 */
export interface InvoiceMail {
  readonly mailer: Mailer;
  /** Renders and sends an invoice's e-mail as it is now, then marks the invoice sent. */
  deliver(accountId: number, invoiceId: number, request: EmailRequest): Promise<void>;
  /** Sends the e-mails owed on one invoice (or, without one, on every invoice) that may go now. */
  release(settled?: { accountId: number; invoiceId: number }): Promise<void>;
}

/** Keeps an e-mail owed on an invoice, in the caller's transaction. */
export const oweEmail = holdEmail;

export function createInvoiceMail(db: Database, options: { smtpUrl?: string | undefined }): InvoiceMail {
  const mailer = createMailer(options.smtpUrl);

  async function deliver(accountId: number, id: number, request: EmailRequest): Promise<void> {
    const row = await requireRow<InvoiceData>(db, 'invoices', accountId, id);
    const invoice = row.data;
    const content = invoiceEmail(invoice, invoiceLinks(request.publicUrl, invoice.token), { pdfAttached: request.pdf, paymentLate: request.paymentLate === true });
    // The client's preferred e-invoice goes where the PDF goes: beside it, or as its Factur-X form.
    const einvoice = request.pdf ? await einvoiceForMail(db, accountId, invoice) : ({ kind: 'none' } as const);
    const pdf = request.pdf ? await renderInvoicePdfForRow(db, accountId, row, request.printOption, einvoice.kind === 'facturx' ? einvoice.cii : null) : null;
    const message = {
      accountId,
      invoiceId: id,
      ...invoiceSender(invoice, mailer, request.publicUrl),
      to: request.to,
      cc: request.cc,
      ...content,
      attachments: [
        ...(pdf ? [{ filename: pdfFileName(invoice), contentType: 'application/pdf', content: pdf }] : []),
        ...(einvoice.kind === 'xml' ? [einvoice.attachment] : []),
      ],
    };
    const markSent = async (tx: Sql) => {
      const current = await requireRow<InvoiceData>(tx, 'invoices', accountId, id, { forUpdate: true });
      const data = { ...current.data, sent_time: timestampText(new Date()) };
      if (data.status !== 'paid' && data.status !== 'partial') data.status = 'sent';
      recordEInvoiceMail(data as InvoiceData & Record<string, unknown>, einvoice);
      await updateRow(tx, 'invoices', accountId, id, data);
    };
    if (mailer.transport === 'smtp') {
      await mailer.send(db, message);
      await db.transaction(markSent);
    } else {
      // The stored message and the invoice's new status commit together.
      await db.transaction(async (tx) => {
        await mailer.send(tx, message);
        await markSent(tx);
      });
    }
  }

  return {
    mailer,
    deliver,
    release: (settled) => releaseHeldEmails(db, settled, deliver),
  };
}
