import { html, nothing, type PropertyDeclarations } from 'lit';
import { Task } from '../../../elements/shared/task.js';
import { type Lang, pick } from '../../i18n.js';
import { badge, errorText, fieldErrors, formValues, textField } from '../records.js';
import { connectionNotice, type ConnectionAnswer } from './connection.js';
import { SettingsSection } from './section.js';

const ENVIRONMENTS = ['off', 'local', 'test', 'demo', 'production'] as const;
type Environment = (typeof ENVIRONMENTS)[number];
const AUTO_SEND = ['', 'pl_companies', 'all_companies', 'all'] as const;

/** `GET /account/ksef.json`, as this section reads it: the token and key only as whether they are set. */
export interface KsefSettings {
  environment: Environment;
  token_set: boolean;
  auto_send_mode: 'pl_companies' | 'all_companies' | 'all' | null;
  validate_invoices_for_gov: boolean;
  offline_certificate_set: boolean;
  offline_certificate: { serial_number: string; valid_from: string; valid_to: string; key_type: 'rsa' | 'ec' } | null;
}

const strings = {
  en: {
    title: 'KSeF',
    environment: 'Environment',
    environments: { off: 'Off', local: 'Bundled test KSeF', test: 'KSeF test', demo: 'KSeF demo', production: 'KSeF production' },
    live: {
      off: 'Nothing is sent to KSeF. Invoices to Polish companies are not legally issued until they are in KSeF.',
      test: 'Invoices go to a KSeF test environment and have no legal force.',
      production: 'Invoices go to KSeF production and have legal force. A refused invoice is on the Overview.',
    },
    mode: { test: 'Test mode', live: 'Live', off: 'KSeF off' },
    token: 'KSeF token',
    set: 'set',
    notSet: 'not set',
    keepHint: 'Write-only: it is never shown again. Leave empty to keep the one set.',
    autoSend: 'Send automatically',
    autoSends: { '': 'Only when I send', pl_companies: 'Invoices to Polish companies', all_companies: 'Invoices to all companies', all: 'Every invoice' },
    validate: 'Refuse to save an invoice KSeF would refuse',
    certificate: 'Offline certificate (PEM)',
    certificateKey: "The certificate's private key (PEM)",
    certificateNow: (serial: string, until: string) => `Set: serial ${serial}, valid until ${until}.`,
    certificateHint: 'Signs the second QR code (KOD II) of invoices issued while KSeF is down. Leave empty to keep the one set.',
    save: 'Save',
    saved: 'The KSeF settings were saved. They apply to the next invoice.',
    test: 'Test connection',
    loading: 'Loading…',
    failed: 'The KSeF settings could not be loaded:',
  },
  pl: {
    title: 'KSeF',
    environment: 'Środowisko',
    environments: { off: 'Wyłączony', local: 'Wbudowany testowy KSeF', test: 'KSeF testowy', demo: 'KSeF demo', production: 'KSeF produkcyjny' },
    live: {
      off: 'Nic nie trafia do KSeF. Faktury dla polskich firm nie są prawnie wystawione, dopóki nie ma ich w KSeF.',
      test: 'Faktury trafiają do testowego środowiska KSeF i nie mają mocy prawnej.',
      production: 'Faktury trafiają do produkcyjnego KSeF i mają moc prawną. Odrzucona faktura pojawi się w Przeglądzie.',
    },
    mode: { test: 'Tryb testowy', live: 'Na żywo', off: 'KSeF wyłączony' },
    token: 'Token KSeF',
    set: 'ustawiony',
    notSet: 'nieustawiony',
    keepHint: 'Tylko do zapisu: nie będzie już pokazany. Zostaw puste, by zachować obecny.',
    autoSend: 'Wysyłaj automatycznie',
    autoSends: { '': 'Tylko gdy wyślę', pl_companies: 'Faktury dla polskich firm', all_companies: 'Faktury dla wszystkich firm', all: 'Każdą fakturę' },
    validate: 'Nie zapisuj faktury, którą KSeF by odrzucił',
    certificate: 'Certyfikat offline (PEM)',
    certificateKey: 'Klucz prywatny certyfikatu (PEM)',
    certificateNow: (serial: string, until: string) => `Ustawiony: numer ${serial}, ważny do ${until}.`,
    certificateHint: 'Podpisuje drugi kod QR (KOD II) faktur wystawionych, gdy KSeF nie działa. Zostaw puste, by zachować obecny.',
    save: 'Zapisz',
    saved: 'Ustawienia KSeF zapisano. Obowiązują od następnej faktury.',
    test: 'Sprawdź połączenie',
    loading: 'Wczytywanie…',
    failed: 'Nie udało się wczytać ustawień KSeF:',
  },
} satisfies Record<Lang, unknown>;

/** Which of test, live or off the environment is: never ambiguous. */
export function ksefMode(environment: Environment): 'test' | 'live' | 'off' {
  return environment === 'off' ? 'off' : environment === 'production' ? 'live' : 'test';
}

/**
 * KSeF: the environment (test or live, said plainly), the write-only token, automatic sending, the
 * check before saving, the Offline certificate, and "Test connection", an authentication attempt.
 * @summary The settings' KSeF section.
 */
export class AdminKsefSettings extends SettingsSection {
  static override properties: PropertyDeclarations = { ...SettingsSection.properties };

  readonly #settings = new Task(this, {
    args: () => [this.api] as const,
    task: async ([api]) => (api ? (await api.get<{ ksef: KsefSettings }>('/account/ksef.json')).ksef : undefined),
  });

  #save(event: SubmitEvent): void {
    event.preventDefault();
    const form = event.target as HTMLFormElement;
    const values = formValues(form);
    const ksef: Record<string, unknown> = {
      environment: values.environment,
      auto_send_mode: values.auto_send_mode || null,
      validate_invoices_for_gov: values.validate_invoices_for_gov === 'on',
    };
    if (values.token) ksef.token = values.token;
    if (values.offline_certificate || values.offline_private_key) {
      ksef.offline_certificate = values.offline_certificate;
      ksef.offline_private_key = values.offline_private_key;
    }
    void this.act('save', async () => {
      const saved = await this.api.put<{ ksef: KsefSettings }>('/account/ksef.json', { ksef });
      this.#settings.value = saved.ksef;
      form.reset();
      return { tone: 'ok', text: pick(strings, this.language).saved };
    });
  }

  #test(): void {
    void this.act('test', async () => connectionNotice(await this.api.post<ConnectionAnswer>('/account/connection_tests/ksef.json'), this.language));
  }

  override render() {
    const t = pick(strings, this.language);
    const settings = this.#settings.value;
    if (!settings) {
      return html`<h2>${t.title}</h2>
        ${this.#settings.status === 'error' ? html`<p class="notice" data-tone="error" role="alert">${t.failed} ${errorText(this.#settings.error)}</p>` : html`<p role="status">${t.loading}</p>`}`;
    }
    const mode = ksefMode(settings.environment);
    const error = this.errorOf('save');
    const errors = (field: string) => fieldErrors(error, `ksef.${field}`, field);
    const certificate = settings.offline_certificate;
    return html`<h2>${t.title}</h2>
      <p class="notice" data-tone=${mode === 'live' ? 'ok' : mode} data-field="live-sales">
        ${badge(t.mode[mode], mode === 'live' ? 'ok' : mode === 'test' ? 'test' : 'none')} ${t.live[mode === 'live' ? 'production' : mode]}
      </p>
      ${this.renderNotice()}
      <form @submit=${(event: SubmitEvent) => this.#save(event)}>
        <label>
          ${t.environment}
          <select name="environment" aria-invalid=${errors('environment').length ? 'true' : 'false'}>
            ${ENVIRONMENTS.map((name) => html`<option value=${name} ?selected=${settings.environment === name}>${t.environments[name]}</option>`)}
          </select>
          ${errors('environment').length ? html`<span class="error">${errors('environment').join(' ')}</span>` : nothing}
        </label>
        ${textField({ label: `${t.token} (${settings.token_set ? t.set : t.notSet})`, name: 'token', type: 'password', value: '', hint: t.keepHint, errors: errors('token') })}
        <label>
          ${t.autoSend}
          <select name="auto_send_mode">
            ${AUTO_SEND.map((name) => html`<option value=${name} ?selected=${(settings.auto_send_mode ?? '') === name}>${t.autoSends[name]}</option>`)}
          </select>
        </label>
        <label class="check"><input type="checkbox" name="validate_invoices_for_gov" .checked=${settings.validate_invoices_for_gov} /> ${t.validate}</label>
        <fieldset>
          <legend>${t.certificate}</legend>
          <p class="hint">${certificate ? t.certificateNow(certificate.serial_number, certificate.valid_to.slice(0, 10)) : ''} ${t.certificateHint}</p>
          <label>${t.certificate}<textarea name="offline_certificate" rows="3"></textarea></label>
          ${errors('offline_certificate').length ? html`<p class="error">${errors('offline_certificate').join(' ')}</p>` : nothing}
          <label>${t.certificateKey}<textarea name="offline_private_key" rows="3" autocomplete="off"></textarea></label>
          ${errors('offline_private_key').length ? html`<p class="error">${errors('offline_private_key').join(' ')}</p>` : nothing}
        </fieldset>
        <div class="actions">
          <button type="submit" ?disabled=${Boolean(this.busy)}>${t.save}</button>
          ${settings.environment !== 'off' ? html`<button type="button" class="secondary" ?disabled=${Boolean(this.busy)} @click=${() => this.#test()}>${t.test}</button>` : nothing}
        </div>
      </form>`;
  }
}
