import { ProductPayButton } from './product-pay-button.js';

export { ProductPayButton };
export * from './events.js';

if (!customElements.get('product-pay-button')) customElements.define('product-pay-button', ProductPayButton);

declare global {
  interface HTMLElementTagNameMap {
    'product-pay-button': ProductPayButton;
  }
}
