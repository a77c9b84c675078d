import { html, nothing, type PropertyDeclarations, type TemplateResult } from 'lit';
import { Task } from '../../elements/shared/task.js';
import { formatDate, formatMoney, localToday } from '../../elements/shared/format.js';
import { ksefViewOf } from '../../kernel/ksef.js';
import { compare, decimal, sub, toFixed, minorUnits, ZERO } from '../../kernel/money.js';
import { locale, pick } from '../i18n.js';
import { AdminView } from '../view.js';
import { type InvoiceStrings, invoiceStrings, ksefRefusal } from './invoice-detail.strings.js';
import { type InvoiceRecord, linesTable, paymentsTable } from './invoice-tables.js';
import { einvoiceAvailability, einvoiceSection } from './invoice-detail.einvoice.js';
import { STATUS_WORDS } from './invoices.js';
import { badge, errorText, fieldErrors, formValues, ksefState, recordStyles, textField, type Tone } from './records.js';

type Notice = { tone: Tone; text: string; link?: { path: string; text: string } };

/** One e-mail of the invoice, as `GET /invoices/{id}/emails.json` answers it. */
interface InvoiceEmail {
  id: number;
  time: string;
  to: string[];
  cc: string[];
  subject: string;
  transport: 'smtp' | 'outbox';
  status: 'sent' | 'failed';
  error: string | null;
}

/** How long a sent invoice is watched for KSeF's answer, and how often. */
const KSEF_WATCH = { times: 30, everyMs: 1000 };

/**
 * One invoice: its amounts, documents (PDF, UPO), KSeF state with a refusal in the seller's words,
 * e-mail and payments, and what the seller does from here: correct and send again to KSeF, e-mail
 * it, record a payment, issue a correction.
 * @summary The back office's invoice page.
 */
export class AdminInvoice extends AdminView {
  static override styles = recordStyles;
  static override properties: PropertyDeclarations = {
    ...AdminView.properties,
    notice: { state: true },
    busy: { state: true },
    error: { state: true },
  };

  notice: Notice | undefined;
  /** The action under way, if any. */
  busy = '';
  /** The failure of the last form sent, with its fields' messages. */
  error: { form: string; error: unknown } | undefined;
  #watch: ReturnType<typeof setTimeout> | undefined;

  readonly #invoice = new Task(this, {
    args: () => [this.api, this.params.id] as const,
    task: ([api, id]) =>
      api && id ? api.get<InvoiceRecord>(`/invoices/${encodeURIComponent(id)}.json`, { 'additional_fields[invoice]': 'connected_payments' }) : undefined,
  });

  /** Every e-mail sent or tried for the invoice, the newest first. */
  readonly #emails = new Task(this, {
    args: () => [this.api, this.params.id] as const,
    task: ([api, id]) => (api && id ? api.get<InvoiceEmail[]>(`/invoices/${encodeURIComponent(id)}/emails.json`) : undefined),
  });

  /** Which e-invoices the invoice can be downloaded as, checked again whenever it changes. */
  readonly #einvoices = new Task(this, {
    args: () => [this.#invoice.value] as const,
    task: ([invoice], { signal }) => (invoice ? einvoiceAvailability(invoice.id, invoice.number, signal) : undefined),
  });

  /** The account's KSeF environment: with KSeF off, nothing is offered to send. */
  readonly #ksefEnvironment = new Task(this, {
    args: () => [this.api] as const,
    task: async ([api]) => (api ? (await api.get<{ ksef: { environment: string } }>('/account/ksef.json')).ksef.environment : undefined),
  });

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    clearTimeout(this.#watch);
  }

  get #id(): string {
    return encodeURIComponent(this.params.id ?? '');
  }

  get #t(): InvoiceStrings {
    return pick(invoiceStrings, this.language);
  }

  /** Runs one of the page's actions: one at a time, its outcome said in the notice, the invoice read again. */
  async #act(form: string, action: () => Promise<Notice | undefined>): Promise<void> {
    if (this.busy) return;
    this.busy = form;
    this.error = undefined;
    try {
      this.notice = await action();
      await this.#invoice.run();
    } catch (error) {
      this.error = { form, error };
      this.notice = { tone: 'error', text: errorText(error) };
    } finally {
      this.busy = '';
      if (form === 'email') void this.#emails.run();
    }
  }

  /** Reads the invoice again until KSeF has answered (it is sent in the background), then says how it went. */
  #watchKsef(times = KSEF_WATCH.times): void {
    clearTimeout(this.#watch);
    this.#watch = setTimeout(async () => {
      await this.#invoice.run();
      const invoice = this.#invoice.value;
      const view = invoice ? ksefViewOf(invoice) : null;
      if (view?.state === 'pending' && times > 1) return this.#watchKsef(times - 1);
      if (view?.state === 'sent') this.notice = { tone: 'ok', text: this.#t.ksefAccepted(view.number ?? '') };
      else if (view?.state === 'error') this.notice = { tone: 'error', text: this.#t.ksefStillRefused };
    }, KSEF_WATCH.everyMs);
  }

  #sendToKsef(): void {
    void this.#act('ksef', async () => {
      await this.api.post(`/invoices/${this.#id}/send_to_ksef.json`);
      this.#watchKsef();
      return { tone: 'pending', text: this.#t.ksefQueued };
    });
  }

  #saveFix(event: SubmitEvent): void {
    event.preventDefault();
    const form = event.target as HTMLFormElement;
    const send = (event.submitter as HTMLButtonElement | null)?.value === 'send';
    const values = formValues(form);
    void this.#act('fix', async () => {
      await this.api.put(`/invoices/${this.#id}.json`, { ...(send ? { gov_save_and_send: true } : {}), invoice: values });
      if (!send) return { tone: 'ok', text: this.#t.saved };
      this.#watchKsef();
      return { tone: 'pending', text: this.#t.ksefQueued };
    });
  }

  #email(event: SubmitEvent): void {
    event.preventDefault();
    const { email_to } = formValues(event.target as HTMLFormElement);
    void this.#act('email', async () => {
      const answer = await this.api.post<{ status: 'ok' | 'error'; message: string }>(`/invoices/${this.#id}/send_by_email.json`, email_to ? { email_to } : {});
      return answer.status === 'ok' ? { tone: 'ok', text: this.#t.emailed(answer.message) } : { tone: 'error', text: this.#t.emailHeld(answer.message) };
    });
  }

  #recordPayment(event: SubmitEvent, invoice: InvoiceRecord): void {
    event.preventDefault();
    const { price, paid_date } = formValues(event.target as HTMLFormElement);
    void this.#act('payment', async () => {
      await this.api.post('/banking/payments.json', {
        banking_payment: { name: this.#t.paymentFor(invoice.number), price, paid_date, paid: true, kind: 'api', invoice_id: invoice.id, currency: invoice.currency },
      });
      return { tone: 'ok', text: this.#t.recorded };
    });
  }

  #correct(event: SubmitEvent, invoice: InvoiceRecord): void {
    event.preventDefault();
    const values = formValues(event.target as HTMLFormElement);
    const positions = (invoice.positions ?? []).flatMap((position) => {
      const quantity = values[`quantity-${position.id}`] ?? position.quantity;
      const gross = values[`gross-${position.id}`] ?? position.total_price_gross;
      const same = sameAmount(quantity, position.quantity) && sameAmount(gross, position.total_price_gross);
      if (same) return [];
      const side = (q: string, total: string) => ({ name: position.name, quantity: q, total_price_gross: total, tax: position.tax });
      return [{ correction_before_attributes: side(position.quantity, position.total_price_gross), correction_after_attributes: side(quantity, gross) }];
    });
    if (positions.length === 0) {
      this.notice = { tone: 'error', text: this.#t.nothingChanged };
      return;
    }
    void this.#act('correction', async () => {
      const created = await this.api.post<{ id: number; number: string }>('/invoices.json', {
        invoice: { kind: 'correction', from_invoice_id: invoice.id, invoice_id: invoice.id, correction_reason: values.correction_reason, positions },
      });
      return { tone: 'ok', text: this.#t.corrected(created.number), link: { path: `/admin/invoices/${created.id}`, text: this.#t.openCorrection } };
    });
  }

  #go(event: Event, path: string): void {
    event.preventDefault();
    this.navigate(path);
  }

  override render() {
    const t = this.#t;
    const invoice = this.#invoice.value;
    // One template whatever the state, so the heading the shell focuses stays the same element.
    return html`<p><a href="/admin/invoices" @click=${(event: Event) => this.#go(event, '/admin/invoices')}>${t.back}</a></p>
      <h1 tabindex="-1">${t.title(invoice?.number ?? '')}</h1>
      ${invoice ? this.#record(invoice) : this.#pending()}`;
  }

  #pending(): TemplateResult {
    const t = this.#t;
    const task = this.#invoice;
    if (task.status !== 'error') return html`<p role="status">${t.loading}</p>`;
    return html`<p class="notice" data-tone="error" role="alert">
      ${t.failed} ${errorText(task.error)} <button type="button" class="secondary" @click=${() => void task.run()}>${t.retry}</button>
    </p>`;
  }

  #record(invoice: InvoiceRecord): TemplateResult {
    return html`<div role="status" aria-live="polite">${this.#notice()}</div>
      ${this.#summary(invoice)} ${linesTable(invoice, this.#t, locale(this.language))}
      ${einvoiceSection(this.#einvoices.value, this.#einvoices.status === 'error', this.language)} ${this.#ksef(invoice)} ${this.#emailSection(invoice)} ${this.#payments(invoice)} ${this.#correction(invoice)}`;
  }

  #notice(): TemplateResult | typeof nothing {
    const notice = this.notice;
    if (!notice) return nothing;
    return html`<p class="notice" data-tone=${notice.tone}>
      ${notice.text}
      ${notice.link ? html`<a href=${notice.link.path} @click=${(event: Event) => this.#go(event, notice.link!.path)}>${notice.link.text}</a>` : nothing}
    </p>`;
  }

  #summary(invoice: InvoiceRecord): TemplateResult {
    const t = this.#t;
    const lang = locale(this.language);
    const money = (amount: string) => formatMoney(amount, invoice.currency, lang);
    const words: Record<string, string> = pick(STATUS_WORDS, this.language);
    return html`<section aria-labelledby="summary">
      <h2 id="summary">${t.summary}</h2>
      <dl>
        <dt>${t.status}</dt>
        <dd data-field="status">${invoice.cancelled ? words.cancelled : (words[invoice.status] ?? invoice.status)}</dd>
        <dt>${t.buyer}</dt>
        <dd>${invoice.buyer_name ?? ''}</dd>
        <dt>${t.taxNo}</dt>
        <dd>${invoice.buyer_tax_no ?? ''}</dd>
        <dt>${t.issued}</dt>
        <dd>${formatDate(invoice.issue_date, lang)}</dd>
        <dt>${t.sold}</dt>
        <dd>${formatDate(invoice.sell_date, lang)}</dd>
        <dt>${t.due}</dt>
        <dd>${formatDate(invoice.payment_to, lang)}</dd>
        <dt>${t.net}</dt>
        <dd>${money(invoice.price_net)}</dd>
        <dt>${t.tax}</dt>
        <dd>${money(invoice.price_tax)}</dd>
        <dt>${t.gross}</dt>
        <dd data-field="gross">${money(invoice.price_gross)}</dd>
        <dt>${t.paid}</dt>
        <dd data-field="paid">${money(invoice.paid)}</dd>
        <dt>${t.documents}</dt>
        <dd class="actions">
          <a href="${invoice.view_url}.pdf" target="_blank" rel="noopener">${t.pdf}</a>
          <a href=${invoice.view_url} target="_blank" rel="noopener">${t.publicPage}</a>
        </dd>
      </dl>
    </section>`;
  }

  #ksef(invoice: InvoiceRecord): TemplateResult {
    const t = this.#t;
    const lang = locale(this.language);
    const view = ksefViewOf(invoice);
    const state = ksefState(invoice, this.language);
    const refusal = ksefRefusal(invoice.gov_error_messages, this.language);
    const ksefOff = this.#ksefEnvironment.value === 'off';
    const canSend = (!view || view.state === 'error') && this.#ksefEnvironment.value !== undefined && !ksefOff;
    const canFix = view?.state !== 'sent' && view?.state !== 'pending' && !invoice.cancelled;
    return html`<section aria-labelledby="ksef">
      <h2 id="ksef">${t.ksef}</h2>
      <p data-field="ksef-state">${badge(state.text, state.tone)}</p>
      ${view?.test ? html`<p class="notice" data-tone="test">${t.ksefTest}</p>` : nothing}
      ${view
        ? html`<dl>
            ${view.number ? html`<dt>${t.ksefNumber}</dt><dd data-field="ksef-number">${view.number}</dd>` : nothing}
            ${view.sent_at ? html`<dt>${t.ksefSent}</dt><dd>${formatDate(view.sent_at.slice(0, 10), lang)}</dd>` : nothing}
            ${view.verification_link ? html`<dt>${t.ksefCheck}</dt><dd><a href=${view.verification_link} target="_blank" rel="noopener">${view.verification_link}</a></dd>` : nothing}
            ${view.state === 'sent'
              ? html`<dt>${t.upo}</dt><dd><a href="/admin/api/invoices/${invoice.id}/attachment.json?kind=gov_upo" download="upo-${invoice.id}.xml">${t.upo}</a></dd>`
              : nothing}
          </dl>`
        : nothing}
      ${refusal.explained.length + refusal.said.length > 0
        ? html`<div class="notice" data-tone="error" data-field="ksef-refusal">
            <h3 style="margin:0 0 .4rem;font-size:1rem">${t.ksefRefusal}</h3>
            ${refusal.explained.length ? html`<ul>${refusal.explained.map((line) => html`<li>${line}</li>`)}</ul>` : nothing}
            ${refusal.said.length ? html`<p class="hint">${t.ksefSaid}:</p><ul lang="pl">${refusal.said.map((line) => html`<li>${line}</li>`)}</ul>` : nothing}
          </div>`
        : nothing}
      ${ksefOff
        ? html`<p class="hint" data-field="ksef-off">${t.ksefOff} <a href="/admin/settings/ksef" @click=${(event: Event) => this.#go(event, '/admin/settings/ksef')}>${t.ksefSettings}</a></p>`
        : nothing}
      ${canSend
        ? html`<p><button type="button" ?disabled=${Boolean(this.busy)} @click=${() => this.#sendToKsef()}>${view ? t.sendKsef : t.sendKsefFirst}</button></p>`
        : nothing}
      ${canFix ? this.#fixForm(invoice) : nothing}
    </section>`;
  }

  #fixForm(invoice: InvoiceRecord): TemplateResult {
    const t = this.#t;
    const error = this.error?.form === 'fix' ? this.error.error : undefined;
    const field = (label: string, name: keyof InvoiceRecord, type = 'text') =>
      textField({ label, name, type, value: invoice[name] as string | null, errors: fieldErrors(error, name, `invoice.${name}`) });
    return html`<details ?open=${ksefStateOf(invoice) === 'error'}>
      <summary>${t.fix}</summary>
      <form @submit=${(event: SubmitEvent) => this.#saveFix(event)}>
        <p class="hint">${t.fixHint}</p>
        ${field(t.issued, 'issue_date', 'date')} ${field(t.sold, 'sell_date', 'date')} ${field(t.buyerName, 'buyer_name')}
        ${field(t.buyerTaxNo, 'buyer_tax_no')} ${field(t.buyerStreet, 'buyer_street')} ${field(t.buyerPostCode, 'buyer_post_code')}
        ${field(t.buyerCity, 'buyer_city')} ${field(t.buyerCountry, 'buyer_country')}
        <div class="actions">
          ${this.#ksefEnvironment.value && this.#ksefEnvironment.value !== 'off'
            ? html`<button type="submit" value="send" ?disabled=${Boolean(this.busy)}>${t.saveAndSend}</button>`
            : nothing}
          <button type="submit" value="save" class="secondary" ?disabled=${Boolean(this.busy)}>${t.save}</button>
        </div>
      </form>
    </details>`;
  }

  #emailSection(invoice: InvoiceRecord): TemplateResult {
    const t = this.#t;
    const lang = locale(this.language);
    const error = this.error?.form === 'email' ? this.error.error : undefined;
    return html`<section aria-labelledby="email">
      <h2 id="email">${t.email}</h2>
      <p data-field="email-status">
        ${t.emailStatus}: ${invoice.sent_time ? `${formatDate(invoice.sent_time.slice(0, 10), lang)}${invoice.email_status ? ` (${invoice.email_status})` : ''}` : t.emailNever}
      </p>
      <form @submit=${(event: SubmitEvent) => this.#email(event)}>
        ${textField({ label: t.emailTo, name: 'email_to', type: 'email', value: invoice.buyer_email, autocomplete: 'email', errors: fieldErrors(error, 'email_to', 'email') })}
        <div class="actions"><button type="submit" ?disabled=${Boolean(this.busy)}>${t.emailSend}</button></div>
      </form>
      <h3 id="email-history">${t.emailHistory}</h3>
      ${this.#emailHistory()}
    </section>`;
  }

  #emailHistory(): TemplateResult {
    const t = this.#t;
    const emails = this.#emails.value;
    if (!emails) return html`<p>${this.#emails.status === 'error' ? t.emailHistoryFailed : t.loading}</p>`;
    if (emails.length === 0) return html`<p data-field="email-history">${t.emailHistoryNone}</p>`;
    const when = new Intl.DateTimeFormat(locale(this.language), { dateStyle: 'medium', timeStyle: 'short' });
    const result = (email: InvoiceEmail) =>
      email.status === 'failed'
        ? html`${badge(t.emailResultFailed, 'error')} <span data-field="email-error">${email.error ?? ''}</span>`
        : badge(email.transport === 'outbox' ? t.emailResultOutbox : t.emailResultSent, 'ok');
    return html`<div class="scroll" tabindex="0" role="region" aria-labelledby="email-history" data-field="email-history">
      <table>
        <thead>
          <tr>
            <th scope="col">${t.emailWhen}</th>
            <th scope="col">${t.emailRecipients}</th>
            <th scope="col" class="wide">${t.emailSubject}</th>
            <th scope="col">${t.emailResult}</th>
          </tr>
        </thead>
        <tbody>
          ${emails.map(
            (email) => html`<tr data-email=${email.id} data-status=${email.status}>
              <td><time datetime=${email.time}>${when.format(new Date(email.time))}</time></td>
              <td>${[...email.to, ...email.cc].join(', ')}</td>
              <td class="wide">${email.subject}</td>
              <td>${result(email)}</td>
            </tr>`,
          )}
        </tbody>
      </table>
    </div>`;
  }

  #payments(invoice: InvoiceRecord): TemplateResult {
    const t = this.#t;
    const error = this.error?.form === 'payment' ? this.error.error : undefined;
    return html`<section aria-labelledby="payments">
      <h2 id="payments">${t.payments}</h2>
      ${paymentsTable(invoice, t, locale(this.language))}
      ${invoice.status === 'paid' || invoice.cancelled
        ? nothing
        : html`<details>
            <summary>${t.record}</summary>
            <form @submit=${(event: SubmitEvent) => this.#recordPayment(event, invoice)}>
              <p class="hint">${t.recordHint}</p>
              ${textField({ label: t.paymentAmount, name: 'price', value: amountDue(invoice), errors: fieldErrors(error, 'price', 'banking_payment.price') })}
              ${textField({ label: t.paymentDate, name: 'paid_date', type: 'date', value: localToday(), errors: fieldErrors(error, 'paid_date', 'banking_payment.paid_date') })}
              <div class="actions"><button type="submit" ?disabled=${Boolean(this.busy)}>${t.record}</button></div>
            </form>
          </details>`}
    </section>`;
  }

  #correction(invoice: InvoiceRecord): TemplateResult | typeof nothing {
    const t = this.#t;
    if (invoice.kind === 'correction' || invoice.cancelled || !invoice.positions?.length) return nothing;
    const error = this.error?.form === 'correction' ? this.error.error : undefined;
    return html`<section aria-labelledby="correction">
      <h2 id="correction">${t.correction}</h2>
      <details>
        <summary>${t.correction}</summary>
        <form @submit=${(event: SubmitEvent) => this.#correct(event, invoice)}>
          <p class="hint">${t.correctionHint}</p>
          ${textField({ label: t.reason, name: 'correction_reason', value: '', required: true, errors: fieldErrors(error, 'correction_reason', 'invoice.correction_reason') })}
          ${invoice.positions.map(
            (position) => html`<fieldset>
              <legend>${t.line}: ${position.name}</legend>
              ${textField({ label: t.quantityAfter, name: `quantity-${position.id}`, value: position.quantity })}
              ${textField({ label: t.grossAfter, name: `gross-${position.id}`, value: position.total_price_gross })}
            </fieldset>`,
          )}
          ${error ? html`<p class="error">${errorText(error)}</p>` : nothing}
          <div class="actions"><button type="submit" ?disabled=${Boolean(this.busy)}>${t.issueCorrection}</button></div>
        </form>
      </details>
    </section>`;
  }
}

function ksefStateOf(invoice: InvoiceRecord): string | undefined {
  return ksefViewOf(invoice)?.state;
}

/** Two amounts typed or answered (`"2"`, `"2.0"`, `"2,00"`) that are the same number. */
function sameAmount(a: string, b: string): boolean {
  try {
    return compare(decimal(a.replace(',', '.')), decimal(b.replace(',', '.'))) === 0;
  } catch {
    return false;
  }
}

/** What is left to pay on the invoice, exact, in its currency's minor unit; never below zero. */
export function amountDue(invoice: Pick<InvoiceRecord, 'price_gross' | 'paid' | 'currency'>): string {
  const left = sub(decimal(invoice.price_gross), decimal(invoice.paid));
  return toFixed(compare(left, ZERO) < 0 ? ZERO : left, minorUnits(invoice.currency));
}

if (!customElements.get('ik-admin-invoice')) customElements.define('ik-admin-invoice', AdminInvoice);

declare global {
  interface HTMLElementTagNameMap {
    'ik-admin-invoice': AdminInvoice;
  }
}
