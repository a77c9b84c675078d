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
    const body = list ? html.replace(/<invoice-list\b[^>]*><\/invoice-list>/, list).replace(/(<div id="owed"[^>]*>)(<\/div>)/, `$1${owedCards(list)}$2`) : html;
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
    // The page's sign-in keeps the list as it is for the customer it was rendered for (demo/src/portal.ts).
    return rendered.replace(/^<invoice-list /, `<invoice-list data-customer="${escapeHtml(chosen.external_id ?? '')}" `);
  }
}

interface CurrencyTotals {
  currency: string;
  outstanding: string;
  overdue: string;
}

const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const isZero = (amount: string) => /^[-+]?0*(\.0*)?$/.test(amount);
// Intl reads the decimal string itself, as the page's own script does: no binary float touches the amount.
const money = (amount: string, currency: string) => new Intl.NumberFormat('en', { style: 'currency', currency }).format(amount as unknown as number);

/**
 * What the customer owes, per currency, from the totals the rendered list carries: the same cards, in
 * English, that the page's script draws (demo/src/portal.ts `renderOwed`), so they are there at the
 * first paint and the script's redraw changes nothing on screen.
 */
function owedCards(list: string): string {
  const state = /<script type="application\/json" data-server-state>([\s\S]*?)<\/script>/.exec(list)?.[1];
  let totals: CurrencyTotals[] | undefined;
  try {
    totals = state ? (JSON.parse(state) as { totals?: CurrencyTotals[] }).totals : undefined;
  } catch {
    return '';
  }
  if (!totals) return '';
  const owing = totals.filter((entry) => !isZero(entry.outstanding));
  if (!owing.length) return '<p class="settled">Nothing to pay. Thank you!</p>';
  return owing
    .map((entry) => {
      const overdue = !isZero(entry.overdue);
      return `<div class="owed-card" data-currency="${escapeHtml(entry.currency)}"><span class="label">Outstanding · ${escapeHtml(entry.currency)}</span><strong class="amount">${escapeHtml(money(entry.outstanding, entry.currency))}</strong><span class="overdue"${overdue ? '' : ' hidden'}>Overdue: ${escapeHtml(money(entry.overdue, entry.currency))}</span></div>`;
    })
    .join('');
}
