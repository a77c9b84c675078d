import { html, nothing, type PropertyDeclarations, type PropertyValues } from 'lit';
import { CLIENT_FORM_FIELDS, COUNTRY_CODES, type ClientFieldProblem, type ClientFormField, type ClientFormValues } from '../../kernel/validation/client.js';
import { InvoiceKitElement } from '../shared/base-element.js';
import { FormControl } from '../shared/form-control.js';
import { clientField, countryCode, countryOptions } from './fields.js';
import { Task } from '../shared/task.js';
import { BffError, ClientRecordClient, type PortalClient } from '../shared/bff-client.js';
import { oneOf } from '../shared/dev-warnings.js';
import { portalTokenSource, type TokenProvider } from '../shared/token-renewal.js';
import { ClientChangeEvent, ClientErrorEvent, ClientSavedEvent, TokenExpiredEvent, type ClientFormValue } from './events.js';
import { catalogs, failureText, type ClientFormMessages } from './messages.js';
import { CompanyLookup } from '../shared/company-lookup.js';
import { bffCompanyLookup, lookupControls, lookupCountry } from './lookup.js';
import { ClientCheck } from './client-check.js';
import { styles } from './client-form.styles.js';

export const CLIENT_FORM_MODES = ['edit', 'create'] as const;
export type ClientFormMode = (typeof CLIENT_FORM_MODES)[number];

type Field = ClientFormField;

const blank = (): ClientFormValues => Object.fromEntries(CLIENT_FORM_FIELDS.map((f) => [f, ''])) as ClientFormValues;
let instances = 0;
const adopted = new WeakSet<Document | ShadowRoot>();

/**
 * A buyer's details as an invoice needs them: company or private person, name, tax number, contact, address with a country list, and bank
 * account. It checks them before sending (NIP checksum, EU VAT formats, IBAN, post code by country, e-mail); each problem shows at its field.
 *
 * The inputs are rendered in the element's light DOM, not a shadow root, so browser autofill and password managers find them. On its
 * own it is a `<form>` that saves through the BFF; inside a page's `<form>` it is a form control: its inputs submit with that form
 * (named `client[name]`, … after the `name` attribute), it reports its validity and takes part in reset and `disabled`. `::part()`
 * reaches the inputs where the form sits in a shadow root (`my-account::part(input)`); in the page itself, select `client-form [part~="input"]`.
 *
 * @element client-form
 * @summary The customer's own billing details, validated for invoicing, saved through the BFF.
 * @attr {string} endpoint - Base URL of the BFF's routes (default `/bff`).
 * @attr {string} portal-token - The short-lived portal token your backend minted for this customer (`edit` mode).
 * @attr {'create' | 'edit'} mode - `edit` loads and saves the session customer's client; `create` signs a new customer up (`POST /clients`).
 * @attr {string} name - Prefix of the inputs' names inside a page's form: `client` gives `client[name]`, `client[tax_no]`, …; empty gives plain names.
 * @attr {boolean} disabled - Disables every field and the buttons.
 *
 * @fires {ClientChangeEvent} client-change - The customer changed a field. `detail.field`, `detail.value`, `detail.dirty`.
 * @fires {ClientSavedEvent} client-saved - The details were saved or the client signed up. `detail.client`, `detail.portalToken` after a sign-up when the BFF mints one.
 * @fires {TokenExpiredEvent} token-expired - The BFF said the portal token has expired. Set `portalToken` in the handler, or give `tokenProvider`, and the request is sent again under the new token; otherwise the form asks to reload the page. Cancelable: cancel to keep it from calling `tokenProvider`.
 * @fires {ClientErrorEvent} client-error - Loading or saving failed. `detail.action`, `detail.status`, `detail.code`, `detail.message`, `detail.fields`.
 *
 * @csspart field - Each field: its label, control and error.
 * @csspart label - Each field's label.
 * @csspart input - Each input and the country list.
 * @csspart field-error - The message under a field that is not valid.
 * @csspart kind - The company / private person choice.
 * @csspart button - Every button.
 * @csspart submit-button - The save (or sign-up) button.
 * @csspart discard-button - The button that drops unsaved changes.
 * @csspart retry-button - The error banner's retry button.
 * @csspart lookup-button - The button that fills the company's details from its register by tax number.
 * @csspart lookup-status - What the register lookup did: filled, kept what was typed, or could not answer.
 * @csspart status - The line that says saving, saved or unsaved changes.
 * @csspart error - The banner when the details cannot be loaded or saved.
 * @cssprop [--client-form-background=var(--ik-color-surface)] - Background of the card.
 * @cssprop [--client-form-padding=1.25rem] - Space inside the card.
 * @cssprop [--client-form-gap=0.875rem 1rem] - Space between fields: rows, then columns.
 * @cssprop [--client-form-input-background=var(--ik-color-surface)] - Background of inputs and the country list.
 * @cssprop [--client-form-input-border=color-mix(in srgb, var(--ik-color-text) 30%, var(--ik-color-surface))] - Border color of inputs.
 * @cssprop [--client-form-button-background=var(--ik-color-accent)] - Background of the save button.
 * @cssprop [--client-form-button-color=var(--ik-color-accent-text)] - Text color of the save button.
 */
export class ClientForm extends InvoiceKitElement<ClientFormMessages> {
  static formAssociated = true;
  static override properties: PropertyDeclarations = {
    endpoint: {},
    portalToken: { attribute: 'portal-token' },
    mode: { reflect: true },
    name: {},
    disabled: { type: Boolean, reflect: true },
    values: { state: true },
    company: { state: true },
    saving: { state: true },
    notice: { state: true },
    touched: { state: true },
    serverErrors: { state: true },
  };
  protected readonly catalogs = catalogs;

  /** Base URL of the BFF's routes. */
  endpoint = '/bff';
  /** The short-lived portal token your backend minted for this customer (`edit` mode). */
  portalToken = '';
  /** Called once when the BFF says the portal token has expired (unless the `token-expired` handler set `portalToken`): answers a new token for the same customer, under which the failed request is sent again. A save goes on under it without reloading the form. */
  tokenProvider?: TokenProvider | undefined;
  /** `edit` loads and saves the session customer's client; `create` signs a new customer up (`POST /clients`). */
  mode: ClientFormMode = 'edit';
  /** Prefix of the inputs' names inside a page's form: `client` gives `client[name]`, `client[tax_no]`, …; empty gives plain names. */
  name = 'client';
  /** Disables every field and the buttons. */
  disabled = false;
  private values: ClientFormValues = blank();
  private company = true;
  private saving = false;
  private notice: [text: string, kind: '' | 'ok' | 'error'] = ['', ''];
  /** Fields whose problems are shown: left by the customer, or all after a submit. */
  private touched: ReadonlySet<Field | '*'> = new Set();
  private serverErrors: Partial<Record<Field, string>> = {};

  /** The client as saved, which the values are compared with. */
  #saved: ClientFormValues = blank();
  #savedCompany = true;
  /** The country as stored, before it was read as a code: a name is replaced by its code on the next save. */
  #storedCountry = '';
  /** The BFF's verdict on the fields by the client rules, which the form does not carry. */
  #check = new ClientCheck(this, () => this.endpoint);
  #lookup = new CompanyLookup(this, (country, taxNo, signal) => bffCompanyLookup(this.endpoint)(country, taxNo, signal));
  /** Inside a page's form: its validity, reset and disabled state there. */
  #control = new FormControl(this, {
    problem: () => {
      const problems = this.#problems();
      const first = Object.keys(problems)[0] as Field | undefined;
      return first ? { message: this.#problemText(first, problems[first]!), anchor: this.#input(first) ?? undefined } : undefined;
    },
    // A page's form that refused to submit because of this control: show why.
    invalid: () => this.#revealProblems(),
  });
  #id = `cf${++instances}`;
  /** The record a sign-up answered with: the first answer under the token it came with. */
  #signedUp?: PortalClient | undefined;
  /** The client's loads, again when the endpoint, token or mode changes (a newer one aborts an older one); a new customer starts blank. */
  #loads = new Task(this, {
    args: () => [this.endpoint, this.portalToken, this.mode] as const,
    task: ([, token, mode], { signal }): Partial<PortalClient> | Promise<PortalClient> => {
      const known = mode === 'create' ? { company: true, country: this.#defaultCountry() } : this.#signedUp;
      this.#signedUp = undefined;
      if (known) return known;
      if (!token) throw new BffError(401, 'no_token', 'no portal token');
      return this.#api().client(signal);
    },
    onComplete: (client) => this.#adopt(client),
    onError: (error) => this.#reportError(error, 'load'),
  });
  #warnBeforeUnload = (event: BeforeUnloadEvent) => {
    event.preventDefault();
    event.returnValue = '';
  };

  /** The form's values: each field as text, and whether the client is a company. */
  get value(): ClientFormValue {
    return { ...this.values, company: this.company };
  }

  /** True while the customer has changes that are not saved. */
  get dirty(): boolean {
    return this.company !== this.#savedCompany || CLIENT_FORM_FIELDS.some((f) => this.#shown(f) && this.values[f].trim() !== this.#saved[f].trim());
  }

  get form(): HTMLFormElement | null {
    return this.#control.form;
  }

  get validity(): ValidityState {
    return this.#control.validity;
  }

  get validationMessage(): string {
    return this.#control.validationMessage;
  }

  checkValidity(): boolean {
    return this.#control.checkValidity();
  }

  /** Like a form control's: shows every problem and moves focus to the first. */
  reportValidity(): boolean {
    this.#revealProblems();
    return this.#control.checkValidity();
  }

  /** Loads the client again, dropping unsaved changes. */
  reload(): Promise<void> {
    return this.#loads.run();
  }

  /** Checks the values and saves them through the BFF: the changed fields with `PUT /client`, or a new client with `POST /clients` in `create` mode. Resolves to whether it saved. While a save runs, another does nothing. */
  async save(): Promise<boolean> {
    if (this.saving || this.#loads.status === 'pending' || this.#loads.status === 'error' || this.#isDisabled) return false;
    // The BFF's verdict on the fields as they stand, asked at once if typing has not paused yet.
    this.saving = true;
    this.#askCheck();
    await this.#check.answered();
    this.saving = false;
    if (!this.#revealProblems()) return false;
    const m = this.msg;
    const create = this.mode === 'create';
    const changes: Partial<PortalClient> = {};
    for (const field of CLIENT_FORM_FIELDS) {
      const value = this.values[field].trim();
      if (this.#shown(field) && (create ? value : value !== this.#saved[field].trim())) changes[field] = value;
    }
    if (!create && this.values.country && this.values.country !== this.#storedCountry) changes.country = this.values.country;
    if (create || this.company !== this.#savedCompany) changes.company = this.company;
    if (!create && !Object.keys(changes).length) {
      this.notice = [m.unchanged, 'ok'];
      return true;
    }
    this.saving = true;
    this.notice = [m.saving, ''];
    try {
      const api = this.#api();
      const result = create ? await api.createClient(changes) : { client: await api.updateClient(changes) };
      if (create && result.portalToken) {
        // The new customer goes on editing their own record, as in edit mode, which starts from the record just made.
        this.#signedUp = result.client;
        this.portalToken = result.portalToken;
        this.mode = 'edit';
        void this.#loads.run();
      } else this.#adopt(result.client);
      this.saving = false;
      this.notice = [create ? m.created : m.saved, 'ok'];
      this.dispatchEvent(new ClientSavedEvent({ client: result.client, portalToken: result.portalToken }));
      return true;
    } catch (error) {
      this.saving = false;
      const fields = error instanceof BffError && error.status === 422 ? error.fields : {};
      const serverErrors: Partial<Record<Field, string>> = {};
      for (const [field, messages] of Object.entries(fields)) {
        if ((CLIENT_FORM_FIELDS as readonly string[]).includes(field)) serverErrors[field as Field] = this.#serverText(field as Field, messages[0] ?? '');
      }
      this.serverErrors = serverErrors;
      this.notice = [Object.keys(serverErrors).length ? m.invalid : `${m.saveError} ${failureText(m, error, create)}`, 'error'];
      this.#reportError(error, 'save');
      await this.updateComplete;
      this.#focusFirstProblem();
      return false;
    }
  }

  override connectedCallback(): void {
    super.connectedCallback();
    const root = this.getRootNode() as Document | ShadowRoot;
    if ('adoptedStyleSheets' in root && !adopted.has(root)) {
      adopted.add(root);
      root.adoptedStyleSheets = [...root.adoptedStyleSheets, styles.styleSheet!];
    }
    this.#syncUnloadWarning();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    // Taken out of the page mid-load, it loads again when put back.
    this.#loads.abort();
    removeEventListener('beforeunload', this.#warnBeforeUnload);
  }

  /** Renders into the light DOM: see the class description. Fields a server printed into a declarative shadow root (define.ts) give way to a slot, which shows the light DOM's. */
  protected override createRenderRoot(): HTMLElement {
    this.shadowRoot?.replaceChildren(document.createElement('slot'));
    return this;
  }

  formResetCallback(): void {
    this.values = { ...this.#saved };
    this.company = this.#savedCompany;
    this.touched = new Set();
    this.serverErrors = {};
    this.notice = ['', ''];
  }

  formDisabledCallback(disabled: boolean): void {
    this.#control.disabledByForm(disabled);
  }

  /** Inside a page's form a submit that failed its checks shows every problem. */
  formAssociatedCallback(): void {
    this.requestUpdate();
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    super.willUpdate(changed);
    this.mode = oneOf(this, 'mode', this.mode, CLIENT_FORM_MODES, 'edit');
    this.#askCheck();
  }

  protected override updated(): void {
    // The country list gets its options after the select's value binding, so the value is set here.
    const select = this.querySelector<HTMLSelectElement>(`#${this.#id}-country`);
    if (select && select.value !== this.values.country) select.value = this.values.country;
    this.#syncUnloadWarning();
  }

  get #isDisabled(): boolean {
    return this.disabled || this.#control.formDisabled;
  }

  #api = (): ClientRecordClient => new ClientRecordClient(this.endpoint, this.mode === 'create' ? async () => '' : portalTokenSource(this, () => this.dispatchEvent(new TokenExpiredEvent())));

  /** The person field is a company's contact person; a private person's name is the name. */
  #shown(field: Field): boolean {
    return field !== 'person' || this.company;
  }

  #adopt(client: Partial<PortalClient>): void {
    const values = blank();
    for (const field of CLIENT_FORM_FIELDS) values[field] = String(client[field] ?? '');
    this.#storedCountry = values.country;
    values.country = countryCode(values.country, this.resolvedLocale);
    this.#saved = { ...values };
    this.#savedCompany = client.company ?? true;
    this.formResetCallback();
  }

  /** A new customer's country: the region of the page's locale, or Poland for a Polish page. */
  #defaultCountry(): string {
    const region = this.resolvedLocale.split('-')[1]?.toUpperCase() ?? (this.language === 'pl' ? 'PL' : '');
    return COUNTRY_CODES.includes(region) ? region : '';
  }

  /** A required field left blank, else the BFF's verdict on the field as it stands. */
  #ownProblems = (): Partial<Record<Field, ClientFieldProblem>> => this.#check.problems(CLIENT_FORM_FIELDS, this.value, (field) => this.#required(field));

  /** The BFF is asked about the fields once they are loaded (or a new customer's). */
  #askCheck(): void {
    this.#check.ask(this.#loads.status === 'complete' ? this.value : undefined);
  }

  #required(field: Field): boolean {
    return field === 'name' || (field === 'tax_no' && this.company) || (field === 'email' && this.mode === 'create');
  }

  #problems(): Partial<Record<Field, ClientFieldProblem | string>> {
    return { ...this.#ownProblems(), ...this.serverErrors };
  }

  #problemText(field: Field, problem: string): string {
    const p = this.msg.problems;
    if (problem === 'required') {
      const key = field === 'name' && !this.company ? 'personName' : field;
      return p.required[key as keyof typeof p.required] ?? p.required.other;
    }
    if (problem === 'postCode') return p.postCode(this.#check.postCodeExample);
    if (problem.startsWith('tooLong:')) return p.tooLong(problem.slice(8));
    // A server message already turned into the form's words is shown as it is.
    return p[problem as Exclude<ClientFieldProblem, 'required' | 'postCode'> | 'server'] ?? problem;
  }

  /** A server's message (the BFF's or the service's, in English) in the form's words: the problem the BFF's verdict names at the field (the save is checked by the same rules), a length or a blank, or a general sentence. */
  #serverText(field: Field, message: string): string {
    const long = /too long\D*(\d+)/.exec(message);
    const problem = this.#ownProblems()[field];
    return this.#problemText(field, problem ?? (long ? `tooLong:${long[1]}` : /blank/.test(message) ? 'required' : 'server'));
  }

  /** The message shown at a field: the server's, or a problem the customer has had the chance to fix. */
  #error(field: Field): string | undefined {
    const server = this.serverErrors[field];
    if (server) return server;
    if (!this.touched.has('*') && !this.touched.has(field)) return undefined;
    const problem = this.#problems()[field];
    return problem ? this.#problemText(field, problem) : undefined;
  }

  /** Shows every problem and focuses the first; true when there is none. */
  #revealProblems(): boolean {
    this.touched = new Set(['*']);
    const valid = !Object.keys(this.#problems()).length;
    if (!valid) {
      this.notice = [this.msg.invalid, 'error'];
      void this.updateComplete.then(() => this.#focusFirstProblem());
    }
    return valid;
  }

  #focusFirstProblem(): void {
    this.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }

  #input(field: Field): HTMLInputElement | HTMLSelectElement | null {
    return this.querySelector(`#${this.#id}-${field}`);
  }

  #reportError(error: unknown, action: 'load' | 'save'): void {
    const { status, code, message, fields } = error instanceof BffError ? error : new BffError(0, 'network', String(error));
    this.dispatchEvent(new ClientErrorEvent({ action, status, code, message, fields }));
  }

  #syncUnloadWarning(): void {
    (this.isConnected && this.#loads.status !== 'pending' && this.dirty ? addEventListener : removeEventListener)('beforeunload', this.#warnBeforeUnload);
  }

  /** Takes up a change however it came: typing, choosing, pasting or the browser's autofill (input and change events). */
  #onInput(event: Event): void {
    const target = event.target as HTMLInputElement | HTMLSelectElement;
    const field = target.dataset.field as Field | 'company' | undefined;
    if (!field) return;
    if (field === 'company') {
      if (this.company === (target.value === '1')) return;
      this.company = target.value === '1';
    } else {
      if (this.values[field] === target.value) return;
      this.values = { ...this.values, [field]: target.value };
      if (this.serverErrors[field]) {
        const { [field]: _, ...rest } = this.serverErrors;
        this.serverErrors = rest;
      }
    }
    if (this.notice[1] === 'ok') this.notice = ['', ''];
    this.dispatchEvent(new ClientChangeEvent({ field, value: this.value, dirty: this.dirty }));
  }

  #onBlur(event: FocusEvent): void {
    const field = (event.target as HTMLElement).dataset.field as Field | undefined;
    if (field && field !== ('company' as string) && this.values[field] && !this.touched.has(field)) this.touched = new Set([...this.touched, field]);
  }

  #onSubmit = (event: SubmitEvent): void => {
    event.preventDefault();
    void this.save();
  };

  #inputName(field: string): string {
    return this.name ? `${this.name}[${field}]` : field;
  }

  override render() {
    const m = this.msg;
    const nested = this.#control.nested;
    const failed = this.#loads.status === 'error';
    const loading = this.#loads.status === 'pending';
    const disabled = this.#isDisabled || loading || failed;
    const [notice, kind] = this.notice;
    const saving = this.saving;
    const body = html`
      ${failed
        ? html`<div class="cf-banner" part="error" role="alert">
            <p>${this.mode === 'create' ? m.saveError : m.loadError} ${failureText(m, this.#loads.error, this.mode === 'create')}</p>
            <button type="button" class="cf-button" part="button retry-button" @click=${this.reload}>${m.retry}</button>
          </div>`
        : nothing}
      <fieldset class="cf-kind" part="kind" ?disabled=${disabled}>
        <legend>${m.kind}</legend>
        ${[true, false].map(
          (company) => html`<label class="cf-choice"
            ><input
              type="radio"
              name=${this.#inputName('company')}
              value=${company ? '1' : '0'}
              data-field="company"
              ?checked=${this.#savedCompany === company}
              .checked=${this.company === company}
            />${company ? m.company : m.person}</label
          >`,
        )}
      </fieldset>
      <div class="cf-grid">${CLIENT_FORM_FIELDS.filter((f) => this.#shown(f)).map((f) => this.#field(f, disabled))}</div>
      <div class="cf-actions">
        ${nested
          ? nothing
          : html`<button type="submit" class="cf-button cf-primary" part="button submit-button" ?disabled=${disabled} aria-disabled=${saving ? 'true' : 'false'}>
                ${saving ? m.saving : this.mode === 'create' ? m.create : m.save}
              </button>
              ${this.mode === 'edit' && this.dirty && !saving
                ? html`<button type="button" class="cf-button" part="button discard-button" ?disabled=${disabled} @click=${this.formResetCallback}>${m.discard}</button>`
                : nothing}`}
        <p class="cf-status" part="status" role="status" data-kind=${kind}>${loading ? m.loading : notice || (this.dirty && !nested ? m.unsaved : '')}</p>
      </div>
    `;
    const frame = (content: unknown) =>
      nested
        ? html`<div class="cf-frame" role="group" aria-busy=${loading || saving ? 'true' : 'false'} @input=${this.#onInput} @change=${this.#onInput} @focusout=${this.#onBlur}>${content}</div>`
        : html`<form class="cf-frame" novalidate aria-busy=${loading || saving ? 'true' : 'false'} @submit=${this.#onSubmit} @input=${this.#onInput} @change=${this.#onInput} @focusout=${this.#onBlur}>${content}</form>`;
    return frame(body);
  }

  /** Fills the company's fields from its register by tax number (docs/decisions/company-autofill.md): one press, never blocking. */
  async #lookupCompany(): Promise<void> {
    const { tax_no: _, ...others } = this.serverErrors;
    const changes = await this.#lookup.fill(this.values, lookupCountry(this.values.country, this.values.tax_no));
    const status = this.#lookup.state?.status;
    this.serverErrors = status === 'unknown' || status === 'refused' ? { ...others, tax_no: this.msg.problems[status === 'unknown' ? 'unknownCompany' : 'server'] } : others;
    if (changes) this.values = { ...this.values, ...changes };
    for (const field of Object.keys(changes ?? {}) as Field[]) this.dispatchEvent(new ClientChangeEvent({ field, value: this.value, dirty: this.dirty }));
  }

  #field(field: Field, disabled: boolean) {
    const m = this.msg;
    const required = this.#required(field);
    return clientField(field, {
      id: `${this.#id}-${field}`,
      name: this.#inputName(field),
      label: field === 'name' && !this.company ? m.labels.personName : m.labels[field],
      optional: m.optional,
      required,
      error: this.#error(field),
      value: this.values[field],
      saved: this.#saved[field],
      disabled,
      options: field === 'country' ? countryOptions(this.resolvedLocale, this.values.country, this.#saved.country, m.chooseCountry) : nothing,
      extra: field === 'tax_no' && this.company ? lookupControls(m, this.#lookup.state, disabled || !this.values.tax_no.trim(), () => void this.#lookupCompany()) : nothing,
    });
  }
}
