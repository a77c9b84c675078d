import type { CheckoutStatus } from '../../contract/sale.js';
import type { CustomerClient, PdfLink, PortalListPage, PortalListQuery, RenderedInvoice, SignupResult } from '../../contract/portal.js';

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

/** A failure the element can explain: `status` 0 means the BFF could not be reached. */
export class BffError extends Error {
  readonly status: number;
  readonly code: string;
  /** A 422's messages by field. */
  readonly fields: Record<string, string[]>;
  constructor(status: number, code: string, message: string, fields: Record<string, string[]> = {}) {
    super(message);
    this.status = status;
    this.code = code;
    this.fields = fields;
  }
}

/** How a payment ended: `pending` until the provider says. */
export type PaymentOutcomeStatus = CheckoutStatus;

/** How long one attempt may take before the element shows the BFF as unreachable. */
const TIMEOUT_MS = 15_000;
/** Answers worth one more try: the BFF or the service was briefly unavailable. */
const RETRY_STATUSES = new Set([429, 502, 503, 504]);

const pause = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(signal.reason);
    }, { once: true });
  });

/** Aborts when either signal does (`AbortSignal.any` where the browser has it). */
function either(a: AbortSignal, b: AbortSignal): AbortSignal {
  if ('any' in AbortSignal) return AbortSignal.any([a, b]);
  const controller = new AbortController();
  for (const s of [a, b]) s.addEventListener('abort', () => controller.abort(s.reason), { once: true });
  return controller.signal;
}

/**
 * The browser side of the BFF's portal routes. It sends only the short-lived portal token the host's
 * backend minted for this customer; the account's api_token never reaches a page. Plain `fetch`
 * with a timeout and one retry: ky would cost a quarter of the element's 20 KB budget.
 */
export class BffClient {
  readonly #base: string;
  readonly #headers: Record<string, string>;

  constructor(endpoint: string, portalToken: string) {
    this.#base = new URL(endpoint.replace(/\/*$/, '/'), document.baseURI).href;
    this.#headers = portalToken ? { accept: 'application/json', authorization: `Bearer ${portalToken}` } : { accept: 'application/json' };
  }

  /** Unset filters are left out of the query string. */
  listInvoices(query: InvoiceListQuery, signal?: AbortSignal): Promise<InvoicePage> {
    const search = new URLSearchParams();
    for (const [key, value] of Object.entries(query)) if (value !== undefined && value !== '') search.set(key, String(value));
    return this.#get(`invoices?${search}`, signal);
  }

  /**
   * A link to one invoice's PDF that works without the token for a few minutes, so the browser can
   * open or save it natively (its own viewer, download bar and file name).
   */
  pdfLink(id: number, signal?: AbortSignal): Promise<PdfLink> {
    return this.#get(`invoices/${id}/pdf-link`, signal);
  }

  /** Where the customer pays what is left on an invoice and returns from (`returnUrl`, an allowed page). */
  payment(id: number, returnUrl: string): Promise<{ redirectUrl: string | null; attempt?: string }> {
    return this.#get(`invoices/${id}/payment`, undefined, false, { method: 'POST', body: JSON.stringify({ returnUrl }) });
  }

  /** How the payment an `attempt` names ended, as the service records it: never what the return address says. */
  paymentOutcome(attempt: string, signal?: AbortSignal): Promise<{ status: PaymentOutcomeStatus }> {
    return this.#get(`checkout/${encodeURIComponent(attempt)}`, signal);
  }

  /** The session customer's client record. */
  client(signal?: AbortSignal): Promise<PortalClient> {
    return this.#get('client', signal);
  }

  /** Changes the session customer's client record; answers it as saved. */
  updateClient(changes: Partial<PortalClient>, signal?: AbortSignal): Promise<PortalClient> {
    return this.#get('client', signal, false, { method: 'PUT', body: JSON.stringify(changes) });
  }

  /** Signs a new customer up, where the BFF allows it. Never retried: a second try could create a second client. */
  createClient(client: Partial<PortalClient>, signal?: AbortSignal): Promise<SignupResult> {
    return this.#get('clients', signal, true, { method: 'POST', body: JSON.stringify(client) });
  }

  /** A JSON request whose failures arrive as `BffError`s (an abort stays an `AbortError`). */
  async #get<T>(path: string, signal?: AbortSignal, retried = false, init?: { method: string; body: string }): Promise<T> {
    let response: Response;
    const timeout = AbortSignal.timeout(TIMEOUT_MS);
    try {
      response = await fetch(this.#base + path, {
        ...init,
        headers: init ? { ...this.#headers, 'content-type': 'application/json' } : this.#headers,
        signal: signal ? either(signal, timeout) : timeout,
      });
    } catch (error) {
      if (signal?.aborted) throw error;
      // A timeout or a network failure: the BFF was not reached.
      if (!retried) return this.#get(path, signal, true, init);
      throw new BffError(0, 'network', String(error));
    }
    if (response.ok) return (await response.json()) as T;
    if (!retried && RETRY_STATUSES.has(response.status)) {
      const after = Number(response.headers.get('retry-after'));
      await pause(Math.min(Number.isFinite(after) && after > 0 ? after * 1000 : 500, 3000), signal);
      return this.#get(path, signal, true, init);
    }
    const body = (await response.json().catch(() => undefined)) as { error?: { code?: string; message?: string; fields?: Record<string, string[]> } } | undefined;
    throw new BffError(response.status, body?.error?.code ?? 'http_error', body?.error?.message ?? response.statusText, body?.error?.fields);
  }
}
