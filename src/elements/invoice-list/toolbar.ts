import { html } from 'lit';
import { PORTAL_LIST_ORDERS as LIST_ORDERS, PORTAL_LIST_PERIODS as LIST_PERIODS, type PortalListOrder as ListOrder, type PortalListPeriod as ListPeriod } from '../../contract/portal.js';
import type { ListFilter } from '../shared/bff-client.js';
import type { InvoiceListMessages } from './messages.js';
import { icons } from './rows.js';

/** The choices offered; the `status` attribute also takes `partial` and `unpaid`. */
const STATUS_FILTERS = ['', 'outstanding', 'overdue', 'paid'] as const;

/** The query the toolbar shows and how it hands the customer's changes back. */
export interface ToolbarView {
  m: InvoiceListMessages;
  /** The search as typed so far. */
  draft: string;
  status: ListFilter | '';
  period: ListPeriod;
  order: ListOrder;
  filter(change: Partial<Pick<ToolbarView, 'status' | 'period' | 'order'>>): void;
  searchInput(event: Event): void;
  searchKeydown(event: KeyboardEvent): void;
}

/** The search field, the period and sort choices and the status chips. */
export function toolbar(view: ToolbarView) {
  const m = view.m;
  const choice = <K extends 'period' | 'order'>(key: K, label: string, values: readonly ToolbarView[K][], names: Record<ToolbarView[K], string>) =>
    html`<label class="select" part="${key === 'order' ? 'sort' : key}-select">
      <span class="visually-hidden">${label}</span>
      <select @change=${(e: Event) => view.filter({ [key]: (e.target as HTMLSelectElement).value })}>
        ${values.map((value) => html`<option value=${value} ?selected=${value === view[key]}>${names[value]}</option>`)}
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
            value=${view.draft}
            .value=${view.draft}
            @input=${view.searchInput}
            @keydown=${view.searchKeydown}
          />
        </label>
        ${choice('period', m.periodLabel, LIST_PERIODS, m.period)} ${choice('order', m.sortLabel, LIST_ORDERS, m.order)}
      </div>
      <fieldset class="statuses" part="status-filter">
        <legend class="visually-hidden">${m.columns.status}</legend>
        ${STATUS_FILTERS.map(
          (s) =>
            html`<label class="chip"
              ><input type="radio" name="status" ?checked=${view.status === s} .checked=${view.status === s} @change=${() => view.filter({ status: s })} /><span
                >${s ? m.status[s] : m.statusAll}</span
              ></label
            >`,
        )}
      </fieldset>
    </div>
  `;
}
