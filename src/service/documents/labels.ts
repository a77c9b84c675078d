import { decimal, minorUnits, toFixed } from '../../kernel/money.js';
import { unitIn } from '../../kernel/units.js';
import { invoiceTaxNotes } from '../../kernel/tax/index.js';
import type { InvoiceData } from '../invoicing/invoices.js';

/** The words of an invoice document, its e-mail and its public pages, in the invoice's `lang`. */
export interface DocumentLabels {
  locale: string;
  titles: Record<string, string>;
  number: string;
  original: string;
  copy: string;
  seller: string;
  buyer: string;
  taxNo: string;
  issueDate: string;
  sellDate: string;
  dueDate: string;
  place: string;
  no: string;
  item: string;
  quantity: string;
  unit: string;
  netPrice: string;
  taxRate: string;
  net: string;
  tax: string;
  gross: string;
  vatSummary: string;
  total: string;
  toPay: string;
  paid: string;
  due: string;
  paymentMethod: string;
  paymentMethods: Record<string, string>;
  bankAccount: string;
  bank: string;
  notes: string;
  /** Above the words the law requires for the invoice's VAT case (reverse charge, the basis of 0%, np or an exemption, OSS). */
  taxNotes: string;
  issuedBy: string;
  receivedBy: string;
  page: string;
  of: string;
  downloadPdf: string;
  pay: string;
  payNow: string;
  status: Record<string, string>;
  paidInFull: string;
  amountDue: string;
  emailSubject: (title: string, number: string, seller: string) => string;
  emailGreeting: string;
  emailIntro: (title: string, number: string, seller: string) => string;
  emailView: string;
  emailPay: string;
  emailAttached: string;
  /** Said when the buyer's payment arrived after the checkout page had stopped waiting for it. */
  emailPaymentLate: string;
  emailDue: (amount: string, date: string | null) => string;
  testPayment: string;
  paymentSuccess: string;
  paymentCancel: string;
  backToInvoice: string;
  nothingDue: string;
  /** Under the KSeF QR code (KOD I): the invoice's KSeF number follows. */
  ksefNumber: string;
  /** Beside the QR code of an invoice sent to a KSeF test environment. */
  ksefTestMark: string;
  /** Above KOD I of an offline invoice KSeF has not numbered yet (the code itself is labelled OFFLINE). */
  ksefOfflineCode: string;
  /** Above KOD II, the issuer's certificate (the code itself is labelled CERTYFIKAT). */
  ksefCertificateCode: string;
}

const pl: DocumentLabels = {
  locale: 'pl-PL',
  titles: {
    vat: 'Faktura VAT',
    proforma: 'Faktura Proforma',
    bill: 'Rachunek',
    receipt: 'Paragon',
    advance: 'Faktura zaliczkowa',
    final: 'Faktura końcowa',
    correction: 'Faktura korygująca',
    invoice_other: 'Faktura',
    vat_margin: 'Faktura VAT marża',
    kp: 'KP – dowód wpłaty',
    kw: 'KW – dowód wypłaty',
    estimate: 'Oferta',
    vat_mp: 'Faktura VAT MP',
    vat_rr: 'Faktura VAT RR',
    correction_note: 'Nota korygująca',
    accounting_note: 'Nota księgowa',
    client_order: 'Zamówienie',
    dw: 'Dowód wewnętrzny',
    wnt: 'Faktura WNT',
    wdt: 'Faktura WDT',
    import_service: 'Import usług',
    import_service_eu: 'Import usług z UE',
    import_products: 'Import towarów',
    export_products: 'Eksport towarów',
  },
  number: 'nr',
  original: 'ORYGINAŁ',
  copy: 'KOPIA',
  seller: 'Sprzedawca',
  buyer: 'Nabywca',
  taxNo: 'NIP',
  issueDate: 'Data wystawienia',
  sellDate: 'Data sprzedaży',
  dueDate: 'Termin płatności',
  place: 'Miejsce wystawienia',
  no: 'Lp.',
  item: 'Nazwa towaru lub usługi',
  quantity: 'Ilość',
  unit: 'J.m.',
  netPrice: 'Cena netto',
  taxRate: 'VAT',
  net: 'Netto',
  tax: 'Kwota VAT',
  gross: 'Brutto',
  vatSummary: 'Podsumowanie VAT',
  total: 'Razem',
  toPay: 'Do zapłaty',
  paid: 'Zapłacono',
  due: 'Pozostało do zapłaty',
  paymentMethod: 'Sposób płatności',
  paymentMethods: { transfer: 'przelew', cash: 'gotówka', card: 'karta płatnicza', online: 'płatność online', paypal: 'PayPal', off: 'brak' },
  bankAccount: 'Numer konta',
  bank: 'Bank',
  notes: 'Uwagi',
  taxNotes: 'Adnotacje VAT',
  issuedBy: 'Osoba upoważniona do wystawienia',
  receivedBy: 'Osoba upoważniona do odbioru',
  page: 'Strona',
  of: 'z',
  downloadPdf: 'Pobierz PDF',
  pay: 'Zapłać',
  payNow: 'Zapłać teraz',
  status: { issued: 'Wystawiona', sent: 'Wysłana', paid: 'Opłacona', partial: 'Częściowo opłacona', rejected: 'Odrzucona' },
  paidInFull: 'Opłacona w całości',
  amountDue: 'Kwota do zapłaty',
  emailSubject: (title, number, seller) => `${title} ${number} od ${seller}`,
  emailGreeting: 'Dzień dobry,',
  emailIntro: (title, number, seller) => `${seller} przesyła dokument ${title} nr ${number}.`,
  emailView: 'Zobacz fakturę',
  emailPay: 'Zapłać online',
  emailAttached: 'Dokument w formacie PDF jest w załączniku.',
  emailPaymentLate: 'Twoja płatność BLIK dotarła po tym, jak strona płatności przestała na nią czekać. Płatność została przyjęta, a oto faktura.',
  emailDue: (amount, date) => (date ? `Kwota do zapłaty: ${amount}, termin płatności: ${date}.` : `Kwota do zapłaty: ${amount}.`),
  testPayment: 'Płatność testowa: żadne pieniądze nie zostaną pobrane.',
  paymentSuccess: 'Dziękujemy, płatność została przyjęta.',
  paymentCancel: 'Anuluj i wróć',
  backToInvoice: 'Wróć do faktury',
  nothingDue: 'Ta faktura jest już opłacona.',
  ksefNumber: 'Numer KSeF',
  ksefTestMark: 'TEST: faktura ze środowiska testowego KSeF, bez mocy prawnej',
  ksefOfflineCode: 'Faktura wystawiona offline, przed nadaniem numeru KSeF',
  ksefCertificateCode: 'Weryfikacja wystawcy (certyfikat KSeF)',
};

const en: DocumentLabels = {
  locale: 'en-GB',
  titles: {
    vat: 'VAT invoice',
    proforma: 'Proforma invoice',
    bill: 'Bill',
    receipt: 'Receipt',
    advance: 'Advance invoice',
    final: 'Final invoice',
    correction: 'Correction invoice',
    invoice_other: 'Invoice',
    vat_margin: 'VAT margin invoice',
    kp: 'Cash receipt voucher',
    kw: 'Cash payment voucher',
    estimate: 'Estimate',
    vat_mp: 'VAT invoice (cash accounting)',
    vat_rr: 'VAT RR invoice',
    correction_note: 'Correction note',
    accounting_note: 'Accounting note',
    client_order: 'Order',
    dw: 'Internal document',
    wnt: 'Intra-EU acquisition invoice',
    wdt: 'Intra-EU supply invoice',
    import_service: 'Import of services',
    import_service_eu: 'Import of services from the EU',
    import_products: 'Import of goods',
    export_products: 'Export of goods',
  },
  number: 'No.',
  original: 'ORIGINAL',
  copy: 'COPY',
  seller: 'Seller',
  buyer: 'Buyer',
  taxNo: 'Tax ID',
  issueDate: 'Issue date',
  sellDate: 'Date of sale',
  dueDate: 'Due date',
  place: 'Place of issue',
  no: 'No.',
  item: 'Description',
  quantity: 'Qty',
  unit: 'Unit',
  netPrice: 'Net price',
  taxRate: 'VAT',
  net: 'Net',
  tax: 'VAT amount',
  gross: 'Gross',
  vatSummary: 'VAT summary',
  total: 'Total',
  toPay: 'Total due',
  paid: 'Paid',
  due: 'Balance due',
  paymentMethod: 'Payment method',
  paymentMethods: { transfer: 'bank transfer', cash: 'cash', card: 'card', online: 'online payment', paypal: 'PayPal', off: 'none' },
  bankAccount: 'Bank account',
  bank: 'Bank',
  notes: 'Notes',
  taxNotes: 'VAT notes',
  issuedBy: 'Issued by',
  receivedBy: 'Received by',
  page: 'Page',
  of: 'of',
  downloadPdf: 'Download PDF',
  pay: 'Pay',
  payNow: 'Pay now',
  status: { issued: 'Issued', sent: 'Sent', paid: 'Paid', partial: 'Partly paid', rejected: 'Rejected' },
  paidInFull: 'Paid in full',
  amountDue: 'Amount due',
  emailSubject: (title, number, seller) => `${title} ${number} from ${seller}`,
  emailGreeting: 'Hello,',
  emailIntro: (title, number, seller) => `${seller} has sent you ${title} No. ${number}.`,
  emailView: 'View the invoice',
  emailPay: 'Pay online',
  emailAttached: 'The document is attached as a PDF.',
  emailPaymentLate: 'Your BLIK payment arrived after the payment page had stopped waiting for it. It has been received, and here is your invoice.',
  emailDue: (amount, date) => (date ? `Amount due: ${amount}, due by ${date}.` : `Amount due: ${amount}.`),
  testPayment: 'Test payment: no money will be taken.',
  paymentSuccess: 'Thank you, your payment has been received.',
  paymentCancel: 'Cancel and go back',
  backToInvoice: 'Back to the invoice',
  nothingDue: 'This invoice has already been paid.',
  ksefNumber: 'KSeF number',
  ksefTestMark: 'TEST: invoice from a KSeF test environment, not legally valid',
  ksefOfflineCode: 'Issued offline, before KSeF assigned its number',
  ksefCertificateCode: 'Issuer verification (KSeF certificate)',
};

const de: DocumentLabels = {
  ...en,
  locale: 'de-DE',
  titles: {
    ...en.titles,
    vat: 'Rechnung',
    proforma: 'Proformarechnung',
    bill: 'Rechnung',
    receipt: 'Quittung',
    advance: 'Abschlagsrechnung',
    final: 'Schlussrechnung',
    correction: 'Rechnungskorrektur',
    invoice_other: 'Rechnung',
    estimate: 'Angebot',
    client_order: 'Bestellung',
  },
  number: 'Nr.',
  original: 'ORIGINAL',
  copy: 'KOPIE',
  seller: 'Verkäufer',
  buyer: 'Käufer',
  taxNo: 'USt-IdNr.',
  issueDate: 'Rechnungsdatum',
  sellDate: 'Leistungsdatum',
  dueDate: 'Fällig am',
  place: 'Ausstellungsort',
  no: 'Pos.',
  item: 'Bezeichnung',
  quantity: 'Menge',
  unit: 'Einheit',
  netPrice: 'Einzelpreis netto',
  taxRate: 'USt.',
  net: 'Netto',
  tax: 'USt.-Betrag',
  gross: 'Brutto',
  vatSummary: 'Umsatzsteuer',
  total: 'Summe',
  toPay: 'Zu zahlen',
  paid: 'Bezahlt',
  due: 'Offener Betrag',
  paymentMethod: 'Zahlungsart',
  paymentMethods: { transfer: 'Überweisung', cash: 'bar', card: 'Karte', online: 'Online-Zahlung', paypal: 'PayPal', off: 'keine' },
  bankAccount: 'IBAN',
  bank: 'Bank',
  notes: 'Hinweise',
  taxNotes: 'Hinweise zur Umsatzsteuer',
  page: 'Seite',
  of: 'von',
  downloadPdf: 'PDF herunterladen',
  pay: 'Bezahlen',
  payNow: 'Jetzt bezahlen',
  status: { issued: 'Ausgestellt', sent: 'Versendet', paid: 'Bezahlt', partial: 'Teilweise bezahlt', rejected: 'Abgelehnt' },
  paidInFull: 'Vollständig bezahlt',
  amountDue: 'Offener Betrag',
  emailSubject: (title, number, seller) => `${title} ${number} von ${seller}`,
  emailGreeting: 'Guten Tag,',
  emailIntro: (title, number, seller) => `${seller} sendet Ihnen ${title} Nr. ${number}.`,
  emailView: 'Rechnung ansehen',
  emailPay: 'Online bezahlen',
  emailAttached: 'Das Dokument ist als PDF angehängt.',
  emailPaymentLate: 'Ihre BLIK-Zahlung ist eingegangen, nachdem die Zahlungsseite nicht mehr auf sie gewartet hat. Sie wurde angenommen, und hier ist Ihre Rechnung.',
  emailDue: (amount, date) => (date ? `Offener Betrag: ${amount}, fällig am ${date}.` : `Offener Betrag: ${amount}.`),
  testPayment: 'Testzahlung: Es wird kein Geld abgebucht.',
  paymentSuccess: 'Vielen Dank, Ihre Zahlung ist eingegangen.',
  paymentCancel: 'Abbrechen und zurück',
  backToInvoice: 'Zurück zur Rechnung',
  nothingDue: 'Diese Rechnung ist bereits bezahlt.',
  ksefNumber: 'KSeF-Nummer',
  ksefTestMark: 'TEST: Rechnung aus einer KSeF-Testumgebung, ohne Rechtswirkung',
  ksefOfflineCode: 'Offline ausgestellt, noch ohne KSeF-Nummer',
  ksefCertificateCode: 'Prüfung des Ausstellers (KSeF-Zertifikat)',
};

const LABELS: Record<string, DocumentLabels> = { pl, en, de };

/** Labels for a `lang` such as `pl`, `en`, `en-GB` or `pl/en`; English when the language is not known. */
export function labelsFor(lang: string | null | undefined): DocumentLabels {
  const primary = (lang ?? 'pl').split(/[/_-]/)[0]!.toLowerCase();
  return LABELS[primary] ?? en;
}

export function documentTitle(labels: DocumentLabels, kind: string): string {
  return labels.titles[kind] ?? labels.titles.vat!;
}

const numberFormats = new Map<string, Intl.NumberFormat>();

/** Formatters are made once per locale and options: making one costs far more than using it. */
function numberFormat(locale: string, options: Intl.NumberFormatOptions): Intl.NumberFormat {
  const key = `${locale}|${JSON.stringify(options)}`;
  let format = numberFormats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(locale, options);
    // Currencies come from invoices: a bounded number of formatters, not one per request.
    if (numberFormats.size < 500) numberFormats.set(key, format);
  }
  return format;
}

/**
 * An amount in the currency's minor unit, formatted for the locale: `1 234,50 zł`, `¥1,235`.
 * The decimal text goes to Intl as a string, so it is formatted exactly, never through a float.
 */
export function formatMoney(amount: string, currency: string, labels: DocumentLabels): string {
  const digits = minorUnits(currency);
  const fixed = toFixed(decimal(amount), digits) as `${number}`;
  try {
    return numberFormat(labels.locale, {
      style: 'currency',
      currency,
      minimumFractionDigits: digits,
      maximumFractionDigits: digits,
    }).format(fixed);
  } catch {
    return `${formatNumber(fixed, labels, digits)} ${currency}`;
  }
}

/** A plain decimal (quantity, price) for the locale, with at least `minDigits` decimals. */
export function formatNumber(value: string, labels: DocumentLabels, minDigits = 0): string {
  let amount;
  try {
    amount = decimal(value);
  } catch {
    return value;
  }
  const text = toFixed(amount, Math.max(amount.scale, minDigits)) as `${number}`;
  return numberFormat(labels.locale, { minimumFractionDigits: minDigits, maximumFractionDigits: 20 }).format(text);
}

/** A position's unit as the document's language names it (`unitIn`). */
export function formatUnit(unit: string | null | undefined, labels: DocumentLabels): string {
  if (!unit) return '';
  return unitIn(unit, labels.locale);
}

/** A tax rate as printed: `23%`, or the code of an exempt rate (`zw`, `np`). */
export function formatTaxRate(tax: string, labels: DocumentLabels): string {
  return /^-?\d+([.,]\d+)?$/.test(tax) ? `${formatNumber(tax, labels)}%` : tax === 'disabled' ? '—' : tax;
}

export function paymentMethodText(paymentType: string | null, labels: DocumentLabels): string {
  const key = paymentType ?? 'transfer';
  return labels.paymentMethods[key] ?? key;
}

/** The tax fields the hosted service stores beside `InvoiceData`'s own. */
type InvoiceTaxData = InvoiceData & {
  np_tax_kind?: string | null;
  exempt_tax_kind?: string | null;
  reverse_charge?: boolean | null;
  use_moss?: boolean | null;
  use_oss?: boolean | null;
};

/**
 * The words the law requires for the invoice's VAT case (docs/decisions/tax-engine.md), in each of
 * the invoice's languages: `pl/en` prints the Polish and then the English; a language without its
 * own words (German) takes the English ones.
 */
export function invoiceTaxWords(invoice: InvoiceData, lang: string | null | undefined = invoice.lang): string[] {
  const langs = [...new Set((lang || 'pl').toLowerCase().split('/').map((l): 'pl' | 'en' => (l.trim().startsWith('pl') ? 'pl' : 'en')))];
  return langs.flatMap((l) => [...invoiceTaxNotes(invoice as InvoiceTaxData, l), ...exchangeWords(invoice, l)]);
}

/**
 * A foreign-currency invoice's rate and its VAT in PLN (art. 106e ust. 11 and art. 31a of the VAT
 * act): the NBP table's number and day when the rate is NBP's, and a note while it waits for one.
 */
function exchangeWords(invoice: InvoiceData, lang: 'pl' | 'en'): string[] {
  const d = invoice as InvoiceData & Record<string, unknown>;
  const currency = String(invoice.currency ?? 'PLN').toUpperCase();
  if (currency === 'PLN') return [];
  if (d.exchange_rate_pending === true) {
    return [lang === 'pl' ? 'Kurs NBP i VAT w PLN zostaną podane po publikacji tabeli kursów NBP.' : 'The NBP rate and the VAT in PLN follow once NBP publishes its table.'];
  }
  const rate = typeof d.exchange_currency_rate === 'string' ? d.exchange_currency_rate : null;
  if (!rate) return [];
  const labels = labelsFor(lang);
  const shownRate = new Intl.NumberFormat(labels.locale, { minimumFractionDigits: 4, maximumFractionDigits: 6, useGrouping: false }).format(rate as `${number}`);
  const vat = typeof d.price_tax_pln === 'string' ? formatMoney(d.price_tax_pln, 'PLN', labels) : null;
  const table = typeof d.exchange_table === 'string' ? d.exchange_table : null;
  const day = typeof d.exchange_date === 'string' ? d.exchange_date : null;
  const source =
    d.exchange_kind === 'nbp' && table && day
      ? lang === 'pl' ? `Kurs średni NBP z tabeli nr ${table} z dnia ${day}` : `NBP average rate, table no. ${table} of ${day}`
      : lang === 'pl' ? 'Kurs waluty' : 'Exchange rate';
  return [`${source}: 1 ${currency} = ${shownRate} PLN.${vat ? (lang === 'pl' ? ` VAT w PLN: ${vat}.` : ` VAT in PLN: ${vat}.`) : ''}`];
}
