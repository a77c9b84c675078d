import { createHash } from 'node:crypto';
import type { Hono, MiddlewareHandler } from 'hono';
import { z } from 'zod';
import { decimal, toPlain } from '../../kernel/money.js';
import { allowedReturnUrl, checkoutLang, type CheckoutLang, checkoutPayment, MAX_CHECKOUT_QUANTITY, originsOf, PRODUCT_TOKEN_PATTERN, quantityProblem, quoteNamesBuyer, saleQuote, treatmentOf } from '../../kernel/checkout.js';
import { supplyKindOf, taxNotes } from '../../kernel/tax/index.js';
import { decideCheckoutSale, ViesRefusalError } from '../../server-kit/sale.js';
import type { CheckoutAnswer, CheckoutOutcome, SaleProduct } from '../../contract/sale.js';
import { unitForReader } from '../../kernel/units.js';
import type { Database, Sql } from '../db.js';
import { type Account, ApiError, apiErrorOf, fieldsOf, invalid, notFound, type ServiceContext, type ServiceEnv, splitExtension } from '../http.js';
import { publicIdempotentPost } from '../idempotency.js';
import type { InvoiceData } from '../invoicing/invoices.js';
import { newPaymentData, type PaymentData } from '../application/payments.js';
import { blikAvailable, blikOutcome, settleDueBlik } from '../application/blik.js';
import { blikOutcomeFields, blikUnavailable, chargeCheckoutByCode, checkoutPaymentInput } from './widget-blik.js';
import { countBlikAttempt } from './blik-limits.js';
import type { ProductData } from '../data/products.js';
import { findRow, insertRow, type StoredRow } from '../store.js';
import { paymentProviderOf } from '../payments/settings.js';
import { providerPageOf, providerPaymentOf } from '../payments/start.js';
import { page, PAGE_HEADERS } from '../documents/html.js';
import { byToken } from '../data/public-records.js';
import { type RateLimitRule, SqlRateLimitStore } from '../data/rate-limits.js';
import { widgetBundle } from './widget-bundle.js';
import { ORDER_TEXT, orderPage } from './order-page.js';
import { orderOnce } from './order-once.js';
import { widgetScript } from './widget-script.js';
import { checkBuyer, checkoutBuyerShape, checkoutLangInput, productToken, webUrl } from '../../kernel/validation/checkout.js';
import { accountByPrefix, PREFIX_PATTERN } from '../accounts.js';
import { departmentsMainFirst } from '../data/departments.js';
import { widgetProductByToken } from '../data/widget-products.js';
import { mountCompanyLookup } from './company.js';
import { clientAddressOf } from './caller.js';

/**
 * The product widget (spec §1 rule 4): public, credential-less routes under `/a/<prefix>/` that a shop
 * page calls from any origin.
 *
 * - `GET /a/<prefix>/p/<token>.js`: the script that renders `<product-pay-button>` where it stands;
 *   without `.js`, an order page that works with no JavaScript at all (the button's fallback link).
 * - `GET /a/<prefix>/widget/products/<token>.json`: what a buyer may see of the product.
 * - `POST /a/<prefix>/widget/checkout.json`: a buyer's checkout. It takes the product token and a
 *   quantity, never a price: the service prices it. Creates an unpaid `banking_payment`
 *   (kind `api`, `generate_invoice`) and answers the checkout page's address and the attempt's token.
 * - `GET /a/<prefix>/widget/checkout/<attempt>.json`: the outcome of one attempt, as the service knows it.
 * - `GET /widget/product-pay-button.js`: the element bundle the script loads.
 */

const TOKEN_PATTERN = PRODUCT_TOKEN_PATTERN;
const MAX_QUANTITY = MAX_CHECKOUT_QUANTITY;
export const WIDGET_RATE_LIMITS = {
  /** Every widget request, per client IP. */
  ip: { limit: 300, windowMs: 60_000 },
  /** New checkouts, per client IP (replays of an Idempotency-Key do not count). */
  create: { limit: 20, windowMs: 60_000 },
} as const satisfies Record<string, RateLimitRule>;

/** What a buyer may set. Anything else in the body (a price, a product id, a discount) is ignored. */
const checkoutInput = z.object({
  product: productToken,
  quantity: z.coerce
    .number({ message: 'must be a whole number' })
    .int('must be a whole number')
    .min(1, 'must be at least 1')
    .max(MAX_QUANTITY, `must be at most ${MAX_QUANTITY}`)
    .default(1),
  buyer: z.object(checkoutBuyerShape, { message: "can't be blank" }).superRefine(checkBuyer),
  returnUrl: webUrl.optional(),
  cancelUrl: webUrl.optional(),
  lang: checkoutLangInput,
  /** Pay in the checkout itself: a BLIK code (see widget-blik.ts). */
  payment: checkoutPaymentInput.nullish(),
});
type CheckoutInput = z.output<typeof checkoutInput>;

type WidgetProduct = { account: Account; product: StoredRow<ProductData> };

/** The account and its product in one query; an unknown prefix or token is a 404 either way. */
async function productByToken(sql: Sql, prefix: string, token: string): Promise<WidgetProduct> {
  if (!PREFIX_PATTERN.test(prefix) || !TOKEN_PATTERN.test(token)) throw notFound();
  const found = await widgetProductByToken<ProductData>(sql, prefix, token);
  if (!found) throw notFound();
  return found;
}

/** The seller as the widget needs it: the default department's name, country, VAT number and OSS registration, and every origin the account registered. */
async function sellerOf(sql: Sql, account: Account): Promise<{ name: string; country: string; taxNo: string | null; ossRegistered: boolean; origins: Set<string> }> {
  const departments = await departmentsMainFirst(sql, account.id);
  const main = departments[0];
  return {
    name: main?.name ?? account.name ?? account.prefix,
    country: main?.country || 'PL',
    taxNo: main?.tax_no ?? null,
    ossRegistered: main?.oss_registered === true,
    origins: originsOf(departments.flatMap((department) => department.widget_origins ?? [])),
  };
}

/** What anyone may see of a product, plus what the button needs to say about the sale. */
async function publicProduct(c: ServiceContext, found: WidgetProduct): Promise<SaleProduct> {
  const { data } = found.product;
  const provider = await paymentProviderOf(c, found.account);
  const seller = await sellerOf(c.get('db'), found.account);
  return {
    token: data.token,
    name: data.name,
    description: data.description ?? null,
    price_net: data.price_net,
    price_gross: data.price_gross,
    tax: data.tax,
    currency: data.currency,
    // The unit reads in the buyer's language, as the invoice will print it.
    quantity_unit: unitForReader(data.quantity_unit, c.req.header('accept-language')),
    seller: seller.name,
    /** With `service` and the buyer's country and VAT number, what decides the VAT (and so the price) of the sale. */
    seller_country: seller.country,
    service: data.service === true,
    supply_kind: supplyKindOf(data),
    quote: saleQuote(data, { country: seller.country, ossRegistered: seller.ossRegistered }, quoteQuery(c)),
    /** False when the service takes no online payments; the button then says so instead of selling. */
    available: provider !== null,
    test_mode: provider?.testMode === true,
    /** The dialog offers the BLIK code field. */
    blik: blikAvailable(provider, data.currency),
  };
}

/**
 * The buyer a product query describes (`?country=DE&tax_no=…&company=1&quantity=2&lang=pl`). A
 * quantity the checkout would refuse is refused here too, naming `quantity`: the dialog shows it at
 * the field instead of quietly pricing another one.
 */
function quoteQuery(c: ServiceContext): (name: string) => string | undefined {
  const quantity = c.req.query('quantity');
  const problem = quantity === undefined ? undefined : quantityProblem(quantity);
  if (problem) throw invalid({ quantity: [problem] });
  return (name) => c.req.query(name);
}


/** Open to every origin: these routes take no credentials, and what they answer is public. */
const cors: MiddlewareHandler<ServiceEnv> = async (c, next) => {
  if (c.req.method === 'OPTIONS') {
    return c.body(null, 204, {
      'access-control-allow-origin': '*',
      'access-control-allow-methods': 'GET, POST, OPTIONS',
      'access-control-allow-headers': 'Content-Type, Idempotency-Key, Accept, Accept-Language',
      'access-control-max-age': '600',
    });
  }
  await next();
  c.res.headers.set('access-control-allow-origin', '*');
  c.res.headers.set('access-control-expose-headers', 'Retry-After, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, Idempotent-Replayed');
  c.res.headers.set('x-content-type-options', 'nosniff');
  c.res.headers.set('cross-origin-resource-policy', 'cross-origin');
};

async function createCheckout(c: ServiceContext, prefix: string, input: CheckoutInput): Promise<CheckoutAnswer> {
  const db: Database = c.get('db');
  const found = await productByToken(db, prefix, input.product).catch((error: unknown) => {
    throw apiErrorOf(error)?.status === 404 ? invalid({ product: ['is not for sale'] }) : error;
  });
  const provider = await paymentProviderOf(c, found.account);
  if (!provider) throw new ApiError(409, 'Online payment is not available');
  if (input.payment) {
    if (!blikAvailable(provider, found.product.data.currency)) throw blikUnavailable();
    await countBlikAttempt(c, { accountId: found.account.id, address: clientAddressOf(c), product: found.product.id });
  }
  const seller = await sellerOf(db, found.account);
  const product = found.product.data;
  const sale = await decideCheckoutSale({ seller, product, buyer: input.buyer, vies: c.get('config').registries.vies }).catch((error: unknown) => {
    if (error instanceof ViesRefusalError) throw invalid({ [error.field]: [error.message] });
    throw error;
  });
  const { decision } = sale;
  const lang = checkoutLang(input.lang, c.req.header('accept-language'));
  const order = checkoutPayment({
    product: { ...product, id: found.product.id },
    quantity: input.quantity,
    buyer: input.buyer,
    treatment: decision,
    lang,
    // Only to the origins the account registered; never the request's `Origin`.
    returnUrl: allowedReturnUrl(input.returnUrl, seller.origins),
    cancelUrl: allowedReturnUrl(input.cancelUrl, seller.origins),
  });
  const data = { ...order, sale_terms: sale.terms };
  const row = await db.transaction(async (tx) => insertRow(tx, 'payments', found.account.id, (await newPaymentData(tx, found.account, data, c.get('config').issuing)).data));
  const { publicUrl } = c.get('config');
  // A BLIK code is sent at once, and the checkout page shows the wait; a provider with a page of its
  // own takes the buyer there at once; otherwise (or while it is down) the checkout page.
  const blik = input.payment ? await chargeCheckoutByCode(c, { provider, row, code: input.payment.code, lang }) : undefined;
  const providerPage = blik ? undefined : await providerPageOf(db, provider, providerPaymentOf(publicUrl, row.data, lang));
  return {
    attempt: row.data.token,
    redirectUrl: providerPage ?? `${publicUrl}/banking/payments/pay/${row.data.token}`,
    amount: data.price,
    tax: decision.rate,
    vat_treatment: treatmentOf(decision).kind,
    case: decision.case,
    notes: taxNotes(decision.case, lang, { ossCountry: decision.ossCountry }),
    fallback: decision.fallback,
    currency: found.product.data.currency,
    quantity: input.quantity,
    product: { token: found.product.data.token, name: found.product.data.name },
    test_mode: provider.testMode,
    ...blik,
  };
}

function parseCheckout(body: unknown): CheckoutInput {
  const result = checkoutInput.safeParse(body);
  if (!result.success) throw invalid(fieldsOf(result.error, body));
  return result.data;
}

const etagOf = (body: string) => `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;

function cacheable(c: ServiceContext, body: string, type: string, cacheControl: string) {
  const etag = etagOf(body);
  const headers = { 'content-type': type, etag, 'cache-control': cacheControl, 'x-content-type-options': 'nosniff', 'access-control-allow-origin': '*', 'cross-origin-resource-policy': 'cross-origin' };
  const match = c.req.header('if-none-match');
  if (match && match.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag)) return c.body(null, 304, headers);
  return c.body(body, 200, headers);
}

/** The shop's prefix, from the path the shop's group is mounted at (`/a/:prefix`). */
function prefixOf(c: ServiceContext): string {
  const prefix = c.req.param('prefix');
  if (prefix === undefined) throw notFound();
  return prefix;
}

export function mountWidget(groups: { shop: Hono<ServiceEnv>; script: Hono<ServiceEnv> }): void {
  const app = groups.shop;
  let store: SqlRateLimitStore | undefined;
  async function limit(c: ServiceContext, rule: RateLimitRule, key: string): Promise<void> {
    store ??= new SqlRateLimitStore(c.get('db'));
    const hit = await store.hit(key, rule.windowMs);
    const reset = Math.max(1, Math.ceil((hit.resetAt - Date.now()) / 1000));
    c.header('RateLimit-Limit', String(rule.limit));
    c.header('RateLimit-Remaining', String(Math.max(0, rule.limit - hit.count)));
    c.header('RateLimit-Reset', String(reset));
    if (hit.count > rule.limit) {
      c.header('Retry-After', String(reset));
      throw new ApiError(429, 'Too many requests. Try again later.');
    }
  }

  app.use('/widget/*', cors);
  app.use('/p/:token', cors);
  app.use('/widget/*', async (c, next) => {
    await limit(c, WIDGET_RATE_LIMITS.ip, `widget-ip:${clientAddressOf(c)}`);
    await next();
  });
  mountCompanyLookup(app, { limit, clientIp: clientAddressOf, accountByPrefix });

  app.get('/widget/products/:token', async (c) => {
    const found = await productByToken(c.get('db'), prefixOf(c), c.req.param('token'));
    // A quote for the buyer as typed (their e-mail, name, address) is theirs alone: no shared cache keeps it.
    c.header('cache-control', quoteNamesBuyer((name) => c.req.query(name)) ? 'private, no-store' : 'public, max-age=30');
    c.header('vary', 'Accept-Language');
    return c.json(await publicProduct(c, found));
  });

  // Idempotency as for every POST of the API, among the account's public callers: a retry with the
  // same key and body answers the first checkout again instead of creating a second payment.
  app.post(
    '/widget/checkout',
    async (c, next) => {
      c.set('account', await accountByPrefix(c.get('db'), prefixOf(c)));
      await next();
    },
    publicIdempotentPost,
    async (c) => {
      if (!/^application\/json\b/i.test(c.req.header('content-type') ?? '')) throw new ApiError(415, 'Send the checkout as application/json');
      const input = parseCheckout(c.get('body'));
      // Only new attempts count; replays of an Idempotency-Key were answered above.
      await limit(c, WIDGET_RATE_LIMITS.create, `widget-create:${clientAddressOf(c)}`);
      c.header('cache-control', 'no-store');
      return c.json(await createCheckout(c, prefixOf(c), input), 201);
    },
  );

  app.get('/widget/checkout/:attempt', async (c) => {
    const db = c.get('db');
    const found = await byToken<PaymentData>(db, 'payments', c.req.param('attempt'));
    const { account } = found;
    if (account.prefix !== prefixOf(c)) throw notFound();
    // A BLIK payment read after its time has its outcome recorded first.
    const payment = (await settleDueBlik(c.get('config').issuing, found.row)).data;
    const invoice = payment.invoice_id != null ? (await findRow<InvoiceData>(db, 'invoices', account.id, payment.invoice_id))?.data : undefined;
    const product = payment.product_id != null ? (await findRow<ProductData>(db, 'products', account.id, payment.product_id as number))?.data : undefined;
    c.header('cache-control', 'no-store');
    return c.json({
      attempt: payment.token,
      status: blikOutcome(payment),
      amount: toPlain(decimal(payment.price)),
      currency: payment.currency,
      quantity: Number(payment.quantity),
      product: { token: product?.token ?? null, name: payment.name },
      invoice: invoice ? { number: invoice.number, view_url: `${c.get('config').publicUrl}/invoice/${invoice.token}` } : null,
      ...blikOutcomeFields(payment),
    } satisfies CheckoutOutcome);
  });

  groups.script.get('/product-pay-button', async (c) => {
    if (splitExtension(new URL(c.req.url).pathname).format !== 'js') throw notFound();
    const bundle = await widgetBundle();
    // Addressed by its content hash from the widget script, so it never changes under a URL.
    const immutable = c.req.query('v') === bundle.hash;
    return cacheable(c, bundle.code, 'application/javascript; charset=utf-8', immutable ? 'public, max-age=31536000, immutable' : 'public, max-age=300');
  });

  app.get('/p/:token', async (c) => {
    const found = await productByToken(c.get('db'), prefixOf(c), c.req.param('token'));
    const publicUrl = c.get('config').publicUrl;
    const base = `${publicUrl}/a/${found.account.prefix}/p/${encodeURIComponent(found.product.data.token)}`;
    const format = splitExtension(new URL(c.req.url).pathname).format;
    if (format === 'js') {
      const bundle = await widgetBundle();
      const script = await widgetScript({
        appUrl: publicUrl,
        prefix: found.account.prefix,
        token: found.product.data.token,
        name: found.product.data.name,
        bundleUrl: `${publicUrl}/widget/product-pay-button.js?v=${bundle.hash}`,
        orderUrl: base,
      });
      return cacheable(c, script, 'application/javascript; charset=utf-8', 'public, max-age=300, stale-while-revalidate=86400');
    }
    if (format !== undefined && format !== 'html') throw notFound();
    const product = await publicProduct(c, found);
    // The page's `?lang=` (the button's locale), else the browser's language.
    const lang = checkoutLang(c.req.query('lang'), c.req.header('accept-language'));
    c.header('vary', 'Accept-Language');
    return c.body(page({ title: `${ORDER_TEXT[lang].title}: ${product.name}`, lang, body: orderPage(product, lang, { testCodes: await paysByTestProvider(c, found) }) }), 200, PAGE_HEADERS);
  });

  // The fallback order page's form: the same checkout, then straight to the checkout page.
  app.post('/p/:token', async (c) => {
    const prefix = prefixOf(c);
    const found = await productByToken(c.get('db'), prefix, c.req.param('token'));
    const body = c.get('body');
    const str = (key: string) => (typeof body[key] === 'string' ? (body[key] as string).trim() : '');
    const company = str('company');
    const lang = checkoutLang(str('lang'), c.req.header('accept-language'));
    const code = typeof body.blik_code === 'string' && body.blik_code.trim() ? body.blik_code : undefined;
    let input: CheckoutInput;
    try {
      input = parseCheckout({
        lang,
        product: found.product.data.token,
        // A service is bought once: its page asks no quantity.
        quantity: found.product.data.service === true ? 1 : str('quantity') || 1,
        ...(code === undefined ? {} : { payment: { method: 'blik', code } }),
        buyer: {
          email: str('email'),
          company: !!company,
          name: company || str('name') || null,
          // The country, chosen from the list, decides the VAT of any buyer's sale.
          country: str('country') || null,
          ...(company ? { tax_no: str('tax_no') || null, street: str('street') || null, post_code: str('post_code') || null, city: str('city') || null } : {}),
          ...(company && str('name') ? splitName(str('name')) : {}),
        },
      });
    } catch (error) {
      const fields = apiErrorOf(error)?.fields;
      if (!fields) throw error;
      return orderPageRefusal(c, found, lang, fields);
    }
    await limit(c, WIDGET_RATE_LIMITS.create, `widget-create:${clientAddressOf(c)}`);
    let next: string;
    try {
      // One order per form, however often it is posted: a BLIK code goes once.
      next = await orderOnce(c, found.account.id, async () => (await createCheckout(c, prefix, input)).redirectUrl);
    } catch (error) {
      const fields = apiErrorOf(error)?.fields;
      if (!fields) throw error;
      return orderPageRefusal(c, found, lang, fields);
    }
    // With a BLIK code, the checkout page shows the wait for the bank app.
    return c.redirect(next, 303);
  });
}

/** Whether the account pays through the test provider, whose BLIK codes its pages list. */
async function paysByTestProvider(c: ServiceContext, found: WidgetProduct): Promise<boolean> {
  return (await paymentProviderOf(c, found.account))?.id === 'test';
}

/** The order page again, with what was wrong at each field and what the buyer had typed (never the code). */
async function orderPageRefusal(c: ServiceContext, found: WidgetProduct, lang: CheckoutLang, fields: Record<string, string[]>) {
  const errors: Record<string, string[]> = {};
  for (const [key, value] of Object.entries(fields)) (errors[key.startsWith('payment.') ? 'blik_code' : key.replace(/^buyer\./, '')] ??= []).push(...value);
  const body = c.get('body');
  const values = Object.fromEntries(
    ['email', 'name', 'company', 'tax_no', 'street', 'post_code', 'city', 'country', 'quantity'].flatMap((key) => (typeof body[key] === 'string' ? [[key, body[key] as string]] : [])),
  );
  const product = await publicProduct(c, found);
  return c.body(page({ title: `${ORDER_TEXT[lang].title}: ${product.name}`, lang, body: orderPage(product, lang, { errors, values, testCodes: await paysByTestProvider(c, found) }) }), 422, PAGE_HEADERS);
}

function splitName(name: string): { first_name: string; last_name: string | null } {
  const cut = name.lastIndexOf(' ');
  return cut > 0 ? { first_name: name.slice(0, cut), last_name: name.slice(cut + 1) } : { first_name: name, last_name: null };
}
