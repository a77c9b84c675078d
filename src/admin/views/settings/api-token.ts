import { html, nothing, type PropertyDeclarations } from 'lit';
import { type Lang, pick } from '../../i18n.js';
import { SettingsSection } from './section.js';

const strings = {
  en: {
    title: 'API token',
    live: 'Your shop, plugins and scripts call the API with this token. Rotating it stops the old one at once: everything using it fails until it has the new one.',
    rotate: 'Rotate the API token',
    confirm: 'Yes, stop the old token now',
    cancel: 'Cancel',
    confirmText: 'The old token stops working the moment the new one is made.',
    shown: 'The new API token. It is shown only this once: copy it now.',
    copy: 'Copy',
    copied: 'Copied.',
    copyBlocked: 'This page may not copy: the token is selected, copy it with Ctrl+C.',
    rotated: 'The API token was rotated; the old one no longer works.',
  },
  pl: {
    title: 'Token API',
    live: 'Twój sklep, wtyczki i skrypty wywołują API tym tokenem. Zmiana od razu wyłącza stary: wszystko, co go używa, przestaje działać, dopóki nie dostanie nowego.',
    rotate: 'Zmień token API',
    confirm: 'Tak, wyłącz stary token teraz',
    cancel: 'Anuluj',
    confirmText: 'Stary token przestaje działać w chwili utworzenia nowego.',
    shown: 'Nowy token API. Jest pokazany tylko ten jeden raz: skopiuj go teraz.',
    copy: 'Kopiuj',
    copied: 'Skopiowano.',
    copyBlocked: 'Ta strona nie może kopiować: token jest zaznaczony, skopiuj go klawiszami Ctrl+C.',
    rotated: 'Token API zmieniono; stary już nie działa.',
  },
} satisfies Record<Lang, unknown>;

/**
 * The account's API token: rotated after a confirmation, the new one shown once with a Copy button
 * and never again (the API answers it only to the rotation itself).
 * @summary The settings' API token section.
 */
export class AdminApiTokenSettings extends SettingsSection {
  static override properties: PropertyDeclarations = { ...SettingsSection.properties, confirming: { state: true }, token: { state: true } };

  confirming = false;
  /** The new token, held only while this section is on the page. */
  token = '';

  #rotate(): void {
    void this.act('rotate', async () => {
      const answer = await this.api.post<{ api_token: string }>('/account/api_token/rotate.json');
      this.token = answer.api_token;
      this.confirming = false;
      return { tone: 'ok', text: pick(strings, this.language).rotated };
    });
  }

  /** Copies the token; where the page may not write the clipboard (plain http), selects it for the seller to copy. */
  async #copy(): Promise<void> {
    const t = pick(strings, this.language);
    try {
      await navigator.clipboard.writeText(this.token);
      this.notice = { tone: 'ok', text: t.copied };
    } catch {
      const shown = this.renderRoot.querySelector('[data-field="new-token"]');
      if (shown) getSelection()?.selectAllChildren(shown);
      this.notice = { tone: 'error', text: t.copyBlocked };
    }
  }

  override render() {
    const t = pick(strings, this.language);
    return html`<h2>${t.title}</h2>
      <p class="notice" data-field="live-sales">${t.live}</p>
      ${this.renderNotice()}
      ${this.token
        ? html`<div class="notice" data-tone="ok">
            <p style="margin:0 0 .5rem">${t.shown}</p>
            <p class="actions" style="margin:0">
              <code data-field="new-token" style="overflow-wrap:anywhere">${this.token}</code>
              <button type="button" class="secondary" @click=${() => void this.#copy()}>${t.copy}</button>
            </p>
          </div>`
        : nothing}
      ${this.confirming
        ? html`<p>${t.confirmText}</p>
            <p class="actions">
              <button type="button" ?disabled=${Boolean(this.busy)} @click=${() => this.#rotate()}>${t.confirm}</button>
              <button type="button" class="secondary" @click=${() => (this.confirming = false)}>${t.cancel}</button>
            </p>`
        : html`<p><button type="button" class="secondary" @click=${() => (this.confirming = true)}>${t.rotate}</button></p>`}`;
  }
}
