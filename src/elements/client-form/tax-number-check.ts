import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { TaxNumberVerdict } from '../../contract/tax-number.js';
import { fetchJson } from '../shared/fetch-json.js';

/** How long typing must pause before the BFF is asked. */
const PAUSE_MS = 250;

/** A route of the BFF at `endpoint` (the element's attribute, relative to the page). */
export const bffUrl = (endpoint: string, path: string): string => new URL(endpoint.replace(/\/*$/, '/'), document.baseURI).href + path;

const queryOf = (country: string, taxNo: string): string => new URLSearchParams({ country, tax_no: taxNo }).toString();

/**
 * The BFF's verdict on a VAT number's check digits, which the form does not carry
 * (`GET <endpoint>/tax-number`, docs/decisions/client-form-weight.md). `ask` names the number the form
 * shows; once typing pauses the BFF is asked, a newer number aborts an older question, and `problem`
 * answers only for the number asked about last, so a verdict never shows on a newer number. When the
 * BFF cannot answer, there is no verdict: the form's own checks and the save's hold.
 */
export class TaxNumberCheck implements ReactiveController {
  readonly #host: ReactiveControllerHost;
  readonly #endpoint: () => string;
  /** The query last asked about, and the BFF's answer to it once in. */
  #asked = '';
  #verdict?: TaxNumberVerdict | undefined;
  #run = new AbortController();
  #timer?: ReturnType<typeof setTimeout>;
  #answered: Promise<void> = Promise.resolve();
  #settle: () => void = () => {};
  #send: () => void = () => {};

  constructor(host: ReactiveControllerHost, endpoint: () => string) {
    (this.#host = host).addController(this);
    this.#endpoint = endpoint;
  }

  hostDisconnected(): void {
    this.ask(undefined);
  }

  /** The number the form shows, with its country: asked about once typing pauses; `undefined` when there is none to ask about. */
  ask(country: string | undefined, taxNo = ''): void {
    const query = country === undefined ? '' : queryOf(country, taxNo);
    if (query === this.#asked) return;
    this.#run.abort();
    clearTimeout(this.#timer);
    this.#settle();
    this.#asked = query;
    this.#verdict = undefined;
    this.#send = () => {};
    let settle!: () => void;
    this.#answered = new Promise<void>((resolve) => (this.#settle = settle = resolve));
    if (!query) return settle();
    const { signal } = (this.#run = new AbortController());
    this.#send = () => {
      clearTimeout(this.#timer);
      this.#send = () => {};
      void fetchJson<TaxNumberVerdict>(bffUrl(this.#endpoint(), `tax-number?${query}`), { signal })
        .then((verdict) => {
          if (signal.aborted) return;
          this.#verdict = verdict;
          this.#host.requestUpdate();
        }, () => undefined)
        .finally(settle);
    };
    this.#timer = setTimeout(() => this.#send(), PAUSE_MS);
  }

  /** The BFF's problem with `taxNo` in `country`, if it was asked about last and answered. */
  problem(country: string, taxNo: string): TaxNumberVerdict['problem'] | undefined {
    return this.#asked === queryOf(country, taxNo) ? this.#verdict?.problem : undefined;
  }

  /** Settles once the BFF answered about the number asked about last (or could not): asks at once if typing has not paused yet. */
  answered(): Promise<void> {
    this.#send();
    return this.#answered;
  }
}
