import { html, nothing, type TemplateResult } from 'lit';
import type { CheckoutAnswer, ProductQuote, SaleProduct } from '../../contract/sale.js';
import { formatMoney } from '../shared/format.js';
import { vatOf } from './line.js';
import type { PayButtonMessages } from './messages.js';

/** What the dialog shows the price from: the server's quote, or the checkout's own answer once it differs. */
export interface SummaryInput {
  info: SaleProduct;
  quote: ProductQuote | CheckoutAnswer | undefined;
  /** The checkout priced the sale otherwise than the quote shown. */
  revised: boolean;
  /** A newer quote is being asked for: the last one stays, dimmed. */
  pending: boolean;
  quantityWrong: boolean;
  locale: string;
}

/** Why the VAT is what it is, in the buyer's language: VIES could not confirm the number, or a sale without Polish VAT. */
function explanation(m: PayButtonMessages, quote: ProductQuote | CheckoutAnswer): string | undefined {
  return quote.fallback ? m.fallback : (m.cases as Partial<Record<string, string>>)[quote.vat_treatment];
}

/**
 * The dialog's price rows (unit price, quantity, VAT, total) exactly as the server quoted them, and
 * beside them why the VAT is what it is and the words the invoice will carry for the buyer's case.
 * The VAT row splits the server's total by the server's rate; nothing here decides a rate.
 */
export function saleSummary(m: PayButtonMessages, { info, quote, revised, pending, quantityWrong, locale }: SummaryInput): TemplateResult {
  const money = (amount: string) => formatMoney(amount, info.currency, locale);
  const row = (text: unknown, amount: string, part = 'row') => html`<div part=${part}><dt>${text}</dt><dd>${amount}</dd></div>`;
  const line = quote && vatOf(quote.amount, quote.tax, info.currency);
  const note = quote && explanation(m, quote);
  const notes = quote?.notes ?? [];
  // Beside the total, what it holds of VAT: "incl. VAT", or none charged (a reverse charge, a 0% supply); the note says why.
  return html`${quote && line && !quantityWrong
      ? html`<dl part="summary" class="summary ${pending ? 'stale' : ''}" aria-busy=${pending}>
          ${row(m.unitPrice, money('unit_price' in quote ? quote.unit_price : info.price_gross))}${row(m.quantity, `${quote.quantity} ${info.quantity_unit ?? ''}`)}
          ${row(`${m.vat} ${line.rate}`, money(line.vat))}${row(html`${m.total} <small>${/^[0.]+$/.test(line.vat) ? m.noVat : m.inclVat}</small>`, money(quote.amount), 'row total')}
        </dl>`
      : html`<p part="summary" class="summary" aria-busy=${!quantityWrong}>${quantityWrong ? m.fixQuantity : m.loading}</p>`}
    ${note || notes.length || revised
      ? html`<div part="vat-note" class="note" role="status">
      ${revised && quote ? html`<p part="revised"><strong>${m.revised(money(quote.amount))}</strong></p>` : nothing}
      ${note ? html`<p>${note}</p>` : nothing}
      ${notes.length ? html`<p>${m.invoiceSays}</p><ul>${notes.map((text) => html`<li>${text}</li>`)}</ul>` : nothing}
    </div>`
      : nothing}`;
}
