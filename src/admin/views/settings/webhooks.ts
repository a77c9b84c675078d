import { html, nothing, type PropertyDeclarations } from 'lit';
import { Task } from '../../../elements/shared/task.js';
import { type Lang, locale, pick } from '../../i18n.js';
import { badge, errorText, fieldErrors, formValues, textField, type Tone } from '../records.js';
import { SettingsSection } from './section.js';

const KINDS = ['invoice:create', 'invoice:update', 'client:create', 'client:update', 'product:create', 'product:update', 'payment:create', 'payment:update', 'account:attention'] as const;

export interface Webhook {
  id: number;
  kind: string;
  url: string;
  active: boolean;
}

export interface WebhookDelivery {
  id: number;
  kind: string;
  record_id: number;
  status: 'pending' | 'delivered' | 'failed';
  attempts: number;
  last_attempt_at: string | null;
  last_status: number | null;
  last_error: string | null;
  delivered_at: string | null;
  created_at: string;
}

const strings = {
  en: {
    title: 'Webhooks',
    live: 'Each sale, invoice and payment is posted to these addresses as it happens; a failing one is retried, then shown on the Overview.',
    none: 'No webhooks yet.',
    add: 'Add a webhook',
    kind: 'Event',
    url: 'Address (https://…)',
    create: 'Add',
    created: 'The webhook was added.',
    remove: (url: string) => `Remove ${url}`,
    removed: 'The webhook was removed.',
    active: 'Active',
    inactive: 'Paused',
    deliveries: (url: string) => `Deliveries to ${url}`,
    noDeliveries: 'Nothing sent yet.',
    columns: { event: 'Event', status: 'Result', attempts: 'Attempts', last: 'Last answer', when: 'When', action: 'Action' },
    statuses: { pending: 'Waiting', delivered: 'Delivered', failed: 'Failed' },
    again: 'Send again',
    againLabel: (id: number) => `Send again (delivery ${id})`,
    removeShort: 'Remove',
    sentAgain: 'The delivery is queued to be sent again.',
    loading: 'Loading…',
    failed: 'The webhooks could not be loaded:',
  },
  pl: {
    title: 'Webhooki',
    live: 'Każda sprzedaż, faktura i płatność jest wysyłana na te adresy na bieżąco; nieudana wysyłka jest ponawiana, a potem pokazana w Przeglądzie.',
    none: 'Brak webhooków.',
    add: 'Dodaj webhook',
    kind: 'Zdarzenie',
    url: 'Adres (https://…)',
    create: 'Dodaj',
    created: 'Webhook został dodany.',
    remove: (url: string) => `Usuń ${url}`,
    removed: 'Webhook został usunięty.',
    active: 'Aktywny',
    inactive: 'Wstrzymany',
    deliveries: (url: string) => `Wysyłki do ${url}`,
    noDeliveries: 'Jeszcze nic nie wysłano.',
    columns: { event: 'Zdarzenie', status: 'Wynik', attempts: 'Próby', last: 'Ostatnia odpowiedź', when: 'Kiedy', action: 'Akcja' },
    statuses: { pending: 'Oczekuje', delivered: 'Dostarczono', failed: 'Niedostarczono' },
    again: 'Wyślij ponownie',
    againLabel: (id: number) => `Wyślij ponownie (wysyłka ${id})`,
    removeShort: 'Usuń',
    sentAgain: 'Wysyłka czeka na ponowne wysłanie.',
    loading: 'Wczytywanie…',
    failed: 'Nie udało się wczytać webhooków:',
  },
} satisfies Record<Lang, unknown>;

const STATUS_TONES: Record<WebhookDelivery['status'], Tone> = { pending: 'pending', delivered: 'ok', failed: 'error' };

/**
 * The account's webhooks, each with its deliveries' results (status, attempts, the last answer) and
 * "Send again" on each; webhooks are added and removed here.
 * @summary The settings' webhooks section.
 */
export class AdminWebhookSettings extends SettingsSection {
  static override properties: PropertyDeclarations = { ...SettingsSection.properties };

  readonly #hooks = new Task(this, {
    args: () => [this.api] as const,
    task: async ([api]) => {
      if (!api) return undefined;
      const hooks = await api.get<Webhook[]>('/webhooks.json', { per_page: 100 });
      const deliveries = await Promise.all(hooks.map((hook) => api.get<WebhookDelivery[]>(`/webhooks/${hook.id}/deliveries.json`, { per_page: 10 })));
      return hooks.map((hook, index) => ({ hook, deliveries: deliveries[index] ?? [] }));
    },
  });

  #create(event: SubmitEvent): void {
    event.preventDefault();
    const form = event.target as HTMLFormElement;
    const { kind, url } = formValues(form);
    void this.act('create', async () => {
      await this.api.post('/webhooks.json', { webhook: { kind, url, active: true } });
      form.reset();
      await this.#hooks.run();
      return { tone: 'ok', text: pick(strings, this.language).created };
    });
  }

  #remove(hook: Webhook): void {
    void this.act('remove', async () => {
      await this.api.delete(`/webhooks/${hook.id}.json`);
      await this.#hooks.run();
      return { tone: 'ok', text: pick(strings, this.language).removed };
    });
  }

  #again(hook: Webhook, delivery: WebhookDelivery): void {
    void this.act('again', async () => {
      await this.api.post(`/webhooks/${hook.id}/deliveries/${delivery.id}/redeliver.json`);
      await this.#hooks.run();
      return { tone: 'ok', text: pick(strings, this.language).sentAgain };
    });
  }

  override render() {
    const t = pick(strings, this.language);
    const hooks = this.#hooks.value;
    const error = this.errorOf('create');
    return html`<h2>${t.title}</h2>
      <p class="notice" data-field="live-sales">${t.live}</p>
      ${this.renderNotice()}
      ${this.#hooks.status === 'error'
        ? html`<p class="notice" data-tone="error" role="alert">${t.failed} ${errorText(this.#hooks.error)}</p>`
        : !hooks
          ? html`<p role="status">${t.loading}</p>`
          : hooks.length === 0
            ? html`<p>${t.none}</p>`
            : hooks.map(({ hook, deliveries }) => this.#hook(hook, deliveries))}
      <form @submit=${(event: SubmitEvent) => this.#create(event)}>
        <fieldset>
          <legend>${t.add}</legend>
          <label>
            ${t.kind}
            <select name="kind">${KINDS.map((kind) => html`<option value=${kind}>${kind}</option>`)}</select>
          </label>
          ${textField({ label: t.url, name: 'url', type: 'url', value: '', required: true, errors: fieldErrors(error, 'url', 'webhook.url') })}
          <div class="actions"><button type="submit" ?disabled=${Boolean(this.busy)}>${t.create}</button></div>
        </fieldset>
      </form>`;
  }

  #hook(hook: Webhook, deliveries: WebhookDelivery[]) {
    const t = pick(strings, this.language);
    const lang = locale(this.language);
    const when = (at: string | null) => (at ? new Date(at).toLocaleString(lang, { dateStyle: 'short', timeStyle: 'short' }) : '');
    return html`<section class="hook" data-webhook=${hook.id}>
      <h3 style="font-size:1rem;margin:1rem 0 .4rem;overflow-wrap:anywhere">
        ${hook.kind} → ${hook.url} ${badge(hook.active ? t.active : t.inactive, hook.active ? 'ok' : 'none')}
      </h3>
      <p class="actions">
        <button type="button" class="secondary" aria-label=${t.remove(hook.url)} ?disabled=${Boolean(this.busy)} @click=${() => this.#remove(hook)}>${t.removeShort}</button>
      </p>
      ${deliveries.length === 0
        ? html`<p class="hint">${t.noDeliveries}</p>`
        : html`<div class="scroll" tabindex="0" role="region" aria-label=${t.deliveries(hook.url)}>
            <table aria-label=${t.deliveries(hook.url)}>
              <thead>
                <tr>
                  <th scope="col">${t.columns.event}</th>
                  <th scope="col">${t.columns.status}</th>
                  <th scope="col" class="wide">${t.columns.attempts}</th>
                  <th scope="col">${t.columns.last}</th>
                  <th scope="col" class="wide">${t.columns.when}</th>
                  <th scope="col">${t.columns.action}</th>
                </tr>
              </thead>
              <tbody>
                ${deliveries.map(
                  (delivery) => html`<tr data-delivery=${delivery.id}>
                    <td>${delivery.kind} #${delivery.record_id}</td>
                    <td>${badge(t.statuses[delivery.status], STATUS_TONES[delivery.status])}</td>
                    <td class="wide">${delivery.attempts}</td>
                    <td>${delivery.last_status ?? ''} ${delivery.last_error ?? ''}</td>
                    <td class="wide">${when(delivery.delivered_at ?? delivery.last_attempt_at ?? delivery.created_at)}</td>
                    <td>
                      ${delivery.status === 'pending'
                        ? nothing
                        : html`<button type="button" class="secondary" aria-label=${t.againLabel(delivery.id)} ?disabled=${Boolean(this.busy)} @click=${() => this.#again(hook, delivery)}>
                            ${t.again}
                          </button>`}
                    </td>
                  </tr>`,
                )}
              </tbody>
            </table>
          </div>`}
    </section>`;
  }
}
