import { isServer, unsafeCSS } from 'lit';
import { define } from '../shared/registry.js';
import { ClientForm } from './client-form.js';
import { styles } from './client-form.styles.js';

export { ClientForm };
export * from './events.js';

// A server renderer (Lit's SSR through React, as in Next.js) prints the fields into a declarative shadow
// root, where the sheet's rules, nested under `client-form`, apply under `:host`. In the browser the form
// draws into its light DOM and adopts the sheet itself; that root keeps only a slot (createRenderRoot).
// Set on the class's finalized styles too: another module may have rendered a form before this one ran.
if (isServer) ClientForm.elementStyles = [(ClientForm.styles = unsafeCSS(styles.cssText.replace('client-form {', ':host {')))];

define('client-form', ClientForm);

declare global {
  interface HTMLElementTagNameMap {
    'client-form': ClientForm;
  }
}
