import { ClientForm } from './client-form.js';

export { ClientForm };
export * from './events.js';

// Only where there is a registry: importing in Node (server rendering, unit tests) defines nothing.
if (typeof customElements !== 'undefined' && !customElements.get('client-form')) customElements.define('client-form', ClientForm);

declare global {
  interface HTMLElementTagNameMap {
    'client-form': ClientForm;
  }
}
