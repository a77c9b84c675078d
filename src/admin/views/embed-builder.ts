import { css, html, nothing, type PropertyDeclarations } from 'lit';
import '../../elements/product-pay-button/define.js';
import { Task } from '../../elements/shared/task.js';
import { AdminApiError } from '../api.js';
import { embedCodes, type EmbedCodes, type EmbedLocale, type EmbedTheme } from '../embed-code.js';
import { pick } from '../i18n.js';
import type { AdminDepartment, AdminProduct } from '../products.js';
import { readSession } from '../session.js';
import { viewStyles } from '../styles.js';
import { AdminView } from '../view.js';
import { strings } from './embed-builder.strings.js';

type CodeKey = keyof EmbedCodes;
const CODE_ORDER: readonly CodeKey[] = ['widgetScript', 'element', 'shortcode', 'block', 'react'];

/** Copies `text`: the Clipboard API, or a selected text area where the page may not use it. */
async function copyText(text: string, root: ShadowRoot | HTMLElement): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    const area = document.createElement('textarea');
    area.value = text;
    area.setAttribute('readonly', '');
    area.style.position = 'fixed';
    area.style.opacity = '0';
    root.appendChild(area);
    area.select();
    const copied = document.execCommand('copy');
    area.remove();
    return copied;
  }
}

/**
 * One product's embed-code builder: the real `<product-pay-button>` in the chosen theme, language
 * and label, the code to paste in each form with a Copy button, and the origins the button may be
 * used on and return buyers to (the default department's `widget_origins`).
 */
export class AdminEmbedBuilder extends AdminView {
  static override styles = [
    viewStyles,
    css`
      .builder {
        display: grid;
        gap: 1.5rem;
        grid-template-columns: minmax(0, 1fr);
      }
      @media (min-width: 60rem) {
        .builder {
          grid-template-columns: minmax(0, 20rem) minmax(0, 1fr);
        }
      }
      fieldset {
        border: 1px solid var(--admin-border, #d0d5dc);
        border-radius: 0.375rem;
        display: grid;
        gap: 0.75rem;
        padding: 0.75rem 1rem 1rem;
        margin: 0;
      }
      legend {
        font-weight: 700;
        padding: 0 0.25rem;
      }
      .preview {
        padding: 1.5rem 1rem;
        border: 1px dashed var(--admin-border-strong, #5f6b7a);
        border-radius: 0.375rem;
        background: #fff;
      }
      .preview.dark {
        background: #1b1f24;
      }
      .code {
        display: grid;
        gap: 0.375rem;
        margin-bottom: 1rem;
      }
      .code h3 {
        font-size: 1rem;
        margin: 0;
      }
      pre {
        margin: 0;
        padding: 0.75rem;
        border-radius: 0.375rem;
        background: #f0f2f5;
        white-space: pre-wrap;
        overflow-wrap: anywhere;
        font-size: 0.875rem;
      }
      .code .actions button {
        min-width: 6rem;
      }
      ul.origins {
        list-style: none;
        padding: 0;
        margin: 0 0 0.75rem;
        display: grid;
        gap: 0.375rem;
      }
      ul.origins li {
        display: flex;
        flex-wrap: wrap;
        gap: 0.5rem;
        align-items: center;
        justify-content: space-between;
      }
      ul.origins code {
        overflow-wrap: anywhere;
      }
      .add-origin {
        display: flex;
        flex-wrap: wrap;
        gap: 0.5rem;
        align-items: end;
        max-width: none;
      }
      .add-origin label {
        flex: 1 1 14rem;
      }
    `,
  ];
  static override properties: PropertyDeclarations = {
    ...AdminView.properties,
    theme: { state: true },
    locale: { state: true },
    label: { state: true },
    copied: { state: true },
    originProblem: { state: true },
    originStatus: { state: true },
    savingOrigins: { state: true },
  };

  private theme: EmbedTheme = 'light';
  private locale: EmbedLocale = '';
  private label = '';
  private copied: CodeKey | 'failed' | undefined;
  private originProblem = '';
  private originStatus = '';
  private savingOrigins = false;

  /** The product, the account's prefix, its default department and whether its provider takes BLIK codes on the page, together. */
  #data = new Task(this, {
    args: () => [this.api, this.params.id] as const,
    task: async ([api, id]) => {
      const [product, session, departments, blik] = await Promise.all([
        api.get<AdminProduct>(`/products/${encodeURIComponent(id ?? '')}.json`),
        readSession(),
        api.get<AdminDepartment[]>('/departments.json'),
        // A service that cannot say offers no BLIK on the page: the button then sends buyers to the provider's page.
        api.get<{ blik: boolean }>('/account/payment_methods.json').then((methods) => methods.blik === true, () => false),
      ]);
      return { product, prefix: session?.account.prefix ?? '', department: departments.find((department) => department.main) ?? departments[0], blik };
    },
  });

  override render() {
    const t = pick(strings, this.lang);
    // One heading for every state, so the focus the shell puts on it stays there when the data arrives.
    return html`
      <p><a href="/admin/products" @click=${this.follow}>${t.back}</a></p>
      <h1 tabindex="-1">${t.title}</h1>
      ${this.#body()}
    `;
  }

  #body() {
    const t = pick(strings, this.lang);
    if (this.#data.status === 'error') {
      const missing = this.#data.error instanceof AdminApiError && this.#data.error.status === 404;
      return html`<p class="error" role="alert">${missing ? t.notFound : t.failed}</p>`;
    }
    const data = this.#data.value;
    if (!data) return html`<p class="muted" role="status">${t.loading}</p>`;
    const { product, prefix } = data;
    const blik = data.blik && product.currency === 'PLN';
    const service = location.origin;
    const codes = embedCodes({ service, prefix, token: product.token, name: product.name, theme: this.theme, locale: this.locale, label: this.label });
    return html`
      <p class="muted">${t.intro(product.name)} <a href="/admin/products/${product.id}" @click=${this.follow}>${t.editProduct}</a></p>
      <div class="builder">
        <div>
          <fieldset>
            <legend>${t.button}</legend>
            <div class="field">
              <label for="theme">${t.theme}</label>
              <select id="theme" @change=${(event: Event) => (this.theme = (event.currentTarget as HTMLSelectElement).value as EmbedTheme)}>
                ${(['light', 'dark', 'auto'] as const).map((theme) => html`<option value=${theme} ?selected=${theme === this.theme}>${t.themes[theme]}</option>`)}
              </select>
            </div>
            <div class="field">
              <label for="locale">${t.language}</label>
              <select id="locale" @change=${(event: Event) => (this.locale = (event.currentTarget as HTMLSelectElement).value as EmbedLocale)}>
                ${(['', 'en', 'pl'] as const).map((locale) => html`<option value=${locale} ?selected=${locale === this.locale}>${t.locales[locale || 'browser']}</option>`)}
              </select>
            </div>
            <div class="field">
              <label for="label">${t.label}</label>
              <input id="label" name="label" .value=${this.label} maxlength="60" placeholder=${t.labelPlaceholder} aria-describedby="label-hint" @input=${(event: Event) => (this.label = (event.currentTarget as HTMLInputElement).value)} />
              <span class="hint" id="label-hint">${t.labelHint}</span>
            </div>
          </fieldset>
          <h2>${t.preview}</h2>
          <div class="preview ${this.theme === 'dark' ? 'dark' : ''}">
            <product-pay-button app-url=${service} account=${prefix} product=${product.token} theme=${this.theme} locale=${this.locale || nothing} label=${this.label.trim() || nothing}></product-pay-button>
          </div>
          <p class="hint">${t.previewHint}</p>
          <p class="hint" data-blik=${blik ? 'on' : 'off'}>${t.blik(blik, data.blik)}</p>
        </div>
        <div>
          <h2>${t.codes}</h2>
          ${CODE_ORDER.map((key) => this.#code(key, codes[key]))}
          <p class="status" role="status">${this.copied === 'failed' ? t.copyFailed : this.copied ? t.copied(t.codeTitles[this.copied]) : ''}</p>
        </div>
      </div>
      ${this.#origins(data.department)}
    `;
  }

  #code(key: CodeKey, code: string) {
    const t = pick(strings, this.lang);
    return html`<section class="code" aria-labelledby="code-${key}">
      <h3 id="code-${key}">${t.codeTitles[key]}</h3>
      <p class="hint">${t.codeHints[key]}</p>
      <pre><code data-code=${key}>${code}</code></pre>
      <div class="actions"><button type="button" data-copy=${key} aria-describedby="code-${key}" @click=${() => this.#copy(key, code)}>${t.copy}</button></div>
    </section>`;
  }

  async #copy(key: CodeKey, code: string): Promise<void> {
    this.copied = undefined;
    await this.updateComplete;
    this.copied = (await copyText(code, this.renderRoot as ShadowRoot)) ? key : 'failed';
  }

  #origins(department: AdminDepartment | undefined) {
    const t = pick(strings, this.lang);
    if (!department) return nothing;
    const origins = department.widget_origins;
    return html`<section aria-labelledby="origins">
      <h2 id="origins">${t.origins}</h2>
      <p class="muted">${t.originsIntro}</p>
      ${origins.length === 0
        ? html`<p>${t.noOrigins}</p>`
        : html`<ul class="origins">
            ${origins.map(
              (origin) => html`<li><code>${origin}</code><button type="button" ?disabled=${this.savingOrigins} aria-label=${t.removeOrigin(origin)} @click=${() => this.#saveOrigins(department, origins.filter((other) => other !== origin), t.removed(origin))}>${t.remove}</button></li>`,
            )}
          </ul>`}
      <form class="add-origin" novalidate @submit=${(event: SubmitEvent) => this.#addOrigin(event, department)}>
        <label>${t.origin}
          <input name="origin" type="url" inputmode="url" autocomplete="url" placeholder="https://shop.example" aria-invalid=${this.originProblem ? 'true' : 'false'} aria-describedby="origin-problem" />
        </label>
        <button type="submit" ?disabled=${this.savingOrigins}>${t.addOrigin}</button>
      </form>
      <p class="field-error" id="origin-problem">${this.originProblem}</p>
      <p class="status" role="status">${this.originStatus}</p>
    </section>`;
  }

  #addOrigin(event: SubmitEvent, department: AdminDepartment): void {
    event.preventDefault();
    const t = pick(strings, this.lang);
    const form = event.currentTarget as HTMLFormElement;
    const typed = String(new FormData(form).get('origin') ?? '').trim();
    let origin: string;
    try {
      const url = new URL(typed);
      if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new Error('scheme');
      origin = url.origin;
    } catch {
      this.originProblem = t.badOrigin;
      form.querySelector('input')?.focus();
      return;
    }
    if (department.widget_origins.includes(origin)) {
      this.originProblem = t.knownOrigin(origin);
      return;
    }
    void this.#saveOrigins(department, [...department.widget_origins, origin], t.added(origin)).then((saved) => {
      if (saved) form.reset();
    });
  }

  async #saveOrigins(department: AdminDepartment, origins: string[], done: string): Promise<boolean> {
    this.savingOrigins = true;
    this.originProblem = '';
    this.originStatus = '';
    try {
      const saved = await this.api.put<AdminDepartment>(`/departments/${department.id}.json`, { department: { widget_origins: origins } });
      department.widget_origins = saved.widget_origins;
      this.originStatus = done;
      return true;
    } catch (error) {
      const fields = error instanceof AdminApiError ? Object.entries(error.fields) : [];
      this.originProblem = fields.length ? fields.map(([, messages]) => messages.join(', ')).join('; ') : error instanceof Error ? error.message : String(error);
      return false;
    } finally {
      this.savingOrigins = false;
    }
  }
}

if (!customElements.get('ik-admin-embed-builder')) customElements.define('ik-admin-embed-builder', AdminEmbedBuilder);

declare global {
  interface HTMLElementTagNameMap {
    'ik-admin-embed-builder': AdminEmbedBuilder;
  }
}
