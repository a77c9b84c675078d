/** An element class that says which invoicekit version it is (`InvoiceKitElement.version`). */
export type VersionedElement = CustomElementConstructor & { readonly version: string };

/**
 * The pairs of versions already reported on this page, shared by every copy of invoicekit through the
 * global symbol registry: a second copy (a plugin's and a theme's, say) is reported once, not once per tag.
 */
const REPORTED = Symbol.for('invoicekit.reported');

/**
 * Registers `element` as `tag` in `registry`: the page's global one by default, or a scoped registry
 * (`new CustomElementRegistry()`, where the browser has them) given by the page. Where there is no
 * registry (importing in Node for server rendering or unit tests) it defines nothing.
 *
 * A tag already held by the same class is left as it is (a module loaded twice). A tag held by another
 * class is left to it: the registry would throw on a second definition, and one script must not break
 * another. The page author is told which version holds it and which one was not registered: once for
 * a second copy of invoicekit, however many tags it brings; for each tag another library holds.
 */
export function define(tag: string, element: VersionedElement, registry: CustomElementRegistry | undefined = globalThis.customElements): void {
  const held = registry?.get(tag) as Partial<VersionedElement> | undefined;
  if (!held) registry?.define(tag, element);
  else if (held !== element) {
    const reported = ((globalThis as { [REPORTED]?: Set<string> })[REPORTED] ??= new Set());
    const pair = `${held.version} ${element.version}`;
    if (!held.version || !reported.has(pair)) {
      reported.add(pair);
      console.warn(`invoicekit ${element.version} is not registered: <${tag}> is already defined by ${held.version ? `invoicekit ${held.version}` : 'another script'}.`);
    }
  }
}

/**
 * Whether this browser has scoped custom element registries: `new CustomElementRegistry()` for a
 * registry of one's own, given to `attachShadow({ customElementRegistry })`.
 */
export function hasScopedRegistries(): boolean {
  if (typeof CustomElementRegistry !== 'function') return false;
  try {
    new CustomElementRegistry();
    return true;
  } catch {
    return false;
  }
}
