'use client';

import { InvoiceList as InvoiceListElement } from '../../elements/invoice-list/define.js';
import { wrap } from './wrap.js';

/** `<InvoiceList endpoint="/bff" portalToken={token} onInvoicePay={(event) => …} />` */
export const InvoiceList = wrap('invoice-list', InvoiceListElement, {
  onInvoiceSelect: 'invoice-select',
  onInvoiceDownload: 'invoice-download',
  onInvoicePay: 'invoice-pay',
  onInvoiceQueryChange: 'invoice-query-change',
  onTokenExpired: 'token-expired',
});
