/**
 * The back office's entry: `/admin/assets/admin.js`, loaded by the page `/admin/` serves. It defines
 * the shell and its sign-in form; each view defines itself when the shell first opens it.
 */
import { AdminApp } from './app.js';
import { AdminSignIn } from './views/sign-in.js';

if (!customElements.get('ik-admin-sign-in')) customElements.define('ik-admin-sign-in', AdminSignIn);
if (!customElements.get('ik-admin-app')) customElements.define('ik-admin-app', AdminApp);

declare global {
  interface HTMLElementTagNameMap {
    'ik-admin-app': AdminApp;
  }
}
