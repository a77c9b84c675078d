import { html, nothing, type PropertyDeclarations } from 'lit';
import { formatMoney } from '../../elements/shared/format.js';
import { Task } from '../../elements/shared/task.js';
import { locale, pick } from '../i18n.js';
import type { AdminProduct } from '../products.js';
import { viewStyles } from '../styles.js';
import { AdminView } from '../view.js';

const PER_PAGE = 25;

const strings = {
  en: {
    title: 'Products',
    intro: 'What you sell. Each product has a token: the pay button and its embed code name it.',
    newProduct: 'New product',
    name: 'Name',
    price: 'Price (gross)',
    tax: 'VAT',
    token: 'Token',
    actions: 'Actions',
    edit: 'Edit',
    embed: 'Embed code',
    editNamed: (name: string) => `Edit ${name}`,
    embedNamed: (name: string) => `Embed code for ${name}`,
    empty: 'No products yet. Create the first one to get its pay button.',
    loading: 'Loading products…',
    failed: 'The products could not be loaded.',
    retry: 'Try again',
    previous: 'Previous page',
    next: 'Next page',
    page: (n: number) => `Page ${n}`,
  },
  pl: {
    title: 'Produkty',
    intro: 'To, co sprzedajesz. Każdy produkt ma token: wskazuje go przycisk płatności i jego kod do osadzenia.',
    newProduct: 'Nowy produkt',
    name: 'Nazwa',
    price: 'Cena (brutto)',
    tax: 'VAT',
    token: 'Token',
    actions: 'Działania',
    edit: 'Edytuj',
    embed: 'Kod do osadzenia',
    editNamed: (name: string) => `Edytuj ${name}`,
    embedNamed: (name: string) => `Kod do osadzenia dla ${name}`,
    empty: 'Nie ma jeszcze produktów. Utwórz pierwszy, aby dostać jego przycisk płatności.',
    loading: 'Wczytywanie produktów…',
    failed: 'Nie udało się wczytać produktów.',
    retry: 'Spróbuj ponownie',
    previous: 'Poprzednia strona',
    next: 'Następna strona',
    page: (n: number) => `Strona ${n}`,
  },
};

/** A VAT rate as the API writes it (`"23"`, `"zw"`), for reading. */
export function taxLabel(tax: string): string {
  return /^\d+(\.\d+)?$/.test(tax) ? `${tax}%` : tax;
}

/** The account's products, a page at a time, each with links to its editor and its embed code. */
export class AdminProducts extends AdminView {
  static override styles = viewStyles;
  static override properties: PropertyDeclarations = { ...AdminView.properties, page: { state: true }, attempt: { state: true } };

  private page = 1;
  private attempt = 0;
  #products = new Task(this, {
    args: () => [this.api, this.page, this.attempt] as const,
    task: ([api, page]) => api.get<AdminProduct[]>('/products.json', { page, per_page: PER_PAGE }),
  });

  override render() {
    const t = pick(strings, this.lang);
    return html`
      <h1 tabindex="-1">${t.title}</h1>
      <p class="muted">${t.intro}</p>
      <p class="actions"><a class="button primary" href="/admin/products/new" @click=${this.follow}>${t.newProduct}</a></p>
      ${this.#body()}
    `;
  }

  #body() {
    const t = pick(strings, this.lang);
    if (this.#products.status === 'error') {
      return html`<p class="error" role="alert">${t.failed}</p><button type="button" @click=${() => this.attempt++}>${t.retry}</button>`;
    }
    const products = this.#products.value;
    if (!products) return html`<p class="muted" role="status">${t.loading}</p>`;
    if (products.length === 0 && this.page === 1) return html`<p>${t.empty}</p>`;
    const where = locale(this.lang);
    return html`
      <div class="table-wrap">
        <table>
          <thead>
            <tr><th scope="col">${t.name}</th><th scope="col" class="number">${t.price}</th><th scope="col">${t.tax}</th><th scope="col">${t.token}</th><th scope="col">${t.actions}</th></tr>
          </thead>
          <tbody>
            ${products.map(
              (product) => html`<tr>
                <th scope="row"><a href="/admin/products/${product.id}" @click=${this.follow} aria-label=${t.editNamed(product.name)}>${product.name}</a></th>
                <td class="number">${formatMoney(product.price_gross, product.currency, where)}</td>
                <td>${taxLabel(product.tax)}</td>
                <td><code>${product.token}</code></td>
                <td><a href="/admin/products/${product.id}/embed" @click=${this.follow} aria-label=${t.embedNamed(product.name)}>${t.embed}</a></td>
              </tr>`,
            )}
          </tbody>
        </table>
      </div>
      ${this.page > 1 || products.length === PER_PAGE
        ? html`<nav class="actions" aria-label=${t.page(this.page)}>
            ${this.page > 1 ? html`<button type="button" @click=${() => this.page--}>${t.previous}</button>` : nothing}
            <span>${t.page(this.page)}</span>
            ${products.length === PER_PAGE ? html`<button type="button" @click=${() => this.page++}>${t.next}</button>` : nothing}
          </nav>`
        : nothing}
    `;
  }
}

if (!customElements.get('ik-admin-products')) customElements.define('ik-admin-products', AdminProducts);

declare global {
  interface HTMLElementTagNameMap {
    'ik-admin-products': AdminProducts;
  }
}
