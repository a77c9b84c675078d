import type { Hono } from 'hono';
import { checkoutLang } from '../../kernel/checkout.js';
import type { Sql } from '../db.js';
import type { Account, ServiceContext, ServiceEnv } from '../http.js';
import { computeLine } from '../invoicing/amounts.js';
import type { InvoiceData } from '../invoicing/invoices.js';
import type { PaymentOutcome, PaymentProvider } from '../payments/provider.js';
import { blikAvailable, blikCodeOf, blikOutcome, BlikRefusedError, sendBlikCode, settleDueBlik } from '../application/blik.js';
import { BLIK_TEXT, blikFailure, blikForm, blikFormState, blikWaiting } from './checkout-blik.js';
import { countBlikAttempt } from './blik-limits.js';
import { buyerClientOf, clientAddressOf } from './caller.js';
import { providerPaymentOf, startPayment } from '../payments/start.js';
import { paymentProviderOf } from '../payments/settings.js';
import { checkoutOutcome, type PaymentData, saleOf, settlePayment } from '../application/payments.js';
import { type TaxCase, taxNotes } from '../../kernel/tax/index.js';
import type { SaleTerms } from '../../server-kit/sale.js';
import { DEFAULT_TAX } from '../invoicing/amounts.js';
import { findRow } from '../store.js';
import { html, type Html, page, PAGE_HEADERS } from '../documents/html.js';
import { byToken } from '../data/public-records.js';
import { type Lang, money, safeReturnUrl } from './pages.js';

/**
 * The checkout page of a payment created unpaid (by the BFF's or the widget's checkout, or any API
 * client): what is bought, from whom, at which unit price and VAT, the total and where the invoice
 * goes, then the payment provider. Reached only by the payment's unguessable token.
 */
const TEXT = {
  en: {
    checkout: 'Checkout', payTo: 'Pay', item: 'Item', qty: 'Qty', unitPrice: 'Unit price', vat: 'VAT', amount: 'Amount',
    net: 'Net', total: 'Total', invoiceTo: 'The invoice goes to', company: 'Invoice for', taxNo: 'Tax no.',
    pay: (amount: string) => `Pay ${amount}`, decline: 'Decline payment', cancel: 'Cancel and return',
    returnsTo: (origin: string) => `After payment you return to ${origin}.`, back: (origin: string) => `Return to ${origin}`,
    testMode: 'Test mode', testNote: 'Test payment provider: no money moves. Pay and Decline show both outcomes.',
    sandboxNote: "The payment provider is in test mode: no real money moves. Use the provider's test card or test payment.",
    paid: 'Payment received. Thank you!', invoice: (number: string) => `Invoice ${number} has been issued and sent by e-mail.`,
    viewInvoice: 'View the invoice', declined: 'The payment was declined. Nothing was charged.',
    cancelled: 'The payment was cancelled. Nothing was charged.', unavailable: 'Online payment is not available for this shop at the moment.',
    failed: 'The payment provider could not be reached. Please try again.',
    confirming: 'Waiting for the payment provider to confirm your payment. This page updates by itself.', checkAgain: 'Check again',
    reverse_charge: 'Reverse charge: a service to a company in another EU country with a valid VAT number is taxed in the buyer’s country, so you pay the net price and account for the VAT yourself.',
    intra_eu_supply: 'Intra-community supply: goods to a company in another EU country with a valid VAT number are taxed at 0% here, so you pay the net price and account for the VAT in your country.',
    viesUnavailable: "VIES, the EU's register of VAT numbers, could not confirm your VAT number just now, so Polish VAT is charged. The seller has been told and may correct the invoice once VIES confirms it.",
  },
  pl: {
    checkout: 'Płatność', payTo: 'Zapłać', item: 'Nazwa', qty: 'Ilość', unitPrice: 'Cena jedn.', vat: 'VAT', amount: 'Kwota',
    net: 'Netto', total: 'Razem', invoiceTo: 'Faktura zostanie wysłana na adres', company: 'Faktura na', taxNo: 'NIP',
    pay: (amount: string) => `Zapłać ${amount}`, decline: 'Odrzuć płatność', cancel: 'Anuluj i wróć',
    returnsTo: (origin: string) => `Po płatności wrócisz do ${origin}.`, back: (origin: string) => `Wróć do ${origin}`,
    testMode: 'Tryb testowy', testNote: 'Testowy operator płatności: żadne pieniądze nie są przesyłane. Zapłać i Odrzuć pokazują oba wyniki.',
    sandboxNote: 'Operator płatności działa w trybie testowym: żadne prawdziwe pieniądze nie są przesyłane. Użyj testowej karty lub płatności operatora.',
    paid: 'Płatność przyjęta. Dziękujemy!', invoice: (number: string) => `Faktura ${number} została wystawiona i wysłana e-mailem.`,
    viewInvoice: 'Zobacz fakturę', declined: 'Płatność została odrzucona. Nic nie pobrano.',
    cancelled: 'Płatność została anulowana. Nic nie pobrano.', unavailable: 'Płatności online są w tej chwili niedostępne.',
    failed: 'Nie udało się połączyć z operatorem płatności. Spróbuj ponownie.',
    confirming: 'Czekamy, aż operator płatności potwierdzi płatność. Ta strona odświeży się sama.', checkAgain: 'Sprawdź ponownie',
    reverse_charge: 'Odwrotne obciążenie: usługa dla firmy z innego kraju UE z ważnym numerem VAT jest opodatkowana w kraju nabywcy, więc płacisz cenę netto, a VAT rozliczasz sam.',
    intra_eu_supply: 'Wewnątrzwspólnotowa dostawa towarów: towary dla firmy z innego kraju UE z ważnym numerem VAT mają tu stawkę 0%, więc płacisz cenę netto, a VAT rozliczasz w swoim kraju.',
    viesUnavailable: 'VIES, unijny rejestr numerów VAT, nie mógł teraz potwierdzić Twojego numeru VAT, więc naliczono polski VAT. Sprzedawca został powiadomiony i może skorygować fakturę, gdy VIES go potwierdzi.',
  },
} as const;

const STYLE_EXTRA = html`<style>
  .test-badge { display: inline-block; background: #b54708; color: #fff; font-weight: 700; font-size: 0.75rem; letter-spacing: 0.06em;
    text-transform: uppercase; padding: 0.2rem 0.6rem; border-radius: 6px; margin-bottom: 0.75rem; }
  .test-banner { border: 2px dashed #b54708; border-radius: 10px; padding: 0.6rem 0.9rem; margin-top: 1rem; }
  .buyer { margin-top: 1.25rem; }
  .problem { border-color: #c4320a; }
</style>`;

export { checkoutOutcome };

/** The checkout's own language when it has one; the browser's only where nothing was chosen. */
function languageOf(c: ServiceContext, payment?: PaymentData): Lang {
  return payment?.lang === 'pl' || payment?.lang === 'en' ? payment.lang : checkoutLang(null, c.req.header('accept-language'));
}

/** What the page says of a sale taxed other than at the domestic rate. */
function saleNote(lang: Lang, terms: SaleTerms): string | undefined {
  const t = TEXT[lang];
  const fallback = terms.fallback === 'vies_unavailable' ? t.viesUnavailable : undefined;
  if (terms.case === 'eu_reverse_charge') return t.reverse_charge;
  if (terms.case === 'intra_eu_supply') return t.intra_eu_supply;
  if (terms.case === 'domestic') return fallback;
  return taxNotes(terms.case as TaxCase, lang, { ossCountry: terms.oss_country }).join(' ') || undefined;
}

const originOf = (url: string | undefined) => (url ? new URL(url).host : undefined);

const providerPayment = (c: ServiceContext, payment: PaymentData) => providerPaymentOf(c.get('config').publicUrl, payment, languageOf(c, payment));

async function lineOf(sql: Sql, account: Account, payment: PaymentData) {
  const sale = await saleOf(sql, account, payment);
  const tax = sale.terms.tax ?? sale.product?.tax ?? DEFAULT_TAX;
  return { tax, terms: sale.terms, seller: sale.seller, ...computeLine({ quantity: payment.quantity, tax, total_price_gross: payment.price }, payment.currency, null) };
}

export function mountCheckoutPage(app: Hono<ServiceEnv>): void {
  /** `confirming`: the buyer is back from the provider's page and the provider has not confirmed the payment yet. */
  async function show(c: ServiceContext, problem?: string, confirming = false, blikProblem?: string) {
    const token = c.req.param('token')!;
    const db = c.get('db');
    const found = await byToken<PaymentData>(db, 'payments', token);
    const { account } = found;
    const provider = await paymentProviderOf(c, account);
    // A BLIK payment read after its time has its outcome recorded first.
    const payment = (await settleDueBlik(c.get('config').issuing, found.row)).data;
    const lang = languageOf(c, payment);
    const t = TEXT[lang];
    const line = await lineOf(db, account, payment);
    const seller = line.seller;
    const invoice = payment.invoice_id != null ? (await findRow<InvoiceData>(db, 'invoices', account.id, payment.invoice_id))?.data : undefined;
    const m = (amount: string) => money(amount, payment.currency, lang);
    const outcome = checkoutOutcome(payment);
    const blik = blikOutcome(payment) === 'failed' ? 'failed' : payment.blik?.status === 'pending' && outcome === 'pending' ? 'waiting' : undefined;
    // Only the addresses stored with the payment by its creator: no open redirect.
    const back = safeReturnUrl(outcome === 'paid' ? payment.return_url : (payment.cancel_url ?? payment.return_url));
    const testMode = provider?.testMode === true && outcome === 'pending';
    const sellerName = seller?.name ?? account.name ?? '';
    const body = html`${STYLE_EXTRA}<article class="sheet">
      ${testMode ? html`<span class="test-badge" role="note">${t.testMode}</span>` : ''}
      ${problem ? html`<p class="notice problem" role="alert">${problem}</p>` : ''}
      <span class="muted">${t.checkout}</span>
      <h1>${t.payTo} ${sellerName}</h1>
      <table>
        <thead><tr><th>${t.item}</th><th class="num">${t.qty}</th><th class="num">${t.unitPrice}</th><th class="num hide-narrow">${t.vat}</th><th class="num">${t.amount}</th></tr></thead>
        <tbody><tr><td>${payment.name}</td><td class="num">${payment.quantity.replace(/\.0$/, '')}</td><td class="num">${m(line.price_gross)}</td>
          <td class="num hide-narrow">${/^[a-z]/i.test(line.tax) ? line.tax : `${line.tax}%`}</td><td class="num">${m(line.total_price_gross)}</td></tr></tbody>
      </table>
      <div class="totals">
        <div><span>${t.net}</span><span>${m(line.total_price_net)}</span></div>
        <div><span>${t.vat} ${/^[a-z]/i.test(line.tax) ? line.tax : `${line.tax}%`}</span><span>${m(line.total_price_tax)}</span></div>
        <div class="due"><span>${t.total}</span><span class="total">${m(line.total_price_gross)}</span></div>
      </div>
      ${saleNote(lang, line.terms) ? html`<p class="muted vat-note">${saleNote(lang, line.terms)}</p>` : ''}
      <p class="buyer">${t.invoiceTo} <strong class="buyer-email">${String(payment.email ?? '')}</strong>${payment.invoice_name && payment.invoice_tax_no ? html`<br>${t.company} ${String(payment.invoice_name)}, ${t.taxNo} ${String(payment.invoice_tax_no)}` : ''}</p>
      ${outcomeView()}
    </article>`;
    function outcomeView(): Html {
      if (outcome === 'paid') {
        return html`<p class="notice" role="status">${t.paid}${invoice ? html` ${t.invoice(invoice.number)}` : ''}</p>
          <div class="actions">${invoice ? html`<a class="button" href="/invoice/${invoice.token}">${t.viewInvoice}</a>` : ''}
          ${back ? html`<a class="button primary" href="${back}">${t.back(originOf(back)!)}</a>` : ''}</div>`;
      }
      if (blik === 'waiting') return blikWaiting(lang, payment.blik!, c.get('config').clock(), payment.token);
      if (blik === 'failed' && provider) return html`${blikFailure(lang, payment.blik!.reason)}${payForm(provider)}`;
      if (outcome !== 'pending') {
        return html`<p class="notice problem" role="status">${outcome === 'declined' ? t.declined : t.cancelled}</p>
          ${back ? html`<div class="actions"><a class="button" href="${back}">${t.back(originOf(back)!)}</a></div>` : ''}`;
      }
      if (!provider) return html`<p class="notice problem" role="status">${t.unavailable}</p>`;
      if (confirming) {
        return html`<p class="notice" role="status">${t.confirming}</p>
          <div class="actions"><a class="button primary" href="/banking/payments/pay/${payment.token}/return">${t.checkAgain}</a></div>`;
      }
      return payForm(provider);
    }
    function payForm(provider: PaymentProvider): Html {
      return html`${blikAvailable(provider, payment.currency) ? blikForm(lang, { problem: blikProblem, testCodes: provider.id === 'test', state: blikFormState(payment.blik) }) : ''}
        <form method="post"><div class="actions">
          <button class="button primary" type="submit" name="choice" value="pay">${t.pay(m(payment.price))}</button>
          ${provider.id === 'test' ? html`<button class="button" type="submit" name="choice" value="decline">${t.decline}</button>` : ''}
          <button class="button" type="submit" name="choice" value="cancel">${t.cancel}</button>
        </div></form>
        ${back ? html`<p class="muted">${t.returnsTo(originOf(back)!)}</p>` : ''}
        ${provider.testMode ? html`<p class="test-banner">${provider.id === 'test' ? t.testNote : t.sandboxNote}</p>` : ''}`;
    }
    const refresh: Record<string, string> =
      blik === 'waiting' ? { refresh: `3; url=/banking/payments/pay/${payment.token}` }
      : confirming && outcome === 'pending' ? { refresh: `5; url=/banking/payments/pay/${payment.token}/return` } : {};
    return c.body(page({ title: `${t.checkout}: ${payment.name}`, lang, body }), blikProblem ? 422 : problem ? 502 : 200, { ...PAGE_HEADERS, ...refresh });
  }

  /** Sends the buyer back to the shop once the outcome is known; the shop asks the service what it was. */
  function leave(c: ServiceContext, payment: PaymentData) {
    const back = safeReturnUrl(checkoutOutcome(payment) === 'paid' ? payment.return_url : (payment.cancel_url ?? payment.return_url));
    return c.redirect(back ?? `/banking/payments/pay/${payment.token}`, 303);
  }

  async function finish(c: ServiceContext, token: string, outcome: PaymentOutcome, providerId: string, reference?: string) {
    const { row } = await settlePayment(c.get('config').issuing, { token, outcome, providerId, reference });
    return leave(c, row.data);
  }

  /** A BLIK code typed on the page: sent once, then the page shows the wait. A new code may follow a failed one. */
  async function payByBlik(c: ServiceContext, provider: PaymentProvider, payment: PaymentData, account: Account) {
    // The same form posted again (a second click, a resubmission) after its code went sends nothing more.
    if (c.get('body').after !== blikFormState(payment.blik)) return c.redirect(`/banking/payments/pay/${payment.token}`, 303);
    const code = blikCodeOf(c.get('body').code);
    if (!code) return show(c, undefined, false, BLIK_TEXT[languageOf(c, payment)].malformed);
    await countBlikAttempt(c, { accountId: account.id, address: clientAddressOf(c), product: payment.product_id as number | null });
    const { issuing, blik } = c.get('config');
    await sendBlikCode(issuing, { provider, token: payment.token, code, describe: (current) => ({ ...providerPayment(c, current), buyerClient: buyerClientOf(c) }), settings: blik, again: true }).catch((error: unknown) => {
      // A payment that cannot take this code (paid, waiting for another, no BLIK) shows where it stands.
      if (!(error instanceof BlikRefusedError)) throw error;
    });
    return c.redirect(`/banking/payments/pay/${payment.token}`, 303);
  }

  app.get('/:token', (c) => show(c));

  app.post('/:token', async (c) => {
    const token = c.req.param('token');
    const { row, account } = await byToken<PaymentData>(c.get('db'), 'payments', token);
    const provider = await paymentProviderOf(c, account);
    const choice = String(c.get('body').choice ?? 'pay');
    if (choice === 'blik' && provider) return payByBlik(c, provider, row.data, account);
    // While the bank app may still approve a code, no other way to pay starts: the buyer would pay twice.
    if (!row.data.paid && row.data.blik?.status === 'pending') return c.redirect(`/banking/payments/pay/${token}`, 303);
    // After a failed BLIK code the other ways to pay stay open.
    if (checkoutOutcome(row.data) !== 'pending' && blikOutcome(row.data) !== 'failed') return leave(c, row.data);
    if (choice === 'cancel') return finish(c, token, 'cancelled', provider?.id ?? 'none');
    if (!provider) return show(c);
    let start;
    try {
      start = await startPayment(c.get('db'), provider, providerPayment(c, row.data), choice);
    } catch {
      return show(c, TEXT[languageOf(c, row.data)].failed);
    }
    if ('redirectUrl' in start) return c.redirect(start.redirectUrl, 303);
    return finish(c, token, start.outcome, provider.id, start.reference);
  });

  // Where a redirecting provider sends the buyer back: the outcome is asked of the provider, not read from the query.
  app.get('/:token/return', async (c) => {
    const token = c.req.param('token');
    const { row, account } = await byToken<PaymentData>(c.get('db'), 'payments', token);
    const provider = await paymentProviderOf(c, account);
    const reference = row.data.provider_title as string | null;
    if (!provider || checkoutOutcome(row.data) !== 'pending' || !reference) return leave(c, row.data);
    const outcome = await provider.outcome(reference, providerPayment(c, row.data)).catch(() => 'pending' as const);
    if (outcome === 'pending') return show(c, undefined, true);
    return finish(c, token, outcome, provider.id, reference);
  });
}
