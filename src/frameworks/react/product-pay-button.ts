'use client';

import { ProductPayButton as ProductPayButtonElement } from '../../elements/product-pay-button/define.js';
import { wrap } from './wrap.js';

/** `<ProductPayButton endpoint="/bff" product={token} onPaySuccess={(event) => …} />` */
export const ProductPayButton = wrap('product-pay-button', ProductPayButtonElement, {
  onPayBefore: 'pay-before',
  onPayStart: 'pay-start',
  onPaySuccess: 'pay-success',
  onPayCancel: 'pay-cancel',
  onPayError: 'pay-error',
});
