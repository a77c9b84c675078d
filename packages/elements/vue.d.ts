// Types the invoicekit elements in Vue templates (Volar / vue-tsc): props, and `@event` listeners
// that receive the element's own event class. Types only: list "@invoicekit/elements/vue" in tsconfig's
// `types`, or add `import type {} from '@invoicekit/elements/vue'` once. Vue must also know they are custom elements:
// `compilerOptions.isCustomElement: (tag) => tag.includes('-')` (see docs/cms.md).
import type { DefineComponent } from 'vue';
import type { ElementProperties, InvoicekitElements, PascalEventName } from './dist/lib/frameworks/elements.js';

type VueListeners<T> = { [K in keyof T & string as `on${PascalEventName<K>}`]?: (event: T[K]) => void };
type VueElement<N extends keyof InvoicekitElements> = DefineComponent<
  ElementProperties<InvoicekitElements[N]['element']> & VueListeners<InvoicekitElements[N]['events']>
>;
type InvoicekitComponents = { [N in keyof InvoicekitElements]: VueElement<N> };

declare module 'vue' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface GlobalComponents extends InvoicekitComponents {}
}

export {};
