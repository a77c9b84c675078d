import type { Catalogs } from '../shared/i18n.js';

/**
 * Picks the word form for `count` by the language's plural rules: English has `one` and `other`,
 * Polish `one`, `few` and `many` (1 faktura, 2 faktury, 5 faktur). Shared by every catalog, so the
 * translations load it from here.
 */
export function plural(locale: string) {
  // Made on first use, not when the module loads: nothing on the way to the first paint needs it.
  let rules: Intl.PluralRules | undefined;
  return (count: number, forms: Partial<Record<Intl.LDMLPluralRule, string>> & { other: string }): string =>
    forms[(rules ??= new Intl.PluralRules(locale)).select(count)] ?? forms.other;
}

const forms = plural('en');
const days = (count: number) => `${count} ${forms(count, { one: 'day', other: 'days' })}`;

export const en = {
  caption: 'Your invoices',
  searchPlaceholder: 'Search by number',
  periodLabel: 'Period',
  sortLabel: 'Sort by',
  statusAll: 'All',
  status: { outstanding: 'Outstanding', paid: 'Paid', partial: 'Partially paid', unpaid: 'Unpaid', overdue: 'Overdue' },
  period: {
    all: 'All time',
    this_month: 'This month',
    last_month: 'Last month',
    last_30_days: 'Last 30 days',
    this_year: 'This year',
    last_year: 'Last year',
    last_12_months: 'Last 12 months',
  },
  order: {
    'issue_date.desc': 'Newest first',
    'issue_date.asc': 'Oldest first',
    'payment_to.asc': 'Due date, soonest',
    'payment_to.desc': 'Due date, latest',
    'price_gross.desc': 'Amount, highest',
    'price_gross.asc': 'Amount, lowest',
  },
  /** Column headers, by the field each column shows. */
  columns: {
    number: 'Invoice',
    issue_date: 'Issued',
    payment_to: 'Due',
    price_gross: 'Total',
    status: 'Status',
    actions: 'Actions',
  },
  dueAmount: (amount: string) => `Due ${amount}`,
  paidOf: (paid: string, total: string) => `Paid ${paid} of ${total}`,
  paidInFull: (amount: string) => `Paid ${amount}`,
  owed: 'You owe',
  /** `shown`: the count as the locale writes numbers (4,429). */
  owedOn: (shown: string, count: number) => `on ${shown} ${forms(count, { one: 'invoice', other: 'invoices' })}`,
  overdueAmount: (amount: string) => `${amount} overdue`,
  nothingOwed: 'Nothing to pay. Thank you!',
  download: 'PDF',
  einvoice: 'E-invoice',
  open: 'View',
  pay: 'Pay',
  downloadFailed: (number: string) => `Could not download invoice ${number}.`,
  dueIn: (count: number) => (count ? `in ${days(count)}` : 'due today'),
  daysLate: (count: number) => `${days(count)} late`,
  showing: (from: string, to: string, total: string) => `Showing ${from}–${to} of ${total}`,
  count: (total: string, count: number) => `${total} ${forms(count, { one: 'invoice', other: 'invoices' })}`,
  noResults: 'No invoices found',
  previousPage: 'Previous',
  nextPage: 'Next',
  pageOf: (page: string, pages: string) => `Page ${page} of ${pages}`,
  pagination: 'Pagination',
  emptyTitle: 'No invoices yet',
  emptyText: 'Invoices issued to you will appear here.',
  noMatchTitle: 'No matching invoices',
  noMatchText: 'Try a different number, status or period.',
  clearFilters: 'Clear filters',
  errorTitle: 'We couldn’t load your invoices',
  errorOffline: 'We couldn’t reach the server. Check your connection.',
  retry: 'Try again',
  /** An invoice's state in KSeF, Poland's national e-invoicing system. */
  ksef: { sent: 'In KSeF', pending: 'Sending to KSeF', error: 'KSeF error' },
  ksefNumber: 'KSeF number',
  ksefTest: 'test',
  /** The KSeF detail of a row: a disclosure under the invoice's number. What it shows once open is worded in `ksef-detail-messages.ts`. */
  ksefDetails: 'KSeF details',
  ksefDetailsOf: (number: string) => `KSeF details of invoice ${number}`,
};

export type InvoiceListMessages = typeof en;

export const catalogs: Catalogs<InvoiceListMessages> = { en, pl: () => import('./messages.pl.js') };
