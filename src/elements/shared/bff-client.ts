import ky, { HTTPError, type KyInstance, type Options } from 'ky';

export const LIST_STATUSES = ['paid', 'partial', 'unpaid', 'overdue'] as const;
export type ListStatus = (typeof LIST_STATUSES)[number];

/**
 * An invoice as the BFF's portal list shows it to a customer (the fields the element reads; the BFF
 * sends a few more). Amounts are decimal strings; `status` is derived by the BFF from `payment_to`
 * and what has been paid.
 */
export interface PortalInvoice {
  id: number;
  number: string;
  status: ListStatus;
  issue_date: string;
  payment_to: string | null;
  currency: string;
  price_gross: string;
  paid: string;
  /** What is left to pay: `"0"` once paid. */
  outstanding: string;
  /** Where the customer pays, while something is left to pay. */
  payment_url: string | null;
  /** The invoice's public page. */
  view_url: string | null;
}

/** A short-lived link that opens one invoice's PDF without the portal token. */
export interface PdfLink {
  url: string;
  expires_at: string;
}

export interface InvoiceListQuery {
  page: number;
  per_page: number;
  status?: ListStatus | undefined;
  period?: string | undefined;
  search?: string | undefined;
  order?: string | undefined;
}

/** One page of the portal list, as the BFF sends it. */
export interface InvoicePage {
  data: PortalInvoice[];
  page: number;
  per_page: number;
  /** Invoices matching the query across all pages. */
  total: number;
}

/** A failure the element can explain: `status` 0 means the BFF could not be reached. */
export class BffError extends Error {
  readonly status: number;
  readonly code: string;
  constructor(status: number, code: string, message: string) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

/**
 * The browser side of the BFF's portal routes. It sends only the short-lived portal token the host's
 * backend minted for this customer; the account's api_token never reaches a page.
 */
export class BffClient {
  readonly #http: KyInstance;

  constructor(endpoint: string, portalToken: string) {
    this.#http = ky.create({
      prefixUrl: new URL(endpoint.replace(/\/*$/, '/'), document.baseURI).href,
      headers: portalToken ? { authorization: `Bearer ${portalToken}` } : {},
      retry: 1,
    });
  }

  /** Unset filters are left out of the query string. */
  listInvoices(query: InvoiceListQuery, signal?: AbortSignal): Promise<InvoicePage> {
    return this.#get('invoices', { searchParams: { ...query }, signal });
  }

  /**
   * A link to one invoice's PDF that works without the token for a few minutes, so the browser can
   * open or save it natively (its own viewer, download bar and file name).
   */
  pdfLink(id: number, signal?: AbortSignal): Promise<PdfLink> {
    return this.#get(`invoices/${id}/pdf-link`, { signal });
  }

  /** A JSON GET whose failures arrive as `BffError`s (an abort stays an `AbortError`). */
  async #get<T>(path: string, options: Options): Promise<T> {
    try {
      return await this.#http.get(path, options).json<T>();
    } catch (error) {
      if (error instanceof DOMException && error.name === 'AbortError') throw error;
      if (error instanceof HTTPError) {
        const body = (await error.response.json().catch(() => undefined)) as { error?: { code?: string; message?: string } } | undefined;
        throw new BffError(error.response.status, body?.error?.code ?? 'http_error', body?.error?.message ?? error.message);
      }
      // A timeout or a network failure: the BFF was not reached.
      throw new BffError(0, 'network', String(error));
    }
  }
}
