import { html, nothing } from 'lit';
import { BffError } from '../shared/bff-client.js';
import { catalogLanguage, type Language } from '../shared/i18n.js';
import type { InvoiceListMessages } from './messages.js';
import { icons, stateBox } from './rows.js';

/**
 * Why the list could not load, in the customer's words: a module of its own, loaded when a load fails
 * (docs/decisions/invoice-list-weight.md). Where it cannot be loaded either, the server is out of
 * reach, and the list says so with the words it carries itself (`unreachableState` in `summary.ts`).
 */
const words: Record<Language, { errorText: string; errorSession: string; errorNoToken: string; errorBusy: string }> = {
  en: {
    errorText: 'Something went wrong on our side.',
    errorSession: 'Your session has expired. Reload the page to sign in again.',
    errorNoToken: 'This page did not provide a portal token.',
    errorBusy: 'Too many requests. Please wait a moment.',
  },
  pl: {
    errorText: 'Coś poszło nie tak po naszej stronie.',
    errorSession: 'Sesja wygasła. Odśwież stronę, aby zalogować się ponownie.',
    errorNoToken: 'Strona nie przekazała tokenu portalu.',
    errorBusy: 'Zbyt wiele zapytań. Odczekaj chwilę.',
  },
};

/** Why the list could not load, with a retry where one can help (not without a token). */
export function errorState(error: unknown, m: InvoiceListMessages, locale: string, retry: () => void) {
  const w = words[catalogLanguage(locale) ?? 'en'];
  const { status, code } = error instanceof BffError ? error : { status: -1, code: '' };
  const noToken = code === 'no_token';
  const text = noToken ? w.errorNoToken : status === 401 ? w.errorSession : status === 429 ? w.errorBusy : status ? w.errorText : m.errorOffline;
  return stateBox('error', icons.alert, m.errorTitle, text, noToken ? nothing : html`<button type="button" part="retry-button" @click=${retry}>${m.retry}</button>`);
}
