import { html, nothing, type PropertyValues, type TemplateResult } from 'lit';
import { property, state } from 'lit/decorators.js';
import { styleMap } from 'lit/directives/style-map.js';
import { Task, TaskStatus } from '@lit/task';
import { compare, decimal, sub, toPlain, ZERO } from '../../api/money.js';
import { InvoiceKitElement } from '../shared/base-element.js';
import { BffClient, BffError, LIST_STATUSES, type InvoiceListQuery, type InvoicePage, type ListStatus, type PortalInvoice } from '../shared/bff-client.js';
import { oneOf, warnInvalidAttribute } from '../shared/dev-warnings.js';
import { formatDate, formatMoney, formatNumber, localToday } from '../shared/format.js';
import { themeStyles } from '../shared/theme.js';
import { InvoiceDownloadEvent, InvoicePayEvent, InvoiceSelectEvent } from './events.js';
import { catalogs, type InvoiceListMessages } from './messages.js';
import { styles } from './invoice-list.styles.js';

export const LIST_PERIODS = ['all', 'this_month', 'last_month', 'last_30_days', 'this_year', 'last_year', 'last_12_months'] as const;
export type ListPeriod = (typeof LIST_PERIODS)[number];
export const LIST_ORDERS = ['issue_date.desc', 'issue_date.asc', 'payment_to.asc', 'payment_to.desc', 'price_gross.desc', 'price_gross.asc'] as const;
export type ListOrder = (typeof LIST_ORDERS)[number];
export const PAGING_MODES = ['pages', 'scroll'] as const;
export type PagingMode = (typeof PAGING_MODES)[number];

/** Rows fetched at a time while scrolling; the BFF's largest page. */
const SCROLL_CHUNK = 100;
/** Rows rendered beyond each edge of the visible window. */
const OVERSCAN = 12;
const SEARCH_DEBOUNCE_MS = 300;
const STATUS_FILTERS = ['', 'unpaid', 'overdue', 'partial', 'paid'] as const;
const SORTABLE = { issue_date: 'issueDate', payment_to: 'dueDate', price_gross: 'total' } as const;
type SortField = keyof typeof SORTABLE;

const icon = (path: TemplateResult) =>
  html`<svg class="icon" viewBox="0 0 20 20" fill="none" stroke="currentColor" stroke-width="1.7" stroke-linecap="round" stroke-linejoin="round" aria-hidden="true">${path}</svg>`;
const icons = {
  search: icon(html`<circle cx="9" cy="9" r="5.5"/><path d="m13.5 13.5 3.5 3.5"/>`),
  download: icon(html`<path d="M10 3.5v9m0 0-3.5-3.5M10 12.5l3.5-3.5M4 15.5h12"/>`),
  open: icon(html`<path d="M11.5 4.5h4v4m0-4-7 7M9 5H5.5a1 1 0 0 0-1 1v8.5a1 1 0 0 0 1 1H14a1 1 0 0 0 1-1V11"/>`),
  sort: icon(html`<path d="m7 8 3-3 3 3M7 12l3 3 3-3"/>`),
  asc: icon(html`<path d="m6.5 11.5 3.5-4 3.5 4"/>`),
  desc: icon(html`<path d="m6.5 8.5 3.5 4 3.5-4"/>`),
  prev: icon(html`<path d="m12 5-5 5 5 5"/>`),
  next: icon(html`<path d="m8 5 5 5-5 5"/>`),
  alert: icon(html`<circle cx="10" cy="10" r="7"/><path d="M10 6.5v4m0 3v.01"/>`),
  empty: icon(html`<path d="M5.5 2.5h6l3.5 3.5v10.5a1 1 0 0 1-1 1h-8.5a1 1 0 0 1-1-1v-13a1 1 0 0 1 1-1Z"/><path d="M11 2.5V6.5h4M7.5 10.5h5M7.5 13.5h3"/>`),
};

function amountDue(invoice: PortalInvoice) {
  const due = sub(decimal(invoice.price_gross), decimal(invoice.paid));
  return compare(due, ZERO) > 0 ? due : ZERO;
}

function daysBetween(from: string, to: string): number {
  const day = (iso: string) => Date.UTC(+iso.slice(0, 4), +iso.slice(5, 7) - 1, +iso.slice(8, 10));
  return Math.round((day(to) - day(from)) / 86_400_000);
}

/** The four statuses a customer sees; the BFF decides them, and older answers are derived the same way. */
export function customerStatus(invoice: PortalInvoice, today: string): ListStatus {
  if ((LIST_STATUSES as readonly string[]).includes(invoice.status)) return invoice.status as ListStatus;
  if (compare(amountDue(invoice), ZERO) === 0) return 'paid';
  if (invoice.payment_to && invoice.payment_to < today) return 'overdue';
  return compare(decimal(invoice.paid), ZERO) > 0 ? 'partial' : 'unpaid';
}

/**
 * A customer's invoices, served by the invoicekit BFF: status and period filters, search by number,
 * sorting, pagination or endless scrolling, PDF download and payment, in a table that turns into cards
 * on narrow screens.
 *
 * @summary The session customer's invoices with filters, sorting, PDF download and pay actions.
 *
 * @fires invoice-select - The customer opened an invoice (its number or View). `detail.invoice`. Cancelable: cancel to show it yourself instead of opening `view_url`.
 * @fires invoice-download - The customer asked for a PDF. `detail.invoice`. Cancelable: cancel to handle the download yourself.
 * @fires invoice-pay - The customer chose to pay. `detail.invoice`, `detail.paymentUrl`. Cancelable: cancel to run your own checkout.
 *
 * @csspart frame - The card around everything.
 * @csspart toolbar - The row of filters above the table.
 * @csspart search - The search field.
 * @csspart status-filter - The group of status choices.
 * @csspart period-select - The period dropdown.
 * @csspart sort-select - The sort dropdown shown on narrow screens.
 * @csspart table - The table.
 * @csspart header-cell - A column header.
 * @csspart row - An invoice row (a card on narrow screens).
 * @csspart cell - A cell of an invoice row.
 * @csspart number - The invoice number link.
 * @csspart status-badge - The status badge; also `status-paid`, `status-partial`, `status-unpaid`, `status-overdue`.
 * @csspart actions - The cell of row actions.
 * @csspart action - Each row action; also `download-button`, `open-link`, `pay-link`.
 * @csspart skeleton - The placeholder rows shown while loading.
 * @csspart empty - The empty state.
 * @csspart error - The error state.
 * @csspart retry-button - The error state's retry button.
 * @csspart pagination - The footer with the range and page buttons.
 * @csspart page-button - The previous and next page buttons.
 *
 * @cssprop --invoice-list-max-height - Height of the scrolling area when `paging="scroll"` (default 36rem).
 * @cssprop --invoice-list-row-hover - Background of a row under the pointer.
 * @cssprop --invoice-list-header-background - Background of the column headers.
 * @cssprop --invoice-list-card-breakpoint - Not a real property: the switch to cards happens below 40rem of the element's own width.
 * @cssprop --ik-color-accent - Accent color shared by all invoicekit elements (also `--ik-color-surface`, `--ik-color-text`, `--ik-color-border`, `--ik-radius`, `--ik-font-family`, …).
 */
export class InvoiceList extends InvoiceKitElement<InvoiceListMessages> {
  static override styles = [themeStyles, styles];
  protected readonly catalogs = catalogs;

  /** Base URL of the BFF's routes. */
  @property() endpoint = '/bff';

  /** The short-lived portal token your backend minted for this customer (never an api_token). */
  @property({ attribute: 'portal-token' }) portalToken = '';

  /** Status filter: `paid`, `partial`, `unpaid`, `overdue`, or empty for all. The customer can change it. */
  @property() status: ListStatus | '' = '';

  /** Period filter: `all`, `this_month`, `last_month`, `last_30_days`, `this_year`, `last_year`, `last_12_months`. */
  @property() period: ListPeriod = 'all';

  /** Search by invoice number. */
  @property() search = '';

  /** Sort order: `issue_date`, `payment_to` or `price_gross`, then `.asc` or `.desc`. */
  @property() order: ListOrder = 'issue_date.desc';

  /** Invoices per page, 1 to 100. */
  @property({ attribute: 'per-page', type: Number }) perPage = 25;

  /** `pages` shows one page at a time; `scroll` loads while scrolling and renders only the visible rows. */
  @property() paging: PagingMode = 'pages';

  @state() private page = 1;
  @state() private searchDraft = '';
  @state() private announcement = '';
  @state() private downloading: ReadonlySet<number> = new Set();
  @state() private firstVisible = 0;
  @state() private rowHeight = 57;
  @state() private viewportRows = 12;

  private searchTimer?: ReturnType<typeof setTimeout>;
  private userChanged = false;
  /** Scroll mode: every matching invoice by position, filled chunk by chunk. */
  private rows: (PortalInvoice | undefined)[] = [];
  private chunkLoads = new AbortController();
  private readonly chunksRequested = new Set<number>();
  private missingChunks = new Set<number>();
  private scrollQuery: InvoiceListQuery = { page: 1, per_page: SCROLL_CHUNK };

  private readonly listTask = new Task(this, {
    task: async ([endpoint, portalToken, page, perPage, status, period, search, order], { signal }) => {
      this.chunkLoads.abort();
      if (!portalToken) throw new BffError(401, 'no_token', 'no portal token');
      const query: InvoiceListQuery = {
        page,
        per_page: perPage,
        status: status || undefined,
        period: period === 'all' ? undefined : period,
        search: search || undefined,
        order,
      };
      const result = await this.client(endpoint, portalToken).listInvoices(query, signal);
      if (this.paging === 'scroll') this.startScrollRows(result, query);
      return result;
    },
    args: () =>
      [
        this.endpoint,
        this.portalToken,
        this.paging === 'scroll' ? 1 : this.page,
        this.paging === 'scroll' ? SCROLL_CHUNK : this.perPage,
        this.status,
        this.period,
        this.search.trim(),
        this.order,
      ] as const,
    onComplete: (result) => this.announceResults(result),
    onError: (error) => {
      if (!(error instanceof DOMException && error.name === 'AbortError')) this.announcement = this.msg.errorTitle;
    },
  });

  private clientCache?: { key: string; client: BffClient };

  private client(endpoint = this.endpoint, portalToken = this.portalToken): BffClient {
    const key = `${endpoint} ${portalToken}`;
    if (this.clientCache?.key !== key) this.clientCache = { key, client: new BffClient(endpoint, portalToken) };
    return this.clientCache.client;
  }

  /** Fetches the invoices again with the current filters, e.g. after the customer paid one. */
  async reload(): Promise<void> {
    this.chunksRequested.clear();
    await this.listTask.run();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    clearTimeout(this.searchTimer);
    this.chunkLoads.abort();
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    super.willUpdate(changed);
    if (changed.has('status')) this.status = oneOf(this, 'status', this.status, LIST_STATUSES, '' as ListStatus) || '';
    if (changed.has('period')) this.period = oneOf(this, 'period', this.period, LIST_PERIODS, 'all');
    if (changed.has('order')) this.order = oneOf(this, 'order', this.order, LIST_ORDERS, 'issue_date.desc');
    if (changed.has('paging')) this.paging = oneOf(this, 'paging', this.paging, PAGING_MODES, 'pages');
    if (changed.has('perPage') && !(Number.isInteger(this.perPage) && this.perPage >= 1 && this.perPage <= 100)) {
      warnInvalidAttribute(this.tagName, 'per-page', this.perPage, 'a whole number from 1 to 100', 25);
      this.perPage = 25;
    }
    if (changed.has('search') && !this.userChanged) this.searchDraft = this.search;
    if (['status', 'period', 'search', 'order', 'perPage', 'paging'].some((key) => changed.has(key as keyof InvoiceList))) {
      if (changed.size && this.hasUpdated) this.page = 1;
      this.firstVisible = 0;
      this.renderRoot.querySelector('.scroller')?.scrollTo({ top: 0 });
    }
    this.userChanged = false;
  }

  protected override updated(): void {
    if (this.paging !== 'scroll') return;
    const [first, second] = this.renderRoot.querySelectorAll<HTMLElement>('tr[data-index]');
    if (first && second) {
      const height = second.getBoundingClientRect().top - first.getBoundingClientRect().top;
      if (height > 8 && Math.abs(height - this.rowHeight) > 0.5) this.rowHeight = height;
    }
    for (const chunk of this.missingChunks) void this.loadChunk(chunk);
    this.missingChunks = new Set();
  }

  private startScrollRows(page: InvoicePage, query: InvoiceListQuery): void {
    this.scrollQuery = query;
    this.chunkLoads = new AbortController();
    this.chunksRequested.clear();
    this.chunksRequested.add(0);
    this.rows = Array.from({ length: page.total }, (_, i) => page.invoices[i]);
  }

  private async loadChunk(chunk: number): Promise<void> {
    if (this.chunksRequested.has(chunk)) return;
    this.chunksRequested.add(chunk);
    const { signal } = this.chunkLoads;
    try {
      const result = await this.client().listInvoices({ ...this.scrollQuery, page: chunk + 1, per_page: SCROLL_CHUNK }, signal);
      if (signal.aborted) return;
      result.invoices.forEach((invoice, i) => (this.rows[chunk * SCROLL_CHUNK + i] = invoice));
      this.requestUpdate();
    } catch (error) {
      this.chunksRequested.delete(chunk);
      if (!signal.aborted) this.announcement = this.msg.errorTitle;
    }
  }

  private announceResults(result: InvoicePage): void {
    const m = this.msg;
    const n = (value: number) => formatNumber(value, this.resolvedLocale);
    if (this.paging === 'scroll') {
      this.announcement = result.total ? m.announceCount(n(result.total), result.total) : m.announceResults('', '', '', 0);
      return;
    }
    const from = (result.page - 1) * result.perPage + 1;
    const to = from + result.invoices.length - 1;
    this.announcement = m.announceResults(n(from), n(to), n(result.total), result.invoices.length ? result.total : 0);
  }

  private setFilter(change: Partial<Pick<InvoiceList, 'status' | 'period' | 'order' | 'search'>>): void {
    this.userChanged = true;
    Object.assign(this, change);
  }

  private onSearchInput(event: InputEvent): void {
    this.searchDraft = (event.target as HTMLInputElement).value;
    clearTimeout(this.searchTimer);
    this.searchTimer = setTimeout(() => this.setFilter({ search: this.searchDraft }), SEARCH_DEBOUNCE_MS);
  }

  private onSearchKeydown(event: KeyboardEvent): void {
    if (event.key !== 'Enter') return;
    clearTimeout(this.searchTimer);
    this.setFilter({ search: this.searchDraft });
  }

  private clearFilters(): void {
    clearTimeout(this.searchTimer);
    this.searchDraft = '';
    this.setFilter({ status: '', period: 'all', search: '' });
  }

  private toggleSort(field: SortField): void {
    const [current, direction] = this.order.split('.');
    const next = current === field ? (direction === 'desc' ? 'asc' : 'desc') : field === 'payment_to' ? 'asc' : 'desc';
    this.setFilter({ order: `${field}.${next}` as ListOrder });
  }

  private goToPage(page: number): void {
    this.page = page;
    this.renderRoot.querySelector('table')?.scrollIntoView?.({ block: 'nearest' });
  }

  private onSelect(event: MouseEvent, invoice: PortalInvoice): void {
    if (!this.dispatchEvent(new InvoiceSelectEvent(invoice))) event.preventDefault();
  }

  private onPay(event: MouseEvent, invoice: PortalInvoice): void {
    if (!this.dispatchEvent(new InvoicePayEvent(invoice))) event.preventDefault();
  }

  private async onDownload(invoice: PortalInvoice): Promise<void> {
    if (!this.dispatchEvent(new InvoiceDownloadEvent(invoice))) return;
    if (invoice.pdf_url) {
      saveFile(invoice.pdf_url, `${invoice.number}.pdf`);
      return;
    }
    this.downloading = new Set([...this.downloading, invoice.id]);
    this.announcement = this.msg.downloading(invoice.number);
    try {
      const blob = await this.client().invoicePdf(invoice.id);
      const url = URL.createObjectURL(blob);
      saveFile(url, `${invoice.number.replace(/[\\/:*?"<>|]+/g, '-')}.pdf`);
      setTimeout(() => URL.revokeObjectURL(url), 60_000);
      this.announcement = '';
    } catch {
      this.announcement = this.msg.downloadFailed(invoice.number);
    } finally {
      const rest = new Set(this.downloading);
      rest.delete(invoice.id);
      this.downloading = rest;
    }
  }

  /** Arrow keys move between rows, keeping the column: quicker than tabbing through every action. */
  private onTableKeydown(event: KeyboardEvent): void {
    if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return;
    const target = event.composedPath()[0] as HTMLElement;
    const row = target.closest?.('tr[data-row]');
    if (!row) return;
    const focusables = [...row.querySelectorAll<HTMLElement>('a, button')];
    let sibling = event.key === 'ArrowDown' ? row.nextElementSibling : row.previousElementSibling;
    while (sibling && !sibling.hasAttribute('data-row')) sibling = event.key === 'ArrowDown' ? sibling.nextElementSibling : sibling.previousElementSibling;
    const next = sibling?.querySelectorAll<HTMLElement>('a, button')[Math.max(0, focusables.indexOf(target))];
    if (next) {
      event.preventDefault();
      next.focus();
    }
  }

  private onScroll(event: Event): void {
    const scroller = event.currentTarget as HTMLElement;
    const first = Math.floor(scroller.scrollTop / this.rowHeight);
    this.viewportRows = Math.ceil(scroller.clientHeight / this.rowHeight);
    if (Math.abs(first - this.firstVisible) >= 3 || first === 0) this.firstVisible = first;
  }

  private get filtered(): boolean {
    return Boolean(this.status || this.period !== 'all' || this.search.trim());
  }

  override render() {
    const m = this.msg;
    const status = this.listTask.status;
    const result = this.listTask.value;
    const stale = status === TaskStatus.PENDING && result !== undefined;
    const state =
      status === TaskStatus.ERROR ? 'error' : result === undefined ? 'loading' : result.total === 0 && !stale ? 'empty' : 'ready';
    return html`
      <section class="frame" part="frame" data-state=${state} aria-label=${m.title}>
        ${this.renderToolbar()}
        ${state === 'error'
          ? this.renderError(this.listTask.error)
          : state === 'empty'
            ? this.renderEmpty()
            : html`${this.renderTable(result, state === 'loading', stale)}${result ? this.renderFooter(result) : nothing}`}
        <div class="visually-hidden" role="status" aria-live="polite" aria-atomic="true">${this.announcement}</div>
      </section>
    `;
  }

  private renderToolbar() {
    const m = this.msg;
    return html`
      <div class="toolbar" part="toolbar">
        <div class="toolbar-row">
          <label class="search" part="search">
            ${icons.search}
            <span class="visually-hidden">${m.searchLabel}</span>
            <input
              type="search"
              inputmode="search"
              autocomplete="off"
              spellcheck="false"
              placeholder=${m.searchPlaceholder}
              .value=${this.searchDraft}
              @input=${this.onSearchInput}
              @keydown=${this.onSearchKeydown}
            />
          </label>
          <label class="select" part="period-select">
            <span class="visually-hidden">${m.periodLabel}</span>
            <select @change=${(e: Event) => this.setFilter({ period: (e.target as HTMLSelectElement).value as ListPeriod })}>
              ${LIST_PERIODS.map((p) => html`<option value=${p} ?selected=${p === this.period}>${m.period[p]}</option>`)}
            </select>
          </label>
          <label class="select sort-select" part="sort-select">
            <span class="visually-hidden">${m.sortLabel}</span>
            <select @change=${(e: Event) => this.setFilter({ order: (e.target as HTMLSelectElement).value as ListOrder })}>
              ${LIST_ORDERS.map((o) => html`<option value=${o} ?selected=${o === this.order}>${m.order[o]}</option>`)}
            </select>
          </label>
        </div>
        <fieldset class="statuses" part="status-filter">
          <legend class="visually-hidden">${m.statusLabel}</legend>
          ${STATUS_FILTERS.map(
            (s) => html`<label class="chip">
              <input
                type="radio"
                name="status"
                value=${s}
                .checked=${this.status === s}
                @change=${() => this.setFilter({ status: s })}
              /><span>${s ? m.status[s] : m.statusAll}</span>
            </label>`,
          )}
        </fieldset>
      </div>
    `;
  }

  private renderSortHeader(field: SortField, numeric = false) {
    const [current, direction] = this.order.split('.');
    const active = current === field;
    const sort = active ? (direction === 'asc' ? 'ascending' : 'descending') : 'none';
    return html`<th scope="col" part="header-cell" class=${numeric ? 'num' : ''} aria-sort=${sort}>
      <button type="button" class="sort ${active ? 'active' : ''}" @click=${() => this.toggleSort(field)}>
        ${this.msg.columns[SORTABLE[field]]}${active ? (direction === 'asc' ? icons.asc : icons.desc) : icons.sort}
      </button>
    </th>`;
  }

  private renderTable(result: InvoicePage | undefined, loading: boolean, stale: boolean) {
    const m = this.msg;
    const scroll = this.paging === 'scroll';
    const total = scroll ? this.rows.length : undefined;
    return html`
      <div class="scroller ${scroll ? 'scrolling' : ''}" @scroll=${scroll ? this.onScroll : undefined}>
        <table
          part="table"
          class=${stale ? 'stale' : ''}
          aria-busy=${loading || stale ? 'true' : 'false'}
          aria-rowcount=${scroll && result ? (total ?? 0) + 1 : nothing}
          @keydown=${this.onTableKeydown}
        >
          <caption class="visually-hidden">${m.caption}</caption>
          <thead>
            <tr aria-rowindex=${scroll ? 1 : nothing}>
              <th scope="col" part="header-cell">${m.columns.number}</th>
              ${this.renderSortHeader('issue_date')}
              ${this.renderSortHeader('payment_to')}
              ${this.renderSortHeader('price_gross', true)}
              <th scope="col" part="header-cell" class="num">${m.columns.balance}</th>
              <th scope="col" part="header-cell">${m.columns.status}</th>
              <th scope="col" part="header-cell"><span class="visually-hidden">${m.columns.actions}</span></th>
            </tr>
          </thead>
          <tbody>
            ${loading || !result
              ? Array.from({ length: Math.min(this.perPage, 6) }, () => this.renderSkeletonRow())
              : scroll
                ? this.renderWindow()
                : result.invoices.map((invoice) => this.renderRow(invoice))}
          </tbody>
        </table>
      </div>
    `;
  }

  private renderWindow() {
    const total = this.rows.length;
    const start = Math.max(0, this.firstVisible - OVERSCAN);
    const end = Math.min(total, this.firstVisible + this.viewportRows + OVERSCAN);
    const rows = [];
    for (let i = start; i < end; i++) {
      const invoice = this.rows[i];
      if (invoice) rows.push(this.renderRow(invoice, i));
      else {
        this.missingChunks.add(Math.floor(i / SCROLL_CHUNK));
        rows.push(this.renderSkeletonRow(i));
      }
    }
    const spacer = (rowCount: number) =>
      rowCount > 0
        ? html`<tr class="spacer" aria-hidden="true"><td colspan="7" style=${styleMap({ height: `${rowCount * this.rowHeight}px` })}></td></tr>`
        : nothing;
    return html`${spacer(start)}${rows}${spacer(total - end)}`;
  }

  private renderSkeletonRow(index?: number) {
    return html`<tr class="row skeleton" part="skeleton" data-index=${index ?? nothing} aria-hidden="true">
      ${[40, 30, 30, 26, 26, 22, 34].map((w) => html`<td><span class="bar" style=${styleMap({ width: `${w * 2}%` })}></span></td>`)}
    </tr>`;
  }

  private renderRow(invoice: PortalInvoice, index?: number) {
    const m = this.msg;
    const locale = this.resolvedLocale;
    const today = localToday();
    const status = customerStatus(invoice, today);
    const money = (amount: string) => formatMoney(amount, invoice.currency, locale);
    const due = amountDue(invoice);
    const dueText = money(toPlain(due));
    const owing = compare(due, ZERO) > 0;
    const paidSome = compare(decimal(invoice.paid), ZERO) > 0;
    const days = invoice.payment_to ? daysBetween(today, invoice.payment_to) : undefined;
    const context = html`<span class="visually-hidden">, ${m.columns.number} ${invoice.number}</span>`;
    const downloading = this.downloading.has(invoice.id);
    return html`<tr class="row" part="row" data-row data-index=${index ?? nothing} aria-rowindex=${index === undefined ? nothing : index + 2}>
      <th scope="row" part="cell" class="number-cell" data-label=${m.columns.number}>
        <a part="number" class="number" href=${invoice.view_url} target="_blank" rel="noopener" @click=${(e: MouseEvent) => this.onSelect(e, invoice)}
          >${invoice.number}</a
        >
      </th>
      <td part="cell" class="issue" data-label=${m.columns.issueDate}>${formatDate(invoice.issue_date, locale)}</td>
      <td part="cell" class="due" data-label=${m.columns.dueDate}>
        <span>${formatDate(invoice.payment_to, locale) || '—'}</span>
        ${owing && days !== undefined
          ? html`<span class="hint ${days < 0 ? 'late' : ''}">${days < 0 ? m.daysLate(-days) : m.dueIn(days)}</span>`
          : nothing}
      </td>
      <td part="cell" class="num total" data-label=${m.columns.total}>${money(invoice.price_gross)}</td>
      <td part="cell" class="num balance" data-label=${m.columns.balance}>
        ${owing
          ? html`<span class="owing">${dueText}</span><span class="hint">${paidSome ? m.paidAmount(money(invoice.paid)) : m.due}</span>`
          : html`<span class="settled">${money(invoice.paid)}</span><span class="hint">${m.paidLabel}</span>`}
      </td>
      <td part="cell" class="status" data-label=${m.columns.status}>
        <span class="badge ${status}" part="status-badge status-${status}">${m.status[status]}</span>
      </td>
      <td part="cell actions" class="actions">
        <button
          type="button"
          part="action download-button"
          class="action"
          ?disabled=${downloading}
          aria-busy=${downloading ? 'true' : 'false'}
          @click=${() => this.onDownload(invoice)}
        >
          ${icons.download}<span>${m.download}</span>${context}
        </button>
        <a part="action open-link" class="action" href=${invoice.view_url} target="_blank" rel="noopener" @click=${(e: MouseEvent) => this.onSelect(e, invoice)}
          >${icons.open}<span>${m.open}</span>${context}</a
        >
        ${owing && invoice.payment_url
          ? html`<a part="action pay-link" class="action pay" href=${invoice.payment_url} @click=${(e: MouseEvent) => this.onPay(e, invoice)}
              ><span>${m.pay}</span><span class="visually-hidden"> ${dueText}</span>${context}</a
            >`
          : nothing}
      </td>
    </tr>`;
  }

  private renderFooter(result: InvoicePage) {
    const m = this.msg;
    const n = (value: number) => formatNumber(value, this.resolvedLocale);
    if (this.paging === 'scroll') {
      return html`<div class="pagination" part="pagination"><p class="range">${m.announceCount(n(result.total), result.total)}</p></div>`;
    }
    const pages = Math.max(1, Math.ceil(result.total / result.perPage));
    const from = (result.page - 1) * result.perPage + 1;
    const to = from + result.invoices.length - 1;
    return html`
      <nav class="pagination" part="pagination" aria-label=${m.pagination}>
        <p class="range">${m.showing(n(from), n(to), n(result.total))}</p>
        ${pages > 1
          ? html`<div class="pager">
              <button type="button" part="page-button" class="page-button" ?disabled=${this.page <= 1} @click=${() => this.goToPage(this.page - 1)}>
                ${icons.prev}<span>${m.previousPage}</span>
              </button>
              <span class="page-of">${m.pageOf(n(this.page), n(pages))}</span>
              <button type="button" part="page-button" class="page-button" ?disabled=${this.page >= pages} @click=${() => this.goToPage(this.page + 1)}>
                <span>${m.nextPage}</span>${icons.next}
              </button>
            </div>`
          : nothing}
      </nav>
    `;
  }

  private renderEmpty() {
    const m = this.msg;
    const filtered = this.filtered;
    return html`<div class="state empty" part="empty">
      <div class="state-icon">${icons.empty}</div>
      <p class="state-title">${filtered ? m.noMatchTitle : m.emptyTitle}</p>
      <p class="state-text">${filtered ? m.noMatchText : m.emptyText}</p>
      ${filtered ? html`<button type="button" class="button" @click=${this.clearFilters}>${m.clearFilters}</button>` : nothing}
    </div>`;
  }

  private renderError(error: unknown) {
    const m = this.msg;
    const status = error instanceof BffError ? error.status : -1;
    const code = error instanceof BffError ? error.code : '';
    const text =
      code === 'no_token' ? m.errorNoToken : status === 401 ? m.errorSession : status === 429 ? m.errorBusy : status === 0 ? m.errorOffline : m.errorText;
    return html`<div class="state error" part="error" role="alert">
      <div class="state-icon">${icons.alert}</div>
      <p class="state-title">${m.errorTitle}</p>
      <p class="state-text">${text}</p>
      ${code === 'no_token' ? nothing : html`<button type="button" class="button" part="retry-button" @click=${() => this.reload()}>${m.retry}</button>`}
    </div>`;
  }
}

function saveFile(href: string, filename: string): void {
  const link = document.createElement('a');
  link.href = href;
  link.download = filename;
  link.rel = 'noopener';
  link.click();
}
