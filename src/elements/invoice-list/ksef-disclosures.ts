import { nothing, type ReactiveElement } from 'lit';
import type { KsefView } from '../../contract/ksef.js';
import type { PortalInvoice } from '../shared/bff-client.js';
import type { InvoiceListMessages } from './messages.js';
import { ksefCell } from './rows.js';
import { OnDemand } from './on-demand.js';

/**
 * The rows' KSeF disclosures: which are open, and the open detail's template, styles and words, a module of
 * their own (`ksef-detail.ts`) loaded by dynamic `import()` when a customer is about to open one: the
 * pointer over a disclosure, the focus on it, or the opening itself. A list whose details nobody opens
 * never loads it (docs/decisions/element-loading.md). A disclosure opened while the module loads shows
 * its open state at once and its panel as soon as the module is in; the element's `updateComplete`
 * waits for that (`loading`).
 */
export class KsefDisclosures {
  readonly #host: ReactiveElement;
  /** The rows whose detail is open, by invoice id. */
  readonly #open = new Set<number>();
  readonly #detail: OnDemand<typeof import('./ksef-detail.js')>;
  /** The last opening's wait for the module, settled either way. */
  #load?: Promise<void>;

  constructor(host: ReactiveElement) {
    this.#host = host;
    // The pointer over a disclosure, or the focus on one: its detail is about to be opened.
    this.#detail = new OnDemand(() => import('./ksef-detail.js'), { host, selector: '[data-ksef-toggle]' });
  }

  /** Resolves once the module an open detail waits for is in (or failed to load), else `undefined`. */
  get loading(): Promise<void> | undefined {
    return this.#open.size && !this.#detail.module ? this.#load : undefined;
  }

  /** A row's KSeF cell, with its detail when it is open and loaded. */
  cell(ksef: KsefView, invoice: PortalInvoice, m: InvoiceListMessages, locale: string) {
    const open = this.#open.has(invoice.id);
    const detail = this.#detail.module;
    return ksefCell(ksef, invoice, {
      m,
      open,
      detail: open && detail ? detail.ksefDetail(ksef, invoice, m, locale) : nothing,
      toggle: (next, refocus) => {
        if (next) {
          this.#open.add(invoice.id);
          // Renders the panel once the module is in; a failed load leaves the next opening to try again.
          this.#load = this.#detail.load().then(
            () => this.#host.requestUpdate(),
            () => undefined,
          );
        } else this.#open.delete(invoice.id);
        this.#host.requestUpdate();
        if (refocus) void this.#host.updateComplete.then(() => this.#host.renderRoot.querySelector<HTMLElement>(`[data-ksef-toggle="${invoice.id}"]`)?.focus());
      },
    });
  }
}
