import { html, type PropertyDeclarations } from 'lit';
import { Task } from '../../../elements/shared/task.js';
import { type Lang, pick } from '../../i18n.js';
import { errorText, fieldErrors, formValues, textField } from '../records.js';
import type { Department } from './company.js';
import { SettingsSection } from './section.js';

const strings = {
  en: {
    title: 'E-mail sender',
    live: "Invoices and receipts are e-mailed from the service's own address, so that they reach buyers; the buyer's reply goes to the address below, shown with your company's name.",
    replyTo: 'Replies go to',
    hint: 'Leave empty and buyers cannot reply to the invoice e-mail.',
    save: 'Save',
    saved: 'The reply address was saved; the next e-mail uses it.',
    loading: 'Loading…',
    failed: 'The sender could not be loaded:',
  },
  pl: {
    title: 'Nadawca e-maili',
    live: 'Faktury i potwierdzenia są wysyłane z adresu usługi, by docierały do kupujących; odpowiedź kupującego trafia na adres poniżej, podpisany nazwą Twojej firmy.',
    replyTo: 'Odpowiedzi trafiają na',
    hint: 'Zostaw puste, a kupujący nie odpowie na e-mail z fakturą.',
    save: 'Zapisz',
    saved: 'Adres do odpowiedzi zapisano; użyje go następny e-mail.',
    loading: 'Wczytywanie…',
    failed: 'Nie udało się wczytać nadawcy:',
  },
} satisfies Record<Lang, unknown>;

/**
 * Who invoice e-mail is from: the service's sender, with the main department's e-mail as the
 * `Reply-To` and its name as the display name. The seller sets that address here.
 * @summary The settings' e-mail sender section.
 */
export class AdminEmailSettings extends SettingsSection {
  static override properties: PropertyDeclarations = { ...SettingsSection.properties };

  readonly #department = new Task(this, {
    args: () => [this.api] as const,
    task: async ([api]) => {
      if (!api) return undefined;
      const departments = await api.get<Department[]>('/departments.json', { per_page: 100 });
      return departments.find((department) => department.main) ?? departments[0];
    },
  });

  #save(event: SubmitEvent, department: Department): void {
    event.preventDefault();
    const { email } = formValues(event.target as HTMLFormElement);
    void this.act('save', async () => {
      await this.api.put(`/departments/${department.id}.json`, { department: { email: email ?? '' } });
      await this.#department.run();
      return { tone: 'ok', text: pick(strings, this.language).saved };
    });
  }

  override render() {
    const t = pick(strings, this.language);
    const department = this.#department.value;
    if (!department) {
      return html`<h2>${t.title}</h2>
        ${this.#department.status === 'error' ? html`<p class="notice" data-tone="error" role="alert">${t.failed} ${errorText(this.#department.error)}</p>` : html`<p role="status">${t.loading}</p>`}`;
    }
    return html`<h2>${t.title}</h2>
      <p class="notice" data-field="live-sales">${t.live}</p>
      ${this.renderNotice()}
      <form @submit=${(event: SubmitEvent) => this.#save(event, department)}>
        ${textField({ label: `${t.replyTo} (${department.name})`, name: 'email', type: 'email', value: department.email, autocomplete: 'email', hint: t.hint, errors: fieldErrors(this.errorOf('save'), 'email', 'department.email') })}
        <div class="actions"><button type="submit" ?disabled=${Boolean(this.busy)}>${t.save}</button></div>
      </form>`;
  }
}
