import type { ReactiveElement } from 'lit';

/**
 * A module of the list loaded when it is about to be needed, once (docs/decisions/invoice-list-weight.md):
 * on `load()`, and, given an `intent` selector, whenever the pointer or the focus reaches a matching
 * element of the host. Those listeners sit on the host's render root: the host hears no `pointerover` or
 * `focusin` that moves between its own controls. A failed load is forgotten, so the next need tries again.
 */
export class OnDemand<M> {
  /** The module, once it is in. */
  module?: M;
  #load?: Promise<M> | undefined;
  readonly #importer: () => Promise<M>;

  constructor(importer: () => Promise<M>, intent?: { host: ReactiveElement; selector: string }) {
    this.#importer = importer;
    if (!intent) return;
    const { host, selector } = intent;
    const listener = (event: Event) => (event.target as Element).closest(selector) && this.load().catch(() => undefined);
    host.addController({
      hostConnected() {
        host.renderRoot.addEventListener('pointerover', listener);
        host.renderRoot.addEventListener('focusin', listener);
      },
    });
  }

  load(): Promise<M> {
    return (this.#load ??= this.#importer().then(
      (module) => (this.module = module),
      (error: unknown) => {
        this.#load = undefined;
        throw error;
      },
    ));
  }
}
