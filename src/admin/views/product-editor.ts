import { html, nothing, type PropertyDeclarations } from 'lit';
import { Task } from '../../elements/shared/task.js';
import { AdminApiError } from '../api.js';
import { pick } from '../i18n.js';
import type { AdminProduct } from '../products.js';
import { viewStyles } from '../styles.js';
import { AdminView } from '../view.js';

const TAXES = ['23', '8', '5', '0', 'zw', 'np'] as const;
const CURRENCIES = ['PLN', 'EUR', 'USD', 'GBP', 'CZK', 'CHF', 'JPY'] as const;
const SUPPLY_KINDS = ['goods', 'service', 'electronic_service'] as const;

const strings = {
  en: {
    newTitle: 'New product',
    editTitle: (name: string) => `Edit ${name}`,
    back: 'Back to products',
    name: 'Name',
    code: 'Code',
    codeHint: 'Your own catalogue number; optional.',
    description: 'Description',
    price: 'Price (gross)',
    priceHint: 'What the buyer pays, VAT included: 123.00',
    tax: 'VAT rate',
    taxes: { '23': '23%', '8': '8%', '5': '5%', '0': '0%', zw: 'Exempt (zw)', np: 'Not taxed here (np)' } as Record<string, string>,
    currency: 'Currency',
    supplyKind: 'What it is',
    supplyKinds: { goods: 'Goods', service: 'A service', electronic_service: 'An electronically supplied service' },
    unit: 'Unit',
    unitHint: 'As the invoice prints it: pcs., h, licence.',
    token: 'Token',
    tokenHint: 'Names the product in its pay button and address. Changing it breaks buttons already pasted.',
    create: 'Create product',
    save: 'Save',
    saving: 'Saving…',
    saved: 'Saved.',
    embed: 'Embed code',
    invalid: 'Check the fields marked below.',
    failed: (message: string) => `Saving failed: ${message}`,
    loading: 'Loading the product…',
    notFound: 'There is no such product.',
  },
  pl: {
    newTitle: 'Nowy produkt',
    editTitle: (name: string) => `Edycja: ${name}`,
    back: 'Wróć do produktów',
    name: 'Nazwa',
    code: 'Kod',
    codeHint: 'Własny numer katalogowy; opcjonalnie.',
    description: 'Opis',
    price: 'Cena (brutto)',
    priceHint: 'Tyle płaci kupujący, z VAT: 123,00',
    tax: 'Stawka VAT',
    taxes: { '23': '23%', '8': '8%', '5': '5%', '0': '0%', zw: 'Zwolniony (zw)', np: 'Nie podlega (np)' } as Record<string, string>,
    currency: 'Waluta',
    supplyKind: 'Rodzaj',
    supplyKinds: { goods: 'Towar', service: 'Usługa', electronic_service: 'Usługa elektroniczna' },
    unit: 'Jednostka',
    unitHint: 'Tak jak na fakturze: szt., godz., licencja.',
    token: 'Token',
    tokenHint: 'Wskazuje produkt w przycisku płatności i jego adresie. Zmiana psuje już wklejone przyciski.',
    create: 'Utwórz produkt',
    save: 'Zapisz',
    saving: 'Zapisywanie…',
    saved: 'Zapisano.',
    embed: 'Kod do osadzenia',
    invalid: 'Popraw zaznaczone pola.',
    failed: (message: string) => `Nie udało się zapisać: ${message}`,
    loading: 'Wczytywanie produktu…',
    notFound: 'Nie ma takiego produktu.',
  },
};

/** The API's fields the form edits, as the inputs name them. */
const FIELDS = ['name', 'code', 'description', 'price_gross', 'tax', 'currency', 'supply_kind', 'quantity_unit', 'token'] as const;
type Field = (typeof FIELDS)[number];

/** A decimal as the buyer types it (`123,50`) as the API reads it (`123.50`). */
const decimalText = (text: string) => text.trim().replace(/\s/g, '').replace(',', '.');

/**
 * Creates a product (`/admin/products/new`) or edits one (`/admin/products/:id`). A new product
 * opens its embed-code builder; the API's field errors stand beside their fields.
 */
export class AdminProductEditor extends AdminView {
  static override styles = viewStyles;
  static override properties: PropertyDeclarations = {
    ...AdminView.properties,
    busy: { state: true },
    fields: { state: true },
    message: { state: true },
  };

  private busy = false;
  private fields: Partial<Record<Field | 'base', string[]>> = {};
  private message: { kind: 'saved' | 'invalid' | 'failed'; text?: string } | undefined;
  #product = new Task(this, {
    args: () => [this.api, this.params.id] as const,
    task: ([api, id]) => (id ? api.get<AdminProduct>(`/products/${encodeURIComponent(id)}.json`) : undefined),
  });

  override render() {
    const t = pick(strings, this.lang);
    const editing = this.params.id !== undefined;
    const product = this.#product.value;
    if (editing && this.#product.status === 'error') {
      const missing = this.#product.error instanceof AdminApiError && this.#product.error.status === 404;
      return html`<h1 tabindex="-1">${t.notFound}</h1>
        ${missing ? nothing : html`<p class="error" role="alert">${String((this.#product.error as Error).message)}</p>`}
        <p><a href="/admin/products" @click=${this.follow}>${t.back}</a></p>`;
    }
    if (editing && !product) return html`<h1 tabindex="-1">${t.loading}</h1>`;
    return html`
      <p><a href="/admin/products" @click=${this.follow}>${t.back}</a></p>
      <h1 tabindex="-1">${product ? t.editTitle(product.name) : t.newTitle}</h1>
      <form @submit=${this.#submit} novalidate>
        ${this.#input('name', t.name, product?.name ?? '', { required: true, autocomplete: 'off' })}
        ${this.#input('price_gross', t.price, product?.price_gross ?? '', { required: true, hint: t.priceHint, inputmode: 'decimal' })}
        ${this.#select('tax', t.tax, product?.tax ?? '23', TAXES.map((tax) => [tax, t.taxes[tax] ?? tax]))}
        ${this.#select('currency', t.currency, product?.currency ?? 'PLN', CURRENCIES.map((currency) => [currency, currency]))}
        ${this.#select('supply_kind', t.supplyKind, product?.supply_kind ?? (product?.service ? 'service' : 'goods'), SUPPLY_KINDS.map((kind) => [kind, t.supplyKinds[kind]]))}
        ${this.#input('quantity_unit', t.unit, product?.quantity_unit ?? '', { hint: t.unitHint })}
        ${this.#input('code', t.code, product?.code ?? '', { hint: t.codeHint })}
        <label>${t.description}
          <textarea name="description" rows="3" aria-invalid=${this.fields.description ? 'true' : 'false'} aria-describedby="description-error" .value=${product?.description ?? ''}></textarea>
          ${this.#errors('description')}
        </label>
        ${product ? this.#input('token', t.token, product.token, { hint: t.tokenHint, autocomplete: 'off' }) : nothing}
        <p class="status ${this.message?.kind === 'saved' ? '' : 'error'}" role="status">${this.#messageText()}</p>
        <div class="actions">
          <button class="primary" type="submit" ?disabled=${this.busy}>${this.busy ? t.saving : product ? t.save : t.create}</button>
          ${product ? html`<a class="button" href="/admin/products/${product.id}/embed" @click=${this.follow}>${t.embed}</a>` : nothing}
        </div>
      </form>
    `;
  }

  #messageText(): string {
    const t = pick(strings, this.lang);
    if (!this.message) return '';
    if (this.message.kind === 'saved') return t.saved;
    if (this.message.kind === 'invalid') return [t.invalid, ...(this.fields.base ?? [])].join(' ');
    return t.failed(this.message.text ?? '');
  }

  #input(name: Field, label: string, value: string, options: { required?: boolean; hint?: string; autocomplete?: string; inputmode?: string } = {}) {
    const described = [options.hint ? `${name}-hint` : '', `${name}-error`].filter(Boolean).join(' ');
    return html`<label>${label}
      <input name=${name} .value=${value} ?required=${options.required ?? false} autocomplete=${options.autocomplete ?? 'off'} inputmode=${options.inputmode ?? nothing} aria-invalid=${this.fields[name] ? 'true' : 'false'} aria-describedby=${described} />
      ${options.hint ? html`<span class="hint" id="${name}-hint">${options.hint}</span>` : nothing} ${this.#errors(name)}
    </label>`;
  }

  #select(name: Field, label: string, value: string, options: [string, string][]) {
    return html`<label>${label}
      <select name=${name} aria-invalid=${this.fields[name] ? 'true' : 'false'} aria-describedby="${name}-error">
        ${options.map(([option, text]) => html`<option value=${option} ?selected=${option === value}>${text}</option>`)}
      </select>
      ${this.#errors(name)}
    </label>`;
  }

  #errors(name: Field) {
    const messages = this.fields[name];
    return html`<span class="field-error" id="${name}-error">${messages ? messages.join(', ') : ''}</span>`;
  }

  #submit = async (event: SubmitEvent) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget as HTMLFormElement);
    const product = this.#product.value;
    const input: Record<string, string | null> = {};
    for (const field of FIELDS) {
      const value = data.get(field);
      if (value === null) continue;
      const text = field === 'price_gross' ? decimalText(String(value)) : String(value).trim();
      input[field] = text === '' && field !== 'name' && field !== 'price_gross' ? null : text;
    }
    if (product && input.token === product.token) delete input.token;
    this.busy = true;
    this.message = undefined;
    this.fields = {};
    try {
      if (product) {
        const saved = await this.api.put<AdminProduct>(`/products/${product.id}.json`, { product: input });
        this.#product.value = saved;
        this.message = { kind: 'saved' };
      } else {
        const created = await this.api.post<AdminProduct>('/products.json', { product: input });
        this.navigate(`/admin/products/${created.id}/embed`);
      }
    } catch (error) {
      if (error instanceof AdminApiError && error.status === 422) {
        this.fields = error.fields as Partial<Record<Field | 'base', string[]>>;
        this.message = { kind: 'invalid' };
        await this.updateComplete;
        this.renderRoot.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
      } else {
        this.message = { kind: 'failed', text: error instanceof Error ? error.message : String(error) };
      }
    } finally {
      this.busy = false;
    }
  };
}

if (!customElements.get('ik-admin-product-editor')) customElements.define('ik-admin-product-editor', AdminProductEditor);

declare global {
  interface HTMLElementTagNameMap {
    'ik-admin-product-editor': AdminProductEditor;
  }
}
