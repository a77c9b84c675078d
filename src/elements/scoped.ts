import { ClientForm } from './client-form/client-form.js';
import { InvoiceList } from './invoice-list/invoice-list.js';
import { ProductPayButton } from './product-pay-button/product-pay-button.js';
import { define, hasScopedRegistries } from './shared/registry.js';

export { hasScopedRegistries };

/** Every invoicekit element by its tag, unregistered: importing this module defines nothing. */
export const INVOICEKIT_ELEMENTS = {
  'client-form': ClientForm,
  'invoice-list': InvoiceList,
  'product-pay-button': ProductPayButton,
} as const;

/**
 * Registers every invoicekit element in `registry`: a scoped custom element registry of the page's
 * (`new CustomElementRegistry()`, given to `attachShadow({ customElementRegistry })`), so that this
 * copy's elements render in that shadow root whatever another copy of invoicekit holds the global tags.
 * Without an argument it registers them in the page's global registry, as the `define` modules do.
 */
export function defineInvoiceKit(registry: CustomElementRegistry = customElements): void {
  for (const [tag, element] of Object.entries(INVOICEKIT_ELEMENTS)) define(tag, element, registry);
}
