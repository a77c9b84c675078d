import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { InvoicingClient } from './api/index.js';
import { issuePortalToken, renderInvoiceList, type BffApp } from './bff/index.js';

/** The cookie the demo's sign-in keeps the chosen customer in, beside the page's own storage (demo/src/session.ts). */
export const DEMO_CUSTOMER_COOKIE = 'invoicekit-demo-customer';

/** The list's query in the portal's URL, as the element takes it (demo/src/portal.ts). */
const QUERY = ['status', 'period', 'search'] as const;

export interface PortalPageOptions {
  /** The built demo site. */
  root: string;
  bff: BffApp;
  client: InvoicingClient;
  portalSecret: string;
}

/**
 * The demo portal as a host's server renders it: the page with the signed-in customer's
 * `<invoice-list>` printed in, first page and all (`renderInvoiceList`), so the list is on screen at
 * the first paint and nothing moves when the element takes over. The customer is the one `?customer=`
 * names, else the one the demo's sign-in chose last (a cookie), else the first; a page the server
 * cannot render for them (an unknown customer, a service that does not answer) is served as built,
 * and the element loads the list itself.
 */
export function portalPage({ root, bff, client, portalSecret }: PortalPageOptions): (request: Request) => Promise<Response> {
  let page: Promise<string> | undefined;
  return async (request) => {
    const html = await (page ??= readFile(join(root, 'portal.html'), 'utf8'));
    const url = new URL(request.url);
    const list = await renderedList(url, request.headers.get('cookie') ?? '').catch(() => undefined);
    const body = list ? html.replace(/<invoice-list\b[^>]*><\/invoice-list>/, list) : html;
    return new Response(body, { headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' } });
  };

  async function renderedList(url: URL, cookie: string): Promise<string | undefined> {
    const customers = (await client.clients.list({ per_page: 100 })).filter((customer) => customer.external_id);
    const stored = new RegExp(`(?:^|;\\s*)${DEMO_CUSTOMER_COOKIE}=([^;]*)`).exec(cookie)?.[1];
    const chosen =
      customers.find((customer) => String(customer.id) === url.searchParams.get('customer')) ??
      customers.find((customer) => customer.external_id === (stored && decodeURIComponent(stored))) ??
      customers[0];
    // The list's later pages and sorts are the element's to load: the server renders what a first visit shows.
    if (!chosen || url.searchParams.has('page') || url.searchParams.has('order')) return undefined;
    const portalToken = await issuePortalToken({ clientId: chosen.id, ttlSeconds: 3600 }, portalSecret);
    const query = Object.fromEntries(QUERY.flatMap((key) => (url.searchParams.get(key) ? [[key, url.searchParams.get(key)!]] : [])));
    const rendered = await renderInvoiceList({ bff, portalToken, locale: 'en', endpoint: '/bff', ...query });
    // The demo signs in on the page (demo/src/portal.ts) and hands the list the token itself.
    return rendered;
  }
}
