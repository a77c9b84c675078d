// Types the invoicekit elements in Svelte templates (svelte-check): properties, and listeners in the
// Svelte 5 form (`oninvoice-pay={…}`) and the Svelte 4 form (`on:invoice-pay={…}`), each receiving
// the element's own event class. Types only: list "@invoicekit/elements/svelte" in tsconfig's
// `types`, or add `import type {} from '@invoicekit/elements/svelte'` once.
import type { HTMLAttributes } from 'svelte/elements';
import type { ElementProperties, InvoicekitElements } from './dist/lib/frameworks/elements.js';

type SvelteListeners<T> = { [K in keyof T & string as `on${K}` | `on:${K}`]?: (event: T[K]) => void };
type SvelteElement<N extends keyof InvoicekitElements> = HTMLAttributes<InvoicekitElements[N]['element']> &
  ElementProperties<InvoicekitElements[N]['element']> &
  SvelteListeners<InvoicekitElements[N]['events']>;
type InvoicekitIntrinsicElements = { [N in keyof InvoicekitElements]: SvelteElement<N> };

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace svelteHTML {
    // eslint-disable-next-line @typescript-eslint/no-empty-object-type
    interface IntrinsicElements extends InvoicekitIntrinsicElements {}
  }
}

export {};
