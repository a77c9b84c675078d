import { html, nothing } from 'lit';
import type { KsefView } from '../../contract/ksef.js';
import { formatDate, localToday } from '../shared/format.js';
import { catalogLanguage } from '../shared/i18n.js';
import { ksefDetailMessages } from './ksef-detail-messages.js';
import type { InvoiceListMessages } from './messages.js';
import { ksefStateText } from './rows.js';

import { ksefDetailStyles } from './invoice-list-ksef-detail.styles.js';

/**
 * What an open KSeF detail shows, inside the panel the row's disclosure controls (`ksefCell` in
 * `rows.ts`): the state, the KSeF number, the day it was sent and the verification link (KOD I). This
 * module loads when a customer is about to open a detail (`ksef-disclosures.ts`). What went wrong is
 * said in the customer's words only: the seller's `gov_error_messages` never reach the customer.
 */
export function ksefDetail(ksef: KsefView, invoice: { readonly number: string }, m: InvoiceListMessages, locale: string) {
  const w = ksefDetailMessages[catalogLanguage(locale) ?? 'en'];
  const note = ksef.state === 'error' ? w.ksefErrors[ksef.error ?? 'rejected'] : ksef.state === 'pending' ? (ksef.offline ? w.ksefOffline : w.ksefPendingText) : null;
  // The styles come with the detail, in its panel: nothing needs adding to the element's own.
  return html`<style>
      ${ksefDetailStyles.cssText}
    </style>
    <dl>
      <dt>${w.ksefStateLabel}</dt>
      <dd>${ksefStateText(ksef, m)}</dd>
      ${ksef.number ? html`<dt>${m.ksefNumber}</dt><dd class="ksef-number">${ksef.number}</dd>` : nothing}
      ${ksef.sent_at ? html`<dt>${w.ksefSentAt}</dt><dd>${formatDate(localToday(new Date(ksef.sent_at)), locale)}</dd>` : nothing}
    </dl>
    ${note ? html`<p class="ksef-note">${note}</p>` : nothing}
    ${ksef.offline && ksef.state === 'sent' ? html`<p class="ksef-note">${w.ksefOffline}</p>` : nothing}
    ${ksef.test ? html`<p class="ksef-note">${w.ksefTestText}</p>` : nothing}
    ${ksef.verification_link
      ? html`<a part="ksef-verify-link" href=${ksef.verification_link} target="_blank" rel="noopener noreferrer"
          >${w.ksefVerify}<span class="visually-hidden">, ${m.columns.number} ${invoice.number}</span></a
        >`
      : nothing}`;
}
