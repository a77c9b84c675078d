import { html, nothing, type PropertyDeclarations } from 'lit';
import { Task } from '../../elements/shared/task.js';
import { formatDate, formatMoney, localToday } from '../../elements/shared/format.js';
import { type Lang, locale, pick } from '../i18n.js';
import { AdminView } from '../view.js';
import { badge, errorText, ksefState, recordStyles } from './records.js';

/** The fields of a listed invoice this view reads. */
export interface ListedInvoice {
  id: number;
  number: string;
  kind: string;
  status: string;
  buyer_name: string | null;
  issue_date: string;
  payment_to: string | null;
  price_gross: string;
  paid: string;
  currency: string;
  cancelled: boolean;
  gov_status: string | null;
  gov_id: string | null;
  gov_send_date: string | null;
  gov_verification_link: string | null;
}

const PER_PAGE = 25;
const FILTERS = ['period', 'status', 'kind', 'number_contains', 'client_id'] as const;
type Filter = (typeof FILTERS)[number];
export type InvoiceFilters = Partial<Record<Filter, string>>;

export const STATUS_WORDS = {
  en: { issued: 'Issued', sent: 'Sent', paid: 'Paid', partial: 'Partly paid', rejected: 'Rejected', overdue: 'Overdue', cancelled: 'Cancelled' },
  pl: { issued: 'Wystawiona', sent: 'Wysłana', paid: 'Opłacona', partial: 'Częściowo opłacona', rejected: 'Odrzucona', overdue: 'Po terminie', cancelled: 'Anulowana' },
} satisfies Record<Lang, Record<string, string>>;

const strings = {
  en: {
    title: 'Invoices',
    filters: 'Filters',
    period: 'Period',
    periods: { all: 'All time', this_month: 'This month', last_month: 'Last month', last_30_days: 'Last 30 days', this_year: 'This year', last_year: 'Last year' },
    status: 'Status',
    statuses: { '': 'Any', issued: 'Issued', sent: 'Sent', paid: 'Paid', partial: 'Partly paid', outstanding: 'Not paid', overdue: 'Overdue' },
    kind: 'Kind',
    kinds: { '': 'Any', vat: 'VAT invoice', proforma: 'Proforma', correction: 'Correction', advance: 'Advance', final: 'Final', receipt: 'Receipt', bill: 'Bill' },
    number: 'Number contains',
    customer: 'Customer',
    allCustomers: 'Show all customers',
    columns: { number: 'Number', buyer: 'Buyer', issued: 'Issued', due: 'Due', gross: 'Gross', status: 'Status', ksef: 'KSeF' },
    loading: 'Loading invoices…',
    empty: 'No invoices match these filters.',
    failed: 'The invoices could not be loaded:',
    retry: 'Try again',
    previous: 'Previous page',
    next: 'Next page',
    page: (page: number) => `Page ${page}`,
  },
  pl: {
    title: 'Faktury',
    filters: 'Filtry',
    period: 'Okres',
    periods: { all: 'Cały czas', this_month: 'Ten miesiąc', last_month: 'Poprzedni miesiąc', last_30_days: 'Ostatnie 30 dni', this_year: 'Ten rok', last_year: 'Poprzedni rok' },
    status: 'Status',
    statuses: { '': 'Dowolny', issued: 'Wystawiona', sent: 'Wysłana', paid: 'Opłacona', partial: 'Częściowo opłacona', outstanding: 'Nieopłacona', overdue: 'Po terminie' },
    kind: 'Rodzaj',
    kinds: { '': 'Dowolny', vat: 'Faktura VAT', proforma: 'Proforma', correction: 'Korekta', advance: 'Zaliczkowa', final: 'Końcowa', receipt: 'Paragon', bill: 'Rachunek' },
    number: 'Numer zawiera',
    customer: 'Klient',
    allCustomers: 'Pokaż wszystkich klientów',
    columns: { number: 'Numer', buyer: 'Nabywca', issued: 'Wystawiona', due: 'Termin', gross: 'Brutto', status: 'Status', ksef: 'KSeF' },
    loading: 'Wczytywanie faktur…',
    empty: 'Żadna faktura nie pasuje do tych filtrów.',
    failed: 'Nie udało się wczytać faktur:',
    retry: 'Spróbuj ponownie',
    previous: 'Poprzednia strona',
    next: 'Następna strona',
    page: (page: number) => `Strona ${page}`,
  },
} satisfies Record<Lang, unknown>;

/** The filters a query string names (`?status=overdue&client_id=4`); unknown keys are left out. */
export function filtersOf(search: string): InvoiceFilters {
  const params = new URLSearchParams(search);
  const filters: InvoiceFilters = {};
  for (const name of FILTERS) {
    const value = params.get(name)?.trim();
    if (value) filters[name] = value;
  }
  return filters;
}

/** Whether an invoice is past its due date and not settled, judged by `today` (`YYYY-MM-DD`). */
export function isOverdue(invoice: Pick<ListedInvoice, 'payment_to' | 'status' | 'cancelled'>, today: string): boolean {
  return Boolean(invoice.payment_to && invoice.payment_to < today && invoice.status !== 'paid' && !invoice.cancelled);
}

/**
 * The seller's invoices: filtered by period, status, kind, number and customer (kept in the page's
 * query, so a link can open a filtered list), each row with its KSeF state.
 * @summary The back office's invoice list.
 */
export class AdminInvoices extends AdminView {
  static override styles = recordStyles;
  static override properties: PropertyDeclarations = {
    ...AdminView.properties,
    filters: { state: true },
    page: { state: true },
  };

  filters: InvoiceFilters = filtersOf(location.search);
  page = 1;

  readonly #list = new Task(this, {
    args: () => [this.api, this.filters, this.page] as const,
    task: ([api, filters, page]) => (api ? api.get<ListedInvoice[]>('/invoices.json', { ...filters, page, per_page: PER_PAGE }) : []),
  });

  /** The name of the customer the list is filtered to, for the filter's line. */
  readonly #customer = new Task(this, {
    args: () => [this.api, this.filters.client_id] as const,
    task: async ([api, id]) => (api && id ? (await api.get<{ name: string }>(`/clients/${encodeURIComponent(id)}.json`)).name : undefined),
  });

  #setFilter(name: Filter, value: string): void {
    const next = { ...this.filters };
    if (value) next[name] = value;
    else delete next[name];
    this.filters = next;
    this.page = 1;
    const query = new URLSearchParams(next as Record<string, string>).toString();
    history.replaceState(history.state, '', `${location.pathname}${query ? `?${query}` : ''}`);
  }

  #open(event: Event, id: number): void {
    event.preventDefault();
    this.navigate(`/admin/invoices/${id}`);
  }

  override render() {
    const t = pick(strings, this.language);
    return html`<h1 tabindex="-1">${t.title}</h1>
      <form class="filters" role="search" aria-label=${t.filters} @submit=${(event: Event) => event.preventDefault()}>
        ${this.#select('period', t.period, t.periods)} ${this.#select('status', t.status, t.statuses)} ${this.#select('kind', t.kind, t.kinds)}
        <label>
          ${t.number}
          <input
            name="number_contains"
            type="search"
            .value=${this.filters.number_contains ?? ''}
            @change=${(event: Event) => this.#setFilter('number_contains', (event.target as HTMLInputElement).value.trim())}
          />
        </label>
        ${this.filters.client_id
          ? html`<p class="hint">
              ${t.customer}: <span data-field="customer">${this.#customer.value ?? `#${this.filters.client_id}`}</span>
              <button type="button" class="secondary" @click=${() => this.#setFilter('client_id', '')}>${t.allCustomers}</button>
            </p>`
          : nothing}
      </form>
      ${this.#body()}`;
  }

  #select(name: 'period' | 'status' | 'kind', label: string, options: Record<string, string>) {
    const current = this.filters[name] ?? (name === 'period' ? 'all' : '');
    return html`<label>
      ${label}
      <select name=${name} @change=${(event: Event) => this.#setFilter(name, (event.target as HTMLSelectElement).value === 'all' && name === 'period' ? '' : (event.target as HTMLSelectElement).value)}>
        ${Object.entries(options).map(([value, text]) => html`<option value=${value} ?selected=${value === current}>${text}</option>`)}
      </select>
    </label>`;
  }

  #body() {
    const t = pick(strings, this.language);
    const task = this.#list;
    if (task.status === 'error') {
      return html`<p class="notice" data-tone="error" role="alert">
        ${t.failed} ${errorText(task.error)} <button type="button" class="secondary" @click=${() => void task.run()}>${t.retry}</button>
      </p>`;
    }
    const invoices = task.value;
    if (!invoices) return html`<p role="status">${t.loading}</p>`;
    if (invoices.length === 0 && this.page === 1) return html`<p role="status">${t.empty}</p>`;
    const lang = locale(this.language);
    const today = localToday();
    const words = pick(STATUS_WORDS, this.language);
    return html`<div class="scroll" tabindex="0" role="region" aria-label=${t.title}>
        <table aria-busy=${task.status === 'pending' ? 'true' : 'false'}>
          <caption class="hint" style="text-align:start">${t.page(this.page)}</caption>
          <thead>
            <tr>
              <th scope="col">${t.columns.number}</th>
              <th scope="col">${t.columns.buyer}</th>
              <th scope="col" class="wide">${t.columns.issued}</th>
              <th scope="col" class="wide">${t.columns.due}</th>
              <th scope="col" class="amount">${t.columns.gross}</th>
              <th scope="col">${t.columns.status}</th>
              <th scope="col">${t.columns.ksef}</th>
            </tr>
          </thead>
          <tbody>
            ${invoices.map((invoice) => {
              const ksef = ksefState(invoice, this.language);
              const overdue = isOverdue(invoice, today);
              return html`<tr data-id=${invoice.id}>
                <th scope="row"><a href="/admin/invoices/${invoice.id}" @click=${(event: Event) => this.#open(event, invoice.id)}>${invoice.number}</a></th>
                <td>${invoice.buyer_name ?? ''}</td>
                <td class="wide">${formatDate(invoice.issue_date, lang)}</td>
                <td class="wide">${formatDate(invoice.payment_to, lang)}</td>
                <td class="amount">${formatMoney(invoice.price_gross, invoice.currency, lang)}</td>
                <td>
                  ${invoice.cancelled
                    ? badge(words.cancelled, 'none')
                    : overdue
                      ? badge(words.overdue, 'error')
                      : badge(words[invoice.status as keyof typeof words] ?? invoice.status, invoice.status === 'paid' ? 'ok' : 'none')}
                </td>
                <td data-ksef=${ksef.tone}>${badge(ksef.text, ksef.tone)}</td>
              </tr>`;
            })}
          </tbody>
        </table>
      </div>
      <nav class="actions" aria-label=${t.page(this.page)}>
        <button type="button" class="secondary" ?disabled=${this.page <= 1} @click=${() => (this.page -= 1)}>${t.previous}</button>
        <button type="button" class="secondary" ?disabled=${invoices.length < PER_PAGE} @click=${() => (this.page += 1)}>${t.next}</button>
      </nav>`;
  }
}

if (!customElements.get('ik-admin-invoices')) customElements.define('ik-admin-invoices', AdminInvoices);

declare global {
  interface HTMLElementTagNameMap {
    'ik-admin-invoices': AdminInvoices;
  }
}
