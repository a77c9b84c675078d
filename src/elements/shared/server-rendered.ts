import { adoptStyles, type LitElement, type ReactiveController, type ReactiveControllerHost } from 'lit';

/** The attribute marking the JSON a server printed inside an element for it to take over with. */
export const SERVER_DATA_ATTRIBUTE = 'data-server-state';

/** The longest a server-rendered element waits for the page's first paint before it takes over. */
const PAINT_WAIT_LIMIT_MS = 1000;

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
   * Resolves once the page has shown its first contentful paint (or after the next frame, where the
   * page has painted before or the browser does not report paints). A script that runs before the
   * page's first frame (a module in the head, one the browser fetched early) would otherwise have the
   * element render its own rows before anything is shown, or while the browser is still drawing the
   * server's, and the first paint would wait for them. Nothing to wait for after the first render,
   * without server markup, or in a hidden page (it paints nothing until shown).
   */
  painted(): Promise<void> | undefined {
    const host = this.#host as ReactiveControllerHost & HTMLElement & { hasUpdated: boolean };
    if (host.hasUpdated || !host.shadowRoot?.firstChild || document.visibilityState === 'hidden') return undefined;
    // Painted before (a page streamed in parts), or no paints reported: the next frame shows the server's markup.
    if (!PerformanceObserver.supportedEntryTypes?.includes('paint') || performance.getEntriesByName('first-contentful-paint').length) {
      return new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve)));
    }
    return new Promise((resolve) => {
      const done = () => {
        observer.disconnect();
        clearTimeout(timer);
        resolve();
      };
      const observer = new PerformanceObserver((list) => list.getEntriesByName('first-contentful-paint').length && done());
      observer.observe({ type: 'paint' });
      // A page that never reports one (a browser's own policy) is taken over all the same.
      const timer = setTimeout(done, PAINT_WAIT_LIMIT_MS);
    });
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
