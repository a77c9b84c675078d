/** An element class that says which invoicekit version it is (`InvoiceKitElement.version`). */
export type VersionedElement = CustomElementConstructor & { readonly version: string };

/**
 * Registers `element` as `tag`, where there is a registry: importing in Node (server rendering, unit
 * tests) defines nothing. A tag already held by the same class is left as it is (a module loaded
 * twice). A tag held by another class (a second copy of invoicekit on the page, another version, or
 * another library) is left to it: the registry would throw on a second definition, and one script
 * must not break another. That class then renders every such tag, so the page author is told which
 * version holds it and which one was not registered: once, as each copy registers each tag once.
 */
export function define(tag: string, element: VersionedElement): void {
  const registry = globalThis.customElements as CustomElementRegistry | undefined;
  const held = registry?.get(tag) as Partial<VersionedElement> | undefined;
  if (!held) registry?.define(tag, element);
  else if (held !== element) {
    console.warn(`<${tag}> is already defined by ${held.version ? `invoicekit ${held.version}` : 'another script'}; invoicekit ${element.version} is not registered.`);
  }
}
