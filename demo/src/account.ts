import '../../src/elements/client-form/define.js';
import { announce, signIn } from './session.js';

// The form is made once a customer is signed in, so it never shows a page without a portal token.
const form = document.createElement('client-form');
form.endpoint = '/bff';
const locale = document.querySelector<HTMLSelectElement>('#locale')!;
locale.value = document.documentElement.lang.startsWith('pl') ? 'pl' : 'en';
locale.addEventListener('change', () => form.setAttribute('locale', locale.value));

form.addEventListener('client-saved', (event) => announce(`Saved. New invoices to ${event.detail.client.name} will use these details.`));
form.addEventListener('client-error', (event) => {
  if (event.detail.status !== 422) announce(`The invoicing service answered ${event.detail.status || 'nothing'}: ${event.detail.message}`, 'error');
});

signIn((session) => {
  if (!session) return;
  form.portalToken = session.token;
  if (!form.isConnected) document.querySelector('#details')!.replaceWith(form);
}).catch((error: unknown) => announce(`The demo could not sign in: ${String(error)}`, 'error'));
