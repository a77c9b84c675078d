import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { CompanyDetails } from '../../contract/company.js';
import { BffError } from './fetch-json.js';

export type { CompanyDetails };

/** The fields a register's answer fills, by their names in the buyer's forms. */
export const COMPANY_FILL_FIELDS = ['name', 'street', 'post_code', 'city', 'country', 'tax_no'] as const;
export type CompanyFillField = (typeof COMPANY_FILL_FIELDS)[number];

/**
 * What a register's answer changes in a form (docs/decisions/company-autofill.md): every field that is
 * empty, or still holds what an earlier fill put there, takes the register's value; a field the buyer
 * typed themselves and that differs is left as typed, and listed in `kept` so the form can say so.
 * The tax number always takes its normal form (`DE811907980`, a NIP as ten digits).
 */
export function companyFill(
  current: Readonly<Record<CompanyFillField, string>>,
  company: CompanyDetails,
  filledBefore: Readonly<Partial<Record<CompanyFillField, string>>> = {},
): { changes: Partial<Record<CompanyFillField, string>>; kept: CompanyFillField[] } {
  const changes: Partial<Record<CompanyFillField, string>> = {};
  const kept: CompanyFillField[] = [];
  for (const field of COMPANY_FILL_FIELDS) {
    const value = company[field];
    const now = current[field].trim();
    if (!value || now === value) continue;
    if (field === 'tax_no' || field === 'country' || !now || now === filledBefore[field]) changes[field] = value;
    else kept.push(field);
  }
  return { changes, kept };
}

/**
 * Where a form's last register lookup stands: under way, filled (naming the company and the fields kept
 * as typed), the register knows no such number (`unknown`), refused the number (`refused`), or could
 * not answer (`unavailable`, which never blocks the form).
 */
export type CompanyLookupState =
  | { status: 'pending' | 'unknown' | 'refused' | 'unavailable' }
  | { status: 'filled'; name: string; kept: CompanyFillField[] };

/**
 * One form's company lookups by tax number: a newer lookup aborts an older one, the host re-renders as
 * `state` changes, and `fill` answers the changes to make to the form (`companyFill`), remembering
 * them so that a second lookup may replace what the first one put there.
 */
export class CompanyLookup implements ReactiveController {
  state?: CompanyLookupState | undefined;
  readonly #host: ReactiveControllerHost;
  readonly #ask: (country: string, taxNo: string, signal: AbortSignal) => Promise<CompanyDetails>;
  #filled: Partial<Record<CompanyFillField, string>> = {};
  #run = new AbortController();

  constructor(host: ReactiveControllerHost, ask: (country: string, taxNo: string, signal: AbortSignal) => Promise<CompanyDetails>) {
    (this.#host = host).addController(this);
    this.#ask = ask;
  }

  hostDisconnected(): void {
    this.#run.abort();
    this.state = undefined;
  }

  /**
   * Asks the register of `country` (by default the form's) for the company `current` names by tax
   * number; answers the changes to make, none when overtaken or it failed.
   */
  async fill(current: Readonly<Record<CompanyFillField, string>>, country = current.country): Promise<Partial<Record<CompanyFillField, string>> | undefined> {
    this.#run.abort();
    const { signal } = (this.#run = new AbortController());
    this.#set({ status: 'pending' });
    try {
      const company = await this.#ask(country.trim(), current.tax_no.trim(), signal);
      const { changes, kept } = companyFill(current, company, this.#filled);
      this.#filled = { ...this.#filled, ...changes };
      this.#set({ status: 'filled', name: company.name ?? company.tax_no, kept });
      return changes;
    } catch (error) {
      if (signal.aborted) return undefined;
      const status = error instanceof BffError ? error.status : 0;
      this.#set({ status: status === 404 ? 'unknown' : status === 422 ? 'refused' : 'unavailable' });
      return undefined;
    }
  }

  /** Forgets the last lookup's message, as when the form is reset. */
  clear(): void {
    this.#run.abort();
    this.#set(undefined);
  }

  #set(state: CompanyLookupState | undefined): void {
    this.state = state;
    this.#host.requestUpdate();
  }
}
