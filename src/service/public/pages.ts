import type { Hono } from 'hono';
import { compare, decimal, sub, toWire, ZERO } from '../../kernel/money.js';
import { clientAddressOf, countAttempt } from './caller.js';
import type { RateLimitRule } from '../../server-kit/rate-limit.js';
import type { Sql } from '../sql.js';
import { latestUnpaidPayment } from '../data/payments.js';
import { type ServiceContext, type ServiceEnv } from '../http.js';
import { formatUnit, invoiceTaxWords, labelsFor } from '../documents/labels.js';
import type { InvoiceData } from '../invoicing/invoices.js';
import { newPaymentData, type PaymentData } from '../application/payments.js';
import { insertRow, todayText } from '../store.js';
import type { PaymentProvider } from '../payments/provider.js';
import { byToken } from '../data/public-records.js';
import { paymentProviderOf } from '../payments/settings.js';
import { providerPageOf, providerPaymentOf } from '../payments/start.js';
import { html, type Html, page, PAGE_HEADERS } from '../documents/html.js';
import { ksefQrBlock } from './ksef-qr.js';

/**
 * Public pages that need no api_token: the invoice view (`view_url`), its PDF, the page that pays
 * an invoice (`payment_url`), and the checkout page of a payment created unpaid (the BFF's
 * checkout). Each is reached only by an unguessable token, never by an id.
 */
export type Lang = 'pl' | 'en';

export const TEXT = {
  en: {
    invoice: 'Invoice', seller: 'Seller', buyer: 'Buyer', issued: 'Issued', due: 'Due', item: 'Item', qty: 'Qty',
    net: 'Net', tax: 'Tax', gross: 'Gross', total: 'Total', paid: 'Paid', toPay: 'To pay', pdf: 'Download PDF', pay: 'Pay now',
    paidInFull: 'Paid', unpaid: 'Awaiting payment', taxNo: 'Tax no.', thanks: 'Thank you, your payment was received.',
    payInvoice: 'Pay invoice', nothingDue: 'Nothing is left to pay on this invoice.', back: 'Back to the invoice',
    checkout: 'Checkout', cancel: 'Cancel', paymentDone: 'Payment received. Thank you!', testProvider: 'Test payment provider of the embedded invoicing service: no money moves.',
    sandbox: 'Test mode: the payment provider moves no real money.',
    notAvailable: 'Online payment is not available. Please pay by bank transfer using the details on the invoice.',
  },
  pl: {
    invoice: 'Faktura', seller: 'Sprzedawca', buyer: 'Nabywca', issued: 'Data wystawienia', due: 'Termin płatności', item: 'Nazwa', qty: 'Ilość',
    net: 'Netto', tax: 'VAT', gross: 'Brutto', total: 'Razem', paid: 'Zapłacono', toPay: 'Do zapłaty', pdf: 'Pobierz PDF', pay: 'Zapłać',
    paidInFull: 'Opłacona', unpaid: 'Oczekuje na płatność', taxNo: 'NIP', thanks: 'Dziękujemy, płatność została przyjęta.',
    payInvoice: 'Zapłać fakturę', nothingDue: 'Ta faktura nie ma już nic do zapłaty.', back: 'Wróć do faktury',
    checkout: 'Płatność', cancel: 'Anuluj', paymentDone: 'Płatność przyjęta. Dziękujemy!', testProvider: 'Testowy operator płatności wbudowanej usługi: żadne pieniądze nie są przesyłane.',
    sandbox: 'Tryb testowy: operator płatności nie przesyła prawdziwych pieniędzy.',
    notAvailable: 'Płatność online nie jest dostępna. Prosimy o przelew na rachunek podany na fakturze.',
  },
} as const satisfies Record<Lang, Record<string, string>>;

export const langOf = (lang: string | null | undefined): Lang => (lang?.toLowerCase().startsWith('pl') ? 'pl' : 'en');
const localeOf = (lang: Lang) => (lang === 'pl' ? 'pl-PL' : 'en-GB');

/** Intl formats the decimal string itself, so the amount shown is exactly the stored one. */
export function money(amount: string, currency: string, lang: Lang): string {
  return new Intl.NumberFormat(localeOf(lang), { style: 'currency', currency }).format(amount as unknown as number);
}

function outstanding(invoice: InvoiceData): string {
  const left = sub(decimal(invoice.price_gross), decimal(invoice.paid));
  return toWire(compare(left, ZERO) > 0 ? left : ZERO);
}

function party(title: string, lines: (string | null)[]): Html {
  const [name, ...rest] = lines;
  return html`<div><h2>${title}</h2><strong>${name}</strong>${rest.filter(Boolean).map((line) => html`<br>${line}`)}</div>`;
}

/** The words the law requires for the invoice's VAT case: reverse charge, the basis of 0%, np or an exemption, OSS. */
function taxWords(invoice: InvoiceData, lang: Lang, heading: string): Html | '' {
  const words = invoiceTaxWords(invoice, lang);
  if (words.length === 0) return '';
  return html`<section class="tax-notes" aria-labelledby="tax-notes"><h2 id="tax-notes">${heading}</h2><ul>${words.map((word) => html`<li>${word}</li>`)}</ul></section>`;
}

function invoiceView(invoice: InvoiceData, token: string, payable: boolean, notice?: string): Html {
  const t = TEXT[langOf(invoice.lang)];
  const lang = langOf(invoice.lang);
  const labels = labelsFor(lang);
  const left = outstanding(invoice);
  const due = compare(decimal(left), ZERO) > 0;
  const m = (amount: string) => money(amount, invoice.currency, lang);
  const place = (street: string | null, postCode: string | null, city: string | null) =>
    [street, [postCode, city].filter(Boolean).join(' ') || null];
  return html`
    ${notice ? html`<p class="notice" role="status">${notice}</p>` : ''}
    <article class="sheet">
      <div class="row">
        <div><span class="muted">${t.invoice}</span><h1>${invoice.number}</h1></div>
        <span class="badge ${due ? 'due' : 'paid'}">${due ? t.unpaid : t.paidInFull}</span>
      </div>
      <p class="muted">${t.issued}: ${invoice.issue_date}${invoice.payment_to ? html` · ${t.due}: ${invoice.payment_to}` : ''}</p>
      <div class="parties">
        ${party(t.seller, [invoice.seller_name, ...place(invoice.seller_street, invoice.seller_post_code, invoice.seller_city), invoice.seller_tax_no ? `${t.taxNo} ${invoice.seller_tax_no}` : null])}
        ${party(t.buyer, [invoice.buyer_name, ...place(invoice.buyer_street, invoice.buyer_post_code, invoice.buyer_city), invoice.buyer_tax_no ? `${t.taxNo} ${invoice.buyer_tax_no}` : null])}
      </div>
      <table>
        <thead><tr><th>${t.item}</th><th class="num">${t.qty}</th><th class="num hide-narrow">${t.net}</th><th class="num hide-narrow">${t.tax}</th><th class="num">${t.gross}</th></tr></thead>
        <tbody>${invoice.positions.map(
          (p) => html`<tr><td>${p.name}</td><td class="num">${p.quantity.replace(/\.0$/, '')} ${formatUnit(p.quantity_unit, labels)}</td>
            <td class="num hide-narrow">${m(p.total_price_net)}</td><td class="num hide-narrow">${/^[a-z]/.test(p.tax) ? p.tax : `${p.tax}%`}</td>
            <td class="num">${m(p.total_price_gross)}</td></tr>`,
        )}</tbody>
      </table>
      <div class="totals">
        <div><span>${t.net}</span><span>${m(invoice.price_net)}</span></div>
        <div><span>${t.tax}</span><span>${m(invoice.price_tax)}</span></div>
        <div><span>${t.total}</span><strong>${m(invoice.price_gross)}</strong></div>
        ${compare(decimal(invoice.paid), ZERO) > 0 ? html`<div><span>${t.paid}</span><span>${m(invoice.paid)}</span></div>` : ''}
        <div class="due"><span>${t.toPay}</span><span>${m(left)}</span></div>
      </div>
      ${taxWords(invoice, lang, labels.taxNotes)}
      ${ksefQrBlock(invoice, lang)}
      <div class="actions">
        ${due && payable ? html`<a class="button primary" href="/invoice/payment/${token}">${t.pay}</a>` : ''}
        <a class="button" href="/invoice/${token}.pdf" download>${t.pdf}</a>
      </div>
    </article>`;
}

export function safeReturnUrl(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.toString() : undefined;
  } catch {
    return undefined;
  }
}

export function sendPage(c: ServiceContext, title: string, lang: Lang, body: Html, status: 200 | 403 | 404 = 200) {
  return c.body(page({ title, lang, body }), status, PAGE_HEADERS);
}

/** Presses of an invoice's Pay (`POST /invoice/payment/<token>`) per client address and window. */
export const PAY_LINK_RATE_LIMIT = { limit: 10, windowMs: 10 * 60_000 } as const satisfies RateLimitRule;


/**
 * The pay link's own unpaid payment of this invoice for exactly `left`, if one is pending: pressing
 * Pay again reuses it instead of making (and registering at the provider) another.
 */
async function pendingPayment(tx: Sql, accountId: number, invoiceId: number, left: string, currency: string, returnUrl: string): Promise<PaymentData | undefined> {
  const found = await latestUnpaidPayment<PaymentData>(tx, accountId, invoiceId, returnUrl);
  return found && found.currency === currency && compare(decimal(found.price), decimal(left)) === 0 ? found : undefined;
}

/**
 * A payment of what is left on the invoice, through the same code path as `POST /banking/payments`;
 * `undefined` when nothing is left to pay. An unpaid one (`paid: false`) reuses the pay link's
 * pending payment of the same amount.
 */
async function payOutstanding(c: ServiceContext, token: string, fields: Record<string, unknown>): Promise<PaymentData | undefined> {
  return c.get('db').transaction(async (tx) => {
    const { row, account } = await byToken<InvoiceData>(tx, 'invoices', token, true);
    const left = outstanding(row.data);
    if (compare(decimal(left), ZERO) <= 0) return undefined;
    if (fields.paid === false && typeof fields.return_url === 'string') {
      const pending = await pendingPayment(tx, account.id, row.id, left, row.data.currency, fields.return_url);
      if (pending) return pending;
    }
    const name = `${TEXT[langOf(row.data.lang)].invoice} ${row.data.number}`;
    const { data } = await newPaymentData(tx, account, {
      name, description: name, price: left, invoice_id: row.id, client_id: row.data.client_id, currency: row.data.currency,
      kind: 'api', email: row.data.buyer_email, ...fields,
    }, c.get('config').issuing);
    return (await insertRow(tx, 'payments', account.id, data)).data;
  });
}

/**
 * An unpaid payment of what is left on the invoice, paid through the account's provider; the buyer
 * comes back to the invoice. Answers where the buyer goes: the provider's page, else the checkout page.
 */
async function invoiceCheckout(c: ServiceContext, token: string, provider: PaymentProvider): Promise<string> {
  const { publicUrl } = c.get('config');
  const payment = await payOutstanding(c, token, { paid: false, return_url: `${publicUrl}/invoice/${token}?paid`, cancel_url: `${publicUrl}/invoice/${token}` });
  if (!payment) return `/invoice/${token}`;
  const lang = /^\s*pl\b/i.test(c.req.header('accept-language') ?? '') ? 'pl' : 'en';
  return (await providerPageOf(c.get('db'), provider, providerPaymentOf(publicUrl, payment, lang))) ?? `/banking/payments/pay/${payment.token}`;
}

export function mountPublicPages(app: Hono<ServiceEnv>): void {
  app.get('/:token', async (c) => {
    const { row, account } = await byToken<InvoiceData>(c.get('db'), 'invoices', c.req.param('token'));
    if (c.get('format') === 'pdf') {
      const { invoicePdfResponse } = await import('../documents/routes.js');
      return invoicePdfResponse(c, row, account.id);
    }
    const lang = langOf(row.data.lang);
    const notice = c.req.query('paid') !== undefined ? TEXT[lang].thanks : undefined;
    const payable = (await paymentProviderOf(c, account)) !== null;
    return sendPage(c, `${TEXT[lang].invoice} ${row.data.number}`, lang, invoiceView(row.data, c.req.param('token'), payable, notice));
  });

  async function invoicePaymentPage(c: ServiceContext, status: 200 | 403 = 200) {
    const token = c.req.param('token')!;
    const { row, account } = await byToken<InvoiceData>(c.get('db'), 'invoices', token);
    const lang = langOf(row.data.lang);
    const t = TEXT[lang];
    const left = outstanding(row.data);
    const due = compare(decimal(left), ZERO) > 0;
    const provider = await paymentProviderOf(c, account);
    const payable = provider !== null;
    return sendPage(
      c,
      `${t.payInvoice} ${row.data.number}`,
      lang,
      html`<article class="sheet">
        <span class="muted">${t.payInvoice}</span><h1>${row.data.number}</h1>
        <p class="muted">${row.data.seller_name}</p>
        ${!due
          ? html`<p>${t.nothingDue}</p>`
          : payable
            ? html`<p class="amount">${money(left, row.data.currency, lang)}</p>
            <form method="post"><button class="button primary" type="submit">${t.pay}</button></form>
            ${provider?.testMode ? html`<p class="muted">${provider.id === 'test' ? t.testProvider : t.sandbox}</p>` : ''}`
            : html`<p class="amount">${money(left, row.data.currency, lang)}</p>
            <p class="notice" role="status">${t.notAvailable}</p>`}
        <div class="actions"><a class="button" href="/invoice/${token}">${t.back}</a></div>
      </article>`,
      status,
    );
  }

  app.get('/payment/:token', (c) => invoicePaymentPage(c));

  app.post('/payment/:token', async (c) => {
    const token = c.req.param('token');
    await countAttempt(c, PAY_LINK_RATE_LIMIT, `pay-link-ip:${clientAddressOf(c)}`, 'Too many payment attempts. Try again later.');
    const provider = await paymentProviderOf(c, (await byToken<InvoiceData>(c.get('db'), 'invoices', token)).account);
    if (!provider) return invoicePaymentPage(c, 403);
    if (provider.id !== 'test') return c.redirect(await invoiceCheckout(c, token, provider), 303);
    // The test provider: paid at once.
    await payOutstanding(c, token, { paid: true, paid_date: todayText(), provider: 'test' });
    return c.redirect(`/invoice/${token}?paid`, 303);
  });

}
