import { html, nothing, type TemplateResult } from 'lit';
import type { KsefView } from '../../contract/ksef.js';
import type { PortalListOrder } from '../../contract/portal.js';
import { LIST_STATUSES, type ListStatus, type PortalInvoice } from '../shared/bff-client.js';
import { formatDate, formatMoney } from '../shared/format.js';
import type { InvoiceListMessages } from './messages.js';

/** One stroked 20×20 path per icon, drawn by a single template. */
const icon = (path: string) => html`<svg viewBox="0 0 20 20" aria-hidden="true"><path d=${path} /></svg>`;
export const icons = {
  search: icon('M14.5 9a5.5 5.5 0 0 0-11 0 5.5 5.5 0 0 0 11 0m-1 4.5 3.5 3.5'),
  chevron: icon('m8 5 5 5-5 5'),
  alert: icon('M17 10a7 7 0 0 0-14 0 7 7 0 0 0 14 0m-7-3.5v4m0 3v.01'),
  empty: icon('M5 2.5h6.5l3.5 3.5v11.5H5ZM11 2.5v4h4M8 11h4'),
};

/** `"0"`, `"0.00"` → true. */
export const isZeroAmount = (amount: string) => !/[1-9]/.test(amount);

export const dayNumber = (iso: string) => Date.parse(iso.slice(0, 10)) / 864e5;

/** What every row of one render shares: its language, day, busy rows and the list's actions. */
export interface RowView {
  m: InvoiceListMessages;
  locale: string;
  /** Today as a day number. */
  today: number;
  /** Rows waiting for the BFF, by invoice id. */
  busy: readonly number[];
  select(invoice: PortalInvoice, event?: Event): void;
  download(invoice: PortalInvoice, event: Event): void;
  pay(invoice: PortalInvoice, event: Event): void;
  ksef(ksef: KsefView, invoice: PortalInvoice): unknown;
}

/** A placeholder row while its invoice loads. */
export function skeletonRow(index?: number) {
  // One template without nested ones: while scrolling fast, most rows rendered are placeholders.
  return html`<tr class="skeleton" part="skeleton" data-index=${index ?? nothing} aria-hidden="true">
    <td><span class="bar"></span></td><td><span class="bar"></span></td><td><span class="bar"></span></td><td><span class="bar"></span></td
    ><td><span class="bar"></span></td><td><span class="bar"></span></td>
  </tr>`;
}

/** One template per row, with its actions and icons inline: every nested template is one more instance to create per row. */
export function invoiceRow(invoice: PortalInvoice, index: number | undefined, view: RowView) {
  const m = view.m;
  const columns = m.columns;
  const locale = view.locale;
  const status: ListStatus = LIST_STATUSES.includes(invoice.status) ? invoice.status : 'unpaid';
  const money = (amount: string) => formatMoney(amount, invoice.currency, locale);
  const owing = !isZeroAmount(invoice.outstanding);
  const due = money(invoice.outstanding);
  const days = invoice.payment_to ? dayNumber(invoice.payment_to) - view.today : undefined;
  const busy = view.busy.includes(invoice.id);
  const select = (e?: Event) => view.select(invoice, e);
  return html`<tr
    class="row"
    part="row"
    data-row
    data-index=${index ?? nothing}
    aria-rowindex=${index === undefined ? nothing : index + 2}
    @click=${(e: Event) => (e.target as Element).closest('a, button') || select()}
  >
    <th scope="row" part="cell number">${invoice.number}${invoice.ksef ? view.ksef(invoice.ksef, invoice) : nothing}</th>
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
        href=${invoice.pdf_link ?? invoice.pdf_url}
        aria-disabled=${busy ? 'true' : nothing}
        @click=${(e: Event) => view.download(invoice, e)}
        ><svg viewBox="0 0 20 20" aria-hidden="true"><path d="M10 3.5v9m0 0-3.5-3.5M10 12.5l3.5-3.5M4 15.5h12" /></svg><span class="label">${m.download}</span
        ><span class="visually-hidden">, ${columns.number} ${invoice.number}</span></a
      >
      ${invoice.einvoice
        ? html`<a
            part="action download-button"
            class="action"
            href=${invoice.einvoice.url}
            ><svg viewBox="0 0 20 20" aria-hidden="true"><path d="M10 3.5v9m0 0-3.5-3.5M10 12.5l3.5-3.5M4 15.5h12" /></svg><span class="label">${m.einvoice} (${invoice.einvoice.label})</span
            ><span class="visually-hidden">, ${columns.number} ${invoice.number}</span></a
          >`
        : nothing}
      ${owing && invoice.payment_url
        ? html`<a
            part="action pay-link"
            class="action pay"
            href=${invoice.payment_url}
            aria-disabled=${busy ? 'true' : nothing}
            @click=${(e: Event) => view.pay(invoice, e)}
            ><span class="label">${m.pay}</span><span class="visually-hidden"> ${due}</span
            ><span class="visually-hidden">, ${columns.number} ${invoice.number}</span></a
          >`
        : nothing}
    </td>
  </tr>`;
}

/** An invoice's state in KSeF, as its cell and its open detail both say it: "In KSeF (test)". */
export const ksefStateText = (ksef: KsefView, m: InvoiceListMessages) => `${m.ksef[ksef.state]}${ksef.test ? ` (${m.ksefTest})` : ''}`;

/** What a row's KSeF cell takes from the list (`ksef-disclosures.ts`). */
export interface KsefCellView {
  readonly m: InvoiceListMessages;
  readonly open: boolean;
  /** The open detail's contents (`ksef-detail.ts`), or `nothing` while its module loads: the panel shows once they are in. */
  readonly detail: unknown;
  /** Opens or closes the detail; `refocus` puts the focus back on the button afterwards. */
  readonly toggle: (open: boolean, refocus: boolean) => void;
}

/**
 * The invoice in KSeF: its state and, once sent, its KSeF number; then a disclosure button
 * (`aria-expanded`, `aria-controls`) and the panel it opens in the same cell. Enter and Space toggle
 * it, as any button; Escape in the panel closes it and puts the focus back on the button.
 */
export function ksefCell(ksef: KsefView, invoice: PortalInvoice, view: KsefCellView) {
  const { m, open } = view;
  const id = `ksef-detail-${invoice.id}`;
  const onKeydown = (e: KeyboardEvent) => {
    if (e.key !== 'Escape' || !open) return;
    e.stopPropagation();
    view.toggle(false, true);
  };
  return html`<span class="ksef ${ksef.state}" part="ksef ksef-${ksef.state}"
      ><span class="ksef-state">${ksefStateText(ksef, m)}</span
      >${ksef.number ? html`<span class="ksef-number" part="ksef-number"><span class="visually-hidden">${m.ksefNumber}: </span>${ksef.number}</span>` : nothing}</span
    ><button
      type="button"
      class="ksef-toggle"
      part="ksef-toggle"
      data-ksef-toggle=${invoice.id}
      aria-expanded=${open ? 'true' : 'false'}
      aria-controls=${id}
      @click=${() => view.toggle(!open, false)}
      @keydown=${onKeydown}
    >
      ${m.ksefDetails}<span class="visually-hidden">, ${m.columns.number} ${invoice.number}</span>
    </button>
    <div
      id=${id}
      class="ksef-detail"
      part="ksef-detail"
      role="group"
      aria-label=${m.ksefDetailsOf(invoice.number)}
      ?hidden=${!open || view.detail === nothing}
      @click=${(e: Event) => e.stopPropagation()}
      @keydown=${onKeydown}
    >
      ${open ? view.detail : nothing}
    </div>`;
}

/** The empty and error states: an icon, a title, a line of explanation and a way forward. */
export function stateBox(part: 'empty' | 'error', icon: TemplateResult, title: string, text: string, action: unknown) {
  return html`<div class="state ${part}" part=${part} role=${part === 'error' ? 'alert' : nothing}>
    ${icon}
    <p class="title">${title}</p>
    <p>${text}</p>
    ${action}
  </div>`;
}

export type SortField = 'issue_date' | 'payment_to' | 'price_gross';

/** A column header; the sortable ones hold a button that sorts by their field. */
export function headerCell(order: PortalListOrder, sortBy: (field: SortField) => void, label: string | TemplateResult, className = '', field?: SortField) {
  const [current, direction] = order.split('.');
  const on = current === field;
  return html`<th scope="col" part="header-cell" class=${className} aria-sort=${field ? (on ? `${direction}ending` : 'none') : nothing}>
    ${field ? html`<button type="button" class="sort ${on ? direction : ''}" @click=${() => sortBy(field)}>${label}${icons.chevron}</button>` : label}
  </th>`;
}
