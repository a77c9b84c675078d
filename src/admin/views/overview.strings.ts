import type { Lang } from '../i18n.js';

const en = {
  title: 'Overview',
  intro: 'What needs you now. Each item opens the place where it is fixed.',
  loading: 'Loading…',
  failed: 'The overview could not be loaded.',
  retry: 'Try again',
  allClear: 'Nothing needs you now.',
  groups: { ksef: 'KSeF and invoices waiting', overdue: 'Overdue invoices', payments: 'Payments', deliveries: 'Webhooks and e-mails' },
  kinds: {
    ksef_rejected: 'KSeF refused the invoice',
    ksef_invalid: 'The invoice cannot go to KSeF as it is',
    ksef_pending: 'Waiting for a KSeF number',
    awaiting_ksef_number: 'Waiting for a KSeF number',
    awaiting_exchange_rate: 'Waiting for the NBP exchange rate',
    vies_unavailable: 'VIES could not confirm the buyer’s VAT number',
    overdue: 'Overdue',
    payment_failed: 'Payment failed',
    payment_pending: 'Payment waiting',
    webhook_failing: 'Webhook keeps failing',
    email_failing: 'E-mail keeps failing',
  } as Record<string, string>,
  invoice: (number: string) => `Invoice ${number}`,
  open: 'Open',
  quick: 'Shortcuts',
  newProduct: 'New product',
  products: 'Products',
};

const pl: typeof en = {
  title: 'Przegląd',
  intro: 'Co wymaga teraz Twojej uwagi. Każda pozycja prowadzi tam, gdzie można to naprawić.',
  loading: 'Wczytywanie…',
  failed: 'Nie udało się wczytać przeglądu.',
  retry: 'Spróbuj ponownie',
  allClear: 'Nic nie wymaga teraz Twojej uwagi.',
  groups: { ksef: 'KSeF i faktury oczekujące', overdue: 'Zaległe faktury', payments: 'Płatności', deliveries: 'Webhooki i e-maile' },
  kinds: {
    ksef_rejected: 'KSeF odrzucił fakturę',
    ksef_invalid: 'Faktury w tej postaci nie można wysłać do KSeF',
    ksef_pending: 'Czeka na numer KSeF',
    awaiting_ksef_number: 'Czeka na numer KSeF',
    awaiting_exchange_rate: 'Czeka na kurs NBP',
    vies_unavailable: 'VIES nie potwierdził numeru VAT nabywcy',
    overdue: 'Po terminie',
    payment_failed: 'Płatność nieudana',
    payment_pending: 'Płatność oczekuje',
    webhook_failing: 'Webhook stale zawodzi',
    email_failing: 'E-mail stale zawodzi',
  },
  invoice: (number: string) => `Faktura ${number}`,
  open: 'Otwórz',
  quick: 'Na skróty',
  newProduct: 'Nowy produkt',
  products: 'Produkty',
};

export const strings: Record<Lang, typeof en> = { en, pl };
