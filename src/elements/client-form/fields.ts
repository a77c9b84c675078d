import { html, nothing } from 'lit';
import { CLIENT_TEXT_LIMITS, COUNTRY_CODES, type ClientFormField as Field } from '../../kernel/validation/client.js';
import { countriesByName } from '../shared/countries.js';

/** The `autocomplete` token of each field: billing details, so browsers offer the invoice address. */
const AUTOCOMPLETE: Record<Field, string> = {
  name: 'billing organization',
  tax_no: 'off',
  person: 'billing name',
  email: 'billing email',
  phone: 'billing tel',
  street: 'billing street-address',
  post_code: 'billing postal-code',
  city: 'billing address-level2',
  country: 'billing country',
  bank: 'off',
  bank_account: 'off',
};
/** How wide each field is on a wide form (of six columns); one column below 34rem. */
const WIDTH: Partial<Record<Field, string>> = { email: 'cf-half', phone: 'cf-half', post_code: 'cf-third', city: 'cf-wide', bank: 'cf-half', bank_account: 'cf-half' };
const TYPES: Partial<Record<Field, string>> = { email: 'email', phone: 'tel' };

/** What one field of the form shows. */
export interface FieldView {
  id: string;
  /** The input's name in a page's form. */
  name: string;
  label: string;
  /** The word after an optional field's label. */
  optional: string;
  required: boolean;
  error: string | undefined;
  value: string;
  /** The value as saved: the input's default, to which a page's form reset goes back. */
  saved: string;
  disabled: boolean;
  /** The country list's options. */
  options: unknown;
  /** What follows the control: the tax number's register lookup. */
  extra?: unknown;
}

/** One field: its label, its input (the country list for `country`), its error right under it, then its `extra` controls. */
export function clientField(field: Field, { id, name, label, optional, required, error, value, saved, disabled, options, extra = nothing }: FieldView) {
  const autocomplete = AUTOCOMPLETE[field];
  const describedby = error ? `${id}-error` : nothing;
  const control =
    field === 'country'
      ? html`<select
          class="cf-input"
          part="input"
          id=${id}
          name=${name}
          autocomplete=${autocomplete}
          data-field=${field}
          aria-invalid=${error ? 'true' : 'false'}
          aria-describedby=${describedby}
          ?disabled=${disabled}
        >
          ${options}
        </select>`
      : html`<input
          class="cf-input"
          part="input"
          id=${id}
          name=${name}
          type=${TYPES[field] ?? 'text'}
          autocomplete=${autocomplete}
          maxlength=${CLIENT_TEXT_LIMITS[field]}
          data-field=${field}
          value=${saved}
          .value=${value}
          aria-required=${required ? 'true' : 'false'}
          aria-invalid=${error ? 'true' : 'false'}
          aria-describedby=${describedby}
          ?disabled=${disabled}
        />`;
  return html`<div class="cf-field ${WIDTH[field] ?? ''}" part="field">
    <label for=${id} part="label">${label}${required ? nothing : html` <span class="cf-note">(${optional})</span>`}</label>
    ${control}
    <p class="cf-error" part="field-error" id="${id}-error" ?hidden=${!error}>${error}</p>
    ${extra}
  </div>`;
}

/** The country list's options in `locale`, with the saved one selected; a `current` value that is no code is kept visible. */
export function countryOptions(locale: string, current: string, saved: string, choose: string) {
  const options = [...countriesByName(locale)];
  // A stored country that is no code is kept visible, so nothing changes behind the customer's back.
  if (current && !COUNTRY_CODES.includes(current)) options.unshift([current, current]);
  return html`<option value="" ?selected=${!saved}>${choose}</option>
    ${options.map(([code, label]) => html`<option value=${code} ?selected=${code === saved}>${label}</option>`)}`;
}

/** A stored country as a code: `"pl"` → `"PL"`; a name in English, Polish or the page's language (`"Polska"`, `"United Kingdom"`) → its code. */
export function countryCode(country: string, pageLocale: string): string {
  const text = country.trim();
  if (COUNTRY_CODES.includes(text.toUpperCase())) return text.toUpperCase();
  for (const locale of ['en', 'pl', pageLocale]) {
    const names = new Intl.DisplayNames([locale], { type: 'region' });
    const code = COUNTRY_CODES.find((c) => names.of(c)?.toLowerCase() === text.toLowerCase());
    if (code) return code;
  }
  return text;
}
