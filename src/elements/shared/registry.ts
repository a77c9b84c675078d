/** An element class that says which invoicekit version it is (`InvoiceKitElement.version`). */
export type VersionedElement = CustomElementConstructor & { readonly version: string };

/**
 * The pairs of copies already reported on this page, shared by every copy of invoicekit through the
 * global symbol registry: a second copy (a plugin's and a theme's, say) is reported once, not once per tag.
 */
const REPORTED = Symbol.for('invoicekit.registry.reported');

function reportedPairs(): Set<string> {
  const global = globalThis as { [REPORTED]?: Set<string> };
  return (global[REPORTED] ??= new Set());
}

/**
 * Registers `element` as `tag` in `registry`: the page's global one by default, or a scoped registry
 * (`new CustomElementRegistry()`, where the browser has them) given by the page. Where there is no
 * registry (importing in Node for server rendering or unit tests) it defines nothing.
 *
 * A tag already held by the same class is left as it is (a module loaded twice). A tag held by another
 * class is left to it: the registry would throw on a second definition, and one script must not break
 * another. When that class is another copy of invoicekit, the page author is told once which two
 * versions met and which one renders the elements; a tag held by another library is named on its own.
 */
export function define(tag: string, element: VersionedElement, registry: CustomElementRegistry | undefined = globalThis.customElements): void {
  const held = registry?.get(tag) as Partial<VersionedElement> | undefined;
  if (!held) {
    registry?.define(tag, element);
    return;
  }
  if (held === element) return;
  if (!held.version) {
    console.warn(`<${tag}> is already defined by another script; invoicekit ${element.version} is not registered.`);
    return;
  }
  const pair = `${held.version} ${element.version}`;
  if (reportedPairs().has(pair)) return;
  reportedPairs().add(pair);
  console.warn(
    held.version === element.version
      ? `invoicekit ${element.version} is loaded twice on this page; the second copy's elements are not registered, the first copy's render them.`
      : `invoicekit ${element.version} meets invoicekit ${held.version} on this page, which already defines <${tag}>: the elements of ${element.version} are not registered, ${held.version} renders them. Load one copy, or register the elements in a scoped registry (defineInvoiceKit).`,
  );
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
