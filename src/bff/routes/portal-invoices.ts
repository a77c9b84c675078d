import { Hono, type MiddlewareHandler } from 'hono';
import { z } from 'zod';
import type { Invoice } from '../../api/schemas/invoice.js';
import { PORTAL_LIST_FILTERS, PORTAL_LIST_PERIODS, PORTAL_ORDER_FIELDS } from '../../contract/portal.js';
import type { Period } from '../../api/schemas/invoice.js';
import { todayIn, type Bff, type BffContext, type Env } from '../context.js';
import { BffError, ERROR_CODES, notFound } from '../errors.js';
import { requireSession } from '../middleware.js';
import { issuePdfLinkToken, PortalTokenError, verifyPdfLinkToken } from '../portal-token.js';
import { einvoiceDocument, einvoiceFormatOf } from '../portal-einvoice.js';
import { portalList } from '../portal-list.js';
import { intParam, validate } from '../validation.js';
import { customerInvoice, isActive } from '../views.js';

const ID_PATTERN = /^[1-9]\d{0,14}$/;
// Every period of the portal list is one the service's list filters by.
PORTAL_LIST_PERIODS satisfies readonly Period[];

export const invoiceListQuery = z.object({
  page: intParam('page', 1, 100_000, 1),
  per_page: intParam('per_page', 1, 100, 25),
  period: z.enum(PORTAL_LIST_PERIODS, { message: `must be one of ${PORTAL_LIST_PERIODS.join(', ')}` }).optional(),
  status: z.enum(PORTAL_LIST_FILTERS, { message: `must be one of ${PORTAL_LIST_FILTERS.join(', ')}` }).optional(),
  search: z.string().trim().max(100, 'is too long (maximum is 100 characters)').optional(),
  order: z
    .string()
    .regex(
      new RegExp(`^(${PORTAL_ORDER_FIELDS.join('|')})(\\.(asc|desc))?$`),
      `must be one of ${PORTAL_ORDER_FIELDS.join(', ')}, optionally with .asc or .desc`,
    )
    .optional(),
  totals: z.enum(['true', 'false', '1', '0'], { message: 'must be true or false' }).optional().transform((value) => value !== 'false' && value !== '0'),
});

/** The session client's invoice `idText`; another client's, a rejected one and a missing one all answer 404 alike. */
export async function ownInvoice(bff: Bff, c: BffContext, clientId: number, idText: string): Promise<Invoice> {
  if (!ID_PATTERN.test(idText)) throw notFound('invoice');
  let invoice: Invoice;
  try {
    invoice = await bff.service(c, 'invoices.get', (call) => bff.client.invoices.get(Number(idText), call));
  } catch (error) {
    if (error instanceof BffError && error.status === 404) throw notFound('invoice');
    throw error;
  }
  if (invoice.client_id !== clientId || !isActive(invoice)) throw notFound('invoice');
  return invoice;
}

/** The portal's invoice routes: the session client's list, one invoice, its PDF and its e-invoice. */
export function portalInvoiceRoutes(bff: Bff): Hono<Env> {
  const { basePath, timeZone } = bff;
  const pdfLinkTtl = Math.min(bff.options.pdfLinkTtlSeconds ?? 300, 3600);
  const listPage = portalList(bff);
  const routes = new Hono<Env>();
  /** The portal token, or a short-lived link (`pdf-link`) to this one invoice's documents. */
  const sessionOrLink: MiddlewareHandler<Env> = async (c, next) => {
    const link = c.req.query('link');
    if (link === undefined) return requireSession(bff, 'invoices:read')(c, next);
    try {
      const claims = await verifyPdfLinkToken(link, bff.secretKey);
      if (String(claims.invoiceId) !== c.req.param('id')) throw new PortalTokenError('invalid');
      c.set('session', { clientId: claims.clientId, scopes: new Set(['invoices:read']), expiresAt: 0 });
    } catch (error) {
      const expired = error instanceof PortalTokenError && error.reason === 'expired';
      throw new BffError(401, expired ? ERROR_CODES.tokenExpired : ERROR_CODES.unauthorized, expired ? 'The link has expired.' : 'The link is not valid.');
    }
    await next();
  };

  routes.get('/invoices', requireSession(bff, 'invoices:read', 'list'), async (c) => {
    const query = validate(invoiceListQuery, c.req.query());
    const page = await listPage(c, c.get('session').clientId, query);
    c.header('Cache-Control', 'private, no-store');
    if (page.total !== undefined) c.header('X-Total-Count', String(page.total));
    return c.json(page);
  });

  routes.get('/invoices/:id', requireSession(bff, 'invoices:read'), async (c) => {
    const invoice = await ownInvoice(bff, c, c.get('session').clientId, c.req.param('id'));
    c.header('Cache-Control', 'private, no-store');
    return c.json(customerInvoice(invoice, todayIn(timeZone), basePath, true));
  });

  routes.get('/invoices/:id/pdf-link', requireSession(bff, 'invoices:read'), async (c) => {
    const session = c.get('session');
    const invoice = await ownInvoice(bff, c, session.clientId, c.req.param('id'));
    const link = await issuePdfLinkToken(session.clientId, invoice.id, pdfLinkTtl, bff.secretKey);
    const path = `${basePath}/invoices/${invoice.id}/pdf?link=${encodeURIComponent(link)}`;
    c.header('Cache-Control', 'private, no-store');
    return c.json({
      url: new URL(path, bff.publicOrigin(c.req.raw)).href,
      expires_at: new Date(Date.now() + pdfLinkTtl * 1000).toISOString(),
    });
  });

  routes.get(
    '/invoices/:id/pdf',
    sessionOrLink,
    async (c) => {
      const invoice = await ownInvoice(bff, c, c.get('session').clientId, c.req.param('id'));
      const pdf = await bff.service(c, 'invoices.pdf', (call) => bff.client.invoices.pdf(invoice.id, call));
      if (!isPdf(pdf)) {
        bff.emit({ level: 'error', msg: 'service answered something else than a PDF', request_id: c.get('requestId'), call: 'invoices.pdf' });
        throw new BffError(502, ERROR_CODES.upstream, 'The invoicing service could not complete the request.');
      }
      const filename = `invoice-${invoice.number.replace(/[^A-Za-z0-9._-]+/g, '-')}.pdf`;
      const disposition = c.req.query('download') !== undefined ? 'attachment' : 'inline';
      // Through the context, so the CORS headers set before this handler reach the answer.
      return c.body(pdf as Uint8Array<ArrayBuffer>, 200, {
        'Content-Type': 'application/pdf',
        'Content-Length': String(pdf.byteLength),
        'Content-Disposition': `${disposition}; filename="${filename}"`,
        'Cache-Control': 'private, no-store',
      });
    },
  );

  routes.get('/invoices/:id/einvoice', sessionOrLink, async (c) => {
    const clientId = c.get('session').clientId;
    const [invoice, format] = await Promise.all([ownInvoice(bff, c, clientId, c.req.param('id')), einvoiceFormatOf(bff, c, clientId)]);
    if (!format) throw new BffError(404, ERROR_CODES.notFound, 'No e-invoice format is set for you.');
    const document = await einvoiceDocument(bff, c, invoice, format);
    return c.body(document.body as Uint8Array<ArrayBuffer>, 200, {
      'Content-Type': document.contentType === 'application/xml' ? 'application/xml; charset=utf-8' : document.contentType,
      'Content-Length': String(document.body.byteLength),
      'Content-Disposition': `attachment; filename="${document.filename}"`,
      'Cache-Control': 'private, no-store',
    });
  });

  return routes;
}

function isPdf(bytes: Uint8Array): boolean {
  return bytes.byteLength > 5 && String.fromCharCode(...bytes.subarray(0, 5)) === '%PDF-';
}
