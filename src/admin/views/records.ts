import { css, html, nothing, type TemplateResult } from 'lit';
import { ksefViewOf, type KsefFields } from '../../kernel/ksef.js';
import { AdminApiError } from '../api.js';
import { type Lang, pick } from '../i18n.js';

/**
 * What the invoices, customers and settings views share: the look of their tables, forms and
 * notices, an invoice's KSeF state in words, and a form field with the API's messages under it.
 */

export const recordStyles = css`
  :host {
    display: block;
    font: inherit;
    color: inherit;
  }
  h1 {
    font-size: 1.5rem;
    margin: 0 0 1rem;
  }
  h1:focus {
    outline: none;
  }
  h1:focus-visible {
    outline: 2px solid currentColor;
    outline-offset: 2px;
  }
  h2 {
    font-size: 1.15rem;
    margin: 1.5rem 0 0.5rem;
  }
  a {
    color: #0b57b0;
  }
  table {
    border-collapse: collapse;
    width: 100%;
  }
  th,
  td {
    text-align: start;
    padding: 0.4rem 0.5rem;
    border-bottom: 1px solid #d4d7dd;
    vertical-align: top;
  }
  th {
    font-weight: 600;
  }
  td.amount,
  th.amount {
    text-align: end;
    white-space: nowrap;
  }
  .scroll {
    overflow-x: auto;
  }
  form,
  fieldset {
    display: grid;
    gap: 0.75rem;
  }
  fieldset {
    border: 1px solid #d4d7dd;
    border-radius: 6px;
    padding: 0.75rem;
    margin: 0;
  }
  .filters {
    display: flex;
    flex-wrap: wrap;
    gap: 0.75rem;
    align-items: end;
    margin-bottom: 1rem;
  }
  label {
    display: grid;
    gap: 0.25rem;
    font-weight: 600;
  }
  label.check {
    display: flex;
    gap: 0.5rem;
    align-items: center;
    font-weight: 400;
  }
  input,
  select,
  textarea,
  button {
    font: inherit;
  }
  input,
  select,
  textarea {
    padding: 0.4rem 0.5rem;
    border: 1px solid #6b7280;
    border-radius: 4px;
    min-width: 0;
    max-width: 100%;
    background: #fff;
    color: #111;
  }
  button {
    padding: 0.45rem 0.9rem;
    border-radius: 4px;
    border: 1px solid #0b57b0;
    background: #0b57b0;
    color: #fff;
    cursor: pointer;
  }
  button.secondary {
    background: #fff;
    color: #0b57b0;
  }
  button:disabled {
    opacity: 0.6;
    cursor: default;
  }
  :is(a, button, input, select, textarea):focus-visible {
    outline: 2px solid #0b57b0;
    outline-offset: 2px;
  }
  .actions {
    display: flex;
    flex-wrap: wrap;
    gap: 0.5rem;
    align-items: center;
  }
  .hint {
    color: #4b5563;
    font-weight: 400;
    margin: 0;
  }
  .error {
    color: #a1130a;
    font-weight: 400;
    margin: 0;
  }
  .notice {
    padding: 0.6rem 0.8rem;
    border-radius: 6px;
    border: 1px solid #d4d7dd;
    background: #f5f6f8;
    margin: 0 0 1rem;
  }
  .notice[data-tone='error'] {
    border-color: #a1130a;
    background: #fdf1f0;
  }
  .notice[data-tone='ok'] {
    border-color: #1d6b2f;
    background: #eff8f1;
  }
  .notice[data-tone='test'] {
    border-color: #8a5a00;
    background: #fff7e6;
  }
  .badge {
    display: inline-block;
    padding: 0.05rem 0.45rem;
    border-radius: 999px;
    border: 1px solid currentColor;
    font-size: 0.85em;
    white-space: nowrap;
  }
  .badge[data-tone='ok'] {
    color: #1d6b2f;
  }
  .badge[data-tone='error'] {
    color: #a1130a;
  }
  .badge[data-tone='pending'],
  .badge[data-tone='test'] {
    color: #7a4f00;
  }
  dl {
    display: grid;
    grid-template-columns: max-content 1fr;
    gap: 0.3rem 1rem;
    margin: 0;
  }
  dt {
    font-weight: 600;
  }
  dd {
    margin: 0;
    overflow-wrap: anywhere;
  }
  @media (max-width: 600px) {
    dl {
      grid-template-columns: 1fr;
    }
    dd {
      margin-bottom: 0.4rem;
    }
    .wide {
      display: none;
    }
  }
`;

export type Tone = 'ok' | 'error' | 'pending' | 'test' | 'none';

const ksefWords = {
  en: { sent: 'In KSeF', pending: 'Being sent', rejected: 'Refused by KSeF', unavailable: 'KSeF unavailable', none: 'Not sent', test: 'test' },
  pl: { sent: 'W KSeF', pending: 'W wysyłce', rejected: 'Odrzucona przez KSeF', unavailable: 'KSeF niedostępny', none: 'Niewysłana', test: 'test' },
} satisfies Record<Lang, Record<string, string>>;

/** An invoice's KSeF state as the seller reads it in a list: words and a tone. */
export function ksefState(invoice: KsefFields, lang: Lang): { text: string; tone: Tone; test: boolean } {
  const words = pick(ksefWords, lang);
  const view = ksefViewOf(invoice);
  if (!view) return { text: words.none, tone: 'none', test: false };
  const text = view.state === 'sent' ? words.sent : view.state === 'pending' ? words.pending : view.error === 'unavailable' ? words.unavailable : words.rejected;
  const tone: Tone = view.state === 'sent' ? 'ok' : view.state === 'pending' ? 'pending' : 'error';
  return { text: view.test ? `${text} (${words.test})` : text, tone, test: view.test };
}

export function badge(text: string, tone: Tone): TemplateResult {
  return html`<span class="badge" data-tone=${tone}>${text}</span>`;
}

/** The messages a failed call leaves for one field of a form (`invoice.buyer_tax_no` or `buyer_tax_no`). */
export function fieldErrors(error: unknown, ...names: string[]): string[] {
  if (!(error instanceof AdminApiError)) return [];
  return names.flatMap((name) => error.fields[name] ?? []);
}

/** What a failed call says, as one line: its message, or its fields' messages. */
export function errorText(error: unknown): string {
  if (error instanceof AdminApiError) {
    const fields = Object.entries(error.fields);
    if (fields.length > 0) return fields.map(([field, messages]) => `${field}: ${messages.join(', ')}`).join('; ');
    return error.message;
  }
  return error instanceof Error ? error.message : String(error);
}

/** A labelled text input; `errors` are shown under it and tied to it. */
export function textField(options: {
  label: string;
  name: string;
  value: string | null | undefined;
  errors?: string[];
  type?: string;
  hint?: string;
  autocomplete?: string;
  required?: boolean;
}): TemplateResult {
  const errors = options.errors ?? [];
  const describedBy = errors.length > 0 ? `${options.name}-error` : options.hint ? `${options.name}-hint` : undefined;
  return html`<label>
    ${options.label}
    <input
      name=${options.name}
      type=${options.type ?? 'text'}
      .value=${options.value ?? ''}
      autocomplete=${options.autocomplete ?? 'off'}
      ?required=${options.required ?? false}
      aria-invalid=${errors.length > 0 ? 'true' : 'false'}
      aria-describedby=${describedBy ?? nothing}
    />
    ${options.hint && errors.length === 0 ? html`<span class="hint" id="${options.name}-hint">${options.hint}</span>` : nothing}
    ${errors.length > 0 ? html`<span class="error" id="${options.name}-error">${errors.join(' ')}</span>` : nothing}
  </label>`;
}

/** A form's fields as text, each trimmed; empty ones as `''`. */
export function formValues(form: HTMLFormElement): Record<string, string> {
  const values: Record<string, string> = {};
  for (const [name, value] of new FormData(form)) if (typeof value === 'string') values[name] = value.trim();
  return values;
}
