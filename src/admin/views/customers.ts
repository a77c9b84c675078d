import { html, nothing, type PropertyDeclarations } from 'lit';
import { Task } from '../../elements/shared/task.js';
import { portalUrlFor } from '../../kernel/portal-url.js';
import { type Lang, pick } from '../i18n.js';
import { AdminView } from '../view.js';
import { customerEInvoiceEditor, type EInvoiceEdit } from './customers-einvoice.js';
import { errorText, formValues, recordStyles } from './records.js';

/** The fields of a listed client this view reads. */
export interface ListedCustomer {
  id: number;
  name: string;
  tax_no: string | null;
  email: string | null;
  city: string | null;
  country: string | null;
  department_id: number | null;
  einvoice_address?: string | null;
  buyer_reference?: string | null;
  einvoice_format?: string | null;
}

/** A department's portal address, as this view reads it. */
interface PortalOf {
  id: number;
  main: boolean;
  portal_url?: string | null;
}

const PER_PAGE = 25;

const strings = {
  en: {
    title: 'Customers',
    search: 'Find by name',
    columns: { name: 'Name', taxNo: 'Tax number', email: 'E-mail', city: 'City', open: 'Open' },
    invoices: (name: string) => `Invoices of ${name}`,
    invoicesShort: 'Invoices',
    loading: 'Loading customers…',
    empty: 'No customers match.',
    failed: 'The customers could not be loaded:',
    retry: 'Try again',
    previous: 'Previous page',
    next: 'Next page',
    page: (page: number) => `Page ${page}`,
    portal: 'Open portal view',
    portalOf: (name: string) => `Open the portal view of ${name} (new tab)`,
    portalHint: 'To open a customer’s portal view from here, set your customer portal’s address in',
    portalSettings: 'the company settings',
  },
  pl: {
    title: 'Klienci',
    search: 'Szukaj po nazwie',
    columns: { name: 'Nazwa', taxNo: 'NIP', email: 'E-mail', city: 'Miasto', open: 'Otwórz' },
    invoices: (name: string) => `Faktury klienta ${name}`,
    invoicesShort: 'Faktury',
    loading: 'Wczytywanie klientów…',
    empty: 'Żaden klient nie pasuje.',
    failed: 'Nie udało się wczytać klientów:',
    retry: 'Spróbuj ponownie',
    previous: 'Poprzednia strona',
    next: 'Następna strona',
    page: (page: number) => `Strona ${page}`,
    portal: 'Otwórz widok klienta',
    portalOf: (name: string) => `Otwórz widok klienta ${name} (nowa karta)`,
    portalHint: 'Aby otwierać stąd widok klienta w portalu, ustaw adres portalu klienta w',
    portalSettings: 'ustawieniach firmy',
  },
} satisfies Record<Lang, unknown>;

/**
 * The account's customers, found by name, each leading to its invoices (the list filtered to it) and,
 * when the customer's department (or the main one) has a `portal_url`, to its portal view on the host.
 * @summary The back office's customer list.
 */
export class AdminCustomers extends AdminView {
  static override styles = recordStyles;
  static override properties: PropertyDeclarations = {
    ...AdminView.properties,
    search: { state: true },
    page: { state: true },
    einvoiceEdit: { state: true },
  };

  /** The last save of a customer's e-invoice fields, shown in its row. */
  einvoiceEdit: EInvoiceEdit | undefined;

  search = new URLSearchParams(location.search).get('name') ?? '';
  page = 1;

  readonly #list = new Task(this, {
    args: () => [this.api, this.search, this.page] as const,
    task: ([api, name, page]) => (api ? api.get<ListedCustomer[]>('/clients.json', { name: name || undefined, page, per_page: PER_PAGE }) : []),
  });

  /** Each department's portal address by id, and the main one's under 0. */
  readonly #portals = new Task(this, {
    args: () => [this.api] as const,
    task: async ([api]) => {
      const portals = new Map<number, string>();
      if (!api) return portals;
      for (const department of await api.get<PortalOf[]>('/departments.json', { per_page: 100 })) {
        if (!department.portal_url) continue;
        portals.set(department.id, department.portal_url);
        if (department.main) portals.set(0, department.portal_url);
      }
      return portals;
    },
  });

  #portalOf(customer: ListedCustomer): string | undefined {
    const portals = this.#portals.value;
    const portal = portals?.get(customer.department_id ?? 0) ?? portals?.get(0);
    return portal ? portalUrlFor(portal, customer.id) : undefined;
  }

  #find(value: string): void {
    this.search = value.trim();
    this.page = 1;
    history.replaceState(history.state, '', `${location.pathname}${this.search ? `?${new URLSearchParams({ name: this.search }).toString()}` : ''}`);
  }

  #saveEInvoice(event: SubmitEvent, customer: ListedCustomer): void {
    event.preventDefault();
    const values = formValues(event.target as HTMLFormElement);
    void this.api.put<ListedCustomer>(`/clients/${customer.id}.json`, { client: values }).then(
      (saved) => {
        Object.assign(customer, { einvoice_address: saved.einvoice_address, buyer_reference: saved.buyer_reference, einvoice_format: saved.einvoice_format });
        this.einvoiceEdit = { id: customer.id, saved: true };
      },
      (error: unknown) => (this.einvoiceEdit = { id: customer.id, error }),
    );
  }

  #go(event: Event, path: string): void {
    event.preventDefault();
    this.navigate(path);
  }

  override render() {
    const t = pick(strings, this.language);
    return html`<h1 tabindex="-1">${t.title}</h1>
      <form class="filters" role="search" aria-label=${t.search} @submit=${(event: Event) => event.preventDefault()}>
        <label>
          ${t.search}
          <input name="name" type="search" .value=${this.search} @change=${(event: Event) => this.#find((event.target as HTMLInputElement).value)} />
        </label>
      </form>
      ${this.#body()}`;
  }

  #body() {
    const t = pick(strings, this.language);
    const task = this.#list;
    if (task.status === 'error') {
      return html`<p class="notice" data-tone="error" role="alert">
        ${t.failed} ${errorText(task.error)} <button type="button" class="secondary" @click=${() => void task.run()}>${t.retry}</button>
      </p>`;
    }
    const customers = task.value;
    if (!customers) return html`<p role="status">${t.loading}</p>`;
    if (customers.length === 0 && this.page === 1) return html`<p role="status">${t.empty}</p>`;
    return html`<div class="scroll" tabindex="0" role="region" aria-label=${t.title}>
        <table aria-busy=${task.status === 'pending' ? 'true' : 'false'}>
          <thead>
            <tr>
              <th scope="col">${t.columns.name}</th>
              <th scope="col">${t.columns.taxNo}</th>
              <th scope="col" class="wide">${t.columns.email}</th>
              <th scope="col" class="wide">${t.columns.city}</th>
              <th scope="col">${t.columns.open}</th>
            </tr>
          </thead>
          <tbody>
            ${customers.map((customer) => {
              const invoices = `/admin/invoices?client_id=${customer.id}`;
              const portal = this.#portalOf(customer);
              return html`<tr data-id=${customer.id}>
                <th scope="row">${customer.name}</th>
                <td>${customer.tax_no ?? ''}</td>
                <td class="wide">${customer.email ?? ''}</td>
                <td class="wide">${customer.city ?? ''}</td>
                <td class="actions">
                  <a href=${invoices} aria-label=${t.invoices(customer.name)} @click=${(event: Event) => this.#go(event, invoices)}>${t.invoicesShort}</a>
                  ${portal ? html`<a href=${portal} target="_blank" rel="noopener" data-portal aria-label=${t.portalOf(customer.name)}>${t.portal}</a>` : nothing}
                  ${customerEInvoiceEditor(customer, this.einvoiceEdit, this.language, (event) => this.#saveEInvoice(event, customer))}
                </td>
              </tr>`;
            })}
          </tbody>
        </table>
      </div>
      ${this.#portals.value && this.#portals.value.size === 0
        ? html`<p class="hint" data-field="portal-hint">
            ${t.portalHint}
            <a href="/admin/settings/company" @click=${(event: Event) => this.#go(event, '/admin/settings/company')}>${t.portalSettings}</a>.
          </p>`
        : nothing}
      <nav class="actions" aria-label=${t.page(this.page)}>
        <button type="button" class="secondary" ?disabled=${this.page <= 1} @click=${() => (this.page -= 1)}>${t.previous}</button>
        <button type="button" class="secondary" ?disabled=${customers.length < PER_PAGE} @click=${() => (this.page += 1)}>${t.next}</button>
      </nav>`;
  }
}

if (!customElements.get('ik-admin-customers')) customElements.define('ik-admin-customers', AdminCustomers);

declare global {
  interface HTMLElementTagNameMap {
    'ik-admin-customers': AdminCustomers;
  }
}
