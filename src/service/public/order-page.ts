import type { CheckoutLang } from '../../kernel/checkout.js';
import { COUNTRY_CODES } from '../../kernel/validation/client.js';
import type { SaleProduct } from '../../contract/sale.js';
import { Html, html } from '../documents/html.js';
import { blikCodeField } from './checkout-blik.js';
import { money } from './pages.js';
import { newOrderKey, ORDER_KEY_FIELD } from './order-once.js';

/**
 * The order page that works with no JavaScript at all (`GET /a/<prefix>/p/<token>`, the button's
 * fallback link): a plain form posting the same checkout as the widget. The country is a list of
 * every ISO 3166 country named in the page's language; a service is bought once, so it asks no
 * quantity; a product sold in złoty through a provider with BLIK takes the code here too.
 */
export const ORDER_TEXT = {
  en: {
    title: 'Order', email: 'E-mail', name: 'Your name', company: 'Company name (for a company invoice)', taxNo: 'Tax number',
    street: 'Street (company invoice)', postCode: 'Post code', city: 'City', country: 'Country',
    quantity: 'Quantity', continue: 'Continue to payment', testMode: 'Test mode', unavailable: 'Online payment is not available at the moment.',
    blik: 'To pay with BLIK at once, type the code from your bank app; leave it empty to choose how to pay on the next page.',
  },
  pl: {
    title: 'Zamówienie', email: 'E-mail', name: 'Imię i nazwisko', company: 'Nazwa firmy (do faktury na firmę)', taxNo: 'NIP',
    street: 'Ulica (faktura na firmę)', postCode: 'Kod pocztowy', city: 'Miejscowość', country: 'Kraj',
    quantity: 'Ilość', continue: 'Przejdź do płatności', testMode: 'Tryb testowy', unavailable: 'Płatności online są w tej chwili niedostępne.',
    blik: 'Aby od razu zapłacić BLIKIEM, wpisz kod z aplikacji banku; zostaw pole puste, aby wybrać sposób płatności na następnej stronie.',
  },
} as const;

const countryLists = new Map<CheckoutLang, (readonly [code: string, name: string])[]>();

/** Every country as `[code, name]`, named in `lang` and sorted by that name in `lang`. */
export function countriesIn(lang: CheckoutLang): (readonly [code: string, name: string])[] {
  let list = countryLists.get(lang);
  if (!list) {
    const names = new Intl.DisplayNames([lang], { type: 'region' });
    list = COUNTRY_CODES.map((code) => [code, names.of(code) ?? code] as const).sort((a, b) => a[1].localeCompare(b[1], lang));
    countryLists.set(lang, list);
  }
  return list;
}

function countrySelect(lang: CheckoutLang, label: string, chosen: string, errors: string[] | undefined): Html {
  return html`<p><label>${label}<br><select name="country" autocomplete="country" style="width:100%;padding:0.5rem;font:inherit">
      ${countriesIn(lang).map(([code, name]) => html`<option value="${code}"${code === chosen ? html` selected` : ''}>${name}</option>`)}
    </select></label>${errors ? html`<br><span role="alert" class="muted">${errors.join(', ')}</span>` : ''}</p>`;
}

/**
 * The page's form; `errors` by field name (`email`, `blik_code`, …), `values` what the buyer had typed
 * (never a code); `testCodes` when the account pays through the test provider, whose BLIK codes the page lists.
 */
export function orderPage(
  product: SaleProduct,
  lang: CheckoutLang,
  options: { errors?: Record<string, string[]>; values?: Record<string, string>; testCodes?: boolean } = {},
): Html {
  const { errors = {}, values = {} } = options;
  const t = ORDER_TEXT[lang];
  const field = (label: string, name: string, type: string, extra: string) =>
    html`<p><label>${label}<br><input name="${name}" type="${type}" ${new Html(extra)} value="${values[name] ?? (name === 'quantity' ? '1' : '')}" style="width:100%;padding:0.5rem;font:inherit"></label>
      ${errors[name] ? html`<br><span role="alert" class="muted">${errors[name].join(', ')}</span>` : ''}</p>`;
  const country = values.country || product.seller_country || 'PL';
  return html`<article class="sheet">
    ${product.test_mode ? html`<span class="badge due">${t.testMode}</span>` : ''}
    <span class="muted">${product.seller}</span>
    <h1>${product.name}</h1>
    <p class="amount">${money(product.price_gross, product.currency, lang)}</p>
    ${product.available
      ? html`<form method="post">
          <input type="hidden" name="lang" value="${lang}">
          <input type="hidden" name="${ORDER_KEY_FIELD}" value="${newOrderKey()}">
          ${field(t.email, 'email', 'email', 'required autocomplete="email"')}
          ${field(t.name, 'name', 'text', 'autocomplete="name"')}
          ${field(t.company, 'company', 'text', 'autocomplete="organization"')}
          ${field(t.taxNo, 'tax_no', 'text', '')}
          ${field(t.street, 'street', 'text', 'autocomplete="street-address"')}
          ${field(t.postCode, 'post_code', 'text', 'autocomplete="postal-code"')}
          ${field(t.city, 'city', 'text', 'autocomplete="address-level2"')}
          ${countrySelect(lang, t.country, country, errors.country)}
          ${product.service ? '' : field(t.quantity, 'quantity', 'number', 'min="1" max="1000" required inputmode="numeric"')}
          ${product.blik
            ? html`<fieldset style="border:1px solid #d5dae1;border-radius:8px;padding:0.5rem 0.9rem"><legend>BLIK</legend>
                <p class="muted">${t.blik}</p>
                ${blikCodeField(lang, { name: 'blik_code', problem: errors.blik_code?.join(', '), testCodes: options.testCodes === true })}</fieldset>`
            : ''}
          <div class="actions"><button class="button primary" type="submit">${t.continue}</button></div>
        </form>`
      : html`<p>${t.unavailable}</p>`}
  </article>`;
}
