import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import { build } from 'esbuild';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createBff } from '../../src/bff/index.js';
import { compare, decimal } from '../../src/kernel/money.js';
import { launchChromium } from '../helpers/chromium.js';
import { api, type Api } from '../helpers/http.js';
import { startTestService, type TestService } from '../helpers/service.js';
import { PORTAL_SECRET } from '../bff/support.js';
import { Przelewy24StandIn } from '../service/support/przelewy24-standin.js';
import { StripeStandIn } from '../service/support/stripe-standin.js';
import { type BlikProviderCase, blikProviderCases } from '../service/support/blik-providers.js';

/**
 * BLIK on the page, from the pay button in Chromium to each provider's stand-in and back: a shop's
 * page on 127.0.0.1 embeds the button by the one-line widget script (direct mode, the service's
 * widget routes) or through a real BFF on the page's own origin. The buyer types (or pastes) the
 * code, sees the wait with the time left, and the stand-in's bank app answers: the invoice the
 * service issued, or why not, with a way to try again. The service's clock is the test's, near real
 * time, so that a code's two minutes can pass at once. At the end, no code is in any answer the page
 * or the BFF received, nor in the page, and each reached its provider exactly once.
 */
vi.setConfig({ testTimeout: 45_000 });

const MERCHANT = { merchantId: 246810, posId: 246810, crc: '0c0ffee012345678', apiKey: 'abcdef0123456789abcdef0123456789' };
const STRIPE_KEY = 'sk_test_51BlikChromiumKey000000000000';
const WEBHOOK_SECRET = 'whsec_blikChromiumSecret00000000000';
const PRODUCT = 'logo-design';
const CODE_LIFETIME_MS = 120_000;
/** The few seconds past `expires_at` after which a pending code is read as timed out. */
const GRACE_MS = 5_000;

/** Every code the buyers use, each once in the file. */
const CODES = {
  p24Widget: '582914',
  /** Pasted as "705 318". Not "123 456": the button's own script holds "0123456789", so that code would be found in every page. */
  p24Bff: '705318',
  wrong: '111111',
  afterWrong: '693027',
  declined: '333333',
  stripeWidget: '604815',
  stripeBff: '715026',
  unanswered: '444444',
} as const;

const TEXT = {
  wait: 'Confirm the payment in your bank app',
  paid: (number: string) => `Payment received. Thank you! Invoice ${number} is on its way to your e-mail.`,
  wrong: 'The code was wrong. Check it in your bank app and try again.',
  declined: 'The payment was declined in your bank app. Nothing was charged.',
  timeout: 'Your bank app gave no answer in time. Nothing was charged.',
};

let p24: Przelewy24StandIn;
let stripe: StripeStandIn;
let service: TestService;
let shop: Api;
let pages: Server;
let origin: string;
let browser: Browser;
let elementScript = '';
/** How far the service's clock runs ahead of real time. */
let clockAheadMs = 0;
/** Everything the pages received (each body's text, by its address). */
const pageAnswers: Promise<{ url: string; text: string }>[] = [];
/** Every answer the BFF received from the service. */
const bffAnswers: Promise<string>[] = [];

function shopPage(body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Logo design</title></head><body><h1>Logo design</h1>${body}</body></html>`;
}

beforeAll(async () => {
  p24 = new Przelewy24StandIn(MERCHANT);
  stripe = new StripeStandIn([STRIPE_KEY]);
  await Promise.all([p24.server.start(), stripe.server.start()]);
  process.env.INVOICEKIT_P24_API_URL = p24.url;
  process.env.INVOICEKIT_STRIPE_API_URL = stripe.url;
  const [started, bundle] = await Promise.all([
    startTestService({ clock: () => new Date(Date.now() + clockAheadMs) }),
    build({ entryPoints: ['src/elements/product-pay-button/define.ts'], bundle: true, format: 'esm', write: false, logLevel: 'silent' }),
  ]);
  service = started;
  elementScript = bundle.outputFiles[0]!.text;
  shop = api(service);
  stripe.webhook = { url: `${service.url}/payments/stripe/${service.prefix}/webhook`, secret: WEBHOOK_SECRET };
  expect((await shop.post('/products.json', { product: { name: 'Logo design', price_gross: '1845.00', tax: '23', currency: 'PLN', token: PRODUCT } })).status).toBe(201);

  pages = createServer();
  await new Promise<void>((resolve) => pages.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(pages.address() as AddressInfo).port}`;
  const [department] = (await shop.get('/departments.json')).body as { id: number }[];
  expect((await shop.put(`/departments/${department!.id}.json`, { department: { widget_origins: [origin] } })).status).toBe(200);
  const bff = createBff({
    serviceUrl: service.url,
    apiToken: service.apiToken,
    portalSecret: PORTAL_SECRET,
    allowedOrigins: [origin],
    rateLimit: false,
    logger: false,
    serviceFetch: async (input, init) => {
      const response = await fetch(input, init);
      bffAnswers.push(response.clone().text());
      return response;
    },
  });
  const bffListener = getRequestListener(bff.fetch);
  const widgetTag = `<script src="${service.url}/a/${service.prefix}/p/${PRODUCT}.js"></script>`;
  pages.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const path = new URL(req.url ?? '/', origin).pathname;
    if (path.startsWith('/bff/')) return void bffListener(req, res);
    if (path === '/product-pay-button.js') return void res.writeHead(200, { 'content-type': 'text/javascript' }).end(elementScript);
    const html = { 'content-type': 'text/html; charset=utf-8' };
    if (path === '/widget') return void res.writeHead(200, html).end(shopPage(widgetTag));
    if (path === '/bff-shop') {
      return void res.writeHead(200, html).end(shopPage(`<product-pay-button endpoint="/bff" product="${PRODUCT}"></product-pay-button><script type="module" src="/product-pay-button.js"></script>`));
    }
    res.writeHead(404).end();
  });
  browser = await launchChromium();
}, 90_000);

afterAll(async () => {
  await browser?.close();
  pages?.closeAllConnections();
  await new Promise((resolve) => (pages ? pages.close(resolve) : resolve(undefined)));
  await service?.stop();
  await Promise.all([p24?.server.stop(), stripe?.server.stop()]);
  delete process.env.INVOICEKIT_P24_API_URL;
  delete process.env.INVOICEKIT_STRIPE_API_URL;
});

type Provider = BlikProviderCase;
const { przelewy24, stripe: stripeProvider } = blikProviderCases(() => ({ p24, stripe }), { merchant: MERCHANT, stripeKey: STRIPE_KEY, webhookSecret: WEBHOOK_SECRET });

interface PaymentJson {
  id: number;
  email: string;
  paid: boolean;
  invoice_id: number | null;
  payment_url: string;
  blik: { status: string; reason: string | null; expires_at: string } | null;
}

async function paymentsOf(email: string): Promise<(PaymentJson & { token: string })[]> {
  const list = (await shop.get('/banking/payments.json', { per_page: 100 })).body as PaymentJson[];
  return list.filter((payment) => payment.email === email).map((payment) => ({ ...payment, token: payment.payment_url.split('/').at(-1)! }));
}

async function invoiceOf(id: number): Promise<{ number: string; status: string; price_gross: string; buyer_email: string; token: string }> {
  return (await shop.get(`/invoices/${id}.json`)).body as { number: string; status: string; price_gross: string; buyer_email: string; token: string };
}

interface PayEventRecord {
  type: string;
  detail: { product: string; quantity: number; amount: string; currency: string; attempt: string; reason?: string; failure?: string; invoice?: { number: string; view_url: string } | null };
}

interface Visit {
  context: BrowserContext;
  page: Page;
  button: Locator;
  dialog: Locator;
  errors: string[];
  /** The bodies of the answers it received, read as they came. */
  answers: Promise<unknown>[];
}

/** A buyer's visit to the shop's page (`/widget` or `/bff-shop`): its answers are kept, its pay events recorded. */
async function visit(path: '/widget' | '/bff-shop'): Promise<Visit> {
  const context = await browser.newContext({ viewport: { width: 1024, height: 800 } });
  await context.addInitScript(() => {
    const events: unknown[] = [];
    Object.assign(window, { payEvents: events });
    for (const type of ['pay-start', 'pay-success', 'pay-cancel', 'pay-error']) {
      document.addEventListener(type, (event) => events.push({ type, detail: JSON.parse(JSON.stringify((event as CustomEvent).detail)) as unknown }));
    }
  });
  const page = await context.newPage();
  const errors: string[] = [];
  const answers: Promise<unknown>[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => message.type() === 'error' && errors.push(message.text()));
  page.on('response', (response) => {
    const url = response.url();
    const read = response.text().then((text) => ({ url, text }), () => ({ url, text: '' }));
    pageAnswers.push(read);
    answers.push(read);
  });
  await page.goto(`${origin}${path}`, { waitUntil: 'load' });
  const button = page.locator('product-pay-button');
  await expect.poll(() => button.locator('[part~="price"]').textContent(), { timeout: 20_000 }).toMatch(/^PLN\s1,845\.00$/);
  return { context, page, button, dialog: button.locator('[part~="dialog"]'), errors, answers };
}

const payEvents = (page: Page) => page.evaluate(() => (window as unknown as { payEvents: unknown[] }).payEvents) as Promise<PayEventRecord[]>;

/** Opens the dialog and fills in the buyer; resolves once the dialog has the server's price, so that a code can be sent. */
async function fillBuyer({ button, dialog }: Visit, email: string): Promise<void> {
  await button.locator('[part~="button"]').click();
  await dialog.locator('input[name="email"]').fill(email);
  await dialog.locator('input[name="name"]').fill('Jan Kowalski');
  await expect.poll(() => dialog.locator('[part~="continue-button"]').isEnabled()).toBe(true);
  expect(await dialog.locator('[part~="blik"]').isVisible()).toBe(true);
}

/** Types the code in the BLIK field and presses "Pay with BLIK". */
async function typeCode({ dialog }: Visit, code: string): Promise<void> {
  await dialog.locator('input[name="code"]').pressSequentially(code);
  await dialog.locator('[part~="blik"] [part~="blik-button"]').click();
}

const heading = ({ dialog }: Visit) => dialog.locator('[part~="blik-status"] h2');

/**
 * The wait for the bank app, for the code sent (from `sentAt`) for `email`'s payment: the heading,
 * the time left to the expiry the service gave the code (two minutes) counting down, and what a
 * screen reader hears. Resolves with the payment, pending at the provider.
 */
async function expectWaiting(visit: Visit, email: string, sentAt: number, payments = 1): Promise<PaymentJson & { token: string }> {
  await expect.poll(() => heading(visit).textContent()).toBe(TEXT.wait);
  expect(await visit.dialog.locator('[part~="form"]').isHidden()).toBe(true);
  const all = await paymentsOf(email);
  expect(all).toHaveLength(payments);
  const payment = all.find((each) => each.blik?.status === 'pending')!;
  expect(payment).toMatchObject({ paid: false, invoice_id: null, blik: { status: 'pending', reason: null } });
  const expires = Date.parse(payment.blik!.expires_at);
  expect(expires).toBeGreaterThanOrEqual(sentAt + CODE_LIFETIME_MS);
  expect(expires).toBeLessThanOrEqual(Date.now() + CODE_LIFETIME_MS);
  // The page counts to that expiry by its own clock, once a second: what it shows is the time left now, or a second more.
  const [shown, left] = await visit.page.evaluate(
    (at) => [document.querySelector('product-pay-button')!.shadowRoot!.querySelector('[part~="blik-time"]')!.textContent, Math.max(0, Math.ceil((at - Date.now()) / 1000))] as const,
    expires,
  );
  const clock = (seconds: number) => `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
  expect([clock(left), clock(left + 1)]).toContain(shown);
  expect(left).toBeGreaterThan(100);
  expect(await visit.dialog.locator('[part~="blik-live"]').textContent()).toMatch(/^Confirm the payment in your bank app\. (120|1[01]\d) seconds left\.$/);
  return payment;
}

/** The bank app approves: the success state names the invoice the service issued, and `pay-success` fired once with it. */
async function expectPaid(visit: Visit, provider: Provider, email: string, token: string): Promise<void> {
  expect((await provider.approve(token)).status).toBe(200);
  const payment = (await paymentsOf(email)).find((each) => each.token === token)!;
  expect(payment).toMatchObject({ paid: true, blik: { status: 'paid', reason: null } });
  const invoice = await invoiceOf(payment.invoice_id!);
  expect(invoice).toMatchObject({ status: 'paid', price_gross: '1845.0', buyer_email: email });
  expect(invoice.number).toMatch(/^\d+\/\d{2}\/\d{4}$/);
  await expect.poll(() => heading(visit).textContent()).toBe(TEXT.paid(invoice.number));
  expect(await visit.dialog.locator('[part~="blik-status"] [part~="invoice-link"]').textContent()).toBe(`View invoice ${invoice.number}`);
  const successes = (await payEvents(visit.page)).filter((event) => event.type === 'pay-success');
  expect(successes).toHaveLength(1);
  const { detail } = successes[0]!;
  expect(detail).toMatchObject({ product: PRODUCT, quantity: 1, currency: 'PLN', invoice: { number: invoice.number, view_url: `${service.url}/invoice/${invoice.token}` } });
  expect(compare(decimal(detail.amount), decimal('1845.00'))).toBe(0);
}

/** The bank app's refusal, or the code's, on screen with the reason; `pay-cancel` fired with it. */
async function expectFailed(visit: Visit, text: string, failure: string): Promise<PayEventRecord> {
  await expect.poll(() => heading(visit).textContent()).toBe(text);
  expect(await visit.dialog.locator('[part~="blik-status"] [part~="blik-button"]').textContent()).toBe('Try again');
  const cancels = (await payEvents(visit.page)).filter((event) => event.type === 'pay-cancel' && event.detail.failure === failure);
  expect(cancels).toHaveLength(1);
  expect(cancels[0]!.detail).toMatchObject({ product: PRODUCT, quantity: 1, reason: 'declined', failure });
  return cancels[0]!;
}

/** The page's whole DOM, shadow roots and the fields' values included. */
function pageDom(page: Page): Promise<string> {
  return page.evaluate(() => {
    const parts: string[] = [];
    const walk = (root: Document | ShadowRoot) => {
      parts.push(root instanceof Document ? root.documentElement.outerHTML : root.innerHTML);
      for (const element of root.querySelectorAll('*')) {
        if (element.shadowRoot) walk(element.shadowRoot);
        if (element instanceof HTMLInputElement) parts.push(element.value);
      }
    };
    walk(document);
    return parts.join('\n');
  });
}

/** Ends a visit: the codes typed are nowhere in the page (and the search does find the buyer's e-mail typed beside them), and nothing went wrong. */
async function leave(visit: Visit, email: string, codes: readonly string[]): Promise<void> {
  const dom = await pageDom(visit.page);
  expect(dom).toContain(email);
  for (const code of codes) expect(dom).not.toContain(code);
  expect(visit.errors).toEqual([]);
  // Every body is read before the page goes, so that the search at the end sees them all.
  await Promise.all(visit.answers);
  await visit.context.close();
}

async function useProvider(provider: Provider): Promise<void> {
  expect((await shop.put('/account/payments.json', { payments: provider.settings })).status).toBe(200);
}

describe('BLIK through Przelewy24', () => {
  beforeAll(() => useProvider(przelewy24));

  it('by the widget script: a typed code, the wait, then the invoice once the bank app approves', async () => {
    const email = 'p24-widget@shop.example';
    const buyer = await visit('/widget');
    expect(await buyer.button.getAttribute('app-url')).toBe(service.url);
    await fillBuyer(buyer, email);
    const sentAt = Date.now();
    await typeCode(buyer, CODES.p24Widget);
    const payment = await expectWaiting(buyer, email, sentAt);
    expect(p24.bySession(payment.token)!.blik).toEqual({ answer: 'approve' });
    await expectPaid(buyer, przelewy24, email, payment.token);
    await leave(buyer, email, [CODES.p24Widget]);
  });

  it('through the BFF: a pasted "705 318", the wait, then the invoice once the bank app approves', async () => {
    const email = 'p24-bff@shop.example';
    const buyer = await visit('/bff-shop');
    expect(await buyer.button.getAttribute('endpoint')).toBe('/bff');
    await buyer.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin });
    await fillBuyer(buyer, email);
    const field = buyer.dialog.locator('input[name="code"]');
    await field.focus();
    await buyer.page.evaluate(() => navigator.clipboard.writeText('705 318'));
    await buyer.page.keyboard.press('ControlOrMeta+V');
    expect(await field.inputValue()).toBe(CODES.p24Bff);
    const sentAt = Date.now();
    await buyer.dialog.locator('[part~="blik"] [part~="blik-button"]').click();
    const payment = await expectWaiting(buyer, email, sentAt);
    await expectPaid(buyer, przelewy24, email, payment.token);
    await leave(buyer, email, [CODES.p24Bff]);
  });

  it('refuses a wrong code at once with its reason, and Try again takes a new code that goes through', async () => {
    const email = 'p24-wrong@shop.example';
    const buyer = await visit('/widget');
    await fillBuyer(buyer, email);
    await typeCode(buyer, CODES.wrong);
    await expectFailed(buyer, TEXT.wrong, 'wrong_code');
    const [refused] = await paymentsOf(email);
    expect(refused).toMatchObject({ paid: false, invoice_id: null, blik: { status: 'failed', reason: 'wrong_code' } });

    await buyer.dialog.locator('[part~="blik-status"] [part~="blik-button"]').click();
    const field = buyer.dialog.locator('input[name="code"]');
    await expect.poll(() => field.evaluate((input) => (input.getRootNode() as ShadowRoot).activeElement === input)).toBe(true);
    expect(await field.inputValue()).toBe('');
    expect(await buyer.dialog.locator('input[name="email"]').inputValue()).toBe(email);
    // Enter in the code field pays with BLIK.
    await buyer.page.keyboard.type(CODES.afterWrong);
    const sentAt = Date.now();
    await buyer.page.keyboard.press('Enter');
    const retried = await expectWaiting(buyer, email, sentAt, 2);
    expect(retried.token).not.toBe(refused!.token);
    await expectPaid(buyer, przelewy24, email, retried.token);
    expect((await paymentsOf(email)).find((each) => each.token === refused!.token)).toMatchObject({ paid: false, invoice_id: null, blik: { status: 'failed', reason: 'wrong_code' } });
    await leave(buyer, email, [CODES.wrong, CODES.afterWrong]);
  });

  it('shows a refusal in the bank app as declined', async () => {
    const email = 'p24-declined@shop.example';
    const buyer = await visit('/widget');
    await fillBuyer(buyer, email);
    const sentAt = Date.now();
    await typeCode(buyer, CODES.declined);
    const payment = await expectWaiting(buyer, email, sentAt);
    expect((await przelewy24.decline(payment.token)).status).toBe(200);
    await expectFailed(buyer, TEXT.declined, 'declined');
    expect(await paymentsOf(email)).toMatchObject([{ paid: false, invoice_id: null, blik: { status: 'failed', reason: 'declined' } }]);
    expect((await payEvents(buyer.page)).filter((event) => event.type === 'pay-success')).toEqual([]);
    await leave(buyer, email, [CODES.declined]);
  });
});

describe('BLIK through Stripe', () => {
  beforeAll(() => useProvider(stripeProvider));

  it('by the widget script: a typed code, the wait, then the invoice once the bank app approves', async () => {
    const email = 'stripe-widget@shop.example';
    const buyer = await visit('/widget');
    await fillBuyer(buyer, email);
    const sentAt = Date.now();
    await typeCode(buyer, CODES.stripeWidget);
    const payment = await expectWaiting(buyer, email, sentAt);
    expect([...stripe.intents.values()].find((intent) => intent.metadata.payment_token === payment.token)).toMatchObject({ status: 'requires_action', amount: 184500, currency: 'pln' });
    await expectPaid(buyer, stripeProvider, email, payment.token);
    await leave(buyer, email, [CODES.stripeWidget]);
  });

  it('through the BFF: a typed code, the wait, then the invoice once the bank app approves', async () => {
    const email = 'stripe-bff@shop.example';
    const buyer = await visit('/bff-shop');
    await fillBuyer(buyer, email);
    const sentAt = Date.now();
    await typeCode(buyer, CODES.stripeBff);
    const payment = await expectWaiting(buyer, email, sentAt);
    await expectPaid(buyer, stripeProvider, email, payment.token);
    await leave(buyer, email, [CODES.stripeBff]);
  });

  it('through the BFF: a code nobody answers times out, and the approval that comes later settles it once', async () => {
    const email = 'stripe-late@shop.example';
    const buyer = await visit('/bff-shop');
    await fillBuyer(buyer, email);
    const sentAt = Date.now();
    await typeCode(buyer, CODES.unanswered);
    const payment = await expectWaiting(buyer, email, sentAt);
    // The code's two minutes and the grace pass on the service's clock: the page's next question hears the timeout.
    clockAheadMs = CODE_LIFETIME_MS + GRACE_MS + 1_000;
    const cancel = await expectFailed(buyer, TEXT.timeout, 'timeout');
    expect(await paymentsOf(email)).toMatchObject([{ paid: false, invoice_id: null, blik: { status: 'failed', reason: 'timeout' } }]);

    expect((await stripeProvider.approve(payment.token)).status).toBe(200);
    expect((await stripeProvider.approve(payment.token)).status).toBe(200);
    const [settled, ...more] = await paymentsOf(email);
    expect(more).toEqual([]);
    expect(settled).toMatchObject({ paid: true, blik: { status: 'paid', reason: null } });
    const invoice = await invoiceOf(settled!.invoice_id!);
    const invoices = (await shop.get('/invoices.json', { per_page: 100 })).body as { buyer_email: string }[];
    expect(invoices.filter((each) => each.buyer_email === email)).toHaveLength(1);
    const outcome = await buyer.page.evaluate(async (attempt) => (await fetch(`/bff/checkout/${attempt}`)).json(), cancel.detail.attempt);
    expect(outcome).toMatchObject({ status: 'paid', invoice: { number: invoice.number }, payment: { method: 'blik', status: 'paid', reason: null } });
    expect((await payEvents(buyer.page)).filter((event) => event.type === 'pay-success')).toEqual([]);
    await leave(buyer, email, [CODES.unanswered]);
  });
});

describe('the codes', () => {
  it('are in no answer the pages or the BFF received, and reached their provider exactly once', async () => {
    const answers = await Promise.all(pageAnswers);
    const fromBff = await Promise.all(bffAnswers);
    // The search finds what the answers do hold: the checkouts' answers and the invoices' numbers.
    expect(answers.filter(({ url }) => url.startsWith(`${service.url}/a/${service.prefix}/widget/checkout`)).length).toBeGreaterThan(4);
    expect(answers.filter(({ url }) => url.startsWith(`${origin}/bff/checkout`)).length).toBeGreaterThan(3);
    expect(fromBff.filter((text) => text.includes('"blik"')).length).toBeGreaterThan(3);
    for (const code of Object.values(CODES)) {
      expect(answers.filter(({ text }) => text.includes(code)).map(({ url }) => url)).toEqual([]);
      expect(fromBff.filter((text) => text.includes(code))).toEqual([]);
    }
    const byProvider = {
      przelewy24: [CODES.p24Widget, CODES.p24Bff, CODES.wrong, CODES.afterWrong, CODES.declined],
      stripe: [CODES.stripeWidget, CODES.stripeBff, CODES.unanswered],
    };
    for (const code of byProvider.przelewy24) expect([code, przelewy24.requestsWith(code), stripeProvider.requestsWith(code)]).toEqual([code, 1, 0]);
    for (const code of byProvider.stripe) expect([code, stripeProvider.requestsWith(code), przelewy24.requestsWith(code)]).toEqual([code, 1, 0]);
  });
});
