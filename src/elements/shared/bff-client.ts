import ky, { HTTPError, type KyInstance } from 'ky';

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
  status?: ListStatus;
  period?: string;
  search?: string;
  order?: string;
}

export interface InvoicePage {
  invoices: PortalInvoice[];
  page: number;
  perPage: number;
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

async function toBffError(error: unknown): Promise<unknown> {
  if (error instanceof DOMException && error.name === 'AbortError') return error;
  if (error instanceof HTTPError) {
    const body = (await error.response.json().catch(() => undefined)) as
      | { error?: { code?: string; message?: string } }
      | undefined;
    return new BffError(error.response.status, body?.error?.code ?? 'http_error', body?.error?.message ?? error.message);
  }
  // A timeout or a network failure: the BFF was not reached.
  return new BffError(0, 'network', String(error));
}

/**
 * The browser side of the BFF's portal routes. It sends only the short-lived portal token the host's
 * backend minted for this customer; the account's api_token never reaches a page.
 */
export class BffClient {
  private readonly http: KyInstance;

  constructor(endpoint: string, portalToken: string) {
    this.http = ky.create({
      prefixUrl: new URL(endpoint.replace(/\/*$/, '/'), document.baseURI).href,
      headers: portalToken ? { authorization: `Bearer ${portalToken}` } : {},
      retry: 1,
    });
  }

  async listInvoices(query: InvoiceListQuery, signal?: AbortSignal): Promise<InvoicePage> {
    const searchParams: Record<string, string | number> = {};
    for (const [key, value] of Object.entries(query)) if (value !== undefined && value !== '') searchParams[key] = value;
    try {
      const response = await this.http.get('invoices', { searchParams, signal });
      const body = await response.json<{ data: PortalInvoice[]; page: number; per_page: number; total: number }>();
      return { invoices: body.data, page: body.page, perPage: body.per_page, total: body.total };
    } catch (error) {
      throw await toBffError(error);
    }
  }

  /**
   * A link to one invoice's PDF that works without the token for a few minutes, so the browser can
   * open or save it natively (its own viewer, download bar and file name).
   */
  async pdfLink(id: number, signal?: AbortSignal): Promise<PdfLink> {
    try {
      return await this.http.get(`invoices/${id}/pdf-link`, { signal }).json<PdfLink>();
    } catch (error) {
      throw await toBffError(error);
    }
  }
}
