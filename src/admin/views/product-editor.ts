import { html } from 'lit';
import { AdminView } from '../view.js';

export class AdminProductEditor extends AdminView {
  override render() {
    return html`<h1 tabindex="-1">Product</h1>`;
  }
}

if (!customElements.get('ik-admin-product-editor')) customElements.define('ik-admin-product-editor', AdminProductEditor);

declare global {
  interface HTMLElementTagNameMap {
    'ik-admin-product-editor': AdminProductEditor;
  }
}
