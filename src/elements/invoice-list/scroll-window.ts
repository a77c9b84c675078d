import { html, nothing, type ReactiveControllerHost } from 'lit';
import type { PortalInvoice } from '../shared/bff-client.js';
import { VirtualScroll, type VirtualScrollOptions } from '../shared/virtual-scroll.js';
import { scrollStyles } from './invoice-list-scroll.styles.js';
import { invoiceRow, skeletonRow, type RowView } from './rows.js';

/** What the scroller holds before its table: its styles, and the hidden probe that CSS gives the row height. */
const head = html`<style>
    ${scrollStyles.cssText}
  </style>
  <div class="probe" aria-hidden="true"></div>`;

const spacer = (height: number) => (height ? html`<tr class="spacer" aria-hidden="true"><td colspan="6" .style=${`height:${height}px`}></td></tr>` : nothing);

/**
 * Scroll mode (`paging="scroll"`): the window over every matching invoice, with its spacers and its
 * styles. A module of its own, loaded when a list is set to scroll (docs/decisions/invoice-list-weight.md):
 * a list showing pages, the default and what a server renders, never loads it.
 */
export class ScrollWindow extends VirtualScroll<PortalInvoice> {
  readonly head = head;

  constructor(host: ReactiveControllerHost & { renderRoot: ParentNode }, options: Pick<VirtualScrollOptions<PortalInvoice>, 'chunk' | 'fetchChunk' | 'failed'>) {
    super(host, { ...options, scroller: '.scrolling', probe: '.probe' });
  }

  /** Only the rows in view (plus a margin) exist in the DOM, placeholders where an invoice has not arrived; spacers of fixed row heights keep the scrollbar true. */
  rowsInView(view: RowView) {
    const { before, rows, after } = this.window((invoice, i) => invoiceRow(invoice, i, view), skeletonRow);
    return html`${spacer(before)}${rows}${spacer(after)}`;
  }
}
