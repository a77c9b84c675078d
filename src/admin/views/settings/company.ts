import { html, nothing, type PropertyDeclarations } from 'lit';
import { Task } from '../../../elements/shared/task.js';
import { AdminApiError } from '../../api.js';
import { type Lang, pick } from '../../i18n.js';
import { readSession } from '../../session.js';
import { errorText, fieldErrors, formValues, textField } from '../records.js';
import { SettingsSection } from './section.js';

/** A department (the seller an invoice is issued for), as this section reads it. */
export interface Department {
  id: number;
  name: string;
  tax_no: string | null;
  street: string | null;
  post_code: string | null;
  city: string | null;
  country: string | null;
  email: string | null;
  phone: string | null;
  bank: string | null;
  bank_account: string | null;
  main: boolean;
  logo_url: string | null;
  /** The host's customer portal with `{client_id}`; the customers list opens each customer's view there. */
  portal_url: string | null;
  /** The seller's electronic address on e-invoices (BT-34), `0208:0123456789`. */
  einvoice_address?: string | null;
}

const FIELDS = ['name', 'tax_no', 'street', 'post_code', 'city', 'country', 'phone', 'bank', 'bank_account'] as const;

const strings = {
  en: {
    title: 'Company and department',
    live: 'Every new invoice, the buyer’s page and the checkout show these details; invoices already issued keep the ones they were issued with.',
    department: 'Department',
    fields: { name: 'Name', tax_no: 'Tax number (NIP)', street: 'Street', post_code: 'Post code', city: 'City', country: 'Country code', phone: 'Phone', bank: 'Bank', bank_account: 'Bank account' },
    save: 'Save',
    saved: 'The company details were saved.',
    logo: 'Logo',
    logoNow: 'The current logo',
    logoNone: 'No logo yet.',
    logoFile: 'Logo file (PNG or JPEG, up to 2 MB)',
    upload: 'Upload the logo',
    uploaded: 'The logo was saved; new invoices carry it.',
    loading: 'Loading…',
    failed: 'The company details could not be loaded:',
    portal: 'Customer portal address',
    portalHint: 'Your site’s customer portal, with {client_id} where the customer goes, such as https://shop.example/account/invoices?customer={client_id}. The customers list opens each customer’s portal view there.',
    einvoiceAddress: 'Electronic address for e-invoices',
    einvoiceHint: 'Your Peppol participant ID: the scheme, a colon, the identifier, such as 9945:PL5252248481 or 0208:0123456789. Peppol and XRechnung e-invoices need it.',
  },
  pl: {
    title: 'Firma i oddział',
    live: 'Każda nowa faktura, strona nabywcy i kasa pokazują te dane; wystawione faktury zachowują dane, z którymi je wystawiono.',
    department: 'Oddział',
    fields: { name: 'Nazwa', tax_no: 'NIP', street: 'Ulica', post_code: 'Kod pocztowy', city: 'Miasto', country: 'Kod kraju', phone: 'Telefon', bank: 'Bank', bank_account: 'Numer konta' },
    save: 'Zapisz',
    saved: 'Dane firmy zapisano.',
    logo: 'Logo',
    logoNow: 'Obecne logo',
    logoNone: 'Brak logo.',
    logoFile: 'Plik logo (PNG lub JPEG, do 2 MB)',
    upload: 'Wgraj logo',
    uploaded: 'Logo zapisano; nowe faktury będą je miały.',
    loading: 'Wczytywanie…',
    failed: 'Nie udało się wczytać danych firmy:',
    portal: 'Adres portalu klienta',
    portalHint: 'Portal klienta na Twojej stronie, z {client_id} w miejscu klienta, np. https://shop.example/account/invoices?customer={client_id}. Lista klientów otwiera tam widok każdego klienta.',
    einvoiceAddress: 'Adres elektroniczny do e-faktur',
    einvoiceHint: 'Twój identyfikator uczestnika Peppol: schemat, dwukropek, identyfikator, np. 9945:PL5252248481 lub 0208:0123456789. Potrzebny do e-faktur Peppol i XRechnung.',
  },
} satisfies Record<Lang, unknown>;

/**
 * The company as it sells: the departments' details and logo. The main department comes first.
 * @summary The settings' company and department section.
 */
export class AdminCompanySettings extends SettingsSection {
  static override properties: PropertyDeclarations = { ...SettingsSection.properties, chosen: { state: true }, logoVersion: { state: true } };

  /** The department picked, by id; the main one when none is. */
  chosen: number | undefined;
  /** Bumped when a logo is uploaded, so the image is read again. */
  logoVersion = 0;

  readonly #departments = new Task(this, {
    args: () => [this.api] as const,
    task: async ([api]) => {
      if (!api) return undefined;
      const departments = await api.get<Department[]>('/departments.json', { per_page: 100 });
      return [...departments].sort((a, b) => Number(b.main) - Number(a.main));
    },
  });

  get #department(): Department | undefined {
    const departments = this.#departments.value ?? [];
    return departments.find((department) => department.id === this.chosen) ?? departments[0];
  }

  #save(event: SubmitEvent, department: Department): void {
    event.preventDefault();
    const values = formValues(event.target as HTMLFormElement);
    void this.act('save', async () => {
      await this.api.put(`/departments/${department.id}.json`, { department: values });
      await this.#departments.run();
      return { tone: 'ok', text: pick(strings, this.language).saved };
    });
  }

  /** The logo goes as the interface sends it, a form with `department[logo]`; the session's CSRF token with it. */
  #upload(event: SubmitEvent, department: Department): void {
    event.preventDefault();
    const form = event.target as HTMLFormElement;
    const file = new FormData(form).get('logo');
    if (!(file instanceof File) || file.size === 0) return;
    void this.act('logo', async () => {
      const session = await readSession();
      const body = new FormData();
      body.append('department[logo]', file);
      const response = await fetch(`/admin/api/departments/${department.id}.json`, {
        method: 'PUT',
        body,
        credentials: 'same-origin',
        headers: { accept: 'application/json', 'x-csrf-token': session?.csrf ?? '' },
      });
      if (!response.ok) {
        const answer: unknown = await response.json().catch(() => null);
        const message = typeof answer === 'object' && answer && 'message' in answer && typeof answer.message === 'string' ? answer.message : `HTTP ${response.status}`;
        throw new AdminApiError(response.status, answer, message);
      }
      form.reset();
      this.logoVersion += 1;
      await this.#departments.run();
      return { tone: 'ok', text: pick(strings, this.language).uploaded };
    });
  }

  override render() {
    const t = pick(strings, this.language);
    const department = this.#department;
    if (!department) {
      return html`<h2>${t.title}</h2>
        ${this.#departments.status === 'error' ? html`<p class="notice" data-tone="error" role="alert">${t.failed} ${errorText(this.#departments.error)}</p>` : html`<p role="status">${t.loading}</p>`}`;
    }
    const departments = this.#departments.value ?? [];
    const error = this.errorOf('save');
    const logoError = this.errorOf('logo');
    return html`<h2>${t.title}</h2>
      <p class="notice" data-field="live-sales">${t.live}</p>
      ${this.renderNotice()}
      ${departments.length > 1
        ? html`<label>
            ${t.department}
            <select @change=${(event: Event) => (this.chosen = Number((event.target as HTMLSelectElement).value))}>
              ${departments.map((item) => html`<option value=${item.id} ?selected=${item.id === department.id}>${item.name}</option>`)}
            </select>
          </label>`
        : nothing}
      <form @submit=${(event: SubmitEvent) => this.#save(event, department)}>
        ${FIELDS.map((name) => textField({ label: t.fields[name], name, value: department[name], errors: fieldErrors(error, name, `department.${name}`) }))}
        ${textField({ label: t.portal, name: 'portal_url', type: 'url', value: department.portal_url, hint: t.portalHint, errors: fieldErrors(error, 'portal_url', 'department.portal_url') })}
        ${textField({ label: t.einvoiceAddress, name: 'einvoice_address', value: department.einvoice_address, hint: t.einvoiceHint, errors: fieldErrors(error, 'einvoice_address', 'department.einvoice_address') })}
        <div class="actions"><button type="submit" ?disabled=${Boolean(this.busy)}>${t.save}</button></div>
      </form>
      <h3 style="font-size:1rem">${t.logo}</h3>
      ${department.logo_url
        ? html`<p><img src="/admin/api/departments/${department.id}/logo?v=${this.logoVersion}" alt=${t.logoNow} style="max-width:12rem;max-height:6rem" /></p>`
        : html`<p class="hint">${t.logoNone}</p>`}
      <form @submit=${(event: SubmitEvent) => this.#upload(event, department)}>
        <label>
          ${t.logoFile}
          <input type="file" name="logo" accept="image/png,image/jpeg" aria-invalid=${logoError ? 'true' : 'false'} />
        </label>
        ${logoError ? html`<p class="error">${errorText(logoError)}</p>` : nothing}
        <div class="actions"><button type="submit" ?disabled=${Boolean(this.busy)}>${t.upload}</button></div>
      </form>`;
  }
}
