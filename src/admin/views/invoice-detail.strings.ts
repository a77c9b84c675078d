import type { Lang } from '../i18n.js';

/** The words of an invoice's page (`ik-admin-invoice`), in each language of the back office. */
export const invoiceStrings = {
  en: {
    title: (number: string) => `Invoice ${number}`,
    back: 'All invoices',
    loading: 'Loading the invoice…',
    failed: 'The invoice could not be loaded:',
    retry: 'Try again',
    summary: 'Summary',
    status: 'Status',
    buyer: 'Buyer',
    taxNo: 'Tax number',
    issued: 'Issue date',
    sold: 'Date of sale',
    due: 'Due date',
    net: 'Net',
    tax: 'VAT',
    gross: 'Gross',
    paid: 'Paid',
    documents: 'Documents',
    pdf: 'PDF',
    publicPage: "Buyer's page",
    upo: 'UPO (KSeF receipt)',
    ksef: 'KSeF',
    ksefNumber: 'KSeF number',
    ksefSent: 'Sent',
    ksefCheck: 'Verification link',
    ksefTest: 'Sent to a KSeF test environment: it has no legal force.',
    ksefRefusal: 'Why KSeF refused it',
    ksefSaid: "KSeF's own words",
    sendKsef: 'Send again to KSeF',
    sendKsefFirst: 'Send to KSeF',
    ksefOff: 'KSeF is off for this account: nothing is sent to it.',
    ksefSettings: 'KSeF settings',
    ksefQueued: 'The invoice is on its way to KSeF.',
    ksefAccepted: (number: string) => `KSeF accepted the invoice: ${number}.`,
    ksefStillRefused: 'KSeF refused the invoice again. Read why below.',
    fix: 'Correct the invoice',
    fixHint: 'While KSeF has not accepted the invoice, its data can still be changed. Saving changes what the buyer sees on their page at once.',
    save: 'Save',
    saveAndSend: 'Save and send to KSeF',
    saved: 'The invoice was saved.',
    buyerName: "Buyer's name",
    buyerTaxNo: "Buyer's tax number",
    buyerStreet: 'Street',
    buyerPostCode: 'Post code',
    buyerCity: 'City',
    buyerCountry: 'Country code',
    email: 'E-mail',
    emailStatus: 'Last e-mail',
    emailNever: 'Not e-mailed yet',
    emailTo: 'Send to',
    emailSend: 'E-mail the invoice',
    emailed: (message: string) => `E-mailed: ${message}`,
    emailHeld: (message: string) => `Not e-mailed: ${message}`,
    payments: 'Payments',
    noPayments: 'No payments recorded.',
    paymentName: 'Payment',
    paymentDate: 'Paid on',
    paymentAmount: 'Amount',
    paymentProvider: 'Provider',
    paymentState: 'State',
    paymentPaid: 'Paid',
    paymentWaiting: 'Waiting',
    record: 'Record a payment',
    recordHint: 'A payment recorded here marks the invoice paid or partly paid; the buyer sees it on their page.',
    recorded: 'The payment was recorded.',
    paymentFor: (number: string) => `Payment for ${number}`,
    correction: 'Issue a correction',
    correctionHint: 'A correction is a new invoice stating the difference; the invoice itself stays as issued.',
    reason: 'Reason',
    line: 'Line',
    quantityAfter: 'Quantity after',
    grossAfter: 'Gross total after',
    issueCorrection: 'Issue the correction',
    corrected: (number: string) => `Correction ${number} was issued.`,
    openCorrection: 'Open the correction',
    nothingChanged: 'Change the quantity or the total of at least one line.',
    busy: 'Working…',
  },
  pl: {
    title: (number: string) => `Faktura ${number}`,
    back: 'Wszystkie faktury',
    loading: 'Wczytywanie faktury…',
    failed: 'Nie udało się wczytać faktury:',
    retry: 'Spróbuj ponownie',
    summary: 'Podsumowanie',
    status: 'Status',
    buyer: 'Nabywca',
    taxNo: 'NIP',
    issued: 'Data wystawienia',
    sold: 'Data sprzedaży',
    due: 'Termin płatności',
    net: 'Netto',
    tax: 'VAT',
    gross: 'Brutto',
    paid: 'Zapłacono',
    documents: 'Dokumenty',
    pdf: 'PDF',
    publicPage: 'Strona nabywcy',
    upo: 'UPO (potwierdzenie KSeF)',
    ksef: 'KSeF',
    ksefNumber: 'Numer KSeF',
    ksefSent: 'Wysłano',
    ksefCheck: 'Link weryfikacyjny',
    ksefTest: 'Wysłana do testowego środowiska KSeF: nie ma mocy prawnej.',
    ksefRefusal: 'Dlaczego KSeF ją odrzucił',
    ksefSaid: 'Słowa KSeF',
    sendKsef: 'Wyślij ponownie do KSeF',
    sendKsefFirst: 'Wyślij do KSeF',
    ksefOff: 'KSeF jest wyłączony dla tego konta: nic do niego nie trafia.',
    ksefSettings: 'Ustawienia KSeF',
    ksefQueued: 'Faktura jest w drodze do KSeF.',
    ksefAccepted: (number: string) => `KSeF przyjął fakturę: ${number}.`,
    ksefStillRefused: 'KSeF ponownie odrzucił fakturę. Powód poniżej.',
    fix: 'Popraw fakturę',
    fixHint: 'Dopóki KSeF nie przyjął faktury, jej dane można zmienić. Zapis od razu zmienia to, co nabywca widzi na swojej stronie.',
    save: 'Zapisz',
    saveAndSend: 'Zapisz i wyślij do KSeF',
    saved: 'Faktura została zapisana.',
    buyerName: 'Nazwa nabywcy',
    buyerTaxNo: 'NIP nabywcy',
    buyerStreet: 'Ulica',
    buyerPostCode: 'Kod pocztowy',
    buyerCity: 'Miasto',
    buyerCountry: 'Kod kraju',
    email: 'E-mail',
    emailStatus: 'Ostatni e-mail',
    emailNever: 'Jeszcze nie wysłana e-mailem',
    emailTo: 'Wyślij do',
    emailSend: 'Wyślij fakturę e-mailem',
    emailed: (message: string) => `Wysłano: ${message}`,
    emailHeld: (message: string) => `Nie wysłano: ${message}`,
    payments: 'Płatności',
    noPayments: 'Brak zapisanych płatności.',
    paymentName: 'Płatność',
    paymentDate: 'Data zapłaty',
    paymentAmount: 'Kwota',
    paymentProvider: 'Operator',
    paymentState: 'Stan',
    paymentPaid: 'Zapłacona',
    paymentWaiting: 'Oczekuje',
    record: 'Zapisz płatność',
    recordHint: 'Zapisana tu płatność oznacza fakturę jako opłaconą lub częściowo opłaconą; nabywca widzi to na swojej stronie.',
    recorded: 'Płatność została zapisana.',
    paymentFor: (number: string) => `Płatność za ${number}`,
    correction: 'Wystaw korektę',
    correctionHint: 'Korekta to nowa faktura z różnicą; sama faktura zostaje taka, jak ją wystawiono.',
    reason: 'Przyczyna',
    line: 'Pozycja',
    quantityAfter: 'Ilość po korekcie',
    grossAfter: 'Wartość brutto po korekcie',
    issueCorrection: 'Wystaw korektę',
    corrected: (number: string) => `Wystawiono korektę ${number}.`,
    openCorrection: 'Otwórz korektę',
    nothingChanged: 'Zmień ilość lub wartość co najmniej jednej pozycji.',
    busy: 'Trwa…',
  },
} satisfies Record<Lang, unknown>;

export type InvoiceStrings = (typeof invoiceStrings)['en'];

/** What KSeF's refusal codes mean for the seller, and what to do. */
const KSEF_CODES = {
  en: {
    '410': "KSeF refused the invoice: the seller's NIP on it is not the one the KSeF token belongs to. Check the company's tax number in Settings.",
    '430': 'KSeF could not read the invoice file. Send it again; if it is refused again, contact support.',
    '440': 'KSeF already has this invoice: it was accepted earlier under the same number.',
    '450': 'KSeF found a problem in what the invoice says. Correct the data below and send it again.',
  },
  pl: {
    '410': 'KSeF odrzucił fakturę: NIP sprzedawcy na niej nie jest tym, do którego należy token KSeF. Sprawdź NIP firmy w Ustawieniach.',
    '430': 'KSeF nie mógł odczytać pliku faktury. Wyślij ją ponownie; jeśli znów zostanie odrzucona, skontaktuj się z pomocą.',
    '440': 'KSeF ma już tę fakturę: przyjął ją wcześniej pod tym samym numerem.',
    '450': 'KSeF znalazł problem w treści faktury. Popraw dane poniżej i wyślij ją ponownie.',
  },
} satisfies Record<Lang, Record<string, string>>;

/** What the check before sending names, by field: the seller's words for each. */
const FIELD_WORDS = {
  en: {
    issue_date: 'Issue date',
    sell_date: 'Date of sale',
    buyer_name: "Buyer's name",
    buyer_tax_no: "Buyer's tax number",
    buyer_tax_no_kind: "Kind of the buyer's tax number",
    buyer_country: "Buyer's country",
    seller_tax_no: "Seller's tax number",
    seller_tax_no_kind: "Kind of the seller's tax number",
    seller_name: "Seller's name",
    positions: 'Lines',
    invoice_id: 'Corrected invoice',
  },
  pl: {
    issue_date: 'Data wystawienia',
    sell_date: 'Data sprzedaży',
    buyer_name: 'Nazwa nabywcy',
    buyer_tax_no: 'NIP nabywcy',
    buyer_tax_no_kind: 'Rodzaj numeru nabywcy',
    buyer_country: 'Kraj nabywcy',
    seller_tax_no: 'NIP sprzedawcy',
    seller_tax_no_kind: 'Rodzaj numeru sprzedawcy',
    seller_name: 'Nazwa sprzedawcy',
    positions: 'Pozycje',
    invoice_id: 'Korygowana faktura',
  },
} satisfies Record<Lang, Record<string, string>>;

/**
 * `gov_error_messages` in the seller's words: KSeF's refusal code explained, and a message of the
 * check before sending led by the field's name in the page's language. KSeF's own lines are kept
 * apart, as it wrote them.
 */
export function ksefRefusal(messages: readonly string[] | null | undefined, lang: Lang): { explained: string[]; said: string[] } {
  const explained: string[] = [];
  const said: string[] = [];
  const codes: Record<string, string> = KSEF_CODES[lang];
  const fields: Record<string, string> = FIELD_WORDS[lang];
  for (const message of messages ?? []) {
    const code = /^(\d{3}) /.exec(message)?.[1];
    const field = /^([a-z_]+(?:\.[a-z_]+)*) (.+)$/.exec(message);
    if (code) {
      if (codes[code]) explained.push(codes[code]);
      said.push(message);
    } else if (field && fields[field[1]!.split('.')[0]!]) {
      explained.push(`${fields[field[1]!.split('.')[0]!]}: ${field[2]}`);
    } else {
      said.push(message);
    }
  }
  return { explained, said };
}
