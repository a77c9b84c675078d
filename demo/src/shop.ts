import '../../src/elements/product-pay-button/define.js';
import { t } from './i18n.js';
import { announce, signIn } from './session.js';

/**
 * Signed in, a customer buys as themselves: the shop's backend minted their portal token, the dialog
 * asks nothing, and the invoice lands in their portal. As a guest, the dialog asks for e-mail and name.
 */
const buttons = () => document.querySelectorAll('product-pay-button');
void signIn(
  (session) => {
    for (const button of buttons()) {
      if (session) button.setAttribute('portal-token', session.token);
      else button.removeAttribute('portal-token');
    }
  },
  { guest: t('shop.guest') },
).catch(() => announce(t('portal.signInFailed'), 'error'));

/** The shop only listens: each `<product-pay-button>` runs its own checkout and reports the outcome the server knows. */
document.addEventListener('pay-success', (event) => {
  const invoice = event.detail.invoice;
  announce(invoice ? `${t('shop.thanks')} ${invoice.number}` : t('shop.thanks'));
});
document.addEventListener('pay-cancel', () => announce(t('shop.notPaid'), 'error'));
