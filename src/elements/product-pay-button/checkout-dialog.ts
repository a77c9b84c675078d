import { adoptStyles, html, nothing, type ReactiveController, type ReactiveControllerHost, type TemplateResult } from 'lit';
import { Task } from '../shared/task.js';
import { formatMoney } from '../shared/format.js';
import { SaleError, type CheckoutAnswer, type CheckoutBuyer, type SaleClient, type SaleProduct } from '../shared/sale-client.js';
import { readyCatalog, type Language } from '../shared/i18n.js';
import { PayBeforeEvent, PayErrorEvent, PayStartEvent } from './events.js';
import { countriesByName } from '../shared/countries.js';
import type { ClientFieldProblem, ProductQuote } from '../../contract/sale.js';
import { CompanyLookup, type CompanyFillField } from '../shared/company-lookup.js';
import { pendingAttempt, type PendingAttempt } from './attempt.js';
import { pause, randomKey, sameAmount } from './checkout-attempt.js';
import { saleSummary } from './summary.js';
import { buyerFrom, contactProblems, quoteQuery } from './buyer.js';
import { catalogs } from './messages.js';
import { dialogStyles } from './checkout-dialog.styles.js';
import { blikStyles } from './blik-pay.styles.js';
import { BlikPay } from './blik-pay.js';
import { checkout, company } from './sale-requests.js';

export { catalogs };
export { askOutcome, outcomeStatus, settled } from './outcome.js';

const MAX_QUANTITY = 1000;
/** How long the dialog waits for typing to pause before it asks the server for the buyer's price. */
const QUOTE_PAUSE_MS = 250;

/** A problem at a dialog field: the checkout's codes, or what only a server could say. */
type FieldProblem = ClientFieldProblem | 'server' | 'quantity' | 'viesInvalid' | 'unknownCompany' | 'blik';

/** How a field the checkout refused (422) is worded, by its key; any other is "Check this field". */
const REFUSED: Partial<Record<string, FieldProblem>> = { 'buyer.tax_no': 'viesInvalid', quantity: 'quantity', 'payment.code': 'blik' };

/** A quote for the query it answers, or why it could not be had (the last price kept beside it). */
interface Quoted {
  query: string;
  quote?: ProductQuote | undefined;
  error?: unknown;
}

const asSaleError = (error: unknown): SaleError => (error instanceof SaleError ? error : new SaleError(0, 'network', String(error)));

/** The button the dialog belongs to: what the page set on it. */
export interface PayButtonHost extends ReactiveControllerHost, EventTarget {
  readonly renderRoot: HTMLElement | DocumentFragment;
  readonly isConnected: boolean;
  readonly product: string;
  quantity: number;
  readonly showQuantity: boolean;
  readonly portalToken: string;
  readonly returnUrl: string;
}

/** What only the button knows: its product as loaded, its client and language. */
export interface DialogContext {
  info(): SaleProduct | undefined;
  client(): SaleClient;
  /** The server the button talks to, as the attempt waiting for the buyer's return names it. */
  source(): string;
  language(): Language;
  locale(): string;
  /** An attempt is under way: the button reports its outcome on `checkOutcome()` (a page that cancels `pay-start` calls it). */
  handedOver(pending: PendingAttempt): void;
}

interface DialogState {
  open?: boolean;
  company?: boolean;
  /** The buyer as typed so far: the server quotes the price for them. */
  draft?: CheckoutBuyer;
  /** Every problem the quote names shows, not only at the fields the buyer left: they pressed Continue. */
  submitted?: boolean;
  /** What else is wrong with each field, by the buyer's field name: the BLIK code, the quantity, a register's or the checkout's refusal. */
  fieldErrors?: Partial<Record<string, FieldProblem>>;
  busy?: boolean;
  /** Why the last checkout request failed. */
  problem?: SaleError | undefined;
  /** A checkout that priced the sale differently from the quote shown (VIES could not answer): the buyer confirms it first. */
  revised?: CheckoutAnswer | undefined;
}

/**
 * The buy button's checkout dialog: the buyer's form, company lookup, the server's quote, the summary
 * and the checkout request. Its module loads when the buyer shows intent (docs/decisions/element-loading.md),
 * so a page pays for it only then.
 */
export class CheckoutDialog implements ReactiveController {
  state: Readonly<DialogState> = {};
  readonly #host: PayButtonHost;
  readonly #ctx: DialogContext;
  /**
   * The price for the buyer as typed, from the server (the dialog never computes a sale's VAT): asked
   * again, once typing pauses, whenever the buyer's country, tax number, company choice or the
   * quantity changes. Only the latest answer lands.
   */
  readonly #quotes: Task<readonly [string, SaleProduct | undefined], Quoted>;
  /** Wakes a Continue waiting for the quote of the buyer as typed. */
  #wake?: (() => void) | undefined;
  /** The fields the buyer has left (`change`), and the tax number as they type it: the quote's problems show there. */
  readonly #touched = new Set<string>();
  /** The request of the attempt in flight; aborted when the product or quantity changes under it. */
  #inFlight = new AbortController();
  /** One Idempotency-Key per attempt: a retry of the same request sends it again. */
  #attempt?: { key: string; body: string } | undefined;
  /** The company section's lookups by tax number (docs/decisions/company-autofill.md). */
  readonly #lookup: CompanyLookup;
  /** BLIK on the page, for a product that offers it. */
  readonly #blik: BlikPay;

  constructor(host: PayButtonHost, ctx: DialogContext) {
    this.#host = host;
    this.#ctx = ctx;
    this.#quotes = new Task(host, {
      args: () => [this.#quoteQuery(), ctx.info()] as const,
      task: async ([query, info], { signal }): Promise<Quoted> => {
        try {
          if (!query || !info) return { query };
          await pause(QUOTE_PAUSE_MS, signal);
          return { query, quote: (await ctx.client().product(info.token, ctx.locale(), signal, query)).quote };
        } catch (error) {
          // The last price stays on screen; a Continue waiting for this one says why it cannot go on.
          return { query, quote: this.quote, error };
        }
      },
      onComplete: () => this.#wake?.(),
    });
    this.#lookup = new CompanyLookup(host, (country, taxNo, signal) => company(ctx.client(), country, taxNo, signal));
    this.#blik = new BlikPay(host, ctx, () => readyCatalog(catalogs, ctx.language()) ?? catalogs.en, () => this.show());
    host.addController(this);
    // The dialog's rules and BLIK's join the button's own, after them as they always stood.
    const root = host.renderRoot as ShadowRoot;
    const styles = [dialogStyles, blikStyles];
    if (dialogStyles.styleSheet) root.adoptedStyleSheets = [...root.adoptedStyleSheets, ...styles.map((style) => style.styleSheet!)];
    else adoptStyles(root, styles);
  }

  /** The server's latest price for the buyer (a newer one may be under way); the checkout's own answer decides. */
  get quote(): ProductQuote | undefined {
    return this.#quotes.value?.quote;
  }

  /** The answer for the buyer exactly as typed, once it is in: an answer for older input never paints newer input. */
  #landed(): Quoted | undefined {
    const { status, value } = this.#quotes;
    return status === 'complete' && value?.query === this.#quoteQuery() ? value : undefined;
  }

  /** Changes the dialog's state; the button renders again only if something changed, as with its own properties. */
  #set(patch: DialogState): void {
    const state: Record<string, unknown> = this.state;
    if (Object.entries(patch).every(([key, value]) => state[key] === value)) return;
    this.state = { ...this.state, ...patch };
    this.#host.requestUpdate();
  }

  /** Opens the dialog with what the buyer typed before, without the last error. */
  show(): void {
    this.#blik.reopen();
    this.#set({ open: true, problem: undefined });
  }

  hostUpdated(): void {
    const dialog = this.#host.renderRoot.querySelector('dialog');
    if (!dialog) return;
    if (this.state.open && !dialog.open && this.#host.isConnected) dialog.showModal();
    else if (!this.state.open && dialog.open) dialog.close();
  }

  hostDisconnected(): void {
    // Taken out of the page (an SPA route change): nothing it started may land or navigate later.
    this.#quotes.abort();
    this.discard();
    this.#set({ open: false });
  }

  /** The quote's query for the buyer as typed; none while the dialog is closed or the quantity is wrong. */
  #quoteQuery(): string {
    const { open, fieldErrors, draft } = this.state;
    return open && fieldErrors?.quantity !== 'quantity' ? quoteQuery(this.#host.portalToken ? undefined : draft, this.#host.quantity, this.#ctx.language()) : '';
  }

  /** A changed product or quantity makes the attempt in flight stale: its answer is dropped, it never navigates. */
  discard(): void {
    this.#inFlight.abort();
    this.#attempt = undefined;
    this.#set({ problem: undefined, revised: undefined, busy: false });
  }

  #buyerFrom = (form: HTMLFormElement): CheckoutBuyer => buyerFrom(form, this.state.company === true);

  /** The buyer changed a field (`left`: and left it): the price and problems are asked for them again, and a revised checkout no longer stands. */
  #edited(form: HTMLFormElement, event?: Event): void {
    const name = (event?.target as HTMLInputElement | undefined)?.name;
    if (name && (event!.type === 'change' || name === 'tax_no')) this.#touched.add(name);
    this.#set({ draft: this.#buyerFrom(form) });
    if (this.state.revised) this.discard();
  }

  #money(amount: string): string {
    return formatMoney(amount, this.#ctx.info()!.currency, this.#ctx.locale());
  }

  #close(): void {
    if (this.state.busy) return;
    this.#set({ open: false });
    void this.#host.updateComplete.then(() => this.#host.renderRoot.querySelector<HTMLElement>('.base .buy')?.focus());
  }

  async #focusProblem(): Promise<void> {
    await this.#host.updateComplete;
    this.#host.renderRoot.querySelector<HTMLElement>('form [aria-invalid="true"]')?.focus();
  }

  /** The quantity field as typed: a whole number from 1 to the maximum, else an error at the field, never a silent substitute. */
  #quantityInput(input: HTMLInputElement): void {
    const n = input.valueAsNumber;
    const { quantity: _, ...others } = this.state.fieldErrors ?? {};
    const wrong = input.validity.badInput || !(Number.isInteger(n) && n > 0 && n <= MAX_QUANTITY);
    this.#set({ fieldErrors: wrong ? { ...others, quantity: 'quantity' } : others });
    if (!wrong) this.#host.quantity = n;
  }

  /** Fills the company's fields from its register by the country and tax number typed; an unknown number is an error at its field. */
  async #lookupCompany(form: HTMLFormElement): Promise<void> {
    const buyer = this.#buyerFrom(form);
    const { tax_no: _, ...others } = this.state.fieldErrors ?? {};
    this.#set({ fieldErrors: buyer.tax_no ? others : { ...others, tax_no: 'required' } });
    // A company buyer from the form: every field of the register's is a string.
    const changes = buyer.tax_no && (await this.#lookup.fill(buyer as Record<CompanyFillField, string>));
    const state = this.#lookup.state?.status;
    if (state === 'unknown' || state === 'refused') this.#set({ fieldErrors: { ...others, tax_no: state === 'unknown' ? 'unknownCompany' : 'server' } });
    if (!changes) return this.#focusProblem();
    for (const [field, value] of Object.entries(changes)) (form.elements.namedItem(field === 'name' ? 'company' : field) as HTMLInputElement).value = value;
    this.#edited(form);
  }

  async #submit(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const info = this.#ctx.info();
    if (this.state.busy || !this.quote || !info || this.state.fieldErrors?.quantity === 'quantity') return;
    const form = event.target as HTMLFormElement;
    const host = this.#host;
    const token = host.portalToken;
    const buyer: CheckoutBuyer | undefined = token ? undefined : this.#buyerFrom(form);
    const { product, quantity } = host;
    const code = this.#blik.code(form);
    const shown = this.quote;
    const revised = this.state.revised;
    if (revised && code === undefined) return this.#pay(revised, { product, quantity, amount: revised.amount, currency: info.currency });
    // From now on every problem shows: the quote's, the blank fields and the e-mail's form, and a BLIK code's six digits.
    this.#set({ draft: buyer, submitted: true, fieldErrors: code === null ? { code: 'blik' } : {} });
    if (code === null) return this.#focusProblem();
    // The fields hold still until the quote for them, as typed, has said what the checkout would refuse (docs/decisions/pay-button-weight.md).
    const { signal } = (this.#inFlight = new AbortController());
    this.#set({ busy: true, problem: undefined });
    // A quote that could not be had is asked again.
    if (this.#landed()?.error) void this.#quotes.run();
    let landed: Quoted | undefined;
    while (!(landed = this.#landed())) {
      await new Promise<void>((resolve) => {
        this.#wake = resolve;
        signal.addEventListener('abort', () => resolve());
      });
      if (signal.aborted) return;
    }
    const { quote, error } = landed;
    if (error || !quote) return this.#set({ busy: false, problem: asSaleError(error) });
    // A problem stops it at its field; a price the buyer has not seen yet is shown before they go on.
    // A blank field or an e-mail of the wrong form is known here; they show with the quote's, all at once.
    if (Object.keys({ ...quote.problems, ...(buyer && contactProblems(buyer)) }).length) {
      this.#set({ busy: false });
      return this.#focusProblem();
    }
    if (!sameAmount(quote.amount, shown.amount)) return this.#set({ busy: false });
    const detail = { product, quantity, amount: quote.amount, currency: info.currency };
    if (!host.dispatchEvent(new PayBeforeEvent({ ...detail, buyer }))) return this.#set({ busy: false });

    const back = host.returnUrl || location.href.replace(/#.*$/, '');
    const payment = code ? ({ method: 'blik', code } as const) : undefined;
    const request = { product, quantity, buyer, returnUrl: back, cancelUrl: back, lang: this.#ctx.language(), payment };
    const body = JSON.stringify(request);
    // A code is sent once: each BLIK attempt is a new checkout, and the code leaves the page's field as it goes.
    if (code || this.#attempt?.body !== body) this.#attempt = { key: randomKey(), body: code ? '' : body };
    if (code) (form.elements.namedItem('code') as HTMLInputElement).value = '';
    try {
      const answer = await checkout(this.#ctx.client(), request, this.#attempt.key, signal, token);
      // The product or quantity changed meanwhile, or the server priced something else: never go on with it.
      if (signal.aborted || answer.product.token !== host.product || answer.quantity !== host.quantity) return;
      this.#set({ busy: false });
      if (answer.payment) return this.#blik.wait(answer, detail);
      // The checkout priced the sale otherwise than the quote shown (VIES could not answer): the buyer sees it first.
      if (!sameAmount(answer.amount, quote.amount)) this.#set({ revised: answer });
      else this.#pay(answer, detail);
    } catch (error) {
      if (signal.aborted) return;
      const problem = asSaleError(error);
      this.#set({ problem, busy: false });
      // Each field the server refused is marked where it stands, in the buyer's language.
      if (problem.status === 422) {
        this.#set({
          fieldErrors: Object.fromEntries(
            Object.keys(problem.fields).map((key) => [key.replace(/^(buyer|payment)\./, ''), REFUSED[key] ?? 'server'] as const),
          ),
        });
        void this.#focusProblem();
      }
      host.dispatchEvent(new PayErrorEvent({ ...detail, status: problem.status, code: problem.code, message: problem.message }));
    }
  }

  /** Sends the buyer on to the payment page of a checkout they have seen the price of. */
  #pay(answer: CheckoutAnswer, detail: Omit<PendingAttempt, 'attempt' | 'source'>): void {
    const pending = { ...detail, attempt: answer.attempt, amount: answer.amount, source: this.#ctx.source() };
    pendingAttempt(pending);
    // The button knows the attempt before the page hears of it: a page paying in a popup may call checkOutcome() from its pay-start listener.
    this.#ctx.handedOver(pending);
    if (this.#host.dispatchEvent(new PayStartEvent({ ...pending, redirectUrl: answer.redirectUrl }))) return location.assign(answer.redirectUrl);
    pendingAttempt(null);
    this.#set({ busy: false, open: false, revised: undefined });
  }

  render(): TemplateResult {
    const m = readyCatalog(catalogs, this.#ctx.language()) ?? catalogs.en;
    const info = this.#ctx.info();
    const host = this.#host;
    const { busy, problem, company } = this.state;
    const e = m.errors;
    const errors = this.state.fieldErrors ?? {};
    // The quote's word on the buyer as typed, at the fields they left or all after Continue, stands over an older one.
    const landed = this.#landed();
    // A signed-in customer's invoice goes to their own record: only a guest's fields are checked.
    const draft = host.portalToken ? undefined : this.state.draft;
    const quoted: Partial<Record<string, FieldProblem>> = { ...(draft && contactProblems(draft)), ...(!landed?.error && landed?.quote?.problems) };
    const errorOf = (name: string) => {
      const key = name === 'company' ? 'name' : name === 'name' && company ? 'first_name' : name;
      return ((this.state.submitted || this.#touched.has(name)) && quoted[key]) || errors[key];
    };
    const invalid = (name: string) => (errorOf(name) ? 'true' : 'false');
    const hint = (name: string) => {
      const problem = errorOf(name);
      return problem ? html`<span part="field-error" class="field-error" id="${name}-error">${m.problems[problem as keyof typeof m.problems] ?? m.problems.server}</span>` : nothing;
    };
    // Fields side by side where the dialog has room (`pair`), and post code beside city even on a phone.
    const field = (name: string, text: string, type: string, autocomplete: string, after: unknown = nothing, layout = 'pair') =>
      html`<label class=${layout}>${text}<input part="input" name=${name} type=${type} autocomplete=${autocomplete} required ?readonly=${busy}
        aria-invalid=${invalid(name)} aria-describedby="${name}-error" />${hint(name)}${after}</label>`;
    const country = info?.seller_country ?? 'PL';
    // The last quote stays on screen, dimmed, while the next one is asked for; the checkout's own answer once it differs.
    const revised = this.state.revised;
    const quote = revised ?? this.quote;
    const quantityWrong = errors.quantity === 'quantity';
    const lookup = this.#lookup.state;
    // A `close` the browser queued as the dialog left the page (an SPA route change) may land after it
    // opened again: only a dialog still closed closes the checkout. The `payment` area is where a payment
    // method's block goes, before the actions, which stay in sight while the fields scroll.
    return html`<dialog part="dialog" aria-labelledby="title" @cancel=${(event: Event) => busy && event.preventDefault()} @close=${(event: Event) => !(event.target as HTMLDialogElement).open && this.#close()}>
        <form part="form" ?hidden=${this.#blik.active} @submit=${(event: SubmitEvent) => this.#submit(event)} aria-busy=${busy} novalidate
          @input=${(event: Event) => this.#edited(event.currentTarget as HTMLFormElement, event)}
          @change=${(event: Event) => this.#edited(event.currentTarget as HTMLFormElement, event)}>
          <h2 id="title" part="title">${info?.name ?? m.loading}</h2>
          <button part="close-button" class="close" type="button" aria-label=${m.close} ?disabled=${busy} @click=${() => this.#close()}>×</button>
          ${info?.seller ? html`<p>${info.seller}</p>` : nothing}
          <div class="fields">
          ${host.portalToken
            ? html`<p class="wide">${m.asCustomer}</p>`
            : html`${field('email', m.email, 'email', 'email')}${field('name', m.name, 'text', 'name')}
                <label class="check wide"><input type="checkbox" .checked=${company} ?disabled=${busy} @change=${(event: Event) => this.#set({ company: (event.target as HTMLInputElement).checked })} />${m.company}</label>
                <label class="pair">${m.country}<select part="input" name="country" autocomplete="country" required ?disabled=${busy}
                  aria-invalid=${invalid('country')} aria-describedby="country-error">
                  ${countriesByName(this.#ctx.locale()).map(([code, name]) => html`<option value=${code} ?selected=${code === country}>${name}</option>`)}
                </select>${hint('country')}</label>
                ${company
                  ? html`${field('tax_no', m.taxNo, 'text', 'off', html`<button part="lookup-button" type="button" ?disabled=${busy || lookup?.status === 'pending'}
                        @click=${(event: Event) => this.#lookupCompany((event.target as HTMLElement).closest('form')!)}>${m.lookup}</button>`)}
                      <p part="lookup-status" class="note wide" role="status">${lookup?.status === 'pending'
                        ? m.lookupPending
                        : lookup?.status === 'unavailable'
                          ? m.lookupUnavailable
                          : lookup?.status === 'filled'
                            ? m.lookupFilled(lookup.name, lookup.kept.length > 0)
                            : nothing}</p>
                      ${field('company', m.companyName, 'text', 'organization')}
                      ${field('street', m.street, 'text', 'street-address')}${field('post_code', m.postCode, 'text', 'postal-code', nothing, 'half')}
                      ${field('city', m.city, 'text', 'address-level2', nothing, 'half')}`
                  : nothing}`}
          ${host.showQuantity
            ? html`<label class="pair">${m.quantity}<input part="input" name="quantity" type="number" min="1" max=${MAX_QUANTITY} step="1" inputmode="numeric" required
                .value=${String(host.quantity)} ?readonly=${busy} aria-invalid=${invalid('quantity')} aria-describedby="quantity-error"
                @input=${(event: Event) => this.#quantityInput(event.target as HTMLInputElement)} />${hint('quantity')}</label>`
            : nothing}
          </div>
          ${info
            ? saleSummary(m, { info, quote, revised: !!revised, pending: this.#quotes.status === 'pending' && !busy, quantityWrong, locale: this.#ctx.locale() })
            : html`<p part="summary" class="summary">${m.loading}</p>`}
          ${info?.blik && info.currency === 'PLN' ? this.#blik.field(m, invalid('code'), hint('code'), busy) : nothing}
          <p class="error" role="alert">${problem
            ? problem.status === 0
              ? e.offline
              : problem.status === 429
                ? e.busy
                : problem.status === 422
                  ? e.invalid
                  : e.failed
            : nothing}</p>
          <div part="payment" class="payment">
            <div class="actions">
              <button part="cancel-button" type="button" ?disabled=${busy} @click=${() => this.#close()}>${m.cancel}</button>
              <button part="continue-button" class="buy" ?disabled=${busy || !this.quote || quantityWrong}>${busy
                ? m.redirecting
                : revised
                  ? `${m.continue}: ${this.#money(revised.amount)}`
                  : problem
                    ? m.retry
                    : m.continue}</button>
            </div>
          </div>
        </form>
        ${this.#blik.panel(m)}
      </dialog>`;
  }
}
