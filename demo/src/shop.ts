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

/**
 * The shop only listens: each `<product-pay-button>` runs its own checkout and reports the outcome the
 * server knows. Paid, the notice links the invoice; declined or cancelled, it offers the button again.
 */
document.addEventListener('pay-success', (event) => {
  const invoice = event.detail.invoice;
  if (!invoice) return announce(t('shop.thanks'));
  const actions: Node[] = [];
  if (invoice.view_url) actions.push(Object.assign(document.createElement('a'), { href: invoice.view_url, target: '_blank', rel: 'noopener', textContent: t('shop.viewInvoice') }));
  announce(`${t('shop.thanks')} ${invoice.number}.`, 'ok', ...actions);
});
document.addEventListener('pay-cancel', (event) => {
  const reason = event.detail.reason;
  const button = event.target as HTMLElement;
  const again = Object.assign(document.createElement('button'), { type: 'button', className: 'link-button', textContent: t('shop.tryAgain') });
  // The product's own Buy button, pressed again: the same dialog, a new payment.
  again.addEventListener('click', () => button.shadowRoot?.querySelector<HTMLButtonElement>('[part~="button"]')?.click());
  announce(reason === 'declined' ? t('shop.declined') : reason === 'cancelled' ? t('shop.cancelled') : t('shop.notPaid'), 'error', again);
});
