import { Hono } from 'hono';
import type { Product } from '../../api/schemas/product.js';
import { unitForReader } from '../../kernel/units.js';
import type { Bff, BffContext, Env } from '../context.js';
import { BffError, ERROR_CODES, notFound } from '../errors.js';
import type { InvoicingClient } from '../options.js';
import { paymentsTestMode } from '../test-mode.js';
import { blikFor } from '../payment-methods.js';
import { publicProduct } from '../views.js';
import type { SaleProduct } from '../../contract/sale.js';

import { euVatNumberOf, PRODUCT_TOKEN_PATTERN, quantityProblem, quoteNamesBuyer, saleQuote } from '../../kernel/checkout.js';
import { supplyKindOf } from '../../kernel/tax/index.js';
import type { ProductQuote } from '../../contract/sale.js';
import type { ViesCheck } from '../vies-check.js';

export { PRODUCT_TOKEN_PATTERN };
const SERVICE_PAGE_SIZE = 100;

export type ProductLookup = (c: BffContext, token: string, fresh: boolean) => Promise<Product | undefined>;

/**
 * Finds a product by its public token, remembering the answer (and a miss) in the cache store.
 * `fresh` re-reads a remembered product, for checkout, where the price must be the current one.
 */
export function productLookup(bff: Bff): ProductLookup {
  const ttlMs = bff.options.productCacheMs ?? 30_000;
  const keyOf = (token: string) => `product:${token}`;

  return async (c, token, fresh) => {
    const cached = (await bff.cache.get(keyOf(token))) as Product | null | undefined;
    if (cached === null && !fresh) return undefined;
    if (cached) {
      if (!fresh) return cached;
      try {
        const current = await bff.service(c, 'products.get', (call) => bff.client.products.get(cached.id, call));
        if (current.token === token) return current;
      } catch (error) {
        if (!(error instanceof BffError && error.status === 404)) throw error;
      }
      await bff.cache.delete(keyOf(token));
    }
    // `token` is a hint our service honours; the hosted one ignores it, so every page is checked here.
    for (let page = 1; page <= 200; page += 1) {
      const query = { token, page, per_page: SERVICE_PAGE_SIZE } as Parameters<InvoicingClient['products']['list']>[0];
      const batch = await bff.service(c, 'products.list', (call) => bff.client.products.list(query, call));
      const match = batch.find((product) => product.token === token);
      if (match) {
        await bff.cache.set(keyOf(token), match, ttlMs);
        return match;
      }
      if (batch.length < SERVICE_PAGE_SIZE) break;
    }
    await bff.cache.set(keyOf(token), null, ttlMs);
    return undefined;
  };
}

/** The seller as a sale's VAT needs them: their country and, as VIES's requester, their tax number. */
export interface Seller {
  country: string;
  taxNo: string | null;
  /** Registered for OSS: EU consumers of e-services and of goods sent to them pay their own state's VAT. */
  ossRegistered: boolean;
}

/**
 * The seller: configured, else the service's department the checkout pays (or its default one),
 * remembered like products; PL when unknown.
 */
export function sellerLookup(bff: Bff): (c: BffContext) => Promise<Seller> {
  const ttlMs = bff.options.productCacheMs ?? 30_000;
  return async (c) => {
    const configured = bff.checkout.sellerCountry;
    if (configured) return { country: configured.toUpperCase(), taxNo: bff.checkout.sellerVatNumber ?? null, ossRegistered: bff.checkout.ossRegistered ?? false };
    const cached = (await bff.cache.get('seller')) as Seller | undefined;
    if (cached) return cached;
    const client = bff.client.departments;
    if (!client) return { country: 'PL', taxNo: bff.checkout.sellerVatNumber ?? null, ossRegistered: bff.checkout.ossRegistered ?? false };
    const departments = await bff.service(c, 'departments.list', (call) => client.list(call));
    const department = departments.find((d) => (bff.checkout.departmentId ? d.id === bff.checkout.departmentId : d['main'] === true)) ?? departments[0];
    const seller = {
      country: department?.country?.trim().toUpperCase() || 'PL',
      taxNo: bff.checkout.sellerVatNumber ?? department?.tax_no ?? null,
      ossRegistered: bff.checkout.ossRegistered ?? (department as { oss_registered?: boolean | null } | undefined)?.oss_registered === true,
    };
    await bff.cache.set('seller', seller, ttlMs);
    return seller;
  };
}

/** The seller's country, which with the buyer's decides a sale's VAT. */
export function sellerCountryLookup(bff: Bff): (c: BffContext) => Promise<string> {
  const seller = sellerLookup(bff);
  return async (c) => (await seller(c)).country;
}

/**
 * `GET /products/:token`: what anyone may see of a product for sale. A quote for an EU business goes
 * without Polish VAT when the number's check digits pass, unless VIES has lately called it invalid;
 * the checkout asks VIES itself before it charges so.
 */
export function productRoutes(bff: Bff, findProduct: ProductLookup, vies?: ViesCheck): Hono<Env> {
  const routes = new Hono<Env>();
  const sellerOf = sellerLookup(bff);
  routes.get('/products/:token', async (c) => {
    const token = c.req.param('token');
    if (!PRODUCT_TOKEN_PATTERN.test(token)) throw notFound('product');
    const product = await findProduct(c, token, false);
    if (!product) throw notFound('product');
    // A quote for the buyer as typed (their e-mail, name, address) is theirs alone: no shared cache keeps it.
    c.header('Cache-Control', quoteNamesBuyer((name) => c.req.query(name)) ? 'private, no-store' : 'public, max-age=30');
    // The unit reads in the buyer's language, as the invoice will print it.
    c.header('Vary', 'Accept-Language');
    // With the buyer's country and VAT number, what the checkout core needs to quote the price (src/kernel/checkout.ts).
    const seller = await sellerOf(c);
    const sale = {
      service: product.service === true,
      supply_kind: supplyKindOf(product),
      seller_country: seller.country,
      quote: await quoteFor(product, seller, quoteQuery(c), vies),
    };
    const answer: SaleProduct = {
      ...publicProduct(product),
      ...sale,
      quantity_unit: unitForReader(product.quantity_unit, c.req.header('accept-language')),
      ...((await paymentsTestMode(bff, c)) ? { test_mode: true } : {}),
      ...((await blikFor(bff, c, product.currency)) ? { blik: true } : {}),
    };
    return c.json(answer);
  });
  return routes;
}

/**
 * The buyer a product query describes. A quantity the checkout would refuse is refused here too,
 * naming `quantity`, so the dialog shows it at the field instead of quietly pricing another one.
 */
function quoteQuery(c: BffContext): (name: string) => string | undefined {
  const quantity = c.req.query('quantity');
  const problem = quantity === undefined ? undefined : quantityProblem(quantity);
  if (problem) throw new BffError(422, ERROR_CODES.validation, 'Some fields are not valid.', { fields: { quantity: [problem] } });
  return (name) => c.req.query(name);
}

/** The tax engine's quote for the buyer the query describes, at Polish VAT where VIES lately called their number invalid. */
async function quoteFor(product: Product, seller: Seller, query: (name: string) => string | undefined, vies: ViesCheck | undefined): Promise<ProductQuote> {
  const company = query('company');
  const number = euVatNumberOf({
    email: '',
    country: query('country')?.slice(0, 2) ?? null,
    tax_no: query('tax_no')?.slice(0, 50) ?? null,
    tax_no_kind: query('tax_no_kind')?.slice(0, 20) ?? null,
    ...(company === undefined ? {} : { company: /^(1|true)$/i.test(company) }),
  });
  const known = number && vies ? (await vies.known(number))?.status : undefined;
  return saleQuote(product, { country: seller.country, ossRegistered: seller.ossRegistered }, query, known === 'invalid' ? 'invalid' : 'valid');
}
