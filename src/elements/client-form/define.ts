import { ClientForm } from './client-form.js';

export { ClientForm };
export * from './events.js';

if (!customElements.get('client-form')) customElements.define('client-form', ClientForm);

declare global {
  interface HTMLElementTagNameMap {
    'client-form': ClientForm;
  }
}
