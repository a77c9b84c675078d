import { Hono } from 'hono';
import type { Product } from '../../api/schemas/product.js';
import { unitForReader } from '../../kernel/units.js';
import type { Bff, BffContext, Env } from '../context.js';
import { BffError, notFound } from '../errors.js';
import type { InvoicingClient } from '../options.js';
import { paymentsTestMode } from '../test-mode.js';
import { publicProduct } from '../views.js';
import type { SaleProduct } from '../../contract/sale.js';

import { PRODUCT_TOKEN_PATTERN, productQuote } from '../../kernel/checkout.js';

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

/**
 * The seller's country, which with the buyer's decides a sale's VAT: configured, else the service's
 * department the checkout pays (or its default one), remembered like products; PL when unknown.
 */
export function sellerCountryLookup(bff: Bff): (c: BffContext) => Promise<string> {
  const ttlMs = bff.options.productCacheMs ?? 30_000;
  return async (c) => {
    if (bff.checkout.sellerCountry) return bff.checkout.sellerCountry;
    const cached = (await bff.cache.get('seller-country')) as string | undefined;
    if (cached) return cached;
    const client = bff.client.departments;
    if (!client) return 'PL';
    const departments = await bff.service(c, 'departments.list', (call) => client.list(call));
    const seller = departments.find((d) => (bff.checkout.departmentId ? d.id === bff.checkout.departmentId : d['main'] === true)) ?? departments[0];
    const country = seller?.country?.trim().toUpperCase() || 'PL';
    await bff.cache.set('seller-country', country, ttlMs);
    return country;
  };
}

/** `GET /products/:token`: what anyone may see of a product for sale. */
export function productRoutes(bff: Bff, findProduct: ProductLookup): Hono<Env> {
  const routes = new Hono<Env>();
  const sellerCountry = sellerCountryLookup(bff);
  routes.get('/products/:token', async (c) => {
    const token = c.req.param('token');
    if (!PRODUCT_TOKEN_PATTERN.test(token)) throw notFound('product');
    const product = await findProduct(c, token, false);
    if (!product) throw notFound('product');
    c.header('Cache-Control', 'public, max-age=30');
    // The unit reads in the buyer's language, as the invoice will print it.
    c.header('Vary', 'Accept-Language');
    // With the buyer's country and VAT number, what the checkout core needs to quote the price (src/kernel/checkout.ts).
    const country = await sellerCountry(c);
    const sale = { service: product.service === true, seller_country: country, quote: productQuote(product, country, (name) => c.req.query(name)) };
    const answer: SaleProduct = {
      ...publicProduct(product),
      ...sale,
      quantity_unit: unitForReader(product.quantity_unit, c.req.header('accept-language')),
      ...((await paymentsTestMode(bff, c)) ? { test_mode: true } : {}),
    };
    return c.json(answer);
  });
  return routes;
}
