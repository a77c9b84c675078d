import type { InvoiceListMessages } from './messages.js';

const rules = new Intl.PluralRules('pl');
/** Polish has three plural forms: 1 faktura, 2 faktury, 5 faktur. */
const plural = (count: number, one: string, few: string, many: string) =>
  ({ one, few, many })[rules.select(count) as 'one' | 'few' | 'many'] ?? few;

const pl: InvoiceListMessages = {
  title: 'Faktury',
  searchPlaceholder: 'Szukaj po numerze',
  statusLabel: 'Status',
  periodLabel: 'Okres',
  sortLabel: 'Sortuj',
  statusAll: 'Wszystkie',
  status: { paid: 'Opłacona', partial: 'Częściowo opłacona', unpaid: 'Nieopłacona', overdue: 'Po terminie' },
  period: {
    all: 'Cały okres',
    this_month: 'Ten miesiąc',
    last_month: 'Poprzedni miesiąc',
    last_30_days: 'Ostatnie 30 dni',
    this_year: 'Ten rok',
    last_year: 'Poprzedni rok',
    last_12_months: 'Ostatnie 12 miesięcy',
  },
  order: {
    'issue_date.desc': 'Najnowsze',
    'issue_date.asc': 'Najstarsze',
    'payment_to.asc': 'Termin płatności, najbliższy',
    'payment_to.desc': 'Termin płatności, najdalszy',
    'price_gross.desc': 'Kwota, najwyższa',
    'price_gross.asc': 'Kwota, najniższa',
  },
  columns: { number: 'Faktura', issueDate: 'Wystawiona', dueDate: 'Termin', total: 'Razem', balance: 'Zapłacono / do zapłaty', status: 'Status', actions: 'Akcje' },
  caption: 'Twoje faktury',
  due: 'do zapłaty',
  paidLabel: 'zapłacono',
  paidAmount: (amount) => `zapłacono ${amount}`,
  download: 'PDF',
  open: 'Otwórz',
  pay: 'Zapłać',
  downloadFailed: (number) => `Nie udało się pobrać faktury ${number}. Spróbuj ponownie.`,
  dueIn: (days) => (days === 0 ? 'termin dziś' : `za ${days} ${plural(days, 'dzień', 'dni', 'dni')}`),
  daysLate: (days) => `${days} ${plural(days, 'dzień', 'dni', 'dni')} po terminie`,
  showing: (from, to, total) => `Pozycje ${from}–${to} z ${total}`,
  count: (total, count) => `${total} ${plural(count, 'faktura', 'faktury', 'faktur')}`,
  noResults: 'Nie znaleziono faktur',
  previousPage: 'Poprzednia',
  nextPage: 'Następna',
  pageOf: (page, pages) => `Strona ${page} z ${pages}`,
  pagination: 'Stronicowanie',
  emptyTitle: 'Nie masz jeszcze faktur',
  emptyText: 'Tutaj pojawią się wystawione dla Ciebie faktury.',
  noMatchTitle: 'Brak pasujących faktur',
  noMatchText: 'Zmień numer, status lub okres.',
  clearFilters: 'Wyczyść filtry',
  errorTitle: 'Nie udało się wczytać faktur',
  errorText: 'Coś poszło nie tak po naszej stronie. Spróbuj ponownie za chwilę.',
  errorOffline: 'Brak połączenia z serwerem. Sprawdź połączenie i spróbuj ponownie.',
  errorSession: 'Sesja wygasła. Odśwież stronę, aby zalogować się ponownie.',
  errorNoToken: 'Strona nie przekazała tokenu portalu, więc nie można pokazać faktur.',
  errorBusy: 'Zbyt wiele zapytań. Odczekaj chwilę i spróbuj ponownie.',
  retry: 'Spróbuj ponownie',
};

export default pl;
