import { ProductPayButton } from './product-pay-button.js';

export { ProductPayButton };
export * from './events.js';

// Only where there is a registry: importing in Node (server rendering, unit tests) defines nothing.
if (typeof customElements !== 'undefined' && !customElements.get('product-pay-button')) customElements.define('product-pay-button', ProductPayButton);

declare global {
  interface HTMLElementTagNameMap {
    'product-pay-button': ProductPayButton;
  }
}
