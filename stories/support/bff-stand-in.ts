import { quoteNamesBuyer, saleQuote } from '../../src/kernel/checkout.js';
import { decimal, mul, roundMoney, toPlain } from '../../src/kernel/money.js';
import { supplyKindOf } from '../../src/kernel/tax/index.js';
import { unitForReader } from '../../src/kernel/units.js';
import { clientProblems, compactCode, postCodeExample } from '../../src/kernel/validation/client.js';
import type { ClientCheck, ClientCheckRequest } from '../../src/contract/client-check.js';
import { CUSTOMER_CLIENT_FIELDS, type CustomerClient, type CustomerInvoice } from '../../src/contract/portal.js';
import type { ErrorBody, ErrorCode } from '../../src/contract/errors.js';
import type { BlikFailureReason, BlikState, CheckoutAnswer, CheckoutOutcome, PaymentAttempt, SaleProduct } from '../../src/contract/sale.js';

/**
 * A stand-in for the BFF, for Storybook only: stories point `endpoint` at `/storybook-bff/<scenario>`
 * and this answers with the BFF's documented shapes (docs/bff.md), so every visual state can be shown
 * without a server. Direct mode's widget routes of the service are stood in for under
 * `/storybook-service/<scenario>`. The element tests never use it: they run against the real BFF, and
 * test/elements/bff-stand-in.test.ts checks every answer here against the real one, key by key.
 */

export const STAND_IN_BFF = '/storybook-bff/';
export const STAND_IN_SERVICE = '/storybook-service/';

/**
 * Every scenario the stand-in knows, by what it stands in for. The drift test covers each one; a
 * scenario added here without a case there fails it.
 */
export const STAND_IN_SCENARIOS = {
  /** `GET /invoices`, `pdf-link`, `POST /invoices/:id/payment`. */
  portal: ['mixed', 'many', 'euro', 'empty', 'ksef-sent', 'ksef-pending', 'ksef-error', 'ksef-offline', 'ksef-none'],
  /** `GET /client`, `PUT /client`, `POST /clients`. */
  client: ['client-company', 'client-person', 'client-saving', 'client-invalid', 'signup'],
  /** `GET /products/:token`, `POST /checkout`, `GET /checkout/:attempt`. */
  sale: ['shop', 'test-mode', 'checkout-invalid', 'checkout-busy', 'offline', 'redirecting', 'outcome-checking', 'pending', 'declined', 'cancelled'],
  /** Any route: never answers, the service is down, the portal token has expired. */
  any: ['loading', 'error', 'expired'],
  /** The service's widget routes in direct mode: a shop that takes no online payments. */
  direct: ['unavailable'],
  /**
   * BLIK on the page: products in PLN say `blik: true`; a checkout with a code is `blik` paid on the second
   * look, `blik-waiting` never answered, `blik-declined`, `blik-timeout` and `blik-provider-error` failed
   * on the second look, `blik-wrong-code` and `blik-expired-code` refused at once, `blik-invalid` a 422
   * naming `payment.code`.
   */
  blik: ['blik', 'blik-waiting', 'blik-wrong-code', 'blik-expired-code', 'blik-declined', 'blik-timeout', 'blik-provider-error', 'blik-invalid'],
} as const;

const DAY = 86_400_000;
const iso = (time: number) => new Date(time).toISOString().slice(0, 10);
const centsText = (cents: number) => `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;

/** A JSON answer; like the BFF, nothing is cached unless a route says otherwise. */
const json = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', 'cache-control': 'no-store', ...headers } });
const PRIVATE = { 'cache-control': 'private, no-store' };

/** The BFF's error body, with the BFF's own codes and messages (src/contract/errors.ts). */
const failure = (status: number, code: ErrorCode, message: string, extra: { fields?: Record<string, string[]>; headers?: Record<string, string> } = {}) =>
  json({ error: { code, message, ...(extra.fields ? { fields: extra.fields } : {}) } } satisfies ErrorBody, status, extra.headers);
const notFound = (what: string) => failure(404, 'not_found', `The ${what} was not found.`);

/** Waits until the request is aborted, as a server that never answers would. */
const never = (signal: AbortSignal): Promise<Response> =>
  new Promise((_, reject) => {
    const abort = () => reject(new DOMException('aborted', 'AbortError'));
    // Aborted while the body was still being read: it ends at once, as a fetch would.
    if (signal.aborted) abort();
    else signal.addEventListener('abort', abort, { once: true });
  });

// ——— Portal: invoices ———

type Party = CustomerInvoice['buyer'];

/** An invoice as a customer sees it in the list (`customerInvoice` in src/bff/views.ts). */
type StandInInvoice = Omit<CustomerInvoice, 'positions'>;

const SELLER: StandInInvoice['seller'] = {
  name: 'Studio Północ Sp. z o.o.', tax_no: '5213870274', street: 'ul. Marszałkowska 10', post_code: '00-590', city: 'Warszawa', country: 'PL',
  email: 'billing@studio-polnoc.example', phone: '+48 22 100 20 30', bank: 'mBank', bank_account: 'PL61 1090 1014 0000 0712 1981 2874',
};
const BUYER: Party = {
  name: 'Nowak Design Sp. z o.o.', tax_no: '5252445767', street: 'ul. Prosta 51', post_code: '00-838', city: 'Warszawa', country: 'PL',
  email: 'faktury@nowak.example', phone: '+48 22 555 01 02',
};

/** A small deterministic generator, so screenshots of a story look the same every time. */
function random(seed: number) {
  return () => {
    seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
    return seed / 2_147_483_648;
  };
}

/**
 * KSeF's states in turn: sent with a KSeF number, on its way, refused, issued offline and on its way,
 * and an invoice that does not go to KSeF (not applicable). `state` picks one for every invoice.
 */
const KSEF_CASES = ['sent', 'pending', 'error', 'offline', 'none'] as const;
type KsefCase = (typeof KSEF_CASES)[number];

function ksefOf(index: number, issued: number, only?: KsefCase): StandInInvoice['ksef'] {
  const date = iso(issued).replaceAll('-', '');
  const technical = (0x10000aF629 + index).toString(16).toUpperCase().padStart(12, '0');
  const number = `${SELLER.tax_no}-${date}-${technical}-${((index * 37) % 256).toString(16).toUpperCase().padStart(2, '0')}`;
  const link = `https://qr-test.ksef.mf.gov.pl/invoice/${SELLER.tax_no}/${iso(issued).split('-').reverse().join('-')}/x${technical}`;
  const sentAt = `${iso(issued)}T09:30:00.000Z`;
  const base = { test: true, sent_at: sentAt, offline: false, error: null };
  switch (only ?? KSEF_CASES[index % KSEF_CASES.length]) {
    case 'sent':
      return { ...base, state: 'sent', number, verification_link: link };
    case 'pending':
      return { ...base, state: 'pending', number: null, verification_link: null };
    case 'error':
      return { ...base, state: 'error', number: null, verification_link: null, error: index % 2 ? 'unavailable' : 'rejected' };
    case 'offline':
      return { ...base, state: 'pending', number: null, verification_link: link, offline: true, sent_at: `${iso(issued + DAY)}T08:00:00.000Z` };
    default:
      return null;
  }
}

function generate(scenario: string, count: number, currency = 'PLN', ksef?: KsefCase): StandInInvoice[] {
  const next = random(count);
  const today = Date.parse(iso(Date.now()));
  return Array.from({ length: count }, (_, i) => {
    const issued = today - Math.floor(i * (count > 100 ? 0.2 : 7.5) + next() * 3) * DAY;
    const due = issued + (next() < 0.5 ? 14 : 30) * DAY;
    const gross = Math.round(4_900 + next() * (next() < 0.2 ? 2_500_000 : 180_000));
    const net = Math.round((gross * 100) / 123);
    const roll = next();
    const paid = roll < 0.55 ? gross : roll < 0.7 ? Math.round(gross * 0.4) : 0;
    const status = paid >= gross ? 'paid' : due < today ? 'overdue' : paid > 0 ? 'partial' : 'unpaid';
    const id = 1000 + i;
    const year = new Date(issued).getUTCFullYear();
    return {
      id,
      number: `FV/${String(count - i).padStart(count > 999 ? 5 : 3, '0')}/${year}`,
      kind: 'vat',
      status,
      issue_date: iso(issued),
      sell_date: iso(issued),
      payment_to: iso(due),
      payment_type: 'transfer',
      currency,
      price_net: centsText(net),
      price_tax: centsText(gross - net),
      price_gross: centsText(gross),
      paid: centsText(paid),
      outstanding: centsText(gross - paid),
      paid_date: status === 'paid' ? iso(Math.min(due, today)) : null,
      seller: SELLER,
      buyer: BUYER,
      payment_url: status === 'paid' ? null : `https://pay.invoicekit.example/i/${id}`,
      view_url: `https://invoices.invoicekit.example/i/${id}`,
      pdf_url: `${STAND_IN_BFF}${scenario}/invoices/${id}/pdf`,
      // The stories' customer has no e-invoice format set, as most have: the real BFF answers `null`.
      einvoice: null,
      ksef: ksefOf(i, issued, ksef),
    };
  });
}

const datasets: Record<string, (scenario: string) => StandInInvoice[]> = {
  mixed: (scenario) => generate(scenario, 48),
  many: (scenario) => generate(scenario, 10_000),
  euro: (scenario) => generate(scenario, 12, 'EUR'),
  empty: () => [],
  ...Object.fromEntries(KSEF_CASES.map((only) => [`ksef-${only}`, (scenario: string) => generate(scenario, 3, 'PLN', only)])),
};
const cache = new Map<string, StandInInvoice[]>();
const invoicesOf = (scenario: string) => {
  if (!cache.has(scenario)) cache.set(scenario, (datasets[scenario] ?? datasets['mixed']!)(scenario));
  return cache.get(scenario)!;
};

function inPeriod(date: string, period: string | null): boolean {
  if (!period || period === 'all') return true;
  const now = new Date();
  const y = now.getUTCFullYear();
  const m = now.getUTCMonth();
  const ranges: Record<string, [number, number]> = {
    this_month: [Date.UTC(y, m, 1), Infinity],
    last_month: [Date.UTC(y, m - 1, 1), Date.UTC(y, m, 1) - 1],
    last_30_days: [Date.now() - 30 * DAY, Infinity],
    this_year: [Date.UTC(y, 0, 1), Infinity],
    last_year: [Date.UTC(y - 1, 0, 1), Date.UTC(y, 0, 1) - 1],
    last_12_months: [Date.now() - 365 * DAY, Infinity],
  };
  const [from, to] = ranges[period] ?? [-Infinity, Infinity];
  const time = Date.parse(date);
  return time >= from && time <= to;
}

const owes = (invoice: StandInInvoice) => invoice.status !== 'paid';
/** The BFF's filters: `outstanding` is everything with money due; `partial` and `unpaid` go by what was paid. */
const FILTERS: Record<string, (invoice: StandInInvoice) => boolean> = {
  outstanding: owes,
  overdue: (invoice) => invoice.status === 'overdue',
  paid: (invoice) => invoice.status === 'paid',
  partial: (invoice) => owes(invoice) && Number(invoice.paid) > 0,
  unpaid: (invoice) => owes(invoice) && Number(invoice.paid) === 0,
};

/** What the customer owes per currency, as the BFF's `totals` (amounts in cents, then as decimal text). */
function totalsOf(invoices: StandInInvoice[]) {
  const sums = new Map<string, { outstanding: number; outstanding_count: number; overdue: number; overdue_count: number }>();
  for (const invoice of invoices) {
    const entry = sums.get(invoice.currency) ?? { outstanding: 0, outstanding_count: 0, overdue: 0, overdue_count: 0 };
    sums.set(invoice.currency, entry);
    if (!owes(invoice)) continue;
    const left = Math.round(Number(invoice.outstanding) * 100);
    entry.outstanding += left;
    entry.outstanding_count += 1;
    if (invoice.status === 'overdue') {
      entry.overdue += left;
      entry.overdue_count += 1;
    }
  }
  return [...sums].map(([currency, each]) => ({ currency, ...each, outstanding: centsText(each.outstanding), overdue: centsText(each.overdue) }));
}

function invoicePage(scenario: string, query: URLSearchParams): Response {
  const all = invoicesOf(scenario);
  const [field = 'issue_date', direction = 'desc'] = (query.get('order') ?? 'issue_date.desc').split('.') as [keyof StandInInvoice, string];
  const search = query.get('search')?.toLowerCase();
  const sign = direction === 'asc' ? 1 : -1;
  const matching = all
    .filter((invoice) => FILTERS[query.get('status') ?? '']?.(invoice) ?? true)
    .filter((invoice) => !search || invoice.number.toLowerCase().includes(search))
    .filter((invoice) => inPeriod(invoice.issue_date, query.get('period')))
    .sort((a, b) =>
      field === 'price_gross' ? sign * (Number(a.price_gross) - Number(b.price_gross)) : sign * String(a[field]).localeCompare(String(b[field])),
    );
  const page = Number(query.get('page') ?? 1);
  const perPage = Number(query.get('per_page') ?? 25);
  const data = matching.slice((page - 1) * perPage, page * perPage);
  const headers = { 'cache-control': 'private, no-store' };
  if (query.get('totals') === 'false') return json({ data, page, per_page: perPage }, 200, headers);
  const body = { data, page, per_page: perPage, total: matching.length, total_pages: Math.ceil(matching.length / perPage), totals: totalsOf(all) };
  return json(body, 200, { ...headers, 'x-total-count': String(matching.length) });
}

function portalAnswer(scenario: string, route: string, request: Request): Response {
  const pdfLink = /^invoices\/(\d+)\/pdf-link$/.exec(route);
  if (pdfLink && request.method === 'GET') {
    return json({ url: `https://invoices.invoicekit.example/pdf/${pdfLink[1]}?link=storybook`, expires_at: new Date(Date.now() + 300_000).toISOString() }, 200, PRIVATE);
  }
  const payment = /^invoices\/(\d+)\/payment$/.exec(route);
  if (payment && request.method === 'POST') {
    const invoice = invoicesOf(scenario).find((each) => each.id === Number(payment[1]));
    if (!invoice) return notFound('invoice');
    if (!owes(invoice)) return failure(409, 'nothing_to_pay', 'Nothing is left to pay on this invoice.');
    // The attempt names the payment the customer comes back from, as the BFF's does.
    return json({ attempt: `storybook-invoice-attempt-${invoice.id}`, redirectUrl: `https://pay.invoicekit.example/checkout/${invoice.id}`, amount: invoice.outstanding, currency: invoice.currency } satisfies PaymentAttempt, 201, PRIVATE);
  }
  if (route === 'invoices' && request.method === 'GET') return invoicePage(scenario, new URL(request.url).searchParams);
  return notFound('route');
}

// ——— Portal: the customer's own client record ———

type StandInClient = CustomerClient;

/** A client as the BFF shows it (`customerClient`): every field there, unset ones `null`. */
function clientRecord(id: number, values: Record<string, unknown>): StandInClient {
  const record = { id, company: values['company'] === true } as StandInClient;
  for (const field of CUSTOMER_CLIENT_FIELDS) record[field] = typeof values[field] === 'string' && values[field] !== '' ? (values[field] as string) : null;
  return record;
}

const STAND_IN_CLIENTS: Record<string, StandInClient> = {
  company: clientRecord(501, {
    company: true, name: 'Nowak Design Sp. z o.o.', tax_no: '525-244-57-67', person: 'Ewa Nowak', email: 'faktury@nowak.example',
    phone: '+48 22 555 01 02', street: 'ul. Prosta 51', post_code: '00-838', city: 'Warszawa', country: 'PL', bank: 'mBank', bank_account: 'PL61 1090 1014 0000 0712 1981 2874',
  }),
  person: clientRecord(502, {
    company: false, name: 'Anna Kowalska', first_name: 'Anna', last_name: 'Kowalska', email: 'anna.kowalska@mail.example',
    street: 'ul. Święty Marcin 3', post_code: '61-001', city: 'Poznań', country: 'PL',
  }),
};

/**
 * The client routes: `client-company` and `client-person` answer a stored client and save what is sent,
 * `client-saving` never finishes a save, `client-invalid` refuses it as the BFF does, `signup` creates.
 */
async function clientAnswer(scenario: string, route: string, request: Request): Promise<Response> {
  const stored = STAND_IN_CLIENTS[scenario.replace(/^client-/, '')] ?? STAND_IN_CLIENTS['company']!;
  const headers = { 'cache-control': 'private, no-store' };
  if (route === 'client' && request.method === 'GET') return json(stored, 200, headers);
  if (!((route === 'client' && request.method === 'PUT') || (route === 'clients' && request.method === 'POST'))) return notFound('route');
  const body = (await request.json()) as Record<string, unknown>;
  if (scenario === 'client-saving') return never(request.signal);
  if (scenario === 'client-invalid') {
    return failure(422, 'validation_failed', 'Some fields are not valid.', { fields: { bank: ['is too long (maximum is 200 characters)'] } });
  }
  if (route === 'clients') return json({ client: clientRecord(777, body) }, 201, headers);
  Object.assign(stored, clientRecord(stored.id, { ...stored, ...body }));
  return json(stored, 200, headers);
}

// ——— Sales: products, checkout and its outcome ———

/** What a buyer may see of a product (`publicProduct` in src/bff/views.ts), as the BFF answers it. */
type StandInProduct = Omit<SaleProduct, 'seller' | 'available'>;

/** `service`: a service rather than goods, as the demo's seed has it (src/service/seed.ts): the tax engine's case depends on it. */
const product = (token: string, name: string, net: string, gross: string, tax: string, currency: string, unit: string | null, service = true): StandInProduct => ({
  token, name, description: null, price_net: net, price_gross: gross, tax, currency, quantity_unit: unit, service,
});

/** The products stories sell, by token. */
export const STAND_IN_PRODUCTS: Record<string, StandInProduct> = {
  'logo-design': product('logo-design', 'Logo design', '1500.0', '1845.0', '23', 'PLN', 'usł.'),
  'coffee-beans': product('coffee-beans', 'Coffee beans, 1 kg', '85.62', '89.9', '5', 'PLN', 'kg', false),
  'brand-workshop-eur': product('brand-workshop-eur', 'Brand workshop (remote, EU)', '479.67', '590.0', '23', 'EUR', 'usł.'),
  'logo-licence-jpy': product('logo-licence-jpy', 'Logo licence, Japan', '12195', '15000', '23', 'JPY', 'usł.'),
  'long-name': product(
    'long-name',
    'Complete brand identity package with logo, typography, colour palette, stationery and a forty-page brand book for print and web',
    '9999.0', '12298.77', '23', 'PLN', 'usł.',
  ),
};

interface Attempt {
  product: StandInProduct;
  quantity: number;
  amount: string;
  /** A BLIK payment's state, and how often its outcome was asked. */
  blik?: BlikState;
  looks?: number;
}

/** A BLIK code lives two minutes. */
const BLIK_CODE_MS = 120_000;
/** The scenarios whose BLIK payment fails, and why; refused at once for a wrong or expired code, else on the second look. */
const BLIK_FAILURES: Record<string, BlikFailureReason> = {
  'blik-wrong-code': 'wrong_code',
  'blik-expired-code': 'expired_code',
  'blik-declined': 'declined',
  'blik-timeout': 'timeout',
  'blik-provider-error': 'provider_error',
};

/** Where a BLIK payment stands on its `looks`-th look in `scenario`. */
function blikLook(scenario: string, blik: BlikState, looks: number): BlikState {
  const failure = BLIK_FAILURES[scenario];
  if (blik.status !== 'pending' || scenario === 'blik-waiting' || looks < 2) return blik;
  return failure ? { ...blik, status: 'failed', reason: failure } : { ...blik, status: 'paid' };
}
const attempts = new Map<string, Attempt>();

const OUTCOMES: Record<string, 'paid' | 'declined' | 'cancelled' | 'pending'> = { pending: 'pending', declined: 'declined', cancelled: 'cancelled' };

/** The product with its unit in the reader's language, as the BFF and the widget route answer it. */
const inReadersWords = (found: StandInProduct, request: Request) => ({
  ...found,
  quantity_unit: unitForReader(found.quantity_unit, request.headers.get('accept-language') ?? undefined),
  // The tax engine's quote for the buyer the query describes (src/kernel/checkout.ts), a Polish seller's.
  service: found.service === true,
  supply_kind: supplyKindOf(found),
  seller_country: 'PL',
  quote: saleQuote(found, { country: 'PL', ossRegistered: false }, (name) => new URL(request.url).searchParams.get(name) ?? undefined),
});

/** A quote for the buyer as typed (their e-mail, name, address) is theirs alone, as on the BFF and the service. */
const productCache = (request: Request) => {
  const query = new URL(request.url).searchParams;
  return { 'cache-control': quoteNamesBuyer((name) => query.get(name) ?? undefined) ? 'private, no-store' : 'public, max-age=30' };
};

async function saleAnswer(scenario: string, route: string, request: Request): Promise<Response> {
  const productRoute = /^products\/([^/]+)$/.exec(route);
  if (productRoute && request.method === 'GET') {
    const found = STAND_IN_PRODUCTS[decodeURIComponent(productRoute[1]!)];
    if (!found) return notFound('product');
    const blik = scenario.startsWith('blik') && found.currency === 'PLN';
    return json({ ...inReadersWords(found, request), ...(scenario === 'test-mode' ? { test_mode: true } : {}), ...(blik ? { blik: true } : {}) }, 200, productCache(request));
  }
  if (route === 'checkout' && request.method === 'POST') {
    if (scenario === 'offline') throw new TypeError('Failed to fetch');
    if (scenario === 'redirecting') return never(request.signal);
    if (scenario === 'checkout-busy') return failure(429, 'rate_limited', 'Too many requests. Try again later.', { headers: { 'retry-after': '1' } });
    const body = (await request.json()) as { product?: string; quantity?: number; payment?: { code?: string } };
    if (body.payment && (scenario === 'blik-invalid' || !/^[0-9]{6}$/.test(body.payment.code ?? ''))) {
      return failure(422, 'validation_failed', 'Some fields are not valid.', { fields: { 'payment.code': ['must be the six digits from your bank app'] } });
    }
    if (scenario === 'checkout-vies-invalid') {
      return failure(422, 'validation_failed', 'Some fields are not valid.', { fields: { 'buyer.tax_no': ['is not a VAT number registered in VIES'] } });
    }
    if (scenario === 'checkout-invalid') {
      return failure(422, 'validation_failed', 'Some fields are not valid.', { fields: { 'buyer.tax_no': ['is too long (maximum is 50 characters)'] } });
    }
    const found = STAND_IN_PRODUCTS[body.product ?? ''];
    if (!found) return failure(422, 'validation_failed', 'Some fields are not valid.', { fields: { product: ['is not for sale'] } });
    const quantity = body.quantity ?? 1;
    const amount = toPlain(roundMoney(mul(decimal(found.price_gross), decimal(quantity)), found.currency));
    const attempt = `storybook-attempt-${attempts.size + 1}`;
    const refused = scenario === 'blik-wrong-code' || scenario === 'blik-expired-code';
    const blik: BlikState | undefined = body.payment && {
      method: 'blik', status: refused ? 'failed' : 'pending', reason: refused ? BLIK_FAILURES[scenario]! : null, expires_at: new Date(Date.now() + BLIK_CODE_MS).toISOString(),
    };
    attempts.set(attempt, { product: found, quantity, amount, ...(blik ? { blik, looks: 0 } : {}) });
    return json(
      {
        attempt, redirectUrl: `https://pay.invoicekit.example/checkout/${attempt}`, amount, tax: found.tax, vat_treatment: 'standard', case: 'domestic', notes: [],
        currency: found.currency, quantity, product: { token: found.token, name: found.name },
        // VIES could not answer at the checkout: Polish VAT, whatever the quote said.
        ...(scenario === 'vies-down' ? { fallback: 'vies_unavailable' as const } : {}),
        ...(blik ? { status: blik.status === 'failed' ? ('failed' as const) : ('pending' as const), payment: blik } : {}),
      } satisfies CheckoutAnswer,
      201,
    );
  }
  const outcome = /^checkout\/([^/]+)$/.exec(route);
  if (outcome && request.method === 'GET') {
    const attempt = attempts.get(decodeURIComponent(outcome[1]!));
    if (!attempt) return notFound('checkout');
    if (scenario === 'outcome-checking') return never(request.signal);
    const blik = attempt.blik && blikLook(scenario, attempt.blik, (attempt.looks = (attempt.looks ?? 0) + 1));
    const status = blik ? (blik.status === 'paid' ? 'paid' : blik.status === 'failed' ? 'failed' : 'pending') : (OUTCOMES[scenario] ?? 'paid');
    const invoice = status === 'paid' ? { number: `FV/${attempts.size}/2026`, view_url: `https://invoices.invoicekit.example/i/${2000 + attempts.size}` } : null;
    return json(
      {
        status, amount: attempt.amount, currency: attempt.product.currency, quantity: attempt.quantity, product: { name: attempt.product.name }, invoice,
        ...(blik ? { payment: blik, reason: blik.status === 'failed' ? blik.reason : null } : {}),
      } satisfies CheckoutOutcome,
      200,
      { 'cache-control': 'private, no-store' },
    );
  }
  return notFound('route');
}

/**
 * `GET /company/:country/:tax_no`: the demo's Polish studio by its NIP, written as a buyer may write
 * it (`525-224-84-81`, `PL 5252248481`), 404 for any other number, 503 while the register is down.
 */
function companyAnswer(scenario: string, route: string): Response {
  if (scenario === 'register-down') return failure(503, 'service_busy', 'The VAT register cannot answer now. Try again later.', { headers: { 'retry-after': '60' } });
  const [, country, number = ''] = route.split('/');
  if (country !== 'PL' || compactCode(decodeURIComponent(number)).replace(/^PL/, '') !== '5252248481') return notFound('company');
  return json({ name: 'DEMO STUDIO SPÓŁKA Z OGRANICZONĄ ODPOWIEDZIALNOŚCIĄ', street: 'UL. PROSTA 51', post_code: '00-838', city: 'WARSZAWA', country: 'PL', tax_no: '5252248481', vat_active: true }, 200);
}

/** `POST /client-check`: the client rules' verdict on the fields sent, in any scenario, as the BFF answers it. */
async function clientCheckAnswer(request: Request): Promise<Response> {
  const { company = false, ...fields } = (await request.json()) as ClientCheckRequest;
  const answer: ClientCheck = { problems: clientProblems(fields, { company }) };
  const example = answer.problems.post_code === 'postCode' ? postCodeExample((fields.country ?? '').trim()) : undefined;
  if (example) answer.post_code_example = example;
  return json(answer, 200, PRIVATE);
}

/** Direct mode: the service's widget product route, for a shop with no payment provider. Its errors are the service's. */
function directAnswer(route: string, request: Request): Response {
  const productRoute = /^a\/[^/]+\/widget\/products\/([^/]+)\.json$/.exec(route);
  const found = productRoute && request.method === 'GET' ? STAND_IN_PRODUCTS[decodeURIComponent(productRoute[1]!)] : undefined;
  if (!found) return new Response(JSON.stringify({ code: 'error', message: 'Not found' }), { status: 404, headers: { 'content-type': 'application/json' } });
  // The service quotes by the tax engine (case, rate, the invoice's words), where the BFF quotes by the checkout core's three kinds.
  const quote = saleQuote(found, { country: 'PL', ossRegistered: false }, (name) => new URL(request.url).searchParams.get(name) ?? undefined);
  const supply_kind = found.service === true ? 'service' : 'goods';
  // A shop without a provider takes no BLIK codes: the widget route says so outright.
  return json({ ...inReadersWords(found, request), supply_kind, quote, seller: 'Studio Północ', available: false, test_mode: false, blik: false }, 200, productCache(request));
}

/**
 * The stand-in's answer to one request for `/storybook-bff/…` or `/storybook-service/…`, at once.
 * Rejects as `fetch` does when the scenario is a network failure.
 */
export async function standInAnswer(request: Request): Promise<Response> {
  const { pathname } = new URL(request.url);
  const base = pathname.startsWith(STAND_IN_SERVICE) ? STAND_IN_SERVICE : STAND_IN_BFF;
  const [scenario = 'mixed', ...rest] = pathname.slice(base.length).split('/');
  const route = rest.join('/');
  if (base === STAND_IN_SERVICE) return directAnswer(route, request);
  if (scenario === 'loading') return never(request.signal);
  if (scenario === 'error') return failure(502, 'service_error', 'The invoicing service could not complete the request.');
  const portal = /^invoices(\/|$)/.test(route) || /^clients?$/.test(route);
  if (scenario === 'expired' && portal) {
    return failure(401, 'token_expired', 'The portal token has expired.', { headers: { 'www-authenticate': 'Bearer realm="invoicekit", error="invalid_token"' } });
  }
  if (/^clients?$/.test(route)) return clientAnswer(scenario, route, request);
  if (/^(products|checkout)(\/|$)/.test(route)) return saleAnswer(scenario, route, request);
  if (/^company\//.test(route)) return companyAnswer(scenario, route);
  if (route === 'client-check' && request.method === 'POST') return clientCheckAnswer(request);
  return portalAnswer(scenario, route, request);
}

export function installBffStandIn(): void {
  const realFetch = globalThis.fetch.bind(globalThis);
  globalThis.fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = input instanceof Request && !init ? input : new Request(input, init);
    const { pathname } = new URL(request.url);
    if (!pathname.startsWith(STAND_IN_BFF) && !pathname.startsWith(STAND_IN_SERVICE)) return realFetch(input, init);
    // A little latency, so loading states are visible the way they are on a real network.
    await new Promise((resolve) => setTimeout(resolve, pathname.startsWith(`${STAND_IN_BFF}many/`) ? 150 : 350));
    if (request.signal.aborted) throw new DOMException('aborted', 'AbortError');
    return standInAnswer(request);
  };
}
