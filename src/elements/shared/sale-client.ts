import type { CheckoutAnswer, CheckoutBuyer, CheckoutOutcome, CheckoutRequest, CheckoutStatus, SaleProduct } from '../../contract/sale.js';
import { BffError } from './bff-client.js';

export type { CheckoutAnswer, CheckoutBuyer, CheckoutOutcome, CheckoutRequest, CheckoutStatus, SaleProduct };

/** A failure with the fields the server named, if it named any: the BFF client's own error. */
export { BffError as SaleError };

const TIMEOUT_MS = 15_000;
/** Worth another try (with the same Idempotency-Key): the server was busy, or the first try is still running. */
const RETRY_STATUSES = [409, 429, 502, 503, 504];

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

  /** The product as a reader of `lang` sees it: the server names its unit in that language. */
  product(token: string, lang: string, signal?: AbortSignal): Promise<SaleProduct> {
    return this.#request(`products/${encodeURIComponent(token)}`, { headers: { 'accept-language': lang } }, signal);
  }

  /**
   * One attempt: the same `key` on every retry, so the server makes one payment at most. With a portal
   * `token` (BFF mode), the signed-in customer buys as themselves.
   */
  checkout(body: CheckoutRequest, key: string, signal?: AbortSignal, token?: string): Promise<CheckoutAnswer> {
    const headers = { 'content-type': 'application/json', 'idempotency-key': key, ...(token && { authorization: `Bearer ${token}` }) };
    return this.#request('checkout', { method: 'POST', headers, body: JSON.stringify(body) }, signal);
  }

  outcome(attempt: string, signal?: AbortSignal): Promise<CheckoutOutcome> {
    return this.#request(`checkout/${encodeURIComponent(attempt)}`, {}, signal);
  }

  /** Retries network failures and busy answers (with the same Idempotency-Key for a checkout) a few times. */
  async #request<T>(path: string, init: RequestInit, signal?: AbortSignal): Promise<T> {
    for (let attempt = 1; ; attempt += 1) {
      const timeout = AbortSignal.timeout(TIMEOUT_MS);
      // Browsers without `AbortSignal.any` (Safari before 17.4) wait for their own network timeout.
      const response = await fetch(this.#base + path + this.#ext, { ...init, headers: { accept: 'application/json', ...init.headers }, signal: signal ? (AbortSignal.any?.([signal, timeout]) ?? signal) : timeout }).catch(
        (error: unknown) => {
          if (signal?.aborted) throw error;
          return undefined;
        },
      );
      if (response?.ok) return (await response.json()) as T;
      if (attempt < 4 && (!response || RETRY_STATUSES.includes(response.status))) {
        await new Promise((resolve) => setTimeout(resolve, Math.min(Number(response?.headers.get('retry-after')) * 1000 || 500 * attempt, 3000)));
        if (signal?.aborted) throw signal.reason;
        continue;
      }
      if (!response) throw new BffError(0, 'network', 'unreachable');
      // The BFF answers `{error: {code, message, fields}}`; the service `{code: "error", message}`, with fields as the message.
      const body = (await response.json().catch(() => ({}))) as { error?: { code?: string; message?: string; fields?: Record<string, string[]> }; message?: unknown };
      const message = body.error?.message ?? body.message;
      throw new BffError(response.status, body.error?.code ?? 'error', typeof message === 'string' ? message : response.statusText, body.error?.fields ?? (message as Record<string, string[]>) ?? {});
    }
  }
}
