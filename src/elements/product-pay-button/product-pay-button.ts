import { html, nothing, type PropertyDeclarations, type PropertyValues, type TemplateResult } from 'lit';
import { InvoiceKitElement } from '../shared/base-element.js';
import { Task } from '../shared/task.js';
import { DEV } from '../shared/dev-mode.js';
import { warnInvalidAttribute } from '../shared/dev-warnings.js';
import { formatMoney } from '../shared/format.js';
import { SaleClient, SaleError, type SaleProduct } from '../shared/sale-client.js';
import { themeStyles } from '../shared/theme.js';
import { pendingAttempt, type PendingAttempt } from './attempt.js';
import { buttonCatalogs, type ButtonMessages } from './button-messages.js';
import { loadCatalog } from '../shared/i18n.js';
import { styles } from './product-pay-button.styles.js';
import type { CheckoutDialog } from './checkout-dialog.js';
import type { ShownOutcome } from './outcome.js';

const MAX_QUANTITY = 1000;

/** `price` × `quantity` exactly, in the price's own decimals: the total a consumer pays, as the server quotes it before anyone types. */
function times(price: string, quantity: number): string {
  const [whole, fraction = ''] = price.split('.');
  const digits = String(BigInt(whole! + fraction) * BigInt(quantity)).padStart(fraction.length + 1, '0');
  return fraction ? `${digits.slice(0, -fraction.length)}.${digits.slice(-fraction.length)}` : digits;
}

/**
 * A buy button for one product: its name and price, an accessible checkout dialog that asks only for
 * what the invoice needs and shows unit price, VAT and total, then the payment page, and on return the
 * outcome as the server records it, with the issued invoice. Where the product says `blik` (a provider
 * that takes BLIK codes, a price in PLN) the dialog also takes the buyer's six-digit BLIK code and waits
 * on the page while they confirm in the bank app. Talks to the shop's BFF
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
 * @fires {PaySuccessEvent} pay-success - The server says the payment is paid (after the payment page, or a BLIK payment approved in the bank app). `detail.invoice` names the issued invoice.
 * @fires {PayCancelEvent} pay-cancel - The buyer came back without paying (`detail.reason`: `declined`, `cancelled` or `pending`), or a BLIK payment did not go through (`reason` `declined`, `detail.failure`: `wrong_code`, `expired_code`, `declined`, `timeout` or `provider_error`). A BLIK payment fires no `pay-start`.
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
 * @csspart title - The dialog's heading: the product's name.
 * @csspart close-button - The dialog's close button, top right (Escape closes it too).
 * @csspart form - The form inside it.
 * @csspart input - Each text field.
 * @csspart summary - The unit price, quantity, VAT and total.
 * @csspart row - Each row of the summary.
 * @csspart total - The total row.
 * @csspart continue-button - The button that starts the payment.
 * @csspart cancel-button - The dialog's cancel button.
 * @csspart payment - The dialog's payment area: a payment method's fields, then Cancel and Continue, in sight while the fields scroll.
 * @csspart field-error - The problem with a dialog field, in the buyer's language, beside the field.
 * @csspart vat-note - Why the VAT is what it is for this buyer (reverse charge, OSS, a VIES fallback) and the words the invoice will carry.
 * @csspart revised - The new total when the checkout priced the sale otherwise than the dialog showed (VIES could not answer).
 * @csspart lookup-button - The button that fills the company's details from its register by tax number.
 * @csspart lookup-status - What the register lookup did: filled, kept what was typed, or could not answer.
 * @csspart blik - The BLIK field and its button, for a product that offers BLIK.
 * @csspart blik-code - The six-digit BLIK code field (also `input`).
 * @csspart blik-button - "Pay with BLIK", and "Try again" after a BLIK payment failed.
 * @csspart blik-status - What takes the form's place once the code is sent: the wait for the bank app, then the invoice or why it failed.
 * @csspart blik-amount - While the buyer confirms in the bank app: the amount and the product, as the bank app should show them.
 * @csspart blik-time - The time left to confirm in the bank app, counting down.
 * @csspart blik-live - The polite live region that tells screen readers the time left and the outcome (visually hidden).
 * @cssprop [--product-pay-button-height=2.75rem] - Height of the buy button.
 * @cssprop [--product-pay-button-padding=1.25rem] - Horizontal padding of the buy button.
 * @cssprop [--product-pay-button-radius=var(--ik-radius-small)] - Corner radius of the buy button.
 * @cssprop [--product-pay-button-background=var(--ik-color-accent)] - Background of the buy button.
 * @cssprop [--product-pay-button-color=var(--ik-color-accent-text)] - Text color of the buy button.
 * @cssprop [--product-pay-button-font-size=1em] - Text size of the buy button.
 * @cssprop [--product-pay-button-dialog-width=40rem] - Width of the checkout dialog, at most the viewport's less 2rem; at 30rem and wider its fields stand in two columns.
 * @cssprop [--product-pay-button-backdrop=rgb(16 24 40 / 0.45)] - What the page behind the open dialog is dimmed with.
 */
export class ProductPayButton extends InvoiceKitElement<ButtonMessages> {
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
    result: { state: true },
  };
  protected readonly catalogs = buttonCatalogs;

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
  private result?: ShownOutcome;

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
  /** The outcome checks under way: a reload or removal from the page stops them. */
  #checks = new AbortController();
  #pending?: PendingAttempt;
  /**
   * The checkout dialog, once its module is in: it loads on the buyer's intent (pointer over the
   * button, focus in it, the button scrolled into view) or on the click itself, so a page that never
   * opens it never pays for it (docs/decisions/element-loading.md).
   */
  #dialog?: CheckoutDialog;
  #dialogLoad?: Promise<CheckoutDialog | undefined>;
  #openOnLoad = false;
  #intent?: IntersectionObserver;
  /** The dialog's module, once in: with it come the outcome's check, words and view. */
  #kit?: typeof import('./checkout-dialog.js');

  /** The server the button talks to, as the attempt waiting for the buyer's return names it. */
  get #where(): string {
    return this.appUrl && this.account ? `${this.appUrl}|${this.account}` : this.endpoint;
  }

  /** Loads the dialog's module once; after a failed load, the next click tries again. */
  #loadDialog(): Promise<CheckoutDialog | undefined> {
    this.#dialogLoad ??= import('./checkout-dialog.js').then(
      async (kit) => {
        // The dialog's words in the page's language are in before it first shows.
        await loadCatalog(kit.catalogs, this.language);
        this.#kit = kit;
        return (this.#dialog ??= new kit.CheckoutDialog(this, {
          info: () => this.info,
          client: () => this.#client!,
          source: () => this.#source,
          language: () => this.language,
          locale: () => this.resolvedLocale,
          handedOver: (pending) => {
            this.#pending = pending;
            this.result = { status: 'checking' };
          },
        }));
      },
      () => (this.#dialogLoad = undefined),
    );
    return this.#dialogLoad;
  }

  /** Opens the dialog at once if its module is in, else as soon as it is. */
  #openDialog(): void {
    this.result = undefined;
    if (this.#dialog) return this.#dialog.show();
    this.#openOnLoad = true;
    void this.#loadDialog().then((dialog) => {
      if (this.#openOnLoad && this.isConnected) dialog?.show();
      this.#openOnLoad = false;
    });
  }

  override connectedCallback(): void {
    super.connectedCallback();
    if (this.#dialogLoad) return;
    // The buyer shows intent (the pointer over the button, focus in it, the button in view): the dialog's module starts loading.
    const load = () => {
      this.#intent?.disconnect();
      void this.#loadDialog();
    };
    this.addEventListener('pointerenter', load, { once: true });
    this.addEventListener('focusin', load, { once: true });
    if (typeof IntersectionObserver === 'function') (this.#intent = new IntersectionObserver((entries) => entries[0]!.isIntersecting && load())).observe(this);
  }

  /** Resolves once the element has rendered, including a dialog the buyer just opened whose module was still loading. */
  protected override async getUpdateComplete(): Promise<boolean> {
    if (this.#openOnLoad) await this.#dialogLoad;
    return super.getUpdateComplete();
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
    // The outcome's check and words come with the dialog's module, which a button in view loads anyway.
    await this.#loadDialog();
    const kit = this.#kit;
    const outcome = await kit?.askOutcome(this.#client!, pending.attempt, signal);
    if (signal.aborted || !kit) return;
    const [result, event] = kit.settled(pending, outcome);
    this.result = result;
    // A new attempt gets a new Idempotency-Key.
    this.#dialog?.discard();
    this.dispatchEvent(event);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    // Taken out of the page (an SPA route change): nothing it started may land or navigate later.
    this.#products.abort();
    this.#checks.abort();
    this.#intent?.disconnect();
    this.#openOnLoad = false;
    this.result = undefined;
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
    if (moved || changed.has('quantity')) this.#dialog?.discard();
    if (moved) this.result = undefined;
  }

  #money(amount: string): string {
    return formatMoney(amount, this.info!.currency, this.resolvedLocale);
  }

  protected override render(): TemplateResult {
    const m = this.msg;
    const info = this.info;
    const badge = info?.test_mode ? html`<span part="test-badge" class="badge">${m.testMode}</span>` : nothing;
    const label = this.label || m.buy;
    const result = this.result;
    const e = m.errors;
    const quote = this.#dialog?.state.revised ?? this.#dialog?.quote;
    // A product the server does not know (404) is no longer for sale: no retry would change that.
    const gone = this.failure instanceof SaleError && this.failure.status === 404;
    return html`<div part="base" class="base" aria-busy=${!(info || this.failure)}>
        ${this.failure
          ? html`<span part="error" class="error" role="alert">${gone ? e.notForSale : e.failed}</span>
              ${gone ? nothing : html`<button part="retry-button" type="button" @click=${this.reload}>${m.retry}</button>`}`
          : info
            ? html`<span part="name" class="name">${info.name}</span><span part="price" class="price">${this.#money(info.price_gross)}</span>${badge}
                <button part="button" class="buy" type="button" ?disabled=${info.available === false || result?.status === 'checking'}
                  aria-label="${label}: ${info.name}, ${this.#money(quote?.amount ?? times(info.price_gross, this.quantity))}" aria-haspopup="dialog" @click=${this.#openDialog}>${label}</button>`
            : html`<button part="button" class="buy" type="button" disabled>${m.loading}</button>`}
      </div>
      <div part="status" class="status" role="status">${info?.available === false
        ? m.unavailable
        : result && this.#kit?.outcomeStatus(this.language, result, this.#openDialog)}</div>
      ${this.#dialog?.render() ?? nothing}`;
  }
}
