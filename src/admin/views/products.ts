import { html } from 'lit';
import { AdminView } from '../view.js';

export class AdminProducts extends AdminView {
  override render() {
    return html`<h1 tabindex="-1">Products</h1>`;
  }
}

if (!customElements.get('ik-admin-products')) customElements.define('ik-admin-products', AdminProducts);

declare global {
  interface HTMLElementTagNameMap {
    'ik-admin-products': AdminProducts;
  }
}
