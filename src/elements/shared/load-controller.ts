import type { ReactiveController, ReactiveControllerHost } from 'lit';

/** Where a load stands: never run (or stopped), under way, answered, failed. */
export type LoadStatus = 'initial' | 'pending' | 'complete' | 'error';

/**
 * One element's loads of one kind, in the shape of `@lit/task` at a fraction of its weight: each
 * `run` aborts the one before (its `AbortSignal` goes to the HTTP call), only the latest call's
 * answer or failure lands, and `status`, `value` and `error` are what the render reads. The last
 * value stays while the next load is pending, so a list can stay on screen, dimmed.
 */
export class LoadController<T> implements ReactiveController {
  hostConnected?(): void;
  status: LoadStatus = 'initial';
  /** The latest answer; kept while a newer load is pending. */
  value?: T;
  /** Why the latest load failed; cleared when a later one answers. */
  error?: unknown;
  readonly #host: ReactiveControllerHost;
  #run?: AbortController;

  constructor(host: ReactiveControllerHost) {
    (this.#host = host).addController(this);
  }

  /**
   * Starts `load`, aborting the load before. Resolves to its answer when it is still the latest
   * call once it settles, and to `undefined` when it failed or a newer call (or `abort`) overtook it.
   */
  async run(load: (signal: AbortSignal) => Promise<T>): Promise<T | undefined> {
    this.#run?.abort();
    const run = (this.#run = new AbortController());
    this.#set('pending');
    try {
      const value = await load(run.signal);
      if (run !== this.#run) return undefined;
      this.value = value;
      this.error = undefined;
      this.#set('complete');
      return value;
    } catch (error) {
      if (run !== this.#run) return undefined;
      this.error = error;
      this.#set('error');
      return undefined;
    }
  }

  /** Stops the load under way, whose answer then never lands, and forgets a failure: a pending or failed status goes back to `initial`. */
  abort(): void {
    this.#run?.abort();
    this.#run = undefined;
    this.error = undefined;
    if (this.status !== 'complete') this.#set('initial');
  }

  #set(status: LoadStatus): void {
    this.status = status;
    this.#host.requestUpdate();
  }
}
