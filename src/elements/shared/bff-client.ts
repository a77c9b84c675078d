import ky, { HTTPError, TimeoutError, type KyInstance } from 'ky';

/** The invoice fields the BFF shows a customer. */
export interface PortalInvoice {
  id: number;
  number: string;
  issue_date: string;
  payment_to: string | null;
  price_gross: string;
  paid: string;
  currency: string;
  status: string;
  view_url: string;
  payment_url: string;
  pdf_url?: string | null;
}

export const LIST_STATUSES = ['paid', 'partial', 'unpaid', 'overdue'] as const;
export type ListStatus = (typeof LIST_STATUSES)[number];

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
    this.name = 'BffError';
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
  if (error instanceof TimeoutError) return new BffError(0, 'timeout', error.message);
  if (error instanceof TypeError) return new BffError(0, 'network', error.message);
  return error;
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
      timeout: 20_000,
      retry: { limit: 1, methods: ['get'] },
    });
  }

  async listInvoices(query: InvoiceListQuery, signal?: AbortSignal): Promise<InvoicePage> {
    const searchParams: Record<string, string | number> = {};
    for (const [key, value] of Object.entries(query)) if (value !== undefined && value !== '') searchParams[key] = value;
    try {
      const response = await this.http.get('invoices', { searchParams, signal });
      return readInvoicePage(await response.json(), response.headers, query);
    } catch (error) {
      throw await toBffError(error);
    }
  }

  /** The PDF of one invoice, fetched with the portal token. */
  async invoicePdf(id: number, signal?: AbortSignal): Promise<Blob> {
    try {
      return await this.http.get(`invoices/${id}/pdf`, { signal }).blob();
    } catch (error) {
      throw await toBffError(error);
    }
  }
}

function readInvoicePage(body: unknown, headers: Headers, query: InvoiceListQuery): InvoicePage {
  const envelope = (Array.isArray(body) ? { invoices: body } : body) as Record<string, unknown>;
  const invoices = (envelope.invoices ?? envelope.data ?? []) as PortalInvoice[];
  const headerTotal = headers.get('x-total-count');
  const total = Number(envelope.total ?? headerTotal ?? invoices.length);
  return { invoices, page: query.page, perPage: query.per_page, total };
}
