import { html } from 'lit';
import { AdminView } from '../view.js';

export class AdminEmbedBuilder extends AdminView {
  override render() {
    return html`<h1 tabindex="-1">Embed code</h1>`;
  }
}

if (!customElements.get('ik-admin-embed-builder')) customElements.define('ik-admin-embed-builder', AdminEmbedBuilder);

declare global {
  interface HTMLElementTagNameMap {
    'ik-admin-embed-builder': AdminEmbedBuilder;
  }
}
