/** The back office's entry: `/admin/assets/admin.js`, loaded by the page `/admin/` serves. */
import { AdminApp } from './app.js';

if (!customElements.get('ik-admin-app')) customElements.define('ik-admin-app', AdminApp);

declare global {
  interface HTMLElementTagNameMap {
    'ik-admin-app': AdminApp;
  }
}
