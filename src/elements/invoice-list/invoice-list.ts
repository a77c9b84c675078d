import { html, isServer, nothing, type PropertyDeclarations, type PropertyValues, type TemplateResult } from 'lit';
import { InvoiceKitElement } from '../shared/base-element.js';
import { Task } from '../shared/task.js';
import { BffClient, BffError, LIST_FILTERS, type CustomerTotals, type InvoiceListQuery, type InvoicePage, type ListFilter, type PortalInvoice } from '../shared/bff-client.js';
import { PORTAL_LIST_ORDERS as LIST_ORDERS, PORTAL_LIST_PERIODS as LIST_PERIODS, type PortalListOrder as ListOrder, type PortalListPeriod as ListPeriod } from '../../contract/portal.js';
import { DEV } from '../shared/dev-mode.js';
import { oneOf, warnInvalidAttribute } from '../shared/dev-warnings.js';
import { formatDate, formatNumber, localToday } from '../shared/format.js';
import { dayNumber, headerCell, invoiceRow, skeletonRow, type RowView, type SortField } from './rows.js';
import { KsefDisclosures } from './ksef-disclosures.js';
import { emptyState, pagination, rangeText, totalsLine, unreachableState } from './summary.js';
import { toolbar } from './toolbar.js';
import { follow, paymentWaiting, type PaymentResult } from './payment.js';
import { OnDemand } from './on-demand.js';
import { ServerRendered } from '../shared/server-rendered.js';
import { portalTokenSource, type TokenProvider } from '../shared/token-renewal.js';
import { themeStyles } from '../shared/theme.js';
import { InvoiceDownloadEvent, InvoicePayEvent, InvoiceQueryChangeEvent, InvoiceSelectEvent, TokenExpiredEvent } from './events.js';
import { catalogs, type InvoiceListMessages } from './messages.js';
import { styles } from './invoice-list.styles.js';

export { LIST_ORDERS, LIST_PERIODS, type ListOrder, type ListPeriod };

export const PAGING_MODES = ['pages', 'scroll'] as const;
export type PagingMode = (typeof PAGING_MODES)[number];

/** Rows fetched at a time while scrolling: the BFF's largest page. */
const CHUNK = 100;
const FILTERS = ['status', 'period', 'search', 'order', 'perPage', 'paging'] as const;

/**
 * A customer's invoices, served by the invoicekit BFF: status and period filters, search by number, sorting, pagination or endless scrolling, PDF download and payment, in a table that turns into cards on narrow screens.
 *
 * @element invoice-list
 * @summary The session customer's invoices with filters, sorting, PDF download and pay actions.
 * @attr {string} endpoint - Base URL of the BFF's routes (default `/bff`).
 * @attr {string} portal-token - The short-lived portal token your backend minted for this customer (never an api_token).
 * @attr {'' | 'outstanding' | 'overdue' | 'paid' | 'partial' | 'unpaid'} status - Status filter: `outstanding` (everything with money still due, overdue and partly paid included), `overdue`, `paid`, `partial`, `unpaid`, or empty for all.
 * @attr {'all' | 'this_month' | 'last_month' | 'last_30_days' | 'this_year' | 'last_year' | 'last_12_months'} period - Period filter.
 * @attr {string} search - Search by invoice number.
 * @attr {'issue_date.desc' | 'issue_date.asc' | 'payment_to.asc' | 'payment_to.desc' | 'price_gross.asc' | 'price_gross.desc'} order - Sort order.
 * @attr {number} per-page - Invoices per page, 1 to 100.
 * @attr {'pages' | 'scroll'} paging - `pages` shows one page at a time; `scroll` loads while scrolling and renders only the visible rows.
 * @attr {string} return-url - Where the customer comes back to after paying; default this page. The BFF accepts only its allowed origins.
 * @attr {number} page - The page shown, from 1, when `paging="pages"`.
 * @fires {InvoiceSelectEvent} invoice-select - The customer opened an invoice (View, or a click on its row). `detail.invoice`. Cancelable: cancel to show it in your own page instead of opening `view_url` in a new tab.
 * @fires {InvoiceDownloadEvent} invoice-download - The customer asked for a PDF. `detail.invoice`. Cancelable: cancel to handle the download yourself.
 * @fires {InvoiceQueryChangeEvent} invoice-query-change - The customer changed the status filter, period, search, sort or page. `detail.status`, `detail.period`, `detail.search`, `detail.order`, `detail.page`. Fired on the customer's action only, never when code sets a property: keep it in the page's URL and set the properties back on `popstate`.
 * @fires {TokenExpiredEvent} token-expired - The BFF said the portal token has expired. Set `portalToken` in the handler, or give `tokenProvider`, and the request is sent again under the new token; otherwise the list asks to reload the page. Cancelable: cancel to keep it from calling `tokenProvider`.
 * @fires {InvoicePayEvent} invoice-pay - The customer chose to pay. `detail.invoice`, `detail.paymentUrl`. Cancelable: cancel to run your own checkout; otherwise the customer pays on the service's page and comes back to `return-url`.
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
 * @csspart status-badge - The status badge.
 * @csspart status-paid - The badge of a paid invoice.
 * @csspart status-partial - The badge of a partly paid invoice.
 * @csspart status-unpaid - The badge of an unpaid invoice, not yet due.
 * @csspart status-overdue - The badge of an overdue invoice.
 * @csspart balance - What is due and what has been paid, under the badge.
 * @csspart ksef - The invoice's state in KSeF under its number.
 * @csspart ksef-sent - The KSeF state of an invoice KSeF accepted.
 * @csspart ksef-pending - The KSeF state of an invoice on its way to KSeF.
 * @csspart ksef-error - The KSeF state of an invoice KSeF refused.
 * @csspart ksef-number - The KSeF number.
 * @csspart ksef-toggle - The button that opens and closes an invoice's KSeF detail.
 * @csspart ksef-detail - The KSeF detail.
 * @csspart ksef-verify-link - The detail's link to KSeF's verification page.
 * @csspart actions - The cell of row actions.
 * @csspart action - Each row action.
 * @csspart view-link - The View action.
 * @csspart download-button - The PDF download action.
 * @csspart pay-link - The Pay action.
 * @csspart skeleton - A placeholder row shown while loading.
 * @csspart empty - The empty state.
 * @csspart error - The error state.
 * @csspart retry-button - The error state's retry button.
 * @csspart pay-outcome - How the customer's last payment ended, shown when they come back from paying.
 * @csspart pay-outcome-paid - The outcome when the payment went through.
 * @csspart pay-outcome-declined - The outcome when the payment was declined.
 * @csspart pay-outcome-cancelled - The outcome when the customer cancelled.
 * @csspart pay-outcome-pending - The outcome while the payment is not settled yet.
 * @csspart pay-again-button - The outcome's button to try paying again.
 * @csspart pagination - The footer with the range and page buttons.
 * @csspart page-button - The previous and next page buttons.
 * @cssprop [--invoice-list-max-height=36rem] - Height of the scrolling area when `paging="scroll"`.
 * @cssprop [--invoice-list-row-height=4.5rem] - Height of every row when `paging="scroll"` (cards: 12rem): rows never change height as they load, so the scrollbar never jumps.
 * @cssprop [--invoice-list-row-hover=color-mix(in srgb, var(--ik-color-text) 3%, transparent)] - Background of a row under the pointer.
 * @cssprop [--invoice-list-header-background=var(--ik-color-surface-sunken)] - Background of the column headers.
 * @cssprop [--invoice-list-ksef-color=var(--ik-color-info)] - The dot of a pending KSeF state.
 * @cssprop [--invoice-list-ksef-sent-color=var(--ik-color-success)] - The dot of a sent KSeF state.
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

  /** Called once when the BFF says the portal token has expired (unless the `token-expired` handler set `portalToken`): answers a new token for the same customer, under which the failed request is sent again. */
  tokenProvider?: TokenProvider | undefined;

  /** Status filter: `outstanding` (everything with money still due, overdue and partly paid included), `overdue`, `paid`, `partial`, `unpaid`, or empty for all. The customer can change it. */
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
  /** Where the customer comes back to after paying; default this page. The BFF accepts only its allowed origins. */
  returnUrl = '';
  /** The page shown, from 1, when `paging="pages"`. The customer changes it; a changed filter, search or sort goes back to page 1 unless `page` is set with it. Past the last page, the list shows the last one. */
  page = 1;

  private draft = '';
  private announcement = '';
  private busy: readonly number[] = [];
  /** What the customer owes, from the first page's answer. */
  private totals?: CustomerTotals[];
  /** The last page the BFF answered; it stays on screen, dimmed, while the next one loads. */
  private result?: InvoicePage;
  /** How the payment the customer just came back from ended, as the BFF says. */
  private payResult?: PaymentResult;
  #returnChecked = false;
  /** The pay flow (`payment-flow.ts`), loaded when a row's Pay is about to be used (the pointer or the focus on it) or a payment waits for the customer's return. */
  #payment = new OnDemand(() => import('./payment-flow.js'), { host: this, selector: '.pay' });

  #api?: BffClient;
  #query?: InvoiceListQuery;
  /** The first page a server rendered this list with (`renderInvoiceList`), shown without asking again. */
  #server = new ServerRendered<InvoicePage>(this);
  #searchTimer?: ReturnType<typeof setTimeout>;
  #typing = false;
  /** Scroll mode: every matching invoice by position, filled a chunk at a time, and only the rows in view rendered; made once its module (`scroll-window.ts`) is in. */
  #scroll?: import('./scroll-window.js').ScrollWindow;
  #scrollWindow = new OnDemand(() => import('./scroll-window.js'));
  /** The language, messages and day of the render under way, looked up once for all its rows. */
  #locale = 'en';
  /** The error state (`error-state.ts`), loaded when a load fails; `null` when it could not be loaded. */
  #errorView?: typeof import('./error-state.js') | null;
  #errorLoad?: Promise<void> | undefined;
  /** The rows' KSeF details, whose module loads when one is about to open. */
  #ksef = new KsefDisclosures(this);
  #m: InvoiceListMessages = catalogs.en;
  /** What the rows of the render under way share. */
  #rowView!: RowView;

  /** The page loads, again whenever the query, token or endpoint changes: a newer one aborts an older one, so a stale answer never lands; the render reads its status. */
  #pages = new Task(this, {
    // Scrolling shows every page: `page` and `per-page` do not count there.
    args: () => [this.endpoint, this.portalToken, ...(this.paging === 'scroll' ? [0, 0] : [this.page, this.perPage]), this.status, this.period, this.search.trim(), this.order] as const,
    task: (_, { signal }): InvoicePage | Promise<InvoicePage> => {
      this.#scroll?.stop();
      this.#setQuery();
      const rendered = this.#server.take();
      // The server's page stands for the first load only when it answers the same question.
      if (rendered && this.paging !== 'scroll' && this.page === 1 && rendered.per_page === this.perPage && this.portalToken) return rendered;
      // Rendered on a server with no page given (Lit's SSR through React): the loading state, and no request.
      if (isServer) return new Promise<InvoicePage>(() => undefined);
      if (!this.portalToken) throw new BffError(401, 'no_token', 'no portal token');
      const query = this.#query!;
      return this.paging === 'scroll' ? this.#loadScrollWindow().then(() => this.#client().listInvoices(query, signal)) : this.#client().listInvoices(query, signal);
    },
    onComplete: (result) => {
      // Past the last page (a page number from an old link): the last page instead of an empty one.
      if (!result.data.length && result.total && this.page > 1 && this.paging !== 'scroll') this.page = Math.ceil(result.total / result.per_page);
      else this.#show(result);
    },
    onError: () => {
      this.announcement = this.msg.errorTitle;
      this.result = undefined;
      // The error shows once its words are in (looking as while loading meanwhile); without them the server is out of reach, and the next failure tries again.
      this.#errorLoad ??= import('./error-state.js').catch(() => null).then((module) => {
        if (!(this.#errorView = module)) this.#errorLoad = undefined;
        this.requestUpdate();
      });
    },
  });

  /** Fetches the invoices again with the current filters, e.g. after the customer has paid one. The list stays on screen, dimmed, until the answer arrives; a newer load aborts an older one. */
  reload(): Promise<void> {
    return this.#pages.run();
  }

  /** A server-rendered first page, from the markup or from the server renderer: what `renderInvoiceList` rendered with, shown as it is until the customer moves on. */
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

  /** Loads scroll mode's module and makes its window, once, before its first chunk is asked for; a failed load is tried again by the next one. */
  async #loadScrollWindow(): Promise<void> {
    const { ScrollWindow } = await this.#scrollWindow.load();
    this.#scroll ??= new ScrollWindow(this, {
      chunk: CHUNK, fetchChunk: async (chunk, signal) => (await this.#client().listInvoices({ ...this.#query!, page: chunk + 1, per_page: CHUNK, totals: false }, signal)).data,
      failed: () => (this.announcement = this.msg.errorTitle),
    });
  }

  /** Made when first needed: a server renders the list without one. */
  #client(): BffClient {
    return (this.#api ??= new BffClient(this.endpoint, portalTokenSource(this, () => this.dispatchEvent(new TokenExpiredEvent()))));
  }

  /** Shows a page the BFF answered (or the server rendered) and announces it. */
  #show(result: InvoicePage): void {
    const scroll = this.paging === 'scroll';
    if (scroll) this.#scroll?.reset(result.total, result.data);
    this.announcement = !result.total ? this.msg.noResults : rangeText(result, this.msg, this.resolvedLocale, scroll);
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
      this.#scroll?.toTop();
    }
    if (!isServer && this.portalToken && !this.#returnChecked) {
      this.#returnChecked = true;
      void this.#checkReturn();
    }
    // The first load starts here, not at the task's own turn after `willUpdate`: a server renderer
    // (renderInvoiceList) calls `willUpdate` and no controller, and renders the page it was given.
    if (!this.hasUpdated) void this.#pages.run();
  }

  /** A server-rendered list keeps the shadow root the server printed. */
  protected override createRenderRoot(): HTMLElement | DocumentFragment {
    return this.#server.serverRoot() ?? super.createRenderRoot();
  }

  /** Resolves once the element has rendered, including a KSeF detail just opened, or an error, whose module was still loading. */
  protected override async getUpdateComplete(): Promise<boolean> {
    await this.#ksef.loading;
    await this.#errorLoad;
    return super.getUpdateComplete();
  }

  /** A server-rendered list is painted as the server printed it before the element renders its own. */
  protected override async scheduleUpdate(): Promise<void> {
    await this.#server.painted();
    return super.scheduleUpdate();
  }

  /** The first `Intl` formatter of a locale loads its data, tens of milliseconds on a slow phone: made after the first paint, while the first page is on its way, and not when its rows arrive. */
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
    follow(`${link}&download`, true);
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
    const announce = (text: string) => (this.announcement = text);
    // Without the pay flow, the invoice's own payment page still takes the payment; only the way back is lost.
    const target = await this.#payment.load().then((flow) => flow.startPayment(this.#client(), invoice, this.returnUrl || location.href, this.#locale, announce), () => invoice.payment_url);
    this.busy = this.busy.filter((id) => id !== invoice.id);
    if (target) follow(target);
  }

  /** Back from the payment page: how the payment ended, as the BFF says, and a new list if it was paid late. */
  async #checkReturn(): Promise<void> {
    if (!paymentWaiting()) return;
    const { paymentOnReturn } = await this.#payment.load();
    this.payResult = (await paymentOnReturn(() => this.#client(), () => void this.reload())) ?? this.payResult;
  }

  override render() {
    // Resolved once per render: each lookup walks the page for its `lang` and canonicalizes the tag.
    this.#locale = this.resolvedLocale;
    const m = (this.#m = this.msg);
    this.#rowView = {
      m,
      locale: this.#locale,
      today: dayNumber(localToday()),
      busy: this.busy,
      select: (invoice, event) => void this.#select(invoice, event),
      download: (invoice, event) => void this.#download(invoice, event),
      pay: (invoice, event) => void this.#pay(invoice, event),
      ksef: (ksef, invoice) => this.#ksef.cell(ksef, invoice, m, this.#locale),
    };
    const value = this.result;
    const payment = this.#payment.module;
    const stale = this.#pages.status === 'pending' && !!value;
    const errors = this.#errorView;
    const state = this.#pages.status === 'error' && errors !== undefined ? 'error' : !value ? 'loading' : !value.total && !stale ? 'empty' : 'ready';
    return html`
      <section class="frame" part="frame" data-state=${state} aria-label=${m.caption} aria-busy=${state === 'loading' || stale}>
        ${this.payResult && payment
          ? payment.payOutcome(this.payResult, this.#locale, (e) => void this.#pay(this.payResult!.invoice, e), () => (this.payResult = undefined))
          : nothing} ${toolbar({
          m,
          draft: this.draft,
          status: this.status,
          period: this.period,
          order: this.order,
          filter: (change) => this.#filter(change),
          searchInput: this.#onSearchInput,
          searchKeydown: this.#onSearchKeydown,
        })} ${state === 'loading' ? html`<p class="owed" part="totals"><strong>\u00a0</strong></p>` : state === 'ready' && this.totals ? totalsLine(this.totals, m, this.#locale) : nothing}
        ${state === 'error'
          ? errors ? errors.errorState(this.#pages.error, m, this.#locale, this.reload) : unreachableState(m, this.reload)
          : state === 'empty'
            ? emptyState(m, !!(this.status || this.period !== 'all' || this.search.trim()), this.#clearFilters)
            : html`${this.#table(value, stale)}${value
                ? pagination(value, {
                    m,
                    locale: this.#locale,
                    scroll: this.paging === 'scroll',
                    page: this.page,
                    go: (page) => {
                      this.#filter({ page });
                      this.scrollIntoView({ block: 'nearest' });
                    },
                  })
                : nothing}`}
        <div class="visually-hidden" role="status" aria-live="polite" aria-atomic="true">${this.announcement}</div>
        <div class="visually-hidden outcome-live" role="status" aria-live="polite" aria-atomic="true">${this.payResult && payment ? payment.outcomeText(this.payResult, this.#locale) : ''}</div>
      </section>
    `;
  }

  #table(result: InvoicePage | undefined, stale: boolean) {
    const header = (label: string | TemplateResult, className?: string, field?: SortField) => headerCell(this.order, (f) => this.#sortBy(f), label, className, field);
    const m = this.#m;
    const columns = m.columns;
    const scroll = this.paging === 'scroll' && result ? this.#scroll : undefined;
    return html`
      <div class=${scroll ? 'scrolling' : ''} @scroll=${scroll ? scroll.onScroll : undefined}>
        ${scroll ? scroll.head : nothing}
        <table part="table" class=${stale ? 'stale' : ''} aria-rowcount=${scroll ? scroll.rows.length + 1 : nothing}>
          <caption class="visually-hidden">${m.caption}</caption>
          <thead>
            <tr>
              ${header(columns.number)} ${header(columns.issue_date, 'issue', 'issue_date')}
              ${header(columns.payment_to, '', 'payment_to')} ${header(columns.price_gross, 'num', 'price_gross')}
              ${header(columns.status, 'status')} ${header(html`<span class="visually-hidden">${columns.actions}</span>`, 'actions')}
            </tr>
          </thead>
          <tbody>
            ${!result
              ? [...Array(this.perPage)].map(skeletonRow)
              : scroll
                ? scroll.rowsInView(this.#rowView)
                : result.data.map((invoice) => invoiceRow(invoice, undefined, this.#rowView))}
          </tbody>
        </table>
      </div>
    `;
  }
}
