import { html, nothing } from 'lit';
import type { CompanyDetails, CompanyLookupState } from '../shared/company-lookup.js';
import { fetchJson } from '../shared/fetch-json.js';
import type { ClientFormMessages } from './messages.js';

/** The absolute address of the element's `endpoint`, ending in `/`, for the form's BFF routes. */
export const bffBase = (endpoint: string): string => new URL(endpoint.replace(/\/*$/, '/'), document.baseURI).href;

/** The BFF's company lookup (`GET <endpoint>/company/:country/:tax_no`), relative to the element's `endpoint`. */
export function bffCompanyLookup(endpoint: string) {
  return (country: string, taxNo: string, signal: AbortSignal): Promise<CompanyDetails> => {
    return fetchJson(`${bffBase(endpoint)}company/${encodeURIComponent(country)}/${encodeURIComponent(taxNo)}`, { signal });
  };
}

/** The register to ask: the chosen country, else the tax number's EU prefix, else Poland (a bare NIP). */
export const lookupCountry = (country: string, taxNo: string): string => country || /^([A-Z]{2})[0-9A-Z]/i.exec(taxNo.trim())?.[1]?.toUpperCase() || 'PL';

/** The tax number's "Fill in from the register" button and what its last lookup did. */
export function lookupControls(m: ClientFormMessages, state: CompanyLookupState | undefined, disabled: boolean, onClick: () => void) {
  const pending = state?.status === 'pending';
  return html`<button type="button" class="cf-button cf-lookup" part="button lookup-button" ?disabled=${disabled || pending} @click=${onClick}>${m.lookup}</button>
    <p class="cf-note" part="lookup-status" aria-live="polite">${pending
      ? m.lookupPending
      : state?.status === 'unavailable'
        ? m.lookupUnavailable
        : state?.status === 'filled'
          ? m.lookupFilled(state.name, state.kept.length > 0)
          : nothing}</p>`;
}
