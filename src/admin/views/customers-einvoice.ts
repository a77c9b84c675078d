import { html, nothing, type TemplateResult } from 'lit';
import { AdminApiError } from '../api.js';
import { type Lang, pick } from '../i18n.js';
import { errorText, fieldErrors } from './records.js';

/** A customer's e-invoice fields, as the customers list reads and edits them. */
export interface CustomerEInvoice {
  id: number;
  name: string;
  einvoice_address?: string | null;
  buyer_reference?: string | null;
  einvoice_format?: string | null;
}

/** What the last save of one customer's e-invoice fields came to. */
export type EInvoiceEdit = { id: number; saved: true } | { id: number; error: unknown };

const FORMATS = ['', 'ubl', 'cii', 'xrechnung', 'facturx'] as const;

const strings = {
  en: {
    summary: 'E-invoice',
    legend: (name: string) => `E-invoice of ${name}`,
    address: 'Electronic address (Peppol ID)',
    addressHint: 'Such as 9930:DE123456789 or 0208:0123456789.',
    reference: 'Buyer reference (Leitweg-ID)',
    format: 'Sent by e-mail as',
    formats: { '': 'PDF only', ubl: 'PDF and Peppol BIS (UBL)', cii: 'PDF and EN 16931 (CII)', xrechnung: 'PDF and XRechnung', facturx: 'Factur-X / ZUGFeRD PDF' },
    save: 'Save',
    saved: 'Saved.',
  },
  pl: {
    summary: 'E-faktura',
    legend: (name: string) => `E-faktura klienta ${name}`,
    address: 'Adres elektroniczny (Peppol ID)',
    addressHint: 'Np. 9930:DE123456789 lub 0208:0123456789.',
    reference: 'Referencja nabywcy (Leitweg-ID)',
    format: 'Wysyłana e-mailem jako',
    formats: { '': 'Tylko PDF', ubl: 'PDF i Peppol BIS (UBL)', cii: 'PDF i EN 16931 (CII)', xrechnung: 'PDF i XRechnung', facturx: 'PDF Factur-X / ZUGFeRD' },
    save: 'Zapisz',
    saved: 'Zapisano.',
  },
} satisfies Record<Lang, unknown>;

/** The small editor in a customer's row: electronic address, buyer reference, preferred format. */
export function customerEInvoiceEditor(customer: CustomerEInvoice, edit: EInvoiceEdit | undefined, lang: Lang, save: (event: SubmitEvent) => void): TemplateResult {
  const t = pick(strings, lang);
  const error = edit && edit.id === customer.id && 'error' in edit ? edit.error : undefined;
  const saved = edit && edit.id === customer.id && 'saved' in edit;
  const id = (field: string) => `customer-${customer.id}-${field}`;
  const field = (name: string, label: string, value: string | null | undefined, hint?: string) => {
    const errors = fieldErrors(error, name, `client.${name}`);
    const describedBy = errors.length > 0 ? id(`${name}-error`) : hint ? id(`${name}-hint`) : undefined;
    return html`<label>
      ${label}
      <input name=${name} .value=${value ?? ''} autocomplete="off" aria-invalid=${errors.length > 0 ? 'true' : 'false'} aria-describedby=${describedBy ?? nothing} />
      ${hint && errors.length === 0 ? html`<span class="hint" id=${id(`${name}-hint`)}>${hint}</span>` : nothing}
      ${errors.length > 0 ? html`<span class="error" id=${id(`${name}-error`)}>${errors.join(' ')}</span>` : nothing}
    </label>`;
  };
  const otherError = error && !(error instanceof AdminApiError && Object.keys(error.fields).every((name) => /einvoice_address|buyer_reference|einvoice_format/.test(name)));
  return html`<details data-einvoice=${customer.id}>
    <summary>${t.summary}</summary>
    <form @submit=${save}>
      <fieldset>
        <legend>${t.legend(customer.name)}</legend>
        ${field('einvoice_address', t.address, customer.einvoice_address, t.addressHint)} ${field('buyer_reference', t.reference, customer.buyer_reference)}
        <label>
          ${t.format}
          <select name="einvoice_format">
            ${FORMATS.map((format) => html`<option value=${format} ?selected=${(customer.einvoice_format ?? '') === format}>${t.formats[format]}</option>`)}
          </select>
        </label>
        <div class="actions"><button type="submit">${t.save}</button></div>
        <p role="status">${saved ? t.saved : nothing}${otherError ? html`<span class="error">${errorText(error)}</span>` : nothing}</p>
      </fieldset>
    </form>
  </details>`;
}
