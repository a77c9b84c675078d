import { css, html, type TemplateResult } from 'lit';
import { type Lang, pick } from '../i18n.js';
import { AdminView } from '../view.js';
import { recordStyles } from './records.js';
import { AdminApiTokenSettings } from './settings/api-token.js';
import { AdminCompanySettings } from './settings/company.js';
import { AdminEmailSettings } from './settings/email.js';
import { AdminKsefSettings } from './settings/ksef.js';
import { AdminPaymentSettings } from './settings/payments.js';
import { AdminWebhookSettings } from './settings/webhooks.js';

export const SETTINGS_SECTIONS = ['company', 'payments', 'ksef', 'webhooks', 'email', 'api-token'] as const;
export type SettingsSectionName = (typeof SETTINGS_SECTIONS)[number];

const strings = {
  en: {
    title: 'Settings',
    sections: 'Settings sections',
    names: { company: 'Company', payments: 'Payments', ksef: 'KSeF', webhooks: 'Webhooks', email: 'E-mail', 'api-token': 'API token' },
  },
  pl: {
    title: 'Ustawienia',
    sections: 'Sekcje ustawień',
    names: { company: 'Firma', payments: 'Płatności', ksef: 'KSeF', webhooks: 'Webhooki', email: 'E-mail', 'api-token': 'Token API' },
  },
} satisfies Record<Lang, unknown>;

/**
 * The account's settings, one section at a time (`/admin/settings/<section>`): company and
 * department, payment provider, KSeF, webhooks, e-mail sender and API token. Each section says what
 * it does to live sales.
 * @summary The back office's settings.
 */
export class AdminSettings extends AdminView {
  static override styles = [
    recordStyles,
    // The sections' links wrap at phone width; the current one is marked for sight and for readers.
    css`
      nav ul {
        display: flex;
        flex-wrap: wrap;
        gap: 0.25rem 1rem;
        list-style: none;
        padding: 0;
        margin: 0 0 1rem;
      }
      nav a[aria-current='page'] {
        font-weight: 700;
        text-decoration: none;
      }
    `,
  ];

  get #section(): SettingsSectionName {
    const asked = this.params.section as SettingsSectionName | undefined;
    return asked && SETTINGS_SECTIONS.includes(asked) ? asked : 'company';
  }

  #go(event: Event, path: string): void {
    event.preventDefault();
    this.navigate(path);
  }

  override render() {
    const t = pick(strings, this.language);
    const current = this.#section;
    return html`<h1 tabindex="-1">${t.title}</h1>
      <nav aria-label=${t.sections}>
        <ul>
          ${SETTINGS_SECTIONS.map((name) => {
            const path = `/admin/settings/${name}`;
            return html`<li><a href=${path} aria-current=${name === current ? 'page' : 'false'} @click=${(event: Event) => this.#go(event, path)}>${t.names[name]}</a></li>`;
          })}
        </ul>
      </nav>
      <section aria-label=${t.names[current]}>${this.#sectionOf(current)}</section>`;
  }

  #sectionOf(name: SettingsSectionName): TemplateResult {
    switch (name) {
      case 'company':
        return html`<ik-admin-company-settings .api=${this.api} lang=${this.lang}></ik-admin-company-settings>`;
      case 'payments':
        return html`<ik-admin-payment-settings .api=${this.api} lang=${this.lang}></ik-admin-payment-settings>`;
      case 'ksef':
        return html`<ik-admin-ksef-settings .api=${this.api} lang=${this.lang}></ik-admin-ksef-settings>`;
      case 'webhooks':
        return html`<ik-admin-webhook-settings .api=${this.api} lang=${this.lang}></ik-admin-webhook-settings>`;
      case 'email':
        return html`<ik-admin-email-settings .api=${this.api} lang=${this.lang}></ik-admin-email-settings>`;
      case 'api-token':
        return html`<ik-admin-api-token-settings .api=${this.api} lang=${this.lang}></ik-admin-api-token-settings>`;
    }
  }
}

/** The sections, registered with the page that shows them (their modules define nothing). */
const SECTION_ELEMENTS = {
  'ik-admin-api-token-settings': AdminApiTokenSettings,
  'ik-admin-company-settings': AdminCompanySettings,
  'ik-admin-email-settings': AdminEmailSettings,
  'ik-admin-ksef-settings': AdminKsefSettings,
  'ik-admin-payment-settings': AdminPaymentSettings,
  'ik-admin-webhook-settings': AdminWebhookSettings,
} as const;
for (const [tag, element] of Object.entries(SECTION_ELEMENTS)) if (!customElements.get(tag)) customElements.define(tag, element);

if (!customElements.get('ik-admin-settings')) customElements.define('ik-admin-settings', AdminSettings);

declare global {
  interface HTMLElementTagNameMap {
    'ik-admin-settings': AdminSettings;
    'ik-admin-api-token-settings': AdminApiTokenSettings;
    'ik-admin-company-settings': AdminCompanySettings;
    'ik-admin-email-settings': AdminEmailSettings;
    'ik-admin-ksef-settings': AdminKsefSettings;
    'ik-admin-payment-settings': AdminPaymentSettings;
    'ik-admin-webhook-settings': AdminWebhookSettings;
  }
}
