import { html } from '../../public/html.js';
import type { StoredInvoice } from './state.js';

const messages = {
  pl: {
    title: 'Weryfikacja faktury — lokalny KSeF (testowy)',
    test: 'Środowisko testowe: dokumenty nie mają mocy prawnej.',
    found: 'Faktura znajduje się w KSeF.',
    missing: 'Nie znaleziono faktury o tych danych w KSeF.',
    ksefNumber: 'Numer KSeF',
    invoiceNumber: 'Numer faktury',
    seller: 'NIP sprzedawcy',
    issueDate: 'Data wystawienia',
    acquired: 'Data nadania numeru KSeF',
    mode: 'Tryb wysyłki',
  },
  en: {
    title: 'Invoice verification — local KSeF (test)',
    test: 'Test environment: documents have no legal force.',
    found: 'The invoice is in KSeF.',
    missing: 'No invoice with these details is in KSeF.',
    ksefNumber: 'KSeF number',
    invoiceNumber: 'Invoice number',
    seller: "Seller's NIP",
    issueDate: 'Issue date',
    acquired: 'KSeF number assigned',
    mode: 'Sending mode',
  },
} as const;

/** The page KOD I leads to: whether the invoice is in KSeF, and its basic data, as KSeF shows them. */
export function verificationPage(invoice: StoredInvoice | undefined, request: { nip: string; date: string; english: boolean }): string {
  const t = request.english ? messages.en : messages.pl;
  const rows = invoice
    ? [
        [t.ksefNumber, invoice.ksefNumber],
        [t.invoiceNumber, invoice.invoiceNumber],
        [t.seller, invoice.sellerNip],
        [t.issueDate, invoice.issueDate],
        [t.acquired, invoice.acquisitionDate],
        [t.mode, invoice.offlineMode ? 'Offline' : 'Online'],
      ]
    : [
        [t.seller, request.nip],
        [t.issueDate, request.date],
      ];
  return html`<!doctype html>
<html lang="${request.english ? 'en' : 'pl'}">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${t.title}</title></head>
<body>
<main>
<h1>${t.title}</h1>
<p role="note"><strong>${t.test}</strong></p>
<p role="status" data-state="${invoice ? 'found' : 'missing'}">${invoice ? t.found : t.missing}</p>
<dl>${rows.map(([label, value]) => html`<dt>${label}</dt><dd>${value}</dd>`)}</dl>
</main>
</body>
</html>`.text;
}
