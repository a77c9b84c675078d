import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { ClientCheck as Verdict, ClientCheckField, ClientCheckRequest } from '../../contract/client-check.js';
import type { ClientFieldProblem } from '../../contract/sale.js';
import { fetchJson } from '../shared/fetch-json.js';
import { bffBase } from './lookup.js';

/** How long typing must pause before the BFF is asked. */
const PAUSE_MS = 250;

/**
 * The BFF's verdict on the form's fields by the client rules, which the form does not carry
 * (`POST <endpoint>/client-check`, docs/decisions/client-form-weight.md). `ask` names the fields as
 * they stand; once typing pauses the BFF is asked, and newer fields abort an older question. A field's
 * problem holds only while the field, the country and the company choice are as they were asked
 * about, so a verdict never shows on newer input. When the BFF cannot answer, there is no verdict.
 */
export class ClientCheck implements ReactiveController {
  readonly #host: ReactiveControllerHost;
  readonly #endpoint: () => string;
  /** The body last asked about, and the last verdict with the fields it was given for. */
  #asked = '';
  #verdict?: [fields: ClientCheckRequest, verdict: Verdict];
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

  /** The fields as they stand: asked about once typing pauses; `undefined` for none. */
  ask(fields: ClientCheckRequest | undefined): void {
    const body = fields ? JSON.stringify(fields) : '';
    if (body === this.#asked) return;
    this.#run.abort();
    clearTimeout(this.#timer);
    this.#settle();
    this.#asked = body;
    this.#send = () => {};
    let settle!: () => void;
    this.#answered = new Promise<void>((resolve) => (this.#settle = settle = resolve));
    if (!fields) return settle();
    const { signal } = (this.#run = new AbortController());
    this.#send = () => {
      clearTimeout(this.#timer);
      this.#send = () => {};
      void fetchJson<Verdict>(`${bffBase(this.#endpoint())}client-check`, { method: 'POST', body: fields, signal })
        .then((verdict) => {
          if (signal.aborted) return;
          this.#verdict = [fields, verdict];
          this.#host.requestUpdate();
        }, () => undefined)
        .finally(settle);
    };
    this.#timer = setTimeout(() => this.#send(), PAUSE_MS);
  }

  /**
   * The problem with each of `names` in `fields`: blank where `required` says it may not be, else the
   * BFF's verdict, if it answered about the same field, country and company choice.
   */
  problems<F extends ClientCheckField>(names: readonly F[], fields: ClientCheckRequest, required: (name: F) => boolean): Partial<Record<F, ClientFieldProblem>> {
    const [asked, verdict] = this.#verdict ?? [];
    const problems: Partial<Record<F, ClientFieldProblem>> = {};
    for (const name of names) {
      const problem = required(name) && !fields[name]?.trim() ? 'required' : asked && (['company', 'country', name] as const).every((key) => asked[key] === fields[key]) ? verdict?.problems[name] : undefined;
      if (problem) problems[name] = problem;
    }
    return problems;
  }

  /** The example post code of the last verdict, for the message of its `postCode` problem. */
  get postCodeExample(): string {
    return this.#verdict?.[1].post_code_example ?? '';
  }

  /** Settles once the BFF answered about the fields asked about last (or could not): asks at once if typing has not paused yet. */
  answered(): Promise<void> {
    this.#send();
    return this.#answered;
  }
}
