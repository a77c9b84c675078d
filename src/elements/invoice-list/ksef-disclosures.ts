import { nothing, type ReactiveController, type ReactiveElement } from 'lit';
import type { KsefView } from '../../contract/ksef.js';
import type { PortalInvoice } from '../shared/bff-client.js';
import type { InvoiceListMessages } from './messages.js';
import { ksefCell } from './rows.js';

/**
 * The rows' KSeF disclosures: which are open, and the open detail's template, styles and words, a module of
 * their own (`ksef-detail.ts`) loaded by dynamic `import()` when a customer is about to open one: the
 * pointer over a disclosure, the focus on it, or the opening itself. A list whose details nobody opens
 * never loads it (docs/decisions/element-loading.md). A disclosure opened while the module loads shows
 * its open state at once and its panel as soon as the module is in; the element's `updateComplete`
 * waits for that (`loading`).
 */
export class KsefDisclosures implements ReactiveController {
  readonly #host: ReactiveElement;
  /** The rows whose detail is open, by invoice id. */
  readonly #open = new Set<number>();
  #detail?: typeof import('./ksef-detail.js');
  #load?: Promise<void> | undefined;

  constructor(host: ReactiveElement) {
    this.#host = host;
    host.addController(this);
  }

  /** Resolves once the module an open detail waits for is in (or failed to load), else `undefined`. */
  get loading(): Promise<void> | undefined {
    return this.#open.size && !this.#detail ? this.#load : undefined;
  }

  /** On the shadow root, not the host: the host hears no `pointerover` or `focusin` that moves between its own controls. */
  hostConnected(): void {
    this.#host.renderRoot.addEventListener('pointerover', this.#onIntent);
    this.#host.renderRoot.addEventListener('focusin', this.#onIntent);
  }

  /** A row's KSeF cell, with its detail when it is open and loaded. */
  cell(ksef: KsefView, invoice: PortalInvoice, m: InvoiceListMessages, locale: string) {
    const open = this.#open.has(invoice.id);
    return ksefCell(ksef, invoice, {
      m,
      open,
      detail: open && this.#detail ? this.#detail.ksefDetail(ksef, invoice, m, locale) : nothing,
      toggle: (next, refocus) => {
        if (next) {
          this.#open.add(invoice.id);
          this.#loadDetail();
        } else this.#open.delete(invoice.id);
        this.#host.requestUpdate();
        if (refocus) void this.#host.updateComplete.then(() => this.#host.renderRoot.querySelector<HTMLElement>(`[data-ksef-toggle="${invoice.id}"]`)?.focus());
      },
    });
  }

  /** The pointer over a disclosure, or the focus on one: its detail is about to be opened. */
  #onIntent = (event: Event): void => {
    if ((event.target as Element).closest('[data-ksef-toggle]')) this.#loadDetail();
  };

  #loadDetail(): void {
    this.#load ??= import('./ksef-detail.js').then(
      (detail) => {
        this.#detail = detail;
        if (this.#open.size) this.#host.requestUpdate();
      },
      // Forgotten, so the next opening tries again.
      () => (this.#load = undefined),
    );
  }
}
