import type { BffApp } from './context.js';
import { BffError, ERROR_CODES, type ErrorBody, type ErrorCode } from './errors.js';
import type { RenderInvoiceListOptions } from './routes/render.js';

export type { RenderInvoiceListOptions } from './routes/render.js';

const basePaths = new WeakMap<BffApp, string>();

/** `createBff` notes where its routes live, so `renderInvoiceList` can call them in-process. */
export function noteBasePath(app: BffApp, basePath: string): void {
  basePaths.set(app, basePath);
}

export interface RenderInvoiceListRequest extends RenderInvoiceListOptions {
  /** The BFF: the app `createBff` made (called in-process, no network), or the URL of its base path. */
  bff: BffApp | string | URL;
  /** The customer's portal token; the fragment is rendered for that customer alone. */
  portalToken: string;
  signal?: AbortSignal;
}

/**
 * The customer's `<invoice-list>` rendered on the server, as `POST {basePath}/render/invoice-list`
 * answers it: the tag with a declarative shadow root holding its toolbar, totals and first page,
 * and the data the element takes over with. Print it into the page; the element script makes it
 * interactive without asking for that page again.
 *
 * Throws a `BffError` with the BFF's status and code (401 for a missing or expired token, 422 for
 * options it does not understand).
 */
export async function renderInvoiceList(request: RenderInvoiceListRequest): Promise<string> {
  const { bff, portalToken, signal, ...options } = request;
  const init: RequestInit = {
    method: 'POST',
    headers: { authorization: `Bearer ${portalToken}`, 'content-type': 'application/json', accept: 'text/html' },
    body: JSON.stringify(options),
    signal: signal ?? null,
  };
  const response =
    typeof bff === 'string' || bff instanceof URL
      ? await fetch(`${String(bff).replace(/\/+$/, '')}/render/invoice-list`, init)
      : await bff.request(`${basePaths.get(bff) ?? ''}/render/invoice-list`, init);
  if (response.ok) return response.text();
  const body = (await response.json().catch(() => undefined)) as Partial<ErrorBody> | undefined;
  const error = body?.error;
  throw new BffError(response.status, (error?.code ?? ERROR_CODES.upstream) as ErrorCode, error?.message ?? 'The BFF could not render the list.', {
    ...(error?.fields ? { fields: error.fields } : {}),
  });
}
