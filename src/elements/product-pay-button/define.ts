import { define } from '../shared/registry.js';
import { ProductPayButton } from './product-pay-button.js';

export { ProductPayButton };
export * from './events.js';

define('product-pay-button', ProductPayButton);

declare global {
  interface HTMLElementTagNameMap {
    'product-pay-button': ProductPayButton;
  }
}
