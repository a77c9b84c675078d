import type { ReactiveController, ReactiveControllerHost } from 'lit';

/** Where a task stands: never run (or stopped), under way, answered, failed. */
export type TaskStatus = 'initial' | 'pending' | 'complete' | 'error';

export interface TaskConfig<A extends readonly unknown[], T> {
  /**
   * The load. Pass `signal` to the HTTP call: it is aborted when a newer run starts. An answer already
   * in hand (a page the server rendered, a blank form) is returned as it is and lands at once, never pending.
   */
  task: (args: A, options: { signal: AbortSignal }) => T | Promise<T>;
  /** The arguments, read from the host's properties at each update: when one of them changes, the task runs again. */
  args: () => A;
  /** The answer of the latest run, once it has landed. */
  onComplete?: (value: T) => void;
  /** The failure of the latest run, once it has landed. */
  onError?: (error: unknown) => void;
}

/**
 * A host's loads of one kind, in the shape of `@lit/task` (docs/decisions/element-data-tasks.md): the
 * task runs when its arguments change, each run aborts the one before (its `AbortSignal` goes to the
 * HTTP call), only the latest run's answer or failure lands, and `status`, `value` and `error` are
 * what the render reads. The last value stays while the next run is pending, so a list can stay on
 * screen, dimmed.
 */
export class Task<A extends readonly unknown[], T> implements ReactiveController {
  status: TaskStatus = 'initial';
  /** The latest answer; kept while a newer run is pending. */
  value?: T;
  /** Why the latest run failed; cleared when a later one answers. */
  error?: unknown;
  readonly #host: ReactiveControllerHost;
  readonly #config: TaskConfig<A, T>;
  /** The arguments of the latest run; none before the first. */
  #args?: A | undefined;
  #run?: AbortController | undefined;

  constructor(host: ReactiveControllerHost, config: TaskConfig<A, T>) {
    (this.#host = host).addController(this);
    this.#config = config;
  }

  /** Put back into a page after `abort` stopped a run there (the host left the page mid-load): runs again. */
  hostConnected(): void {
    if (this.status !== 'initial') return;
    this.#args = undefined;
    this.#host.requestUpdate();
  }

  /** After the host's `willUpdate`, so the arguments are read as the update leaves them. */
  hostUpdate(): void {
    const args = this.#config.args();
    const last = this.#args;
    // Strings and numbers, compared by value.
    if (!last || args.some((value, i) => value !== last[i])) void this.run(args);
  }

  /**
   * Runs the task now (a retry, a reload) with the current arguments, aborting the run under way.
   * Resolves once this run has landed or been overtaken by a newer one or by `abort`.
   */
  async run(args: A = this.#config.args()): Promise<void> {
    this.#run?.abort();
    const run = (this.#run = new AbortController());
    this.#args = args;
    let value: T | Promise<T>;
    try {
      // The run's controller stands for the options: the task's type sees only its `signal`.
      value = this.#config.task(args, run);
      if (value instanceof Promise) {
        this.#set('pending');
        value = await value;
      }
    } catch (error) {
      if (run !== this.#run) return;
      this.error = error;
      this.#set('error');
      this.#config.onError?.(error);
      return;
    }
    if (run !== this.#run) return;
    this.value = value;
    this.error = undefined;
    this.#set('complete');
    this.#config.onComplete?.(value);
  }

  /**
   * Stops the run under way, whose answer then never lands, and forgets a failure: a pending or failed
   * status goes back to `initial`, and the task runs again when its arguments change, on `run`, or when
   * the host is put back into a page. An answer already shown stays.
   */
  abort(): void {
    this.#run?.abort();
    this.#run = this.error = undefined;
    if (this.status !== 'complete') this.#set('initial');
  }

  #set(status: TaskStatus): void {
    this.status = status;
    this.#host.requestUpdate();
  }
}
