import { define } from '../shared/registry.js';
import { ClientForm } from './client-form.js';

export { ClientForm };
export * from './events.js';

define('client-form', ClientForm);

declare global {
  interface HTMLElementTagNameMap {
    'client-form': ClientForm;
  }
}
