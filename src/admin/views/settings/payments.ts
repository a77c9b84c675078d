import { html, nothing, type PropertyDeclarations } from 'lit';
import { Task } from '../../../elements/shared/task.js';
import { type Lang, pick } from '../../i18n.js';
import { badge, errorText, fieldErrors, formValues, textField } from '../records.js';
import { SettingsSection } from './section.js';
import { connectionNotice, type ConnectionAnswer } from './connection.js';

const PROVIDERS = ['test', 'stripe', 'przelewy24', 'none'] as const;
type Provider = (typeof PROVIDERS)[number];

/** `GET /account/payments.json`, as this section reads it: secrets only as whether they are set. */
export interface PaymentSettings {
  provider: Provider;
  default: boolean;
  test_mode: boolean;
  stripe: { secret_key_set: boolean; webhook_secret_set: boolean; key_mode: 'live' | 'test' | null; webhook_url: string };
  przelewy24: { merchant_id: number | null; pos_id: number | null; crc_set: boolean; api_key_set: boolean; sandbox: boolean; notify_url: string };
}

const strings = {
  en: {
    title: 'Payment provider',
    providers: { test: 'Test payments', stripe: 'Stripe', przelewy24: 'Przelewy24', none: 'No online payment' },
    live: {
      test: 'Buyers see Pay and Decline pages and no money moves. Do not sell this way.',
      stripeTest: 'Stripe test keys take test cards only, and no money moves.',
      stripeLive: 'Buyers pay real money to your Stripe account.',
      p24Sandbox: "Payments go to Przelewy24's sandbox, and no money moves.",
      p24Live: 'Buyers pay real money through Przelewy24.',
      none: 'Buyers get invoices to pay by bank transfer, and pay buttons take no payment.',
    },
    mode: { test: 'Test mode', live: 'Live', off: 'Online payment off' },
    set: 'set',
    notSet: 'not set',
    keepHint: 'Write-only: it is never shown again. Leave empty to keep the one set.',
    secretKey: 'Secret key (sk_test_… or sk_live_…)',
    webhookSecret: 'Webhook signing secret (whsec_…)',
    webhookUrl: "Add this endpoint in Stripe's dashboard:",
    merchantId: 'Merchant ID',
    posId: 'POS ID',
    crc: 'CRC key',
    apiKey: 'API key',
    sandbox: "Use Przelewy24's sandbox (no money moves)",
    notifyUrl: 'Przelewy24 reports payments to:',
    save: 'Save',
    saved: 'The payment settings were saved. They apply to the next sale.',
    test: 'Test connection',
    loading: 'Loading…',
    failed: 'The payment settings could not be loaded:',
  },
  pl: {
    title: 'Operator płatności',
    providers: { test: 'Płatności testowe', stripe: 'Stripe', przelewy24: 'Przelewy24', none: 'Bez płatności online' },
    live: {
      test: 'Kupujący widzą strony Zapłać i Odrzuć, pieniądze się nie przemieszczają. Nie sprzedawaj w ten sposób.',
      stripeTest: 'Testowe klucze Stripe przyjmują tylko karty testowe, pieniądze się nie przemieszczają.',
      stripeLive: 'Kupujący płacą prawdziwe pieniądze na Twoje konto Stripe.',
      p24Sandbox: 'Płatności trafiają do sandboksa Przelewy24, pieniądze się nie przemieszczają.',
      p24Live: 'Kupujący płacą prawdziwe pieniądze przez Przelewy24.',
      none: 'Kupujący dostają faktury do zapłaty przelewem, a przyciski płatności nie przyjmują wpłat.',
    },
    mode: { test: 'Tryb testowy', live: 'Na żywo', off: 'Płatności online wyłączone' },
    set: 'ustawiony',
    notSet: 'nieustawiony',
    keepHint: 'Tylko do zapisu: nie będzie już pokazany. Zostaw puste, by zachować obecny.',
    secretKey: 'Klucz tajny (sk_test_… lub sk_live_…)',
    webhookSecret: 'Sekret podpisu webhooka (whsec_…)',
    webhookUrl: 'Dodaj ten adres w panelu Stripe:',
    merchantId: 'ID sprzedawcy',
    posId: 'ID punktu (POS)',
    crc: 'Klucz CRC',
    apiKey: 'Klucz API',
    sandbox: 'Używaj sandboksa Przelewy24 (bez prawdziwych pieniędzy)',
    notifyUrl: 'Przelewy24 zgłasza płatności na:',
    save: 'Zapisz',
    saved: 'Ustawienia płatności zapisano. Obowiązują od następnej sprzedaży.',
    test: 'Sprawdź połączenie',
    loading: 'Wczytywanie…',
    failed: 'Nie udało się wczytać ustawień płatności:',
  },
} satisfies Record<Lang, unknown>;

/** What the account's payment settings do to live sales, in one sentence. */
export function liveSalesOf(settings: PaymentSettings, lang: Lang): string {
  const live = pick(strings, lang).live;
  switch (settings.provider) {
    case 'test':
      return live.test;
    case 'stripe':
      return settings.test_mode ? live.stripeTest : live.stripeLive;
    case 'przelewy24':
      return settings.test_mode ? live.p24Sandbox : live.p24Live;
    case 'none':
      return live.none;
  }
}

/**
 * The payment provider: test payments, Stripe or Przelewy24, with write-only keys, what the choice
 * does to live sales, and "Test connection", which asks the provider with the saved keys.
 * @summary The settings' payment provider section.
 */
export class AdminPaymentSettings extends SettingsSection {
  static override properties: PropertyDeclarations = { ...SettingsSection.properties, chosen: { state: true } };

  /** The provider picked in the form, before it is saved. */
  chosen: Provider | undefined;

  readonly #settings = new Task(this, {
    args: () => [this.api] as const,
    task: async ([api]) => (api ? (await api.get<{ payments: PaymentSettings }>('/account/payments.json')).payments : undefined),
  });

  #save(event: SubmitEvent): void {
    event.preventDefault();
    const form = event.target as HTMLFormElement;
    const values = formValues(form);
    const given = (value: string | undefined) => (value ? value : undefined);
    const provider = (values.provider ?? 'none') as Provider;
    const payments: Record<string, unknown> = { provider };
    if (provider === 'stripe') payments.stripe = { secret_key: given(values.secret_key), webhook_secret: given(values.webhook_secret) };
    if (provider === 'przelewy24') {
      payments.przelewy24 = {
        merchant_id: given(values.merchant_id),
        pos_id: given(values.pos_id),
        crc: given(values.crc),
        api_key: given(values.api_key),
        sandbox: values.sandbox === 'on',
      };
    }
    void this.act('save', async () => {
      const saved = await this.api.put<{ payments: PaymentSettings }>('/account/payments.json', { payments });
      this.#settings.value = saved.payments;
      this.chosen = undefined;
      form.reset();
      return { tone: 'ok', text: pick(strings, this.language).saved };
    });
  }

  #test(): void {
    void this.act('test', async () => connectionNotice(await this.api.post<ConnectionAnswer>('/account/connection_tests/payments.json'), this.language));
  }

  override render() {
    const t = pick(strings, this.language);
    const settings = this.#settings.value;
    if (!settings) {
      return html`<h2 id="payments">${t.title}</h2>
        ${this.#settings.status === 'error' ? html`<p class="notice" data-tone="error" role="alert">${t.failed} ${errorText(this.#settings.error)}</p>` : html`<p role="status">${t.loading}</p>`}`;
    }
    const provider = this.chosen ?? settings.provider;
    const mode = settings.provider === 'none' ? 'off' : settings.test_mode ? 'test' : 'live';
    const error = this.errorOf('save');
    const secret = (label: string, name: string, set: boolean, field: string) =>
      html`<div>
        ${textField({ label: `${label} (${set ? t.set : t.notSet})`, name, type: 'password', value: '', autocomplete: 'off', hint: t.keepHint, errors: fieldErrors(error, field, `payments.${field}`) })}
      </div>`;
    return html`<h2 id="payments">${t.title}</h2>
      <p class="notice" data-tone=${mode === 'live' ? 'ok' : mode} data-field="live-sales">
        ${badge(t.mode[mode], mode === 'live' ? 'ok' : mode === 'test' ? 'test' : 'none')} ${liveSalesOf(settings, this.language)}
      </p>
      ${this.renderNotice()}
      <form @submit=${(event: SubmitEvent) => this.#save(event)}>
        <fieldset>
          <legend>${t.title}</legend>
          ${PROVIDERS.map(
            (name) => html`<label class="check">
              <input type="radio" name="provider" value=${name} .checked=${provider === name} @change=${() => (this.chosen = name)} />
              ${t.providers[name]}
            </label>`,
          )}
        </fieldset>
        ${provider === 'stripe'
          ? html`<fieldset>
              <legend>${t.providers.stripe}</legend>
              ${secret(t.secretKey, 'secret_key', settings.stripe.secret_key_set, 'stripe.secret_key')}
              ${secret(t.webhookSecret, 'webhook_secret', settings.stripe.webhook_secret_set, 'stripe.webhook_secret')}
              <p class="hint">${t.webhookUrl} <code>${settings.stripe.webhook_url}</code></p>
            </fieldset>`
          : nothing}
        ${provider === 'przelewy24'
          ? html`<fieldset>
              <legend>${t.providers.przelewy24}</legend>
              ${textField({ label: t.merchantId, name: 'merchant_id', value: settings.przelewy24.merchant_id?.toString(), errors: fieldErrors(error, 'przelewy24.merchant_id', 'payments.przelewy24.merchant_id') })}
              ${textField({ label: t.posId, name: 'pos_id', value: settings.przelewy24.pos_id?.toString(), errors: fieldErrors(error, 'przelewy24.pos_id', 'payments.przelewy24.pos_id') })}
              ${secret(t.crc, 'crc', settings.przelewy24.crc_set, 'przelewy24.crc')} ${secret(t.apiKey, 'api_key', settings.przelewy24.api_key_set, 'przelewy24.api_key')}
              <label class="check"><input type="checkbox" name="sandbox" .checked=${settings.przelewy24.sandbox} /> ${t.sandbox}</label>
              <p class="hint">${t.notifyUrl} <code>${settings.przelewy24.notify_url}</code></p>
            </fieldset>`
          : nothing}
        <div class="actions">
          <button type="submit" ?disabled=${Boolean(this.busy)}>${t.save}</button>
          ${settings.provider !== 'none'
            ? html`<button type="button" class="secondary" ?disabled=${Boolean(this.busy)} @click=${() => this.#test()}>${t.test}</button>`
            : nothing}
        </div>
      </form>`;
  }
}
