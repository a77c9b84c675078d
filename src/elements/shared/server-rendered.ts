import { adoptStyles, type LitElement, type ReactiveController, type ReactiveControllerHost } from 'lit';

/** The attribute marking the JSON a server printed inside an element for it to take over with. */
export const SERVER_DATA_ATTRIBUTE = 'data-server-state';

/**
 * Takes over an element a server rendered: the data it rendered with, printed as
 * `<script type="application/json" data-server-state>` among the element's children, and the
 * declarative shadow root holding what it rendered. The element shows the data without asking for
 * it again; the server's markup stays on screen until the element's first render replaces it in the
 * same task, so nothing flashes and no frame is painted empty.
 */
export class ServerRendered<T> implements ReactiveController {
  readonly #host: ReactiveControllerHost & HTMLElement;
  #data?: T;
  #taken = false;
  /** The element's styles wait for the takeover. */
  #adopt = false;

  constructor(host: ReactiveControllerHost & HTMLElement) {
    this.#host = host;
    host.addController(this);
  }

  /** Sets the data directly (the server renderer does, before its render). */
  set data(value: T | undefined) {
    this.#data = value;
  }

  /**
   * The shadow root the server printed, for the element to render into, when there is one: its own
   * style sheets are adopted when it takes over, not now. Adopted now, they would restyle every node
   * of the server's markup (which carries its own copy) before the page's first paint.
   */
  serverRoot(): ShadowRoot | undefined {
    const root = this.#host.shadowRoot;
    if (!root?.firstChild) return undefined;
    this.#adopt = true;
    return root;
  }

  hostConnected(): void {
    if (this.#taken || this.#data !== undefined) return;
    const script = this.#host.querySelector(`:scope > script[${SERVER_DATA_ATTRIBUTE}]`);
    if (!script) return;
    try {
      this.#data = JSON.parse(script.textContent ?? '') as T;
    } catch {
      // Unreadable data only costs a request: the element loads as if rendered in the browser.
    }
    script.remove();
  }

  /**
   * While the server's markup has not been painted: resolves after the next frame. A script that
   * runs before the page's first frame (a module in the head, a cached one) would otherwise have the
   * element render its own rows first, and the first paint would wait for them. Nothing to wait for
   * after the first render, without server markup, or in a hidden page (it paints nothing until shown).
   */
  painted(): Promise<void> | undefined {
    const host = this.#host as ReactiveControllerHost & HTMLElement & { hasUpdated: boolean };
    if (host.hasUpdated || !host.shadowRoot?.firstChild || document.visibilityState === 'hidden') return undefined;
    return new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve)));
  }

  /** The server's data, once: later loads go to the network. */
  take(): T | undefined {
    if (this.#taken) return undefined;
    this.#taken = true;
    const data = this.#data;
    this.#data = undefined;
    return data;
  }

  /** Right before the first render: the server's markup goes, in the task that renders the element's own. */
  hostUpdate(): void {
    const host = this.#host as ReactiveControllerHost & HTMLElement & { hasUpdated: boolean; renderOptions?: { renderBefore?: ChildNode | null } };
    if (host.hasUpdated || !host.shadowRoot) return;
    if (this.#adopt) adoptStyles(host.shadowRoot, (host.constructor as typeof LitElement).elementStyles);
    this.#adopt = false;
    if (!host.shadowRoot.firstChild) return;
    host.shadowRoot.replaceChildren();
    // LitElement renders before the root's first child when it made the root: here, a node just removed.
    if (host.renderOptions) host.renderOptions.renderBefore = null;
  }
}
