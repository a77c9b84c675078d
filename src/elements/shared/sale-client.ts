import type { CheckoutAnswer, CheckoutBuyer, CheckoutOutcome, CheckoutRequest, CheckoutStatus, SaleProduct } from '../../contract/sale.js';
import { BffError, fetchJson } from './fetch-json.js';

export type { CheckoutAnswer, CheckoutBuyer, CheckoutOutcome, CheckoutRequest, CheckoutStatus, SaleProduct };

/** A failure with the fields the server named, if it named any: the BFF client's own error. */
export { BffError as SaleError };

/**
 * The button's side of a sale, in either mode: through the shop's BFF (`endpoint`), or straight to the
 * service's public widget routes (`appUrl` and `account`). Neither carries a secret. The product is
 * all the button asks before intent; the checkout's requests (`product-pay-button/sale-requests.ts`)
 * load with the dialog.
 */
export class SaleClient {
  /** The routes' address, ending in `/`. */
  readonly base: string;
  /** What the service's widget routes end in (`.json`); nothing on the BFF. */
  readonly ext: string;

  constructor(where: { endpoint: string } | { appUrl: string; account: string }) {
    const direct = 'appUrl' in where;
    const base = new URL((direct ? where.appUrl : where.endpoint).replace(/\/*$/, '/'), document.baseURI);
    this.base = direct ? new URL(`a/${encodeURIComponent(where.account)}/widget/`, base).href : base.href;
    this.ext = direct ? '.json' : '';
  }

  /**
   * The product as a reader of `lang` sees it: the server names its unit in that language. With a
   * `quote` query (`country`, `tax_no`, `company`, `quantity`, `lang`, the buyer's other fields), its
   * `quote` is the price for that buyer and what the checkout would refuse in their fields.
   */
  product(token: string, lang: string, signal?: AbortSignal, quote = ''): Promise<SaleProduct> {
    return fetchJson(`${this.base}products/${encodeURIComponent(token)}${this.ext}${quote && `?${quote}`}`, { headers: { 'accept-language': lang }, signal });
  }
}
