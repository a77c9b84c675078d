import { html, nothing, type PropertyDeclarations, type PropertyValues, type TemplateResult } from 'lit';
import { InvoiceKitElement } from '../shared/base-element.js';
import { LoadController } from '../shared/load-controller.js';
import { VirtualScroll } from '../shared/virtual-scroll.js';
import {
  BffClient,
  BffError,
  LIST_FILTERS,
  LIST_STATUSES,
  type CustomerTotals,
  type InvoiceListQuery,
  type InvoicePage,
  type ListFilter,
  type ListStatus,
  type PaymentOutcomeStatus,
  type PortalInvoice,
} from '../shared/bff-client.js';
import type { KsefView } from '../../api/ksef.js';
import { PORTAL_LIST_ORDERS as LIST_ORDERS, PORTAL_LIST_PERIODS as LIST_PERIODS, type PortalListOrder as ListOrder, type PortalListPeriod as ListPeriod } from '../../api/portal-contract.js';
import { DEV } from '../shared/dev-mode.js';
import { oneOf, warnInvalidAttribute } from '../shared/dev-warnings.js';
import { formatDate, formatMoney, formatNumber, localToday } from '../shared/format.js';
import { ksefDetail } from './ksef-detail.js';
import { ServerRendered } from '../shared/server-rendered.js';
import { themeStyles } from '../shared/theme.js';
import { InvoiceDownloadEvent, InvoicePayEvent, InvoiceQueryChangeEvent, InvoiceSelectEvent } from './events.js';
import { catalogs, type InvoiceListMessages } from './messages.js';
import { styles } from './invoice-list.styles.js';

export { LIST_ORDERS, LIST_PERIODS, type ListOrder, type ListPeriod };

/** Where a payment waits while the customer is on the payment page; the list they come back to reads it. */
const PAYMENT_KEY = 'invoicekit-invoice-payment';
export const PAGING_MODES = ['pages', 'scroll'] as const;
export type PagingMode = (typeof PAGING_MODES)[number];

/** Rows fetched at a time while scrolling: the BFF's largest page. */
const CHUNK = 100;
/** The choices offered; the `status` attribute also takes `partial` and `unpaid`. */
const STATUS_FILTERS = ['', 'outstanding', 'overdue', 'paid'] as const;
type SortField = 'issue_date' | 'payment_to' | 'price_gross';
const FILTERS = ['status', 'period', 'search', 'order', 'perPage', 'paging'] as const;

/** One stroked 20×20 path per icon, drawn by a single template. */
const icon = (path: string) => html`<svg viewBox="0 0 20 20" aria-hidden="true"><path d=${path} /></svg>`;
const icons = {
  search: icon('M14.5 9a5.5 5.5 0 0 0-11 0 5.5 5.5 0 0 0 11 0m-1 4.5 3.5 3.5'),
  chevron: icon('m8 5 5 5-5 5'),
  alert: icon('M17 10a7 7 0 0 0-14 0 7 7 0 0 0 14 0m-7-3.5v4m0 3v.01'),
  empty: icon('M5 2.5h6.5l3.5 3.5v11.5H5ZM11 2.5v4h4M8 11h4'),
};

/** `"0"`, `"0.00"` → true. */
const isZeroAmount = (amount: string) => !/[1-9]/.test(amount);

const dayNumber = (iso: string) => Date.parse(iso.slice(0, 10)) / 864e5;

/**
 * A customer's invoices, served by the invoicekit BFF: status and period filters, search by number,
 * sorting, pagination or endless scrolling, PDF download and payment, in a table that turns into cards
 * on narrow screens.
 *
 * @summary The session customer's invoices with filters, sorting, PDF download and pay actions.
 *
 * @fires {InvoiceSelectEvent} invoice-select - The customer opened an invoice (View, or a click on its row). `detail.invoice`. Cancelable: cancel to show it in your own page instead of opening `view_url` in a new tab.
 * @fires {InvoiceDownloadEvent} invoice-download - The customer asked for a PDF. `detail.invoice`. Cancelable: cancel to handle the download yourself.
 * @fires {InvoiceQueryChangeEvent} invoice-query-change - The customer changed the status filter, period, search, sort or page. `detail.status`, `detail.period`, `detail.search`, `detail.order`, `detail.page`. Fired on the customer's action only, never when code sets a property: keep it in the page's URL and set the properties back on `popstate`.
 * @fires {InvoicePayEvent} invoice-pay - The customer chose to pay. `detail.invoice`, `detail.paymentUrl`. Cancelable: cancel to run your own checkout; otherwise the customer pays on the service's page and comes back to `return-url`.
 *
 * @csspart frame - The card around everything.
 * @csspart toolbar - The filters above the table.
 * @csspart totals - What the customer owes, per currency, with the overdue part.
 * @csspart search - The search field.
 * @csspart status-filter - The group of status choices.
 * @csspart period-select - The period dropdown.
 * @csspart sort-select - The sort dropdown, shown on narrow screens instead of sortable headers.
 * @csspart table - The table.
 * @csspart header-cell - A column header.
 * @csspart row - An invoice row (a card on narrow screens).
 * @csspart cell - A cell of an invoice row.
 * @csspart number - The invoice number.
 * @csspart status-badge - The status badge; also `status-paid`, `status-partial`, `status-unpaid`, `status-overdue`.
 * @csspart balance - What is due and what has been paid, under the badge.
 * @csspart ksef - The invoice's state in KSeF under its number; also `ksef-sent`, `ksef-pending`, `ksef-error`, and `ksef-number` for the KSeF number.
 * @csspart ksef-toggle - The button that opens and closes an invoice's KSeF detail; `ksef-detail` is the detail, `ksef-verify-link` its verification link.
 * @csspart actions - The cell of row actions.
 * @csspart action - Each row action; also `view-link`, `download-button`, `pay-link`.
 * @csspart skeleton - A placeholder row shown while loading.
 * @csspart empty - The empty state.
 * @csspart error - The error state.
 * @csspart retry-button - The error state's retry button.
 * @csspart pay-outcome - How the customer's last payment ended, shown when they come back from paying; also `pay-outcome-paid`, `pay-outcome-declined`, `pay-outcome-cancelled`, `pay-outcome-pending`, and its `pay-again-button`.
 * @csspart pagination - The footer with the range and page buttons.
 * @csspart page-button - The previous and next page buttons.
 *
 * @cssprop --invoice-list-max-height - Height of the scrolling area when `paging="scroll"` (default 36rem).
 * @cssprop --invoice-list-row-height - Height of every row when `paging="scroll"` (default 4.5rem; cards 12rem): rows never change height as they load, so the scrollbar never jumps.
 * @cssprop --invoice-list-row-hover - Background of a row under the pointer.
 * @cssprop --invoice-list-header-background - Background of the column headers.
 * @cssprop --invoice-list-ksef-color - The dot of a pending KSeF state; `--invoice-list-ksef-sent-color` that of a sent one.
 * @cssprop --ik-color-accent - Accent color shared by every invoicekit element; also `--ik-color-surface`, `--ik-color-surface-sunken`, `--ik-color-text`, `--ik-color-text-muted`, `--ik-color-border`, `--ik-color-accent-text`, `--ik-color-success`, `--ik-color-warning`, `--ik-color-danger`, `--ik-color-info`, `--ik-shadow`, `--ik-radius`, `--ik-radius-small`, `--ik-font-family`, `--ik-font-size`.
 */
export class InvoiceList extends InvoiceKitElement<InvoiceListMessages> {
  static override styles = [themeStyles, styles];
  // Declared here rather than with decorators: the same reactive properties, half a kilobyte lighter.
  static override properties: PropertyDeclarations = {
    endpoint: {},
    portalToken: { attribute: 'portal-token' },
    status: {},
    period: {},
    search: {},
    order: {},
    perPage: { attribute: 'per-page', type: Number },
    paging: {},
    returnUrl: { attribute: 'return-url' },
    page: { type: Number },
    draft: { state: true },
    announcement: { state: true },
    busy: { state: true },
    totals: { state: true },
    result: { state: true },
    payResult: { state: true },
  };
  protected readonly catalogs = catalogs;

  /** Base URL of the BFF's routes. */
  endpoint = '/bff';

  /** The short-lived portal token your backend minted for this customer (never an api_token). */
  portalToken = '';

  /**
   * Status filter: `outstanding` (everything with money still due, overdue and partly paid included),
   * `overdue`, `paid`, `partial`, `unpaid`, or empty for all. The customer can change it.
   */
  status: ListFilter | '' = '';

  /** Period filter: `all`, `this_month`, `last_month`, `last_30_days`, `this_year`, `last_year`, `last_12_months`. */
  period: ListPeriod = 'all';

  /** Search by invoice number. */
  search = '';

  /** Sort order: `issue_date`, `payment_to` or `price_gross`, then `.asc` or `.desc`. */
  order: ListOrder = 'issue_date.desc';

  /** Invoices per page, 1 to 100. */
  perPage = 25;

  /** `pages` shows one page at a time; `scroll` loads while scrolling and renders only the visible rows. */
  paging: PagingMode = 'pages';

  /**
   * Where the customer comes back to after paying; default this page. The BFF accepts only its
   * allowed origins.
   */
  returnUrl = '';

  /**
   * The page shown, from 1, when `paging="pages"`. The customer changes it; a changed filter, search or
   * sort goes back to page 1 unless `page` is set with it. Past the last page, the list shows the last one.
   */
  page = 1;

  private draft = '';
  private announcement = '';
  private busy: readonly number[] = [];
  /** What the customer owes, from the first page's answer. */
  private totals?: CustomerTotals[];
  /** The last page the BFF answered; it stays on screen, dimmed, while the next one loads. */
  private result?: InvoicePage;
  /** How the payment the customer just came back from ended, as the BFF says. */
  private payResult?: { status: PaymentOutcomeStatus; invoice: PortalInvoice };
  #returnChecked = false;

  #api?: BffClient;
  #query?: InvoiceListQuery;
  /** The first page a server rendered this list with (`renderInvoiceList`), shown without asking again. */
  #server = new ServerRendered<InvoicePage>(this);
  #searchTimer?: ReturnType<typeof setTimeout>;
  #typing = false;
  /** Scroll mode: every matching invoice by position, filled a chunk at a time, and only the rows in view rendered. */
  #scroll = new VirtualScroll<PortalInvoice>(this, {
    chunk: CHUNK,
    fetchChunk: async (chunk, signal) => (await this.#client().listInvoices({ ...this.#query!, page: chunk + 1, per_page: CHUNK, totals: false }, signal)).data,
    failed: () => (this.announcement = this.msg.errorTitle),
    scroller: '.scrolling',
    probe: '.probe',
  });
  /** The language, messages and day of the render under way, looked up once for all its rows. */
  #locale = 'en';
  /** The rows whose KSeF detail is open, by invoice id. */
  #ksefOpen = new Set<number>();
  #m: InvoiceListMessages = catalogs.en;
  #today = 0;

  /** The arguments of the last load; a change starts the next one. */
  #loaded = '';
  /** The page loads: a newer one aborts an older one, so a stale answer never lands; the render reads its status. */
  #pages = new LoadController<InvoicePage>(this);

  /**
   * Fetches the invoices again with the current filters, e.g. after the customer has paid one. The
   * list stays on screen, dimmed, until the answer arrives; a newer load aborts an older one.
   */
  async reload(): Promise<void> {
    this.#scroll.stop();
    const result = await this.#pages.run((signal) => {
      if (!this.portalToken) throw new BffError(401, 'no_token', 'no portal token');
      this.#setQuery();
      return this.#client().listInvoices(this.#query!, signal);
    });
    if (this.#pages.status === 'error') {
      this.announcement = this.msg.errorTitle;
      this.result = undefined;
    }
    if (!result) return;
    // Past the last page (a page number from an old link): the last page instead of an empty one.
    if (!result.data.length && result.total && this.page > 1 && this.paging !== 'scroll') this.page = Math.ceil(result.total / result.per_page);
    else this.#show(result);
  }

  /**
   * A server-rendered first page, from the markup or from the server renderer: what `renderInvoiceList`
   * rendered with, shown as it is until the customer moves on.
   */
  set serverPage(page: InvoicePage | undefined) {
    this.#server.data = page;
  }

  /** The query of the current filters, and a client for their token and endpoint. */
  #setQuery(): void {
    this.#api = undefined;
    const scroll = this.paging === 'scroll';
    this.#query = {
      page: scroll ? 1 : this.page,
      per_page: scroll ? CHUNK : this.perPage,
      status: this.status || undefined,
      period: this.period === 'all' ? undefined : this.period,
      search: this.search.trim() || undefined,
      order: this.order,
    };
  }

  /** Made when first needed: a server renders the list without one. */
  #client(): BffClient {
    return (this.#api ??= new BffClient(this.endpoint, this.portalToken));
  }

  /** Shows a page the BFF answered (or the server rendered) and announces it. */
  #show(result: InvoicePage): void {
    const scroll = this.paging === 'scroll';
    if (scroll) this.#scroll.reset(result.total, result.data);
    const n = (value: number) => formatNumber(value, this.resolvedLocale);
    const from = (result.page - 1) * result.per_page + 1;
    this.announcement = !result.total
      ? this.msg.noResults
      : scroll
        ? this.msg.count(n(result.total), result.total)
        : this.msg.showing(n(from), n(from + result.data.length - 1), n(result.total));
    this.result = result;
    this.totals = result.totals;
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    clearTimeout(this.#searchTimer);
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    super.willUpdate(changed);
    this.status = oneOf(this, 'status', this.status, LIST_FILTERS, '' as ListFilter);
    this.period = oneOf(this, 'period', this.period, LIST_PERIODS, 'all');
    this.order = oneOf(this, 'order', this.order, LIST_ORDERS, 'issue_date.desc');
    this.paging = oneOf(this, 'paging', this.paging, PAGING_MODES, 'pages');
    // A removed attribute (null) means the default, silently; only a value that is there and wrong is worth a warning.
    if (!(Number.isInteger(this.perPage) && this.perPage > 0 && this.perPage <= 100)) {
      if (DEV && this.perPage != null) warnInvalidAttribute(this.tagName, 'per-page', this.perPage, 'a whole number from 1 to 100', 25);
      this.perPage = 25;
    }
    if (!(Number.isInteger(this.page) && this.page > 0)) {
      if (DEV && this.page != null) warnInvalidAttribute(this.tagName, 'page', this.page, 'a whole number from 1', 1);
      this.page = 1;
    }
    if (changed.has('search') && !this.#typing) this.draft = this.search;
    this.#typing = false;
    // A query set whole (a page restoring it from its URL) keeps its page.
    if (this.hasUpdated && FILTERS.some((key) => changed.has(key)) && !changed.has('page')) {
      this.page = 1;
      this.#scroll.toTop();
    }
    const scroll = this.paging === 'scroll';
    const load = [this.endpoint, this.portalToken, scroll || this.page, scroll || this.perPage, this.status, this.period, this.search.trim(), this.order].join('\n');
    if (this.portalToken && !this.#returnChecked) {
      this.#returnChecked = true;
      void this.#checkReturn();
    }
    if (load !== this.#loaded) {
      this.#loaded = load;
      const rendered = this.#server.take();
      // The server's page stands for the first load only when it answers the same question.
      if (rendered && !scroll && this.page === 1 && rendered.per_page === this.perPage && this.portalToken) {
        this.#setQuery();
        this.#show(rendered);
      } else void this.reload();
    }
  }

  /** A server-rendered list keeps the shadow root the server printed. */
  protected override createRenderRoot(): HTMLElement | DocumentFragment {
    return this.#server.serverRoot() ?? super.createRenderRoot();
  }

  /** A server-rendered list is painted as the server printed it before the element renders its own. */
  protected override async scheduleUpdate(): Promise<void> {
    await this.#server.painted();
    return super.scheduleUpdate();
  }

  /**
   * The first `Intl` formatter of a locale loads its data, tens of milliseconds on a slow phone:
   * made after the first paint, while the first page is on its way, and not when its rows arrive.
   */
  protected override firstUpdated(): void {
    requestAnimationFrame(() =>
      setTimeout(() => {
        formatNumber(0, this.#locale);
        formatDate('2000-01-01', this.#locale);
      }),
    );
  }

  /** The customer's change of the query: applied, and announced with `invoice-query-change` when it changes anything. */
  #filter(change: Partial<Pick<InvoiceList, 'status' | 'period' | 'order' | 'search' | 'page'>>): void {
    const next = { status: this.status, period: this.period, search: this.search, order: this.order, page: 1, ...change };
    if ((Object.keys(next) as (keyof typeof next)[]).every((key) => next[key] === this[key])) return;
    this.#typing = true;
    Object.assign(this, next);
    this.dispatchEvent(new InvoiceQueryChangeEvent(next));
  }

  #onSearchInput(event: Event): void {
    this.draft = (event.target as HTMLInputElement).value;
    clearTimeout(this.#searchTimer);
    this.#searchTimer = setTimeout(() => this.#filter({ search: this.draft }), 300);
  }

  #onSearchKeydown(event: KeyboardEvent): void {
    if (event.key !== 'Enter') return;
    clearTimeout(this.#searchTimer);
    this.#filter({ search: this.draft });
  }

  #clearFilters(): void {
    clearTimeout(this.#searchTimer);
    this.draft = '';
    this.#filter({ status: '', period: 'all', search: '' });
  }

  #sortBy(field: SortField): void {
    const [current, direction] = this.order.split('.');
    const next = current === field ? (direction === 'desc' ? 'asc' : 'desc') : field === 'payment_to' ? 'asc' : 'desc';
    this.#filter({ order: `${field}.${next}` as ListOrder });
  }

  /** Opens the invoice's page unless the host cancels the event to show it its own way. */
  async #select(invoice: PortalInvoice, link?: Event): Promise<void> {
    if (!this.dispatchEvent(new InvoiceSelectEvent(invoice))) return link?.preventDefault();
    // A click on the View link opens the page by itself; a click on the row needs a hand.
    if (link) return;
    const url = invoice.view_url ?? (await this.#pdfLink(invoice));
    if (url) window.open(url, '_blank', 'noopener');
  }

  /** A link to the PDF, so it works without the script (the server signs it); with it, a fresh link each time. */
  async #download(invoice: PortalInvoice, event: Event): Promise<void> {
    event.preventDefault();
    if (this.busy.includes(invoice.id) || !this.dispatchEvent(new InvoiceDownloadEvent(invoice))) return;
    const link = await this.#pdfLink(invoice);
    if (!link) return;
    // The BFF answers `download` with an attachment, so the page stays where it is.
    const anchor = document.createElement('a');
    anchor.href = `${link}&download`;
    anchor.download = '';
    anchor.click();
  }

  /** Asks the BFF for a short-lived PDF link, showing progress on the row and explaining failures. */
  async #pdfLink(invoice: PortalInvoice): Promise<string | undefined> {
    this.busy = [...this.busy, invoice.id];
    try {
      return (await this.#client().pdfLink(invoice.id)).url;
    } catch {
      this.announcement = this.msg.downloadFailed(invoice.number);
      return undefined;
    } finally {
      this.busy = this.busy.filter((id) => id !== invoice.id);
    }
  }

  /** Sends the customer to pay and back to this page, unless the host takes over. */
  async #pay(invoice: PortalInvoice, event: Event): Promise<void> {
    if (!this.dispatchEvent(new InvoicePayEvent(invoice))) return event.preventDefault();
    event.preventDefault();
    this.busy = [...this.busy, invoice.id];
    let target = invoice.payment_url;
    try {
      const answer = await this.#client().payment(invoice.id, this.returnUrl || location.href);
      target = answer.redirectUrl ?? target;
      if (answer.attempt) sessionStorage.setItem(PAYMENT_KEY, JSON.stringify({ attempt: answer.attempt, invoice }));
    } catch {
      // The invoice's own payment page still takes the payment; only the way back is lost.
      this.announcement = this.msg.payFailed(invoice.number);
    } finally {
      this.busy = this.busy.filter((id) => id !== invoice.id);
    }
    if (!target) return;
    // A link's own navigation, as a click on `payment_url` would have made.
    const anchor = document.createElement('a');
    anchor.href = target;
    anchor.click();
  }

  /**
   * Back from the payment page: asks the BFF how the payment ended (the return address proves
   * nothing) and says so, with a way to pay again after a decline or cancel. A payment the provider
   * has not settled yet is asked about a few more times.
   */
  async #checkReturn(): Promise<void> {
    let pending: { attempt: string; invoice: PortalInvoice } | undefined;
    try {
      pending = JSON.parse(sessionStorage.getItem(PAYMENT_KEY) ?? 'null') ?? undefined;
      sessionStorage.removeItem(PAYMENT_KEY);
    } catch {
      // storage blocked or a value not ours: nothing to report
    }
    if (typeof pending?.attempt !== 'string' || typeof pending.invoice?.number !== 'string') return;
    let status: PaymentOutcomeStatus = 'pending';
    for (let round = 0; round < 4 && status === 'pending'; round += 1) {
      if (round) await new Promise((resolve) => setTimeout(resolve, 1000 * round));
      status = (await this.#client().paymentOutcome(pending.attempt).catch(() => undefined))?.status ?? status;
      if (round && status === 'paid') void this.reload();
    }
    this.payResult = { status, invoice: pending.invoice };
  }

  #payOutcome({ status, invoice }: NonNullable<InvoiceList['payResult']>) {
    const m = this.#m;
    const again = status === 'declined' || status === 'cancelled';
    return html`<div class="pay-outcome ${status}" part="pay-outcome pay-outcome-${status}">
      <p>${m.payOutcome[status](invoice.number)}</p>
      ${again ? html`<button type="button" part="pay-again-button" @click=${(e: Event) => this.#pay(invoice, e)}>${m.payAgain}</button>` : nothing}
      <button type="button" class="dismiss" @click=${() => (this.payResult = undefined)}>${m.dismiss}</button>
    </div>`;
  }

  override render() {
    // Resolved once per render: each lookup walks the page for its `lang` and canonicalizes the tag.
    this.#locale = this.resolvedLocale;
    this.#today = dayNumber(localToday());
    const m = (this.#m = this.msg);
    const value = this.result;
    const stale = this.#pages.status === 'pending' && !!value;
    const state = this.#pages.status === 'error' ? 'error' : !value ? 'loading' : !value.total && !stale ? 'empty' : 'ready';
    return html`
      <section class="frame" part="frame" data-state=${state} aria-label=${m.caption} aria-busy=${state === 'loading' || stale}>
        ${this.payResult ? this.#payOutcome(this.payResult) : nothing} ${this.#toolbar()} ${state === 'ready' && this.totals ? this.#totals(this.totals) : nothing}
        ${state === 'error'
          ? this.#error(this.#pages.error)
          : state === 'empty'
            ? this.#empty()
            : html`${this.#table(value, stale)}${value ? this.#footer(value) : nothing}`}
        <div class="visually-hidden" role="status" aria-live="polite" aria-atomic="true">${this.announcement}</div>
        <div class="visually-hidden outcome-live" role="status" aria-live="polite" aria-atomic="true">${this.payResult ? m.payOutcome[this.payResult.status](this.payResult.invoice.number) : ''}</div>
      </section>
    `;
  }

  #toolbar() {
    const m = this.#m;
    const choice = <K extends 'period' | 'order'>(key: K, label: string, values: readonly InvoiceList[K][], names: Record<InvoiceList[K], string>) =>
      html`<label class="select" part="${key === 'order' ? 'sort' : key}-select">
        <span class="visually-hidden">${label}</span>
        <select @change=${(e: Event) => this.#filter({ [key]: (e.target as HTMLSelectElement).value })}>
          ${values.map((value) => html`<option value=${value} ?selected=${value === this[key]}>${names[value]}</option>`)}
        </select>
      </label>`;
    return html`
      <div class="toolbar" part="toolbar">
        <div class="toolbar-row">
          <label class="search" part="search">
            ${icons.search}<span class="visually-hidden">${m.searchPlaceholder}</span>
            <input
              type="search"
              autocomplete="off"
              spellcheck="false"
              placeholder=${m.searchPlaceholder}
              value=${this.draft}
              .value=${this.draft}
              @input=${this.#onSearchInput}
              @keydown=${this.#onSearchKeydown}
            />
          </label>
          ${choice('period', m.periodLabel, LIST_PERIODS, m.period)} ${choice('order', m.sortLabel, LIST_ORDERS, m.order)}
        </div>
        <fieldset class="statuses" part="status-filter">
          <legend class="visually-hidden">${m.columns.status}</legend>
          ${STATUS_FILTERS.map(
            (s) =>
              html`<label class="chip"
                ><input type="radio" name="status" ?checked=${this.status === s} .checked=${this.status === s} @change=${() => this.#filter({ status: s })} /><span
                  >${s ? m.status[s] : m.statusAll}</span
                ></label
              >`,
          )}
        </fieldset>
      </div>
    `;
  }

  /** What the customer owes per currency, from the BFF's totals of all their invoices. */
  #totals(totals: CustomerTotals[]) {
    const m = this.#m;
    const owing = totals.filter((each) => !isZeroAmount(each.outstanding));
    const money = (amount: string, currency: string) => formatMoney(amount, currency, this.#locale);
    return html`<p class="owed" part="totals">
      ${owing.length
        ? html`<span>${m.owed}</span>
            ${owing.map(
              (each) =>
                html`<span class="sum"
                  ><strong>${money(each.outstanding, each.currency)}</strong> ${m.owedOn(each.outstanding_count)}${!isZeroAmount(each.overdue)
                    ? html` · <span class="late">${m.overdueAmount(money(each.overdue, each.currency))}</span>`
                    : nothing}</span
                >`,
            )}`
        : m.nothingOwed}
    </p>`;
  }

  /** A column header; the sortable ones hold a button that sorts by their field. */
  #header(label: string | TemplateResult, className = '', field?: SortField) {
    const [current, direction] = this.order.split('.');
    const on = current === field;
    return html`<th scope="col" part="header-cell" class=${className} aria-sort=${field ? (on ? `${direction}ending` : 'none') : nothing}>
      ${field
        ? html`<button type="button" class="sort ${on ? direction : ''}" @click=${() => this.#sortBy(field)}>${label}${icons.chevron}</button>`
        : label}
    </th>`;
  }

  #table(result: InvoicePage | undefined, stale: boolean) {
    const m = this.#m;
    const columns = m.columns;
    const scroll = this.paging === 'scroll' && result;
    return html`
      <div class=${scroll ? 'scrolling' : ''} @scroll=${scroll ? this.#scroll.onScroll : undefined}>
        ${scroll ? html`<div class="probe" aria-hidden="true"></div>` : nothing}
        <table part="table" class=${stale ? 'stale' : ''} aria-rowcount=${scroll ? this.#scroll.rows.length + 1 : nothing}>
          <caption class="visually-hidden">${m.caption}</caption>
          <thead>
            <tr>
              ${this.#header(columns.number)} ${this.#header(columns.issue_date, 'issue', 'issue_date')}
              ${this.#header(columns.payment_to, '', 'payment_to')} ${this.#header(columns.price_gross, 'num', 'price_gross')}
              ${this.#header(columns.status, 'status')} ${this.#header(html`<span class="visually-hidden">${columns.actions}</span>`, 'actions')}
            </tr>
          </thead>
          <tbody class=${result ? '' : 'loading'}>
            ${!result
              ? Array.from({ length: Math.min(this.perPage, 6) }, () => this.#skeletonRow())
              : scroll
                ? this.#window()
                : result.data.map((invoice) => this.#row(invoice))}
          </tbody>
        </table>
      </div>
    `;
  }

  /** Only the rows in view (plus a margin) exist in the DOM; spacers of fixed row heights keep the scrollbar true. */
  #window() {
    const { before, rows, after } = this.#scroll.window(
      (invoice, i) => this.#row(invoice, i),
      (i) => this.#skeletonRow(i),
    );
    const spacer = (height: number) => (height ? html`<tr class="spacer" aria-hidden="true"><td colspan="6" .style=${`height:${height}px`}></td></tr>` : nothing);
    return html`${spacer(before)}${rows}${spacer(after)}`;
  }

  #skeletonRow(index?: number) {
    // One template without nested ones: while scrolling fast, most rows rendered are placeholders.
    return html`<tr class="skeleton" part="skeleton" data-index=${index ?? nothing} aria-hidden="true">
      <td><span class="bar"></span></td><td><span class="bar"></span></td><td><span class="bar"></span></td><td><span class="bar"></span></td
      ><td><span class="bar"></span></td><td><span class="bar"></span></td>
    </tr>`;
  }

  /** One template per row, with its actions and icons inline: every nested template is one more instance to create per row. */
  #row(invoice: PortalInvoice, index?: number) {
    const m = this.#m;
    const columns = m.columns;
    const locale = this.#locale;
    const status: ListStatus = LIST_STATUSES.includes(invoice.status) ? invoice.status : 'unpaid';
    const money = (amount: string) => formatMoney(amount, invoice.currency, locale);
    const owing = !isZeroAmount(invoice.outstanding);
    const due = money(invoice.outstanding);
    const days = invoice.payment_to ? dayNumber(invoice.payment_to) - this.#today : undefined;
    const busy = this.busy.includes(invoice.id);
    const select = (e?: Event) => this.#select(invoice, e);
    return html`<tr
      class="row"
      part="row"
      data-row
      data-index=${index ?? nothing}
      aria-rowindex=${index === undefined ? nothing : index + 2}
      @click=${(e: Event) => (e.target as Element).closest('a, button') || select()}
    >
      <th scope="row" part="cell number">${invoice.number}${invoice.ksef ? this.#ksef(invoice.ksef, invoice) : nothing}</th>
      <td part="cell" class="issue" data-label=${columns.issue_date}>${formatDate(invoice.issue_date, locale)}</td>
      <td part="cell" class="due" data-label=${columns.payment_to}>
        <span>${formatDate(invoice.payment_to, locale) || '—'}</span>
        ${owing && days !== undefined
          ? html`<span class="hint ${days < 0 ? 'late' : ''}">${days < 0 ? m.daysLate(-days) : m.dueIn(days)}</span>`
          : nothing}
      </td>
      <td part="cell" class="num total" data-label=${columns.price_gross}>${money(invoice.price_gross)}</td>
      <td part="cell" class="status" data-label=${columns.status}>
        <span class="badge ${status}" part="status-badge status-${status}">${m.status[status]}</span>
        <span class="balance" part="balance"
          >${owing
            ? html`<strong class="owing">${m.dueAmount(due)}</strong>${isZeroAmount(invoice.paid)
                  ? nothing
                  : html`<span class="hint">${m.paidOf(money(invoice.paid), money(invoice.price_gross))}</span>`}`
            : html`<span class="hint">${m.paidInFull(money(invoice.paid))}</span>`}</span
        >
      </td>
      <td part="cell actions" class="actions">
        ${invoice.view_url
          ? html`<a part="action view-link" class="action" href=${invoice.view_url} target="_blank" rel="noopener" @click=${select}
              ><svg viewBox="0 0 20 20" aria-hidden="true"><path d="M11.5 4.5h4v4m0-4-7 7M9 5H5.5a1 1 0 0 0-1 1v8.5a1 1 0 0 0 1 1H14a1 1 0 0 0 1-1V11" /></svg><span class="label">${m.open}</span
              ><span class="visually-hidden">, ${columns.number} ${invoice.number}</span></a
            >`
          : html`<button type="button" part="action view-link" class="action" ?disabled=${busy} @click=${() => select()}
              ><svg viewBox="0 0 20 20" aria-hidden="true"><path d="M11.5 4.5h4v4m0-4-7 7M9 5H5.5a1 1 0 0 0-1 1v8.5a1 1 0 0 0 1 1H14a1 1 0 0 0 1-1V11" /></svg><span class="label">${m.open}</span
              ><span class="visually-hidden">, ${columns.number} ${invoice.number}</span></button
            >`}
        <a
          part="action download-button"
          class="action"
          href=${invoice.pdf_link ?? invoice.pdf_url ?? nothing}
          aria-disabled=${busy ? 'true' : nothing}
          @click=${(e: Event) => this.#download(invoice, e)}
          ><svg viewBox="0 0 20 20" aria-hidden="true"><path d="M10 3.5v9m0 0-3.5-3.5M10 12.5l3.5-3.5M4 15.5h12" /></svg><span class="label">${m.download}</span
          ><span class="visually-hidden">, ${columns.number} ${invoice.number}</span></a
        >
        ${owing && invoice.payment_url
          ? html`<a
              part="action pay-link"
              class="action pay"
              href=${invoice.payment_url}
              aria-disabled=${busy ? 'true' : nothing}
              @click=${(e: Event) => this.#pay(invoice, e)}
              ><span class="label">${m.pay}</span><span class="visually-hidden"> ${due}</span
              ><span class="visually-hidden">, ${columns.number} ${invoice.number}</span></a
            >`
          : nothing}
      </td>
    </tr>`;
  }

  /** The invoice in KSeF: its state and, once sent, its KSeF number; then its detail, a disclosure (`ksef-detail.ts`). */
  #ksef(ksef: KsefView, invoice: PortalInvoice) {
    const m = this.#m;
    const toggle = (open: boolean, refocus: boolean) => {
      if (open) this.#ksefOpen.add(invoice.id);
      else this.#ksefOpen.delete(invoice.id);
      this.requestUpdate();
      if (refocus) void this.updateComplete.then(() => this.renderRoot.querySelector<HTMLElement>(`[data-ksef-toggle="${invoice.id}"]`)?.focus());
    };
    return html`<span class="ksef ${ksef.state}" part="ksef ksef-${ksef.state}"
      ><span class="ksef-state">${m.ksef[ksef.state]}${ksef.test ? ` (${m.ksefTest})` : ''}</span
      >${ksef.number ? html`<span class="ksef-number" part="ksef-number"><span class="visually-hidden">${m.ksefNumber}: </span>${ksef.number}</span>` : nothing}</span
    >${ksefDetail(ksef, invoice, { open: this.#ksefOpen.has(invoice.id), m, locale: this.#locale, numberLabel: m.columns.number, toggle })}`;
  }

  #footer(result: InvoicePage) {
    const m = this.#m;
    const n = (value: number) => formatNumber(value, this.#locale);
    if (this.paging === 'scroll') return html`<div class="pagination" part="pagination"><p>${m.count(n(result.total), result.total)}</p></div>`;
    const pages = Math.ceil(result.total / result.per_page);
    const from = (result.page - 1) * result.per_page + 1;
    const page = (to: number) => () => {
      this.#filter({ page: to });
      this.scrollIntoView({ block: 'nearest' });
    };
    return html`
      <nav class="pagination" part="pagination" aria-label=${m.pagination}>
        <p>${m.showing(n(from), n(from + result.data.length - 1), n(result.total))}</p>
        ${pages > 1
          ? html`<div class="pager">
              <button type="button" part="page-button" class="prev" ?disabled=${this.page < 2} @click=${page(this.page - 1)}>
                ${icons.chevron}${m.previousPage}
              </button>
              ${m.pageOf(n(this.page), n(pages))}
              <button type="button" part="page-button" ?disabled=${this.page >= pages} @click=${page(this.page + 1)}>
                ${m.nextPage}${icons.chevron}
              </button>
            </div>`
          : nothing}
      </nav>
    `;
  }

  /** The empty and error states: an icon, a title, a line of explanation and a way forward. */
  #state(part: 'empty' | 'error', icon: TemplateResult, title: string, text: string, action: unknown) {
    return html`<div class="state ${part}" part=${part} role=${part === 'error' ? 'alert' : nothing}>
      ${icon}
      <p class="title">${title}</p>
      <p>${text}</p>
      ${action}
    </div>`;
  }

  #empty() {
    const m = this.#m;
    const filtered = this.status || this.period !== 'all' || this.search.trim();
    return filtered
      ? this.#state('empty', icons.empty, m.noMatchTitle, m.noMatchText, html`<button type="button" @click=${this.#clearFilters}>${m.clearFilters}</button>`)
      : this.#state('empty', icons.empty, m.emptyTitle, m.emptyText, nothing);
  }

  #error(error: unknown) {
    const m = this.#m;
    const { status, code } = error instanceof BffError ? error : { status: -1, code: '' };
    const noToken = code === 'no_token';
    const text = noToken ? m.errorNoToken : status === 401 ? m.errorSession : status === 429 ? m.errorBusy : status ? m.errorText : m.errorOffline;
    return this.#state(
      'error',
      icons.alert,
      m.errorTitle,
      text,
      noToken ? nothing : html`<button type="button" part="retry-button" @click=${this.reload}>${m.retry}</button>`,
    );
  }
}
