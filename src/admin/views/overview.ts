import { html, nothing, type PropertyDeclarations } from 'lit';
import { Task } from '../../elements/shared/task.js';
import { pick } from '../i18n.js';
import { viewStyles } from '../styles.js';
import { AdminView } from '../view.js';
import { strings } from './overview.strings.js';

/** One thing that needs the seller, as `GET /account/attention.json` lists it. */
export interface AttentionItem {
  kind: string;
  id: number | string;
  /** The invoice it concerns, when the item is not the invoice itself (a payment, an e-mail). */
  invoice_id?: number | null;
  number?: string | null;
  message?: string | null;
  webhook_id?: number | null;
}

type Group = keyof (typeof strings)['en']['groups'];
const GROUPS: readonly Group[] = ['ksef', 'overdue', 'payments', 'deliveries'];

function groupOf(kind: string): Group {
  if (/webhook|mail/.test(kind)) return 'deliveries';
  if (/payment/.test(kind)) return 'payments';
  if (/overdue/.test(kind)) return 'overdue';
  return 'ksef';
}

/** Where an item is fixed: its invoice's page, or the settings for a webhook. */
export function attentionPath(item: AttentionItem): string {
  if (/webhook/.test(item.kind)) return '/admin/settings';
  const invoice = /payment|mail/.test(item.kind) ? item.invoice_id : (item.invoice_id ?? item.id);
  return invoice === undefined || invoice === null ? (/mail/.test(item.kind) ? '/admin/settings' : '/admin/invoices') : `/admin/invoices/${encodeURIComponent(String(invoice))}`;
}

/** The items of the answer, whether it lists them at the top, under `items`, or by group. */
export function attentionItems(answer: unknown): AttentionItem[] {
  const isItem = (value: unknown): value is AttentionItem => typeof value === 'object' && value !== null && typeof (value as AttentionItem).kind === 'string';
  if (Array.isArray(answer)) return answer.filter(isItem);
  if (typeof answer !== 'object' || answer === null) return [];
  return Object.values(answer).flatMap((value) => (Array.isArray(value) ? value.filter(isItem) : []));
}

/** What needs the seller now, grouped, each item a link to where it is fixed. */
export class AdminOverview extends AdminView {
  static override styles = viewStyles;
  static override properties: PropertyDeclarations = { ...AdminView.properties, attempt: { state: true } };

  private attempt = 0;
  #attention = new Task(this, {
    args: () => [this.api, this.attempt] as const,
    task: async ([api]) => attentionItems(await api.get<unknown>('/account/attention.json')),
  });

  override render() {
    const t = pick(strings, this.lang);
    return html`
      <h1 tabindex="-1">${t.title}</h1>
      <p class="muted">${t.intro}</p>
      ${this.#body()}
      <h2>${t.quick}</h2>
      <p class="actions">
        <a class="button" href="/admin/products/new" @click=${this.follow}>${t.newProduct}</a>
        <a class="button" href="/admin/products" @click=${this.follow}>${t.products}</a>
      </p>
    `;
  }

  #body() {
    const t = pick(strings, this.lang);
    if (this.#attention.status === 'error') return html`<p class="error" role="alert">${t.failed}</p><button type="button" @click=${() => this.attempt++}>${t.retry}</button>`;
    const items = this.#attention.value;
    if (!items) return html`<p class="muted" role="status">${t.loading}</p>`;
    if (items.length === 0) return html`<p role="status">${t.allClear}</p>`;
    return GROUPS.map((group) => {
      const inGroup = items.filter((item) => groupOf(item.kind) === group);
      if (inGroup.length === 0) return nothing;
      return html`<section aria-labelledby="group-${group}">
        <h2 id="group-${group}">${t.groups[group]} <span class="badge">${inGroup.length}</span></h2>
        <ul>
          ${inGroup.map(
            (item) => html`<li>
              <a href=${attentionPath(item)} @click=${this.follow}>${item.number ? t.invoice(item.number) : (t.kinds[item.kind] ?? item.kind)}</a>${item.number ? `: ${t.kinds[item.kind] ?? item.kind}` : nothing}${item.message ? html`<span class="muted"> · ${item.message}</span>` : nothing}
            </li>`,
          )}
        </ul>
      </section>`;
    });
  }
}

if (!customElements.get('ik-admin-overview')) customElements.define('ik-admin-overview', AdminOverview);

declare global {
  interface HTMLElementTagNameMap {
    'ik-admin-overview': AdminOverview;
  }
}
