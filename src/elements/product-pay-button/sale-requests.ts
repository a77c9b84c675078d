import type { CompanyDetails } from '../../contract/company.js';
import type { CheckoutAnswer, CheckoutOutcome, CheckoutRequest, SaleClient } from '../shared/sale-client.js';
import { fetchJson } from '../shared/fetch-json.js';

/** The checkout's requests, which load with the dialog or the outcome check: the button's first load asks only for the product. */

/** A company's details from its register by tax number: 404 when it knows none, 503 when it cannot answer. */
export function company(client: SaleClient, country: string, taxNo: string, signal?: AbortSignal): Promise<CompanyDetails> {
  return fetchJson(`${client.base}company/${encodeURIComponent(country)}/${encodeURIComponent(taxNo)}`, { signal });
}

/**
 * One attempt: the same `key` on every retry, so the server makes one payment at most. With a portal
 * `token` (BFF mode), the signed-in customer buys as themselves.
 */
export function checkout(client: SaleClient, body: CheckoutRequest, key: string, signal?: AbortSignal, token?: string): Promise<CheckoutAnswer> {
  const headers = { 'idempotency-key': key, ...(token && { authorization: `Bearer ${token}` }) };
  // Through `fetchJson`: a checkout carries its Idempotency-Key, so its retries are safe.
  return fetchJson(`${client.base}checkout${client.ext}`, { method: 'POST', headers, body, signal });
}

/** How an attempt stands, as the server records it. */
export function outcome(client: SaleClient, attempt: string, signal?: AbortSignal): Promise<CheckoutOutcome> {
  return fetchJson(`${client.base}checkout/${encodeURIComponent(attempt)}${client.ext}`, { signal });
}
