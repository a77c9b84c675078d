import { html, nothing, type ReactiveController, type TemplateResult } from 'lit';
import type { BlikFailureReason, CheckoutAnswer, CheckoutOutcome } from '../../contract/sale.js';
import { PayCancelEvent, PaySuccessEvent } from './events.js';
import type { PendingAttempt } from './attempt.js';
import type { DialogContext, PayButtonHost } from './checkout-dialog.js';
import type { PayButtonMessages } from './messages.js';
import { outcome } from './sale-requests.js';
import { invoiceLink } from './outcome.js';
import { formatMoney } from '../shared/format.js';

/** How often the attempt's status is asked while the buyer confirms in the bank app. */
const POLL_MS = 2_000;
/** The seconds left at which a screen reader hears the time: often enough to plan, rarely enough to listen. */
const SPOKEN = [90, 60, 30, 10];
/** Past the code's expiry, the server decides a timeout within seconds; a page that hears nothing gives up after this. */
const GIVE_UP_MS = 30_000;

interface Waiting {
  phase: 'waiting' | 'paid' | 'failed';
  attempt: PendingAttempt;
  expires: number;
  reason?: BlikFailureReason | null | undefined;
  invoice?: CheckoutOutcome['invoice'];
  /** What the polite live region says now. */
  said: string;
  /** The last of `SPOKEN` announced. */
  mark: number;
}

/**
 * BLIK on the page (docs/decisions/blik-on-the-page.md): the six-digit field, then the wait for the
 * bank app with the time left, then the outcome with a way to try again or pay another way. Loads
 * with the dialog. The code lives in the field until it is sent, and nowhere after.
 */
export class BlikPay implements ReactiveController {
  readonly #host: PayButtonHost;
  readonly #ctx: DialogContext;
  readonly #messages: () => PayButtonMessages;
  readonly #show: () => void;
  #state?: Waiting | undefined;
  #timer?: ReturnType<typeof setInterval>;
  #checks = new AbortController();
  /** The buyer asked to pay with BLIK (its button, or Enter in the code field), not Continue: true during that submit only. */
  #chosen = false;

  /** `show` opens the dialog: an outcome that lands after the buyer closed it shows there all the same. */
  constructor(host: PayButtonHost, ctx: DialogContext, messages: () => PayButtonMessages, show: () => void) {
    this.#host = host;
    this.#ctx = ctx;
    this.#messages = messages;
    this.#show = show;
    host.addController(this);
  }

  /**
   * For the submit under way: the code typed or pasted ("123 456", "123-456") as six digits, `null`
   * when BLIK was chosen with anything else, `undefined` when the buyer chose another way to pay.
   */
  code(form: HTMLFormElement): string | null | undefined {
    if (!this.#chosen) return undefined;
    const code = String(new FormData(form).get('code')).replace(/[\s-]/g, '');
    return /^\d{6}$/.test(code) ? code : null;
  }

  /** A BLIK payment is on screen: the form gives way to it. */
  get active(): boolean {
    return !!this.#state;
  }

  hostDisconnected(): void {
    this.#stop();
    this.#state = undefined;
  }

  /** The dialog opens again: an ended payment gives way to the form; one still waiting stays. */
  reopen(): void {
    if (this.#state?.phase !== 'waiting') this.#state = undefined;
  }

  /** The checkout took the code: waits for the bank app, asking the attempt's status every couple of seconds. */
  wait(answer: CheckoutAnswer, detail: Omit<PendingAttempt, 'attempt' | 'source'>): void {
    const payment = answer.payment!;
    this.#state = { phase: 'waiting', attempt: { ...detail, attempt: answer.attempt, amount: answer.amount, source: this.#ctx.source() }, expires: Date.parse(payment.expires_at), said: '', mark: 1e9 };
    if (answer.status === 'failed') return this.#end({ status: 'failed', reason: payment.reason, amount: answer.amount, currency: answer.currency, invoice: null });
    this.#checks = new AbortController();
    let tick = 0;
    this.#timer = setInterval(() => {
      if (++tick % (POLL_MS / 1000) === 0) void this.#poll();
      this.#tick();
    }, 1000);
    this.#tick();
    void this.#focus();
  }

  /** The field the buyer pressed Enter in has gone: the focus moves to what took its place. */
  async #focus(): Promise<void> {
    await this.#host.updateComplete;
    this.#host.renderRoot.querySelector<HTMLElement>('#blik-title')?.focus();
  }

  #left(): number {
    return Math.max(0, Math.ceil((this.#state!.expires - Date.now()) / 1000));
  }

  #tick(): void {
    const state = this.#state!;
    const m = this.#messages();
    const left = this.#left();
    const mark = SPOKEN.find((each) => left <= each && state.mark > each);
    if (mark || !state.said) state.said = `${state.said ? '' : `${m.blik.wait}. `}${m.blik.left(left)}`;
    if (mark) state.mark = mark;
    if (Date.now() > state.expires + GIVE_UP_MS) this.#end({ status: 'failed', reason: 'timeout', amount: '', currency: '', invoice: null });
    this.#host.requestUpdate();
  }

  async #poll(): Promise<void> {
    const { signal } = this.#checks;
    const answer = await outcome(this.#ctx.client(), this.#state!.attempt.attempt, signal).catch(() => undefined);
    if (!signal.aborted && answer && answer.status !== 'pending') this.#end(answer);
  }

  /** The bank app answered, or the code ran out: success with the invoice, or why not. */
  #end(outcome: CheckoutOutcome): void {
    this.#stop();
    const state = this.#state!;
    const m = this.#messages();
    const paid = outcome.status === 'paid';
    const reason = paid ? null : (outcome.reason ?? outcome.payment?.reason ?? 'declined');
    this.#show();
    Object.assign(state, { phase: paid ? 'paid' : 'failed', reason, invoice: outcome.invoice, said: paid ? m.paid(outcome.invoice?.number) : m.blik.reasons[reason!] });
    this.#host.requestUpdate();
    void this.#focus();
    this.#host.dispatchEvent(paid ? new PaySuccessEvent({ ...state.attempt, invoice: outcome.invoice }) : new PayCancelEvent({ ...state.attempt, reason: 'declined', failure: reason! }));
  }

  #stop(): void {
    clearInterval(this.#timer);
    this.#checks.abort();
  }

  /** Back to the form: a new code (and so a new checkout) with "Try again", or the provider's page with "Pay another way". */
  async #back(other: boolean): Promise<void> {
    this.#state = undefined;
    this.#host.requestUpdate();
    await this.#host.updateComplete;
    const root = this.#host.renderRoot;
    if (other) root.querySelector('form')?.requestSubmit(root.querySelector<HTMLButtonElement>('[part~="continue-button"]'));
    else root.querySelector<HTMLInputElement>('[name="code"]')?.focus();
  }

  /** The field and its button, in the form, for a product that offers BLIK. */
  field(m: PayButtonMessages, invalid: string, hint: TemplateResult | typeof nothing, busy: boolean | undefined): TemplateResult {
    const normalize = (event: Event) => {
      const input = event.target as HTMLInputElement;
      input.value = input.value.replace(/\D/g, '').slice(0, 6);
    };
    // Not the form's default button: Enter in the buyer's fields goes on as it always did, Enter in the code pays with BLIK.
    const choose = (event: Event) => {
      event.preventDefault();
      // The submit event is dispatched at once, within this call.
      this.#chosen = true;
      (event.target as HTMLElement).closest('form')!.requestSubmit();
      this.#chosen = false;
    };
    return html`<fieldset part="blik" class="blik">
      <label>${m.blik.code}<input part="input blik-code" name="code" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9]{6}" ?readonly=${busy}
        aria-invalid=${invalid} aria-describedby="code-error" @input=${normalize} @keydown=${(event: KeyboardEvent) => event.key === 'Enter' && choose(event)} />${hint}</label>
      <button part="blik-button" type="button" ?disabled=${busy} @click=${choose}>${m.blik.pay}</button>
    </fieldset>`;
  }

  /** The wait and its outcome in the dialog's place of the form, and the live region that speaks them. */
  panel(m: PayButtonMessages): TemplateResult {
    const state = this.#state;
    const left = state && this.#left();
    const invoice = state?.invoice;
    return html`<p part="blik-live" class="sr" role="status">${state?.said}</p>
      ${state
        ? html`<section part="blik-status" class="blik-status" aria-labelledby="blik-title">
            ${state.phase === 'waiting'
              ? html`<h2 id="blik-title" tabindex="-1">${m.blik.wait}</h2>
                  <p part="blik-amount">${formatMoney(state.attempt.amount, state.attempt.currency, this.#ctx.locale())} · ${this.#ctx.info()?.name}</p>
                  <p part="blik-time" class="time" aria-hidden="true">${Math.floor(left! / 60)}:${String(left! % 60).padStart(2, '0')}</p>`
              : state.phase === 'paid'
                ? html`<h2 id="blik-title" tabindex="-1" class="ok">${m.paid(invoice?.number)}</h2>
                    ${invoiceLink(m, invoice)}
                    <form method="dialog" class="actions"><button part="cancel-button">${m.close}</button></form>`
                : html`<h2 id="blik-title" tabindex="-1" class="error">${m.blik.reasons[state.reason!]}</h2>
                    <div class="actions">
                      <button part="cancel-button" type="button" @click=${() => this.#back(true)}>${m.blik.other}</button>
                      <button part="blik-button" class="buy" type="button" @click=${() => this.#back(false)}>${m.retry}</button>
                    </div>`}
          </section>`
        : nothing}`;
  }
}
