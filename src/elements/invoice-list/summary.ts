import { html, nothing } from 'lit';
import type { CustomerTotals, InvoicePage } from '../shared/bff-client.js';
import { formatMoney, formatNumber } from '../shared/format.js';
import type { InvoiceListMessages } from './messages.js';
import { icons, isZeroAmount, stateBox } from './rows.js';

/** What the customer owes per currency, from the BFF's totals of all their invoices. */
export function totalsLine(totals: CustomerTotals[], m: InvoiceListMessages, locale: string) {
  const owing = totals.filter((each) => !isZeroAmount(each.outstanding));
  const money = (amount: string, currency: string) => formatMoney(amount, currency, locale);
  return html`<p class="owed" part="totals">
    ${owing.length
      ? html`<span>${m.owed}</span>
          ${owing.map(
            (each) =>
              html`<span class="sum"
                ><strong>${money(each.outstanding, each.currency)}</strong> ${m.owedOn(formatNumber(each.outstanding_count, locale), each.outstanding_count)}${!isZeroAmount(each.overdue)
                  ? html` · <span class="late">${m.overdueAmount(money(each.overdue, each.currency))}</span>`
                  : nothing}</span
              >`,
          )}`
      : m.nothingOwed}
  </p>`;
}

/** "Showing 1–25 of 30", or in scroll mode "30 invoices": the pager's line, and what the list announces when a page arrives. */
export function rangeText(result: InvoicePage, m: InvoiceListMessages, locale: string, scroll: boolean): string {
  const n = (value: number) => formatNumber(value, locale);
  const from = (result.page - 1) * result.per_page + 1;
  return scroll ? m.count(n(result.total), result.total) : m.showing(n(from), n(from + result.data.length - 1), n(result.total));
}

/** The range shown and the page buttons, or in scroll mode the count. */
export function pagination(result: InvoicePage, view: { m: InvoiceListMessages; locale: string; scroll: boolean; page: number; go(page: number): void }) {
  const { m, page: current } = view;
  const n = (value: number) => formatNumber(value, view.locale);
  if (view.scroll) return html`<div class="pagination" part="pagination"><p>${rangeText(result, m, view.locale, true)}</p></div>`;
  const pages = Math.ceil(result.total / result.per_page);
  const page = (to: number) => () => view.go(to);
  return html`
    <nav class="pagination" part="pagination" aria-label=${m.pagination}>
      <p>${rangeText(result, m, view.locale, false)}</p>
      ${pages > 1
        ? html`<div class="pager">
            <button type="button" part="page-button" class="prev" ?disabled=${current < 2} @click=${page(current - 1)}>
              ${icons.chevron}${m.previousPage}
            </button>
            ${m.pageOf(n(current), n(pages))}
            <button type="button" part="page-button" ?disabled=${current >= pages} @click=${page(current + 1)}>
              ${m.nextPage}${icons.chevron}
            </button>
          </div>`
        : nothing}
    </nav>
  `;
}

/** No invoices: none at all, or none that match the filters, with a way to clear them. */
export function emptyState(m: InvoiceListMessages, filtered: boolean, clear: () => void) {
  return filtered
    ? stateBox('empty', icons.empty, m.noMatchTitle, m.noMatchText, html`<button type="button" @click=${clear}>${m.clearFilters}</button>`)
    : stateBox('empty', icons.empty, m.emptyTitle, m.emptyText, nothing);
}

/**
 * The error state when not even its module (`error-state.ts`) could be loaded: the server is out of
 * reach, and the list says so in the words it carries, with a retry.
 */
export function unreachableState(m: InvoiceListMessages, retry: () => void) {
  return stateBox('error', icons.alert, m.errorTitle, m.errorOffline, html`<button type="button" part="retry-button" @click=${retry}>${m.retry}</button>`);
}
