import { html } from 'lit';
import { AdminView } from '../view.js';

export class AdminOverview extends AdminView {
  override render() {
    return html`<h1 tabindex="-1">Overview</h1>`;
  }
}

if (!customElements.get('ik-admin-overview')) customElements.define('ik-admin-overview', AdminOverview);

declare global {
  interface HTMLElementTagNameMap {
    'ik-admin-overview': AdminOverview;
  }
}
