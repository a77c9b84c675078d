import { BffError, fetchJson } from './fetch-json.js';
import type { PortalTokenSource } from './token-renewal.js';
import type { CheckoutStatus } from '../../contract/sale.js';
import type { CustomerClient, PdfLink, PortalListPage, PortalListQuery, RenderedInvoice, SignupResult } from '../../contract/portal.js';
export { BffError } from './fetch-json.js';

export {
  CUSTOMER_STATUSES as LIST_STATUSES,
  PORTAL_LIST_FILTERS as LIST_FILTERS,
  type CustomerStatus as ListStatus,
  type CustomerTotals,
  type PdfLink,
  type PortalListFilter as ListFilter,
  type SignupResult,
} from '../../contract/portal.js';

/**
 * An invoice as the BFF's portal list shows it to a customer (`CustomerInvoice` in the wire contract,
 * `src/contract/portal.ts`), with a PDF link when a server rendered the list.
 */
export type PortalInvoice = RenderedInvoice;

/** A query of the portal list. */
export type InvoiceListQuery = PortalListQuery;

/** One page of the portal list, as the BFF sends it. */
export interface InvoicePage extends PortalListPage<PortalInvoice> {
  /** Invoices matching the query across all pages. */
  total: number;
}

/** The customer's own client record, as the BFF shows it to them. */
export type PortalClient = CustomerClient;

/** How a payment ended: `pending` until the provider says. */
export type PaymentOutcomeStatus = CheckoutStatus;

/**
 * The browser side of the BFF's portal routes. It sends only the short-lived portal token the host's
 * backend minted for this customer; the account's api_token never reaches a page. Requests go through
 * `fetchJson` and its one retry rule. The list's routes and the client record's are two classes, so
 * each element's bundle carries only the routes it calls.
 */
abstract class BffRoutes {
  readonly #base: string;
  readonly #token: PortalTokenSource;

  /** A request the BFF refuses as `token_expired` is sent once more under the token `portalToken` renews, if it gives one. */
  constructor(endpoint: string, portalToken: PortalTokenSource) {
    this.#base = new URL(endpoint.replace(/\/*$/, '/'), document.baseURI).href;
    this.#token = portalToken;
  }

  /** A JSON request whose failures arrive as `BffError`s (an abort stays an `AbortError`). */
  protected async request<T>(path: string, signal?: AbortSignal, method?: string, body?: unknown): Promise<T> {
    const send = (token: string) => fetchJson<T>(this.#base + path, { method, headers: token ? { authorization: `Bearer ${token}` } : {}, body, signal });
    const token = await this.#token();
    return send(token).catch(async (error: unknown) => {
      const fresh = error instanceof BffError && error.code === 'token_expired' && (await this.#token(token));
      signal?.throwIfAborted();
      if (!fresh || fresh === token) throw error;
      return send(fresh);
    });
  }
}

/** The customer portal's invoices: the list, PDF links and payments. */
export class BffClient extends BffRoutes {
  /** Unset filters are left out of the query string. */
  listInvoices(query: InvoiceListQuery, signal?: AbortSignal): Promise<InvoicePage> {
    const search = new URLSearchParams();
    for (const [key, value] of Object.entries(query)) if (value !== undefined && value !== '') search.set(key, String(value));
    return this.request(`invoices?${search}`, signal);
  }

  /**
   * A link to one invoice's PDF that works without the token for a few minutes, so the browser can
   * open or save it natively (its own viewer, download bar and file name).
   */
  pdfLink(id: number, signal?: AbortSignal): Promise<PdfLink> {
    return this.request(`invoices/${id}/pdf-link`, signal);
  }

  /** Where the customer pays what is left on an invoice and returns from (`returnUrl`, an allowed page). */
  payment(id: number, returnUrl: string): Promise<{ redirectUrl: string | null; attempt?: string }> {
    return this.request(`invoices/${id}/payment`, undefined, 'POST', { returnUrl });
  }

  /** How the payment an `attempt` names ended, as the service records it: never what the return address says. */
  paymentOutcome(attempt: string, signal?: AbortSignal): Promise<{ status: PaymentOutcomeStatus }> {
    return this.request(`checkout/${encodeURIComponent(attempt)}`, signal);
  }
}

/** The session customer's own client record, and signing a new customer up. */
export class ClientRecordClient extends BffRoutes {
  /** The session customer's client record. */
  client(signal?: AbortSignal): Promise<PortalClient> {
    return this.request('client', signal);
  }

  /** Changes the session customer's client record; answers it as saved. */
  updateClient(changes: Partial<PortalClient>, signal?: AbortSignal): Promise<PortalClient> {
    return this.request('client', signal, 'PUT', changes);
  }

  /** Signs a new customer up, where the BFF allows it. Never retried (a POST without a key): a second try could create a second client. */
  createClient(client: Partial<PortalClient>, signal?: AbortSignal): Promise<SignupResult> {
    return this.request('clients', signal, 'POST', client);
  }
}
