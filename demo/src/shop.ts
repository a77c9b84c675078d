import '../../src/elements/product-pay-button/define.js';
import { t } from './i18n.js';
import { announce } from './session.js';

/** The shop only listens: each `<product-pay-button>` runs its own checkout and reports the outcome the server knows. */
document.addEventListener('pay-success', (event) => {
  const invoice = event.detail.invoice;
  announce(invoice ? `${t('shop.thanks')} ${invoice.number}` : t('shop.thanks'));
});
document.addEventListener('pay-cancel', () => announce(t('shop.notPaid'), 'error'));
