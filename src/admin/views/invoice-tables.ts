import { html, nothing, type TemplateResult } from 'lit';
import { formatDate, formatMoney } from '../../elements/shared/format.js';
import type { InvoiceStrings } from './invoice-detail.strings.js';
import type { ListedInvoice } from './invoices.js';
import { badge } from './records.js';

/** An invoice as its page reads it, and its lines and payments as tables. */

export interface Position {
  id: number;
  name: string;
  quantity: string;
  tax: string;
  total_price_gross: string;
}

export interface ConnectedPayment {
  id: number;
  name: string | null;
  price: string;
  paid: boolean;
  paid_date: string | null;
  provider: string | null;
  /** What the provider said of an unpaid payment: `declined`, or a state still waiting. */
  provider_status?: string | null;
  currency: string | null;
}

/** The fields of a read invoice this view shows. */
export interface InvoiceRecord extends ListedInvoice {
  sell_date: string;
  price_net: string;
  price_tax: string;
  buyer_tax_no: string | null;
  buyer_street: string | null;
  buyer_post_code: string | null;
  buyer_city: string | null;
  buyer_country: string | null;
  buyer_email: string | null;
  email_status: string | null;
  sent_time: string | null;
  view_url: string;
  gov_error_messages: string[] | null;
  positions?: Position[];
  connected_payments?: ConnectedPayment[];
}

/** A quantity as answered (`"10.0"`), in the locale, formatted from its exact decimal text. */
function quantityText(quantity: string, lang: string): string {
  // A numeric string is formatted as the exact decimal it spells; the lib typings only list numbers.
  return new Intl.NumberFormat(lang, { maximumFractionDigits: 4 }).format(quantity as unknown as number);
}

/** The invoice's lines: name, quantity, tax rate (or code) and gross total. */
export function linesTable(invoice: InvoiceRecord, t: InvoiceStrings, lang: string): TemplateResult | typeof nothing {
  const positions = invoice.positions ?? [];
  if (positions.length === 0) return nothing;
  return html`<section aria-labelledby="lines">
    <h2 id="lines">${t.lines}</h2>
    <div class="scroll" tabindex="0" role="region" aria-labelledby="lines">
      <table>
        <thead>
          <tr>
            <th scope="col">${t.line}</th>
            <th scope="col" class="amount">${t.quantity}</th>
            <th scope="col" class="amount wide">${t.tax}</th>
            <th scope="col" class="amount">${t.gross}</th>
          </tr>
        </thead>
        <tbody>
          ${positions.map(
            (position) => html`<tr>
              <td>${position.name}</td>
              <td class="amount">${quantityText(position.quantity, lang)}</td>
              <td class="amount wide">${/^\d/.test(position.tax) ? `${position.tax}%` : position.tax}</td>
              <td class="amount">${formatMoney(position.total_price_gross, invoice.currency, lang)}</td>
            </tr>`,
          )}
        </tbody>
      </table>
    </div>
  </section>`;
}

/** The payments of the invoice: paid, declined by the provider, or still waiting. */
export function paymentsTable(invoice: InvoiceRecord, t: InvoiceStrings, lang: string): TemplateResult {
  const payments = invoice.connected_payments ?? [];
  if (payments.length === 0) return html`<p>${t.noPayments}</p>`;
  return html`<div class="scroll" tabindex="0" role="region" aria-labelledby="payments">
    <table>
      <thead>
        <tr>
          <th scope="col">${t.paymentName}</th>
          <th scope="col">${t.paymentDate}</th>
          <th scope="col" class="amount">${t.paymentAmount}</th>
          <th scope="col" class="wide">${t.paymentProvider}</th>
          <th scope="col">${t.paymentState}</th>
        </tr>
      </thead>
      <tbody>
        ${payments.map(
          (payment) => html`<tr data-payment=${payment.id}>
            <td>${payment.name ?? ''}</td>
            <td>${formatDate(payment.paid_date, lang)}</td>
            <td class="amount">${formatMoney(payment.price, payment.currency ?? invoice.currency, lang)}</td>
            <td class="wide">${payment.provider ?? ''}</td>
            <td>
              ${payment.paid
                ? badge(t.paymentPaid, 'ok')
                : payment.provider_status === 'declined'
                  ? badge(t.paymentDeclined, 'error')
                  : badge(t.paymentWaiting, 'pending')}
            </td>
          </tr>`,
        )}
      </tbody>
    </table>
  </div>`;
}
