import '../../src/elements/client-form/define.js';
import { currentLanguage, t } from './i18n.js';
import { announce, signIn } from './session.js';

// The form is made once a customer is signed in, so it never shows a page without a portal token.
// It speaks the page's language; the header's switch changes both.
const form = document.createElement('client-form');
form.endpoint = '/bff';
form.setAttribute('locale', currentLanguage());

form.addEventListener('client-saved', (event) => announce(t('account.saved').replace('{name}', event.detail.client.name ?? '')));
form.addEventListener('client-error', (event) => {
  // A 422 is shown at its fields by the form itself.
  if (event.detail.status !== 422) announce(t('account.serviceFailed'), 'error');
});

signIn((session) => {
  if (!session) return;
  form.portalToken = session.token;
  if (!form.isConnected) document.querySelector('#details')!.replaceWith(form);
}).catch(() => announce(t('portal.signInFailed'), 'error'));
