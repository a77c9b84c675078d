import { html, nothing } from 'lit';
import type { KsefView } from '../../contract/ksef.js';
import { formatDate, localToday } from '../shared/format.js';
import type { InvoiceListMessages } from './messages.js';

/**
 * The KSeF detail of one row: a disclosure button under the invoice's number (`aria-expanded`,
 * `aria-controls`) and, when open, a panel in the same cell with the state, the KSeF number, the day
 * it was sent and the verification link (KOD I). Enter and Space toggle it, as any button; Escape in
 * the panel closes it and puts the focus back on the button. What went wrong is said in the
 * customer's words only: the seller's `gov_error_messages` never reach the customer.
 */
export function ksefDetail(
  ksef: KsefView,
  invoice: { readonly id: number; readonly number: string },
  context: {
    readonly open: boolean;
    readonly m: InvoiceListMessages;
    readonly locale: string;
    readonly numberLabel: string;
    /** Opens or closes the panel; `refocus` puts the focus back on the button afterwards. */
    readonly toggle: (open: boolean, refocus: boolean) => void;
  },
) {
  const { open, m, locale } = context;
  const id = `ksef-detail-${invoice.id}`;
  const note = ksef.state === 'error' ? m.ksefErrors[ksef.error ?? 'rejected'] : ksef.state === 'pending' ? (ksef.offline ? m.ksefOffline : m.ksefPendingText) : null;
  const onKeydown = (e: KeyboardEvent) => {
    if (e.key !== 'Escape' || !open) return;
    e.stopPropagation();
    context.toggle(false, true);
  };
  return html`<button
      type="button"
      class="ksef-toggle"
      part="ksef-toggle"
      data-ksef-toggle=${invoice.id}
      aria-expanded=${open ? 'true' : 'false'}
      aria-controls=${id}
      @click=${() => context.toggle(!open, false)}
      @keydown=${onKeydown}
    >
      ${m.ksefDetails}<span class="visually-hidden">, ${context.numberLabel} ${invoice.number}</span>
    </button>
    <div
      id=${id}
      class="ksef-detail"
      part="ksef-detail"
      role="group"
      aria-label=${m.ksefDetailsOf(invoice.number)}
      ?hidden=${!open}
      @click=${(e: Event) => e.stopPropagation()}
      @keydown=${onKeydown}
    >
      ${open
        ? html`<dl>
              <dt>${m.ksefStateLabel}</dt>
              <dd>${m.ksef[ksef.state]}${ksef.test ? ` (${m.ksefTest})` : ''}</dd>
              ${ksef.number ? html`<dt>${m.ksefNumber}</dt><dd class="ksef-number">${ksef.number}</dd>` : nothing}
              ${ksef.sent_at ? html`<dt>${m.ksefSentAt}</dt><dd>${formatDate(localToday(new Date(ksef.sent_at)), locale)}</dd>` : nothing}
            </dl>
            ${note ? html`<p class="ksef-note">${note}</p>` : nothing}
            ${ksef.offline && ksef.state === 'sent' ? html`<p class="ksef-note">${m.ksefOffline}</p>` : nothing}
            ${ksef.test ? html`<p class="ksef-note">${m.ksefTestText}</p>` : nothing}
            ${ksef.verification_link
              ? html`<a part="ksef-verify-link" href=${ksef.verification_link} target="_blank" rel="noopener noreferrer"
                  >${m.ksefVerify}<span class="visually-hidden">, ${context.numberLabel} ${invoice.number}</span></a
                >`
              : nothing}`
        : nothing}
    </div>`;
}
