import { html, nothing, type PropertyDeclarations, type PropertyValues, type TemplateResult } from 'lit';
import { InvoiceKitElement } from '../shared/base-element.js';
import { Task } from '../shared/task.js';
import { DEV } from '../shared/dev-mode.js';
import { warnInvalidAttribute } from '../shared/dev-warnings.js';
import { formatMoney } from '../shared/format.js';
import { SaleClient, SaleError, type CheckoutAnswer, type CheckoutBuyer, type CheckoutOutcome, type CheckoutStatus, type SaleProduct } from '../shared/sale-client.js';
import { themeStyles } from '../shared/theme.js';
import { PayBeforeEvent, PayCancelEvent, PayErrorEvent, PayStartEvent, PaySuccessEvent } from './events.js';
import { buyerProblems, EU_COUNTRIES } from '../../kernel/checkout.js';
import type { ClientFieldProblem } from '../../kernel/validation/client.js';
import type { ProductQuote } from '../../contract/sale.js';
import { CompanyLookup } from '../shared/company-lookup.js';
import { pause, pendingAttempt, randomKey, sameAmount, type PendingAttempt } from './attempt.js';
import { lineTotals } from './line.js';
import { saleSummary } from './summary.js';
import { buyerFrom, quoteQuery } from './buyer.js';
import { catalogs, type PayButtonMessages } from './messages.js';
import { styles } from './product-pay-button.styles.js';

/** The countries a company buyer picks from: the EU's, whose VAT rules differ, and the neighbours shops sell to most. */
const SALE_COUNTRIES = [...EU_COUNTRIES, 'CH', 'GB', 'NO', 'UA', 'US'];

const MAX_QUANTITY = 1000;
/** How long the dialog waits for typing to pause before it asks the server for the buyer's price. */
const QUOTE_PAUSE_MS = 250;

/** A problem at a dialog field: the buyer-check's codes, or what only a server could say. */
type FieldProblem = ClientFieldProblem | 'server' | 'quantity' | 'viesInvalid' | 'unknownCompany';

/**
 * A buy button for one product: its name and price, an accessible checkout dialog that asks only for
 * what the invoice needs and shows unit price, VAT and total, then the payment page, and on return the
 * outcome as the server records it, with the issued invoice. Talks to the shop's BFF
 * (`endpoint` + `product`) or, with no backend at all, to the invoicing service's public widget routes
 * (`app-url` + `account` + `product`).
 *
 * @element product-pay-button
 * @summary A buy button with checkout dialog, payment redirect and invoice, for one product.
 * @attr {string} endpoint - Base URL of the shop's BFF routes (default `/bff`). Used when `app-url` is not set.
 * @attr {string} app-url - The invoicing service's address, for direct mode (no BFF): the widget routes under `/a/<account>/`.
 * @attr {string} account - The account's prefix on the service, for direct mode.
 * @attr {string} product - The product's token. Change it at any time: the button and an open dialog follow, and never pay for the old one.
 * @attr {number} quantity - How many to buy, 1 to 1000.
 * @attr {boolean} show-quantity - Lets the buyer change the quantity in the dialog.
 * @attr {string} label - The button's text instead of "Buy now".
 * @attr {string} return-url - Where the buyer comes back after paying or cancelling. Default: this page. In direct mode it must be on this page's origin.
 * @attr {string} portal-token - A signed-in customer's portal token (BFF mode, `checkout` scope): the dialog asks nothing, and the purchase is invoiced to the customer's own details.
 *
 * @slot - Fallback content shown until the element is defined, or if its script is blocked: put a plain `<a href>` to the product's order page here.
 * @fires {PayBeforeEvent} pay-before - The buyer pressed Continue; nothing was sent. `detail.buyer`, `product`, `quantity`, `amount`, `currency`. Cancelable: cancel to stop the checkout.
 * @fires {PayStartEvent} pay-start - The payment was created; the buyer is about to go to `detail.redirectUrl`. Cancelable: cancel to navigate yourself, then call `checkOutcome()`.
 * @fires {PaySuccessEvent} pay-success - The server says the payment is paid. `detail.invoice` names the issued invoice.
 * @fires {PayCancelEvent} pay-cancel - The buyer came back without paying. `detail.reason`: `declined`, `cancelled` or `pending`.
 * @fires {PayErrorEvent} pay-error - The checkout could not be started. `detail.status`, `code`, `message`.
 * @csspart base - The row holding name, price, badge and button.
 * @csspart name - The product name.
 * @csspart price - The unit price.
 * @csspart test-badge - The "Test mode" badge, shown while a test provider takes payments.
 * @csspart button - The buy button.
 * @csspart status - The message after the buyer comes back (paid, declined, cancelled).
 * @csspart invoice-link - The link to the issued invoice.
 * @csspart error - The error message when the product cannot be loaded.
 * @csspart retry-button - Its retry button.
 * @csspart dialog - The checkout dialog.
 * @csspart form - The form inside it.
 * @csspart input - Each text field.
 * @csspart summary - The unit price, quantity, VAT and total.
 * @csspart row - Each row of the summary.
 * @csspart total - The total row.
 * @csspart continue-button - The button that starts the payment.
 * @csspart cancel-button - The dialog's cancel button.
 * @csspart field-error - The problem with a dialog field, in the buyer's language, beside the field.
 * @csspart vat-note - Why the VAT is what it is for this buyer (reverse charge, OSS, a VIES fallback) and the words the invoice will carry.
 * @csspart revised - The new total when the checkout priced the sale otherwise than the dialog showed (VIES could not answer).
 * @csspart lookup-button - The button that fills the company's details from its register by tax number.
 * @csspart lookup-status - What the register lookup did: filled, kept what was typed, or could not answer.
 * @cssprop [--product-pay-button-height=2.75rem] - Height of the buy button.
 * @cssprop [--product-pay-button-padding=1.25rem] - Horizontal padding of the buy button.
 * @cssprop [--product-pay-button-radius=var(--ik-radius-small)] - Corner radius of the buy button.
 * @cssprop [--product-pay-button-background=var(--ik-color-accent)] - Background of the buy button.
 * @cssprop [--product-pay-button-color=var(--ik-color-accent-text)] - Text color of the buy button.
 * @cssprop [--product-pay-button-font-size=1em] - Text size of the buy button.
 * @cssprop [--product-pay-button-dialog-width=26rem] - Width of the checkout dialog, at most the viewport's less 2rem.
 */
export class ProductPayButton extends InvoiceKitElement<PayButtonMessages> {
  static override styles = [themeStyles, styles];
  static override properties: PropertyDeclarations = {
    endpoint: {},
    appUrl: { attribute: 'app-url' },
    account: {},
    product: {},
    quantity: { type: Number },
    showQuantity: { attribute: 'show-quantity', type: Boolean },
    label: {},
    returnUrl: { attribute: 'return-url' },
    portalToken: { attribute: 'portal-token' },
    open: { state: true },
    company: { state: true },
    draft: { state: true },
    fieldErrors: { state: true },
    busy: { state: true },
    problem: { state: true },
    result: { state: true },
    revised: { state: true },
  };
  protected readonly catalogs = catalogs;

  /** Base URL of the shop's BFF routes. Used when `app-url` is not set. */
  endpoint = '/bff';

  /** The invoicing service's address, for direct mode (no BFF): the widget routes under `/a/<account>/`. */
  appUrl = '';

  /** The account's prefix on the service, for direct mode. */
  account = '';

  /** The product's token. Change it at any time: the button and an open dialog follow, and never pay for the old one. */
  product = '';

  /** How many to buy, 1 to 1000. */
  quantity = 1;

  /** Lets the buyer change the quantity in the dialog. */
  showQuantity = false;

  /** The button's text instead of "Buy now". */
  label = '';

  /** Where the buyer comes back after paying or cancelling. Default: this page. In direct mode it must be on this page's origin. */
  returnUrl = '';

  /** A signed-in customer's portal token (BFF mode, `checkout` scope), minted by the host's backend: the dialog asks nothing, and the purchase is invoiced to the customer's own details and shows in their portal. */
  portalToken = '';

  /** The product as the server answered it; none while it loads again. */
  private get info(): SaleProduct | undefined {
    return this.#products.status === 'complete' ? this.#products.value : undefined;
  }
  private get failure(): unknown {
    return this.#products.status === 'error' ? this.#products.error : undefined;
  }
  /** The server's latest price for the buyer (a newer one may be under way); the checkout's own answer decides. */
  private get quote(): ProductQuote | undefined {
    return this.#quotes.value;
  }
  // Unset reads as false; leaving out the initial values keeps the bundle a little smaller.
  private open?: boolean;
  private company?: boolean;
  /** The buyer as typed so far: the server quotes the price for them. */
  private draft?: CheckoutBuyer;
  /** What is wrong with each field, by its name, as a problem code. */
  private fieldErrors?: Partial<Record<string, FieldProblem>>;
  private busy?: boolean;
  /** Why the last checkout request failed. */
  private problem?: SaleError;
  private result?: { status: 'checking' | CheckoutStatus; outcome?: CheckoutOutcome | undefined };
  /** A checkout that priced the sale differently from the quote shown (VIES could not answer): the buyer confirms it first. */
  private revised?: CheckoutAnswer;

  #client?: SaleClient;
  #source = '';
  /** The product's loads, again whenever the product, the server or the language changes (the unit comes in the buyer's language): a newer one aborts an older one; the render reads its status. */
  #products = new Task(this, {
    args: () => [this.#where, this.product, this.locale] as const,
    task: ([source, product], { signal }) => {
      // No product yet (a framework sets it after the element is created): nothing to ask for, and the button waits, as while loading.
      if (!product) return new Promise<SaleProduct>(() => undefined);
      this.#checks.abort();
      this.#checks = new AbortController();
      this.#source = source;
      this.#client = new SaleClient(this.appUrl && this.account ? { appUrl: this.appUrl, account: this.account } : { endpoint: this.endpoint });
      return this.#client.product(product, this.resolvedLocale, signal);
    },
    onComplete: () => {
      const pending = pendingAttempt();
      if (pending?.source === this.#source && pending.product === this.product) {
        // This button sent the buyer to pay: it reports how that ended, and no other button does.
        pendingAttempt(null);
        void this.checkOutcome(pending);
      }
    },
  });
  /**
   * The price for the buyer as typed, from the server (the dialog never computes a sale's VAT): asked
   * again, once typing pauses, whenever the buyer's country, tax number, company choice or the
   * quantity changes. Only the latest answer lands.
   */
  #quotes = new Task(this, {
    args: () => [this.#quoteQuery(), this.info] as const,
    task: async ([query, info], { signal }): Promise<ProductQuote | undefined> => {
      if (!query || !info) return undefined;
      await pause(QUOTE_PAUSE_MS, signal);
      return (await this.#client!.product(info.token, this.resolvedLocale, signal, query)).quote;
    },
  });
  /** The outcome checks under way: a reload or removal from the page stops them. */
  #checks = new AbortController();
  /** The request of the attempt in flight; aborted when the product or quantity changes under it. */
  #inFlight = new AbortController();
  /** One Idempotency-Key per attempt: a retry of the same request sends it again. */
  #attempt?: { key: string; body: string };
  #pending?: PendingAttempt;
  /** The company section's lookups by tax number (docs/decisions/company-autofill.md). */
  #lookup = new CompanyLookup(this, (country, taxNo, signal) => this.#client!.company(country, taxNo, signal));

  /** The server the button talks to, as the attempt waiting for the buyer's return names it. */
  get #where(): string {
    return this.appUrl && this.account ? `${this.appUrl}|${this.account}` : this.endpoint;
  }

  /** The quote's query for the buyer as typed; none while the dialog is closed or the quantity is wrong. */
  #quoteQuery(): string {
    return this.open && this.fieldErrors?.quantity !== 'quantity' ? quoteQuery(this.portalToken ? undefined : this.draft, this.quantity, this.language) : '';
  }

  /** Loads the product again, e.g. after its price changed. */
  reload(): Promise<void> {
    return this.#products.run();
  }

  /**
   * Asks the server how the last attempt ended and shows it. Call it after handling `pay-start`
   * yourself (a popup): the button never trusts a return address alone.
   */
  async checkOutcome(pending = this.#pending): Promise<void> {
    if (!pending) return;
    this.#pending = pending;
    this.result = { status: 'checking' };
    const { signal } = this.#checks;
    let outcome: CheckoutOutcome | undefined;
    // A provider may report a moment after the buyer is back: ask a few times before calling it unfinished.
    for (let i = 0; i < 4 && (outcome?.status ?? 'pending') === 'pending'; i += 1) {
      outcome = await new Promise((resolve) => setTimeout(resolve, 900 * i)).then(() => this.#client!.outcome(pending.attempt, signal)).catch(() => outcome);
      if (signal.aborted) return;
    }
    const status = outcome?.status ?? 'pending';
    this.result = { status, outcome };
    this.#attempt = undefined;
    this.dispatchEvent(status === 'paid' ? new PaySuccessEvent({ ...pending, invoice: outcome!.invoice }) : new PayCancelEvent({ ...pending, reason: status }));
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    // Taken out of the page (an SPA route change): nothing it started may land or navigate later.
    this.#products.abort();
    this.#quotes.abort();
    this.#checks.abort();
    this.#discardAttempt();
    this.result = undefined;
    this.open = false;
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    super.willUpdate(changed);
    const n = this.quantity;
    if (!(Number.isInteger(n) && n > 0 && n <= MAX_QUANTITY)) {
      if (DEV) warnInvalidAttribute(this.tagName, 'quantity', n, `a whole number from 1 to ${MAX_QUANTITY}`, 1);
      this.quantity = 1;
    }
    // The attempt in flight was for another product, quantity or server; the outcome shown, for another product or server.
    const moved = changed.has('product') || this.#where !== this.#source;
    if (moved || changed.has('quantity')) this.#discardAttempt();
    if (moved) this.result = undefined;
  }

  protected override updated(): void {
    const dialog = this.renderRoot.querySelector('dialog')!;
    if (this.open && !dialog.open && this.isConnected) dialog.showModal();
    else if (!this.open && dialog.open) dialog.close();
  }

  /** A changed product or quantity makes the attempt in flight stale: its answer is dropped, it never navigates. */
  #discardAttempt(): void {
    this.#inFlight.abort();
    this.#attempt = this.problem = this.revised = undefined;
    this.busy = false;
  }

  #buyerFrom = (form: HTMLFormElement): CheckoutBuyer => buyerFrom(form, this.company === true);

  /** The buyer changed a field: the price is asked for them again, and a revised checkout no longer stands. */
  #edited(form: HTMLFormElement): void {
    this.draft = this.#buyerFrom(form);
    if (this.revised) this.#discardAttempt();
  }

  #money(amount: string): string {
    return formatMoney(amount, this.info!.currency, this.resolvedLocale);
  }

  #close(): void {
    if (this.busy) return;
    this.open = false;
    void this.updateComplete.then(() => this.renderRoot.querySelector<HTMLElement>('.base .buy')?.focus());
  }

  async #focusProblem(): Promise<void> {
    await this.updateComplete;
    this.renderRoot.querySelector<HTMLElement>('form [aria-invalid="true"]')?.focus();
  }

  /** The quantity field as typed: a whole number from 1 to the maximum, else an error at the field, never a silent substitute. */
  #quantityInput(input: HTMLInputElement): void {
    const n = input.valueAsNumber;
    const { quantity: _, ...others } = this.fieldErrors ?? {};
    const wrong = input.validity.badInput || !(Number.isInteger(n) && n > 0 && n <= MAX_QUANTITY);
    this.fieldErrors = wrong ? { ...others, quantity: 'quantity' } : others;
    if (!wrong) this.quantity = n;
  }

  /** Fills the company's fields from its register by the country and tax number typed; an unknown number is an error at its field. */
  async #lookupCompany(form: HTMLFormElement): Promise<void> {
    const buyer = this.#buyerFrom(form);
    const { tax_no: _, ...others } = this.fieldErrors ?? {};
    this.fieldErrors = others;
    if (!buyer.tax_no) this.fieldErrors = { ...others, tax_no: 'required' };
    const text = (value: string | null | undefined) => value ?? '';
    const changes =
      buyer.tax_no &&
      (await this.#lookup.fill({ name: text(buyer.name), street: text(buyer.street), post_code: text(buyer.post_code), city: text(buyer.city), country: text(buyer.country), tax_no: buyer.tax_no }));
    const state = this.#lookup.state?.status;
    if (state === 'unknown' || state === 'refused') this.fieldErrors = { ...others, tax_no: state === 'unknown' ? 'unknownCompany' : 'server' };
    if (!changes) return this.#focusProblem();
    for (const [field, value] of Object.entries(changes)) (form.elements.namedItem(field === 'name' ? 'company' : field) as HTMLInputElement).value = value;
    this.#edited(form);
  }

  async #submit(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const quote = this.quote;
    if (this.busy || !quote || this.fieldErrors?.quantity === 'quantity') return;
    const form = event.target as HTMLFormElement;
    const token = this.portalToken;
    const buyer: CheckoutBuyer | undefined = token ? undefined : this.#buyerFrom(form);
    const { product, quantity } = this;
    const detail = { product, quantity, amount: quote.amount, currency: this.info!.currency };
    if (this.revised) return this.#pay(this.revised, detail);
    if (buyer) {
      // The same rules the checkout applies: nothing is sent that it would refuse.
      const problems = buyerProblems(buyer);
      this.fieldErrors = problems;
      if (Object.keys(problems).length) return this.#focusProblem();
    }
    const before = new PayBeforeEvent({ ...detail, buyer });
    if (!this.dispatchEvent(before)) return;

    const back = this.returnUrl || location.href.replace(/#.*$/, '');
    const request = { product, quantity, buyer, returnUrl: back, cancelUrl: back, lang: this.language };
    const body = JSON.stringify(request);
    if (this.#attempt?.body !== body) this.#attempt = { key: randomKey(), body };
    const { signal } = (this.#inFlight = new AbortController());
    this.busy = true;
    this.problem = undefined;
    try {
      const answer = await this.#client!.checkout(request, this.#attempt.key, signal, token);
      // The product or quantity changed meanwhile, or the server priced something else: never go on with it.
      if (signal.aborted || answer.product.token !== this.product || answer.quantity !== this.quantity) return;
      this.busy = false;
      // The checkout priced the sale otherwise than the quote shown (VIES could not answer): the buyer sees it first.
      if (!sameAmount(answer.amount, quote.amount)) this.revised = answer;
      else this.#pay(answer, detail);
    } catch (error) {
      if (signal.aborted) return;
      const problem = (this.problem = error instanceof SaleError ? error : new SaleError(0, 'network', String(error)));
      this.busy = false;
      // Each field the server refused is marked where it stands, in the buyer's language.
      if (problem.status === 422) {
        this.fieldErrors = Object.fromEntries(
          Object.keys(problem.fields).map((key) => [key.replace(/^buyer\./, ''), key === 'buyer.tax_no' ? 'viesInvalid' : key === 'quantity' ? 'quantity' : 'server'] as const),
        );
        void this.#focusProblem();
      }
      this.dispatchEvent(new PayErrorEvent({ ...detail, status: problem.status, code: problem.code, message: problem.message }));
    }
  }

  /** Sends the buyer on to the payment page of a checkout they have seen the price of. */
  #pay(answer: CheckoutAnswer, detail: Omit<PendingAttempt, 'attempt' | 'source'>): void {
    const pending = (this.#pending = { ...detail, attempt: answer.attempt, amount: answer.amount, source: this.#source });
    pendingAttempt(pending);
    if (this.dispatchEvent(new PayStartEvent({ ...pending, redirectUrl: answer.redirectUrl }))) return location.assign(answer.redirectUrl);
    pendingAttempt(null);
    this.busy = this.open = false;
    this.revised = undefined;
    this.result = { status: 'checking' };
  }

  protected override render(): TemplateResult {
    const m = this.msg;
    const info = this.info;
    const busy = this.busy;
    const badge = info?.test_mode ? html`<span part="test-badge" class="badge">${m.testMode}</span>` : nothing;
    const label = this.label || m.buy;
    const result = this.result;
    const invoice = result?.outcome?.invoice;
    const problem = this.problem;
    const e = m.errors;
    const errors = this.fieldErrors ?? {};
    const errorOf = (name: string) => errors[name === 'company' ? 'name' : name];
    const invalid = (name: string) => (errorOf(name) ? 'true' : 'false');
    const hint = (name: string) => {
      const problem = errorOf(name);
      return problem ? html`<span part="field-error" class="field-error" id="${name}-error">${m.problems[problem as keyof typeof m.problems] ?? m.problems.server}</span>` : nothing;
    };
    const field = (name: string, text: string, type: string, autocomplete: string, after: unknown = nothing) =>
      html`<label>${text}<input part="input" name=${name} type=${type} autocomplete=${autocomplete} required ?readonly=${busy}
        aria-invalid=${invalid(name)} aria-describedby="${name}-error" />${after}${hint(name)}</label>`;
    const regions = new Intl.DisplayNames(this.resolvedLocale, { type: 'region' });
    // The last quote stays on screen, dimmed, while the next one is asked for; the checkout's own answer once it differs.
    const revised = this.revised;
    const quote = revised ?? this.quote;
    const quantityWrong = errors.quantity === 'quantity';
    const lookup = this.#lookup.state;
    return html`<div part="base" class="base" aria-busy=${!(info || this.failure)}>
        ${this.failure
          ? html`<span part="error" class="error" role="alert">${e.failed}</span>
              <button part="retry-button" type="button" @click=${this.reload}>${m.retry}</button>`
          : info
            ? html`<span part="name" class="name">${info.name}</span><span part="price" class="price">${this.#money(info.price_gross)}</span>${badge}
                <button part="button" class="buy" type="button" ?disabled=${info.available === false || result?.status === 'checking'}
                  aria-label="${label}: ${info.name}, ${this.#money(quote?.amount ?? lineTotals(info.price_gross, this.quantity, info.tax, info.currency).total)}" aria-haspopup="dialog" @click=${() => {
                    this.result = this.problem = undefined;
                    this.open = true;
                  }}>${label}</button>`
            : html`<button part="button" class="buy" type="button" disabled>${m.loading}</button>`}
      </div>
      <div part="status" class="status" role="status">${info?.available === false
        ? m.unavailable
        : !result
          ? nothing
          : result.status === 'checking'
            ? m.checking
            : result.status === 'paid'
              ? html`<span class="ok">${m.paid(invoice?.number)}</span>
                  ${invoice?.view_url ? html`<a part="invoice-link" href=${invoice.view_url} target="_blank">${m.viewInvoice(invoice.number)}</a>` : nothing}`
              : html`<span class="error">${result.status === 'declined' ? m.declined : m.cancelled}</span>
                  <button part="retry-button" type="button" @click=${() => {
                    this.result = this.problem = undefined;
                    this.open = true;
                  }}>${m.retry}</button>`}</div>
      <dialog part="dialog" aria-labelledby="title" @cancel=${(event: Event) => busy && event.preventDefault()} @close=${this.#close}>
        <form part="form" @submit=${this.#submit} aria-busy=${busy} novalidate
          @input=${(event: Event) => this.#edited(event.currentTarget as HTMLFormElement)}
          @change=${(event: Event) => this.#edited(event.currentTarget as HTMLFormElement)}>
          <h2 id="title">${info?.name ?? m.loading}</h2>
          ${info?.seller ? html`<p>${info.seller}</p>` : nothing}
          ${this.portalToken
            ? html`<p>${m.asCustomer}</p>`
            : html`${field('email', m.email, 'email', 'email')}${field('name', m.name, 'text', 'name')}
                <label class="check"><input type="checkbox" .checked=${this.company} ?disabled=${busy} @change=${(event: Event) => (this.company = (event.target as HTMLInputElement).checked)} />${m.company}</label>
                <label>${m.country}<select part="input" name="country" autocomplete="country" required ?disabled=${busy}
                  aria-invalid=${invalid('country')} aria-describedby="country-error">
                  ${SALE_COUNTRIES.map((code) => html`<option value=${code} ?selected=${code === (info?.seller_country ?? 'PL')}>${regions.of(code)}</option>`)}
                </select>${hint('country')}</label>
                ${this.company
                  ? html`${field('tax_no', m.taxNo, 'text', 'off', html`<button part="lookup-button" type="button" ?disabled=${busy || lookup?.status === 'pending'}
                        @click=${(event: Event) => this.#lookupCompany((event.target as HTMLElement).closest('form')!)}>${m.lookup}</button>`)}
                      <p part="lookup-status" class="note" role="status">${lookup?.status === 'pending'
                        ? m.lookupPending
                        : lookup?.status === 'unavailable'
                          ? m.lookupUnavailable
                          : lookup?.status === 'filled'
                            ? m.lookupFilled(lookup.name, lookup.kept.length > 0)
                            : nothing}</p>
                      ${field('company', m.companyName, 'text', 'organization')}
                      ${field('street', m.street, 'text', 'street-address')}${field('post_code', m.postCode, 'text', 'postal-code')}
                      ${field('city', m.city, 'text', 'address-level2')}`
                  : nothing}`}
          ${this.showQuantity
            ? html`<label>${m.quantity}<input part="input" name="quantity" type="number" min="1" max=${MAX_QUANTITY} step="1" inputmode="numeric" required
                .value=${String(this.quantity)} ?readonly=${busy} aria-invalid=${invalid('quantity')} aria-describedby="quantity-error"
                @input=${(event: Event) => this.#quantityInput(event.target as HTMLInputElement)} />${hint('quantity')}</label>`
            : nothing}
          ${info
            ? saleSummary(m, { info, quote, revised: !!revised, pending: this.#quotes.status === 'pending', quantityWrong, locale: this.resolvedLocale })
            : html`<p part="summary" class="summary">${m.loading}</p>`}
          <p class="error" role="alert">${problem
            ? problem.status === 0
              ? e.offline
              : problem.status === 429
                ? e.busy
                : problem.status === 422
                  ? e.invalid
                  : e.failed
            : nothing}</p>
          <div class="actions">
            <button part="cancel-button" type="button" ?disabled=${busy} @click=${this.#close}>${m.cancel}</button>
            <button part="continue-button" class="buy" ?disabled=${busy || !this.quote || quantityWrong}>${busy
              ? m.redirecting
              : revised
                ? m.continueRevised(this.#money(revised.amount))
                : problem
                  ? m.retry
                  : m.continue}</button>
          </div>
        </form>
      </dialog>`;
  }
}
