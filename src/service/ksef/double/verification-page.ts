import type { X509Certificate } from 'node:crypto';
import { html, page, type Html } from '../../documents/html.js';
import type { StoredInvoice } from './state.js';

/** What the double found of a KOD II link; `reason` says why it does not verify. */
export type CertificateCheck =
  | { readonly valid: true; readonly certificate: X509Certificate }
  | { readonly valid: false; readonly reason: 'unknown' | 'revoked' | 'expired' | 'not_authorized' | 'signature'; readonly certificate?: X509Certificate };

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
    certificateTitle: 'Weryfikacja certyfikatu wystawcy — lokalny KSeF (testowy)',
    certificateValid: 'Certyfikat KSeF wystawcy jest ważny, a podpis linku poprawny.',
    certificateInvalid: 'Nie potwierdzono wystawcy faktury.',
    unknown: 'Certyfikat o tym numerze seryjnym nie jest zarejestrowany w KSeF.',
    revoked: 'Certyfikat został unieważniony.',
    expired: 'Certyfikat nie jest ważny w tej chwili.',
    not_authorized: 'Właściciel certyfikatu nie ma uprawnień do wystawiania faktur w imieniu tego sprzedawcy.',
    signature: 'Podpis linku jest nieprawidłowy.',
    serial: 'Numer seryjny certyfikatu',
    validFrom: 'Ważny od',
    validTo: 'Ważny do',
    inKsef: 'Faktura w KSeF',
    notYet: 'jeszcze nie przesłana',
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
    certificateTitle: "Issuer's certificate verification — local KSeF (test)",
    certificateValid: "The issuer's KSeF certificate is valid and the link's signature holds.",
    certificateInvalid: "The invoice's issuer is not confirmed.",
    unknown: 'No certificate with this serial number is registered in KSeF.',
    revoked: 'The certificate was revoked.',
    expired: 'The certificate is not valid at this time.',
    not_authorized: "The certificate's holder may not issue invoices for this seller.",
    signature: "The link's signature does not hold.",
    serial: "Certificate's serial number",
    validFrom: 'Valid from',
    validTo: 'Valid to',
    inKsef: 'Invoice in KSeF',
    notYet: 'not sent yet',
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
  return pageOf(request.english, t.title, html`<p role="status" data-state="${invoice ? 'found' : 'missing'}">${invoice ? t.found : t.missing}</p>`, rows);
}

/** A verification page in the service's own look: its title, the test environment's note, the outcome, then the data as a list. */
function pageOf(english: boolean, title: string, outcome: Html, rows: readonly (readonly (string | null)[])[]): string {
  const t = english ? messages.en : messages.pl;
  return page({
    title,
    lang: english ? 'en' : 'pl',
    body: html`<div class="sheet">
<h1>${title}</h1>
<p role="note" class="muted"><strong>${t.test}</strong></p>
<div class="notice">${outcome}</div>
<dl class="facts">${rows.map(([label, value]) => html`<div><dt>${label}</dt><dd>${value}</dd></div>`)}</dl>
</div>`,
  });
}

/** The page KOD II leads to: whether the issuer's certificate and the link's signature hold. */
export function certificatePage(
  check: CertificateCheck,
  request: { nip: string; serial: string; invoice: StoredInvoice | undefined; english: boolean },
): string {
  const t = request.english ? messages.en : messages.pl;
  const rows: [string, string][] = [
    [t.seller, request.nip],
    [t.serial, request.serial],
  ];
  if (check.certificate) rows.push([t.validFrom, new Date(check.certificate.validFrom).toISOString()], [t.validTo, new Date(check.certificate.validTo).toISOString()]);
  if (check.valid) rows.push([t.inKsef, request.invoice?.ksefNumber ?? t.notYet]);
  const outcome = check.valid
    ? html`<p role="status" data-state="valid">${t.certificateValid}</p>`
    : html`<p role="status" data-state="invalid" data-reason="${check.reason}">${t.certificateInvalid} ${t[check.reason]}</p>`;
  return pageOf(request.english, t.certificateTitle, outcome, rows);
}
