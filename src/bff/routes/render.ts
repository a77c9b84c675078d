import { Hono } from 'hono';
import { z } from 'zod';
import { PORTAL_LIST_FILTERS, PORTAL_LIST_PERIODS } from '../../contract/portal.js';
import { catalogLanguage } from '../../elements/shared/i18n.js';
import type { Bff, Env } from '../context.js';
import { requireSession } from '../middleware.js';
import { issuePdfLinkToken } from '../portal-token.js';
import { portalList } from '../portal-list.js';
import { invoiceListQuery } from './portal-invoices.js';
import { readJson, validate } from '../validation.js';

/** A PDF link in a server-rendered page works as long as the portal token it was rendered for, and at most a day. */
const MAX_LINK_TTL_SECONDS = 24 * 3600;

const canonical = (tag: string) => {
  try {
    return Intl.getCanonicalLocales(tag)[0];
  } catch {
    return undefined;
  }
};

/** The element's options, as `<invoice-list>` takes them; unknown keys are ignored, as the element ignores unknown attributes. */
export const renderInvoiceListOptions = z.object({
  locale: z
    .string()
    .max(35, 'is too long (maximum is 35 characters)')
    .refine((tag) => canonical(tag) !== undefined, 'must be a language tag such as "en", "en-GB" or "pl"')
    .optional(),
  per_page: z.union([z.number(), z.string().regex(/^\d{1,3}$/).transform(Number)]).pipe(
    z.number().int('must be a whole number from 1 to 100').min(1, 'must be a whole number from 1 to 100').max(100, 'must be a whole number from 1 to 100'),
  ).optional(),
  status: z.enum(['all', ...PORTAL_LIST_FILTERS], { message: `must be one of ${PORTAL_LIST_FILTERS.join(', ')}, or all` }).optional(),
  period: z.enum(PORTAL_LIST_PERIODS, { message: `must be one of ${PORTAL_LIST_PERIODS.join(', ')}` }).optional(),
  search: invoiceListQuery.shape.search,
  sort: invoiceListQuery.shape.order,
  /** The BFF's base URL as the customer's browser reaches it, when it is not this BFF's own base path. */
  endpoint: z.string().trim().max(2000, 'is too long').regex(/^(https?:\/\/|\/)/i, 'must be an http(s) URL or a path starting with /').optional(),
  return_url: z.string().trim().max(2000, 'is too long').regex(/^https?:\/\//i, 'must be an http(s) URL').optional(),
});
export type RenderInvoiceListOptions = z.input<typeof renderInvoiceListOptions>;

/** A sort without direction takes the one the element's headers start with: soonest due first, else newest or largest. */
const fullOrder = (sort: string | undefined) => (!sort || sort.includes('.') ? sort : `${sort}.${sort === 'payment_to' ? 'asc' : 'desc'}`);

/** A `null` or empty option means its default, as a template or PHP's `json_encode` writes an unset value. */
const withoutBlanks = (body: unknown) =>
  body && typeof body === 'object' && !Array.isArray(body) ? Object.fromEntries(Object.entries(body).filter(([, value]) => value !== null && value !== '')) : body;

/**
 * `POST /render/invoice-list`: the session customer's `<invoice-list>`, rendered on the server with
 * its first page, for a host page to print. The renderer (Lit's, with the element) loads on first use.
 */
export function renderRoutes(bff: Bff): Hono<Env> {
  const listPage = portalList(bff);
  const routes = new Hono<Env>();
  let renderer: Promise<typeof import('../render/invoice-list-html.js')> | undefined;
  // Imported once: a page signs a PDF link per row.
  let linkKey: Promise<CryptoKey> | undefined;

  routes.post('/render/invoice-list', requireSession(bff, 'invoices:read', 'list'), async (c) => {
    // An empty body asks for the defaults; Hono keeps the text, so `readJson` reads it again.
    const body = (await c.req.text()).trim() ? await readJson(c) : {};
    const options = validate(renderInvoiceListOptions, withoutBlanks(body));
    const status = options.status === 'all' ? undefined : options.status;
    const period = options.period === 'all' ? undefined : options.period;
    const session = c.get('session');
    const order = fullOrder(options.sort);
    const perPage = options.per_page ?? 25;
    // A language without translations reads as English, as in the element (which would look for the page's `lang`).
    const tag = options.locale && canonical(options.locale);
    const locale = tag && catalogLanguage(tag) ? tag : 'en';
    const [page, { invoiceListHtml }] = await Promise.all([
      listPage(c, session.clientId, {
        page: 1,
        per_page: perPage,
        status,
        period,
        search: options.search || undefined,
        order,
        totals: true,
      }),
      (renderer ??= import('../render/invoice-list-html.js')),
    ]);
    const base = (options.endpoint ?? bff.basePath).replace(/\/+$/, '');
    const ttl = Math.max(1, Math.min(session.expiresAt - Math.floor(Date.now() / 1000), MAX_LINK_TTL_SECONDS));
    const data = await Promise.all(
      page.data.map(async (invoice) => {
        linkKey ??= crypto.subtle.importKey('raw', bff.secretKey as Uint8Array<ArrayBuffer>, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
        const link = await issuePdfLinkToken(session.clientId, invoice.id, ttl, await linkKey);
        const signed = `link=${encodeURIComponent(link)}`;
        // The same link opens the e-invoice, so the row's download works without the script too.
        const einvoice = invoice.einvoice && { ...invoice.einvoice, url: `${base}/invoices/${invoice.id}/einvoice?${signed}` };
        return { ...invoice, pdf_link: `${base}/invoices/${invoice.id}/pdf?${signed}&download`, einvoice };
      }),
    );
    const markup = await invoiceListHtml({
      portalToken: c.req.header('authorization')!.replace(/^Bearer\s+/i, '').trim(),
      locale,
      perPage,
      status,
      period,
      search: options.search,
      order,
      endpoint: options.endpoint ?? (bff.basePath || '/'),
      returnUrl: options.return_url,
      page: { data, page: 1, per_page: perPage, total: page.total ?? 0, totals: page.totals ?? [] },
    });
    c.header('Cache-Control', 'private, no-store');
    return c.html(markup);
  });

  return routes;
}
