import type { CheckoutAnswer, CheckoutBuyer, CheckoutOutcome, CheckoutRequest, CheckoutStatus, SaleProduct } from '../../contract/sale.js';
import type { CompanyDetails } from '../../contract/company.js';
import { BffError, fetchJson, type JsonRequest } from './fetch-json.js';

export type { CheckoutAnswer, CheckoutBuyer, CheckoutOutcome, CheckoutRequest, CheckoutStatus, SaleProduct };

/** A failure with the fields the server named, if it named any: the BFF client's own error. */
export { BffError as SaleError };

/**
 * The button's side of a sale, in either mode: through the shop's BFF (`endpoint`), or straight to the
 * service's public widget routes (`appUrl` and `account`). Neither carries a secret.
 */
export class SaleClient {
  readonly #base: string;
  readonly #ext: string;

  constructor(where: { endpoint: string } | { appUrl: string; account: string }) {
    const direct = 'appUrl' in where;
    const base = new URL((direct ? where.appUrl : where.endpoint).replace(/\/*$/, '/'), document.baseURI);
    this.#base = direct ? new URL(`a/${encodeURIComponent(where.account)}/widget/`, base).href : base.href;
    this.#ext = direct ? '.json' : '';
  }

  /**
   * The product as a reader of `lang` sees it: the server names its unit in that language. With a
   * `quote` query (`country`, `tax_no`, `company`, `quantity`, `lang`), its `quote` is the price for that buyer.
   */
  product(token: string, lang: string, signal?: AbortSignal, quote = ''): Promise<SaleProduct> {
    return this.#request(`products/${encodeURIComponent(token)}`, { headers: { 'accept-language': lang }, signal }, quote && `?${quote}`);
  }

  /** A company's details from its register by tax number: 404 when it knows none, 503 when it cannot answer. */
  company(country: string, taxNo: string, signal?: AbortSignal): Promise<CompanyDetails> {
    return fetchJson(`${this.#base}company/${encodeURIComponent(country)}/${encodeURIComponent(taxNo)}`, { signal });
  }

  /**
   * One attempt: the same `key` on every retry, so the server makes one payment at most. With a portal
   * `token` (BFF mode), the signed-in customer buys as themselves.
   */
  checkout(body: CheckoutRequest, key: string, signal?: AbortSignal, token?: string): Promise<CheckoutAnswer> {
    const headers = { 'idempotency-key': key, ...(token && { authorization: `Bearer ${token}` }) };
    return this.#request('checkout', { method: 'POST', headers, body, signal });
  }

  outcome(attempt: string, signal?: AbortSignal): Promise<CheckoutOutcome> {
    return this.#request(`checkout/${encodeURIComponent(attempt)}`, { signal });
  }

  /** Through `fetchJson`: a checkout carries its Idempotency-Key, so its retries are safe. */
  #request<T>(path: string, init: JsonRequest, query = ''): Promise<T> {
    return fetchJson<T>(this.#base + path + this.#ext + query, init);
  }
}
