import { expect, waitUntil } from '@open-wc/testing';
import { STAND_IN_SCENARIOS, standInAnswer } from '../../stories/support/bff-stand-in.js';
import type { StandInFixtureInfo } from './support/stand-in-fixture.js';

/**
 * Storybook's BFF stand-in answers exactly as the real BFF does. Every scenario of the stand-in is asked
 * here, and each answer is compared with the real BFF's answer to the same request (see
 * support/stand-in-fixture.ts): the same status, the same readable headers, the same keys at every
 * depth, the same JSON types, and for errors the same code and message. A value may be `null` on one
 * side only where the real BFF answers both `null` and a value for that field.
 */

let real: StandInFixtureInfo;
before(async function (this: { timeout(ms: number): void }) {
  this.timeout(120_000);
  real = (await (await fetch('/__stand-in/info')).json()) as StandInFixtureInfo;
});

interface Answer {
  status: number;
  headers: Record<string, string | null>;
  body: unknown;
}

/** The headers a page can read on a cross-origin answer and that mean something to it. */
const HEADERS = ['content-type', 'cache-control', 'retry-after', 'x-total-count'] as const;

async function read(response: Response): Promise<Answer> {
  const headers: Record<string, string | null> = {};
  for (const name of HEADERS) headers[name] = response.headers.get(name);
  headers['content-type'] = headers['content-type']?.split(';')[0] ?? null;
  // Values differ (counts, seconds); that the header is there is what a page relies on.
  for (const name of ['retry-after', 'x-total-count'] as const) headers[name] = headers[name] === null ? null : 'present';
  return { status: response.status, headers, body: await response.json() };
}

const asked = new Set<string>();
const json = (body: unknown): RequestInit => ({ method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

/** The stand-in's answer for `/storybook-bff/<scenario>/<route>` (or `/storybook-service/…` for direct mode). */
async function standIn(scenario: string, route: string, init: RequestInit = {}, base = '/storybook-bff/'): Promise<Answer> {
  asked.add(scenario);
  return read(await standInAnswer(new Request(new URL(`${base}${scenario}/${route}`, location.href), init)));
}

async function bff(base: string, route: string, init: RequestInit = {}, token?: string): Promise<Answer> {
  const headers = new Headers(init.headers);
  if (token) headers.set('authorization', `Bearer ${token}`);
  return read(await fetch(`${base}/${route}`, { ...init, headers }));
}

/**
 * Stays unanswered: a server that never answers, for loading and busy states. Held while another
 * request to the stand-in is answered in full, then released by the abort: an answer given before
 * the abort could not turn into an `AbortError` after it.
 */
async function neverAnswers(scenario: string, route: string, init: RequestInit = {}): Promise<void> {
  asked.add(scenario);
  const controller = new AbortController();
  const request = new Request(new URL(`/storybook-bff/${scenario}/${route}`, location.href), { ...init, signal: controller.signal });
  const outcome = standInAnswer(request).then(
    () => 'answered',
    (error: unknown) => (error as Error).name,
  );
  await standInAnswer(new Request(new URL('/storybook-bff/mixed/invoices', location.href)));
  controller.abort();
  expect(await outcome, `${scenario} ${route}`).to.equal('AbortError');
}

// ——— Structure ———

type Types = Map<string, Set<string>>;
const typeOf = (value: unknown) => (value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value);

/** Every path in a JSON value (`/data/[]/seller/name`) with the types found there, and the arrays that were empty. */
function shapeOf(value: unknown, path = '', types: Types = new Map(), empty: Set<string> = new Set()) {
  const type = typeOf(value);
  if (!types.has(path)) types.set(path, new Set());
  types.get(path)!.add(type);
  if (Array.isArray(value)) {
    if (value.length === 0) empty.add(path);
    for (const item of value) shapeOf(item, `${path}/[]`, types, empty);
  } else if (type === 'object') {
    for (const [key, item] of Object.entries(value as object)) shapeOf(item, `${path}/${key}`, types, empty);
  }
  return { types, empty };
}

interface Pair {
  group: string;
  what: string;
  standIn: Answer;
  real: Answer;
}
const pairs: Pair[] = [];

function compare(group: string, what: string, standInAnswer: Answer, realAnswer: Answer): void {
  expect(standInAnswer.status, `${what}: status`).to.equal(realAnswer.status);
  expect(standInAnswer.headers, `${what}: headers`).to.deep.equal(realAnswer.headers);
  const error = (answer: Answer) => (answer.body as { error?: { code?: unknown; message?: unknown } }).error;
  if (realAnswer.status >= 400) {
    expect({ code: error(standInAnswer)?.code, message: error(standInAnswer)?.message }, `${what}: error`).to.deep.equal({
      code: error(realAnswer)?.code,
      message: error(realAnswer)?.message,
    });
  }
  pairs.push({ group, what, standIn: standInAnswer, real: realAnswer });
}

/** Same keys at every depth in each pair; the same types, `null` allowed where the real BFF shows it for the field. */
function checkStructure(): void {
  const realTypes = new Map<string, Types>();
  const standInTypes = new Map<string, Types>();
  const merge = (into: Map<string, Types>, group: string, types: Types) => {
    if (!into.has(group)) into.set(group, new Map());
    const all = into.get(group)!;
    for (const [path, set] of types) all.set(path, new Set([...(all.get(path) ?? []), ...set]));
  };
  const shapes = pairs.map((pair) => ({ pair, standIn: shapeOf(pair.standIn.body), real: shapeOf(pair.real.body) }));
  for (const { pair, standIn, real } of shapes) {
    merge(standInTypes, pair.group, standIn.types);
    merge(realTypes, pair.group, real.types);
  }
  const problems: string[] = [];
  for (const { pair, standIn, real } of shapes) {
    // Below an array that is empty on either side there is nothing to compare.
    const empty = [...standIn.empty, ...real.empty];
    const compared = (path: string) => !empty.some((prefix) => path.startsWith(`${prefix}/[]`));
    const standInPaths = [...standIn.types.keys()].filter(compared);
    const realPaths = [...real.types.keys()].filter(compared);
    for (const path of standInPaths.filter((p) => !real.types.has(p))) problems.push(`${pair.what}: ${path || '/'} is only in the stand-in's answer`);
    for (const path of realPaths.filter((p) => !standIn.types.has(p))) problems.push(`${pair.what}: ${path || '/'} is only in the real answer`);
    for (const path of standInPaths.filter((p) => real.types.has(p))) {
      const here = { standIn: [...standIn.types.get(path)!], real: [...real.types.get(path)!] };
      const nonNull = (types: string[]) => types.filter((t) => t !== 'null').sort().join('|');
      const everReal = realTypes.get(pair.group)!.get(path)!;
      const everStandIn = standInTypes.get(pair.group)!.get(path)!;
      const fits =
        (nonNull(here.standIn) === nonNull(here.real) || !nonNull(here.standIn) || !nonNull(here.real)) &&
        here.standIn.every((t) => everReal.has(t)) &&
        here.real.every((t) => everStandIn.has(t));
      if (!fits) problems.push(`${pair.what}: ${path || '/'} is ${here.standIn.join('|')} in the stand-in, ${here.real.join('|')} in the real answer`);
    }
  }
  expect(problems).to.deep.equal([]);
}

// ——— Real checkouts ———

const buyer = { email: 'stand-in.buyer@example.com', name: 'Ada Lovelace' };
const checkoutBody = (product = 'logo-design', quantity = 1) => ({ product, quantity, buyer, returnUrl: location.href, cancelUrl: location.href });
const newKey = () => crypto.randomUUID();

/** A real checkout through the BFF, taken to its end on the service's payment page (`pay`, `decline`, `cancel`), or left there. */
async function realOutcome(choice?: 'pay' | 'decline' | 'cancel'): Promise<Answer> {
  const response = await fetch(`${real.bff}/checkout`, { ...json(checkoutBody()), headers: { 'content-type': 'application/json', 'idempotency-key': newKey() } });
  const started = (await response.json()) as { attempt: string; redirectUrl: string };
  if (choice) await fetch(started.redirectUrl, { method: 'POST', mode: 'no-cors', body: new URLSearchParams({ choice }) });
  const expected = { pay: 'paid', decline: 'declined', cancel: 'cancelled' } as const;
  let answer: Answer | undefined;
  await waitUntil(
    async () => {
      answer = await bff(real.bff, `checkout/${encodeURIComponent(started.attempt)}`);
      const body = answer.body as { status: string; invoice: unknown };
      return !choice || (body.status === expected[choice] && (choice !== 'pay' || body.invoice !== null));
    },
    `the checkout did not end as ${choice}`,
    { timeout: 15_000, interval: 200 },
  );
  return answer!;
}

/** Starts a checkout on the stand-in, as the button does, and asks for its outcome. */
async function standInOutcome(scenario: string): Promise<Answer> {
  const started = (await standIn(scenario, 'checkout', { ...json(checkoutBody()), headers: { 'content-type': 'application/json', 'idempotency-key': newKey() } })).body as {
    attempt: string;
  };
  return standIn(scenario, `checkout/${encodeURIComponent(started.attempt)}`);
}

describe('Storybook BFF stand-in', function (this: { timeout(ms: number): void }) {
  this.timeout(120_000);

  it('answers the portal list, PDF links and payments as the BFF does', async () => {
    const token = real.token;
    for (const scenario of ['mixed', 'many', 'euro', 'ksef-sent', 'ksef-pending', 'ksef-error', 'ksef-offline']) {
      compare('invoice-list', `${scenario} list`, await standIn(scenario, 'invoices?page=1&per_page=10'), await bff(real.bff, 'invoices?page=1&per_page=10', {}, token));
    }
    // Invoices that do not go to KSeF: the real list's SI/4 has `ksef: null` too, beside others that have one.
    const none = (await standIn('ksef-none', 'invoices?page=1&per_page=10')).body as { data: { ksef: unknown }[] };
    expect(none.data.length).to.be.greaterThan(0);
    expect(none.data.every((each) => each.ksef === null)).to.equal(true);
    compare('invoice-list', 'list, outstanding', await standIn('mixed', 'invoices?status=outstanding&order=payment_to.asc'), await bff(real.bff, 'invoices?status=outstanding&order=payment_to.asc', {}, token));
    compare('invoice-list', 'list without totals', await standIn('mixed', 'invoices?page=2&per_page=2&totals=false'), await bff(real.bff, 'invoices?page=2&per_page=2&totals=false', {}, token));
    compare('invoice-list', 'empty list', await standIn('empty', 'invoices'), await bff(real.bff, 'invoices?search=no-such-number', {}, token));

    const ids = async (status: string) => ((await standIn('mixed', `invoices?status=${status}`)).body as { data: { id: number }[] }).data.map((each) => each.id);
    const [standInPaid, standInUnpaid] = [(await ids('paid'))[0]!, (await ids('outstanding'))[0]!];
    compare('pdf-link', 'PDF link', await standIn('mixed', `invoices/${standInPaid}/pdf-link`), await bff(real.bff, `invoices/${real.invoices.paid}/pdf-link`, {}, token));
    const pay = json({ returnUrl: location.href });
    compare('payment', 'payment', await standIn('mixed', `invoices/${standInUnpaid}/payment`, pay), await bff(real.bff, `invoices/${real.invoices.unpaid}/payment`, pay, token));
    compare('error', 'payment of a paid invoice', await standIn('mixed', `invoices/${standInPaid}/payment`, pay), await bff(real.bff, `invoices/${real.invoices.paid}/payment`, pay, token));
    compare('error', 'unknown route', await standIn('mixed', 'no-such-route'), await bff(real.bff, 'no-such-route'));
  });

  it('answers the client record and sign-up as the BFF does', async () => {
    const token = real.token;
    const realClient = await bff(real.bff, 'client', {}, token);
    for (const scenario of ['client-company', 'client-saving', 'client-invalid', 'signup']) {
      compare('client', `${scenario} record`, await standIn(scenario, 'client'), realClient);
    }
    compare('client', 'client-person record', await standIn('client-person', 'client'), await bff(real.bff, 'client', {}, real.personToken));
    const change = { ...json({ city: 'Kraków' }), method: 'PUT' };
    compare('client', 'saved record', await standIn('client-company', 'client', change), await bff(real.bff, 'client', change, token));
    const refused = { ...json({ bank: 'x'.repeat(201) }), method: 'PUT' };
    compare('error', 'refused record', await standIn('client-invalid', 'client', refused), await bff(real.bff, 'client', refused, token));
    await neverAnswers('client-saving', 'client', change);
    const signup = json({ name: 'Grace Hopper', email: `grace.${Date.now()}@example.com` });
    compare('signup', 'sign-up', await standIn('signup', 'clients', signup), await bff(real.bff, 'clients', signup));
    // The client rules' verdict the form asks for as the customer types.
    const checked = { company: true, name: 'Nowak Design', tax_no: 'DE136695977', email: '', phone: '', street: '', post_code: '1011', city: '', country: 'DE', bank: '', bank_account: '' };
    for (const fields of [{ ...checked, tax_no: 'DE136695976', post_code: '10115' }, checked]) {
      compare('client-check', `check of ${fields.tax_no}`, await standIn('client-company', 'client-check', json(fields)), await bff(real.bff, 'client-check', json(fields)));
    }
    expect((await standIn('client-company', 'client-check', json(checked))).body).to.deep.equal({ problems: { tax_no: 'vat', post_code: 'postCode' }, post_code_example: '10115' });
  });

  it('answers products, checkout and its outcome as the BFF does', async () => {
    const product = await bff(real.bff, 'products/logo-design');
    for (const scenario of STAND_IN_SCENARIOS.sale.filter((each) => each !== 'test-mode')) {
      compare('product', `${scenario} product`, await standIn(scenario, 'products/logo-design'), product);
    }
    compare('product', 'test-mode product', await standIn('test-mode', 'products/logo-licence-jpy'), await bff(real.testModeBff, 'products/logo-licence-jpy'));
    compare('error', 'unknown product', await standIn('shop', 'products/no-such-product'), await bff(real.bff, 'products/no-such-product'));
    // A company's tax number with a wrong check digit: both quotes name it, as the dialog shows it.
    const wrongDigit = 'products/logo-design?country=DE&company=1&tax_no=DE136695978';
    const [standInQuote, realQuote] = [await standIn('shop', wrongDigit), await bff(real.bff, wrongDigit)];
    compare('product', 'quote naming the tax number', standInQuote, realQuote);
    for (const answer of [standInQuote, realQuote]) expect((answer.body as { quote: { problems?: unknown } }).quote.problems).to.deep.equal({ tax_no: 'vat' });

    const start = () => ({ ...json(checkoutBody('coffee-beans', 3)), headers: { 'content-type': 'application/json', 'idempotency-key': newKey() } });
    compare('checkout', 'checkout', await standIn('shop', 'checkout', start()), await bff(real.bff, 'checkout', start()));
    const signedIn = () => {
      const init = start();
      return { ...init, body: JSON.stringify({ product: 'coffee-beans', quantity: 3, returnUrl: location.href }), headers: { ...init.headers, authorization: `Bearer ${real.token}` } };
    };
    compare('checkout', 'signed-in checkout', await standIn('shop', 'checkout', signedIn()), await bff(real.bff, 'checkout', signedIn()));
    compare('checkout', 'test-mode checkout', await standIn('test-mode', 'checkout', start()), await bff(real.testModeBff, 'checkout', start()));
    const tooLong = () => ({ ...json({ ...checkoutBody(), buyer: { ...buyer, company: false, tax_no: '1'.repeat(51) } }), headers: { 'content-type': 'application/json', 'idempotency-key': newKey() } });
    compare('error', 'refused checkout', await standIn('checkout-invalid', 'checkout', tooLong()), await bff(real.bff, 'checkout', tooLong()));
    await bff(real.limitedBff, 'checkout', start());
    compare('error', 'rate-limited checkout', await standIn('checkout-busy', 'checkout', start()), await bff(real.limitedBff, 'checkout', start()));
    await neverAnswers('redirecting', 'checkout', start());

    // Offline: both fail the way `fetch` does when nothing answers.
    asked.add('offline');
    const failures = await Promise.all([
      standInAnswer(new Request(new URL('/storybook-bff/offline/checkout', location.href), start())).then(() => 'answered', (error: unknown) => (error as Error).name),
      fetch('http://127.0.0.1:1/bff/checkout', start()).then(() => 'answered', (error: unknown) => (error as Error).name),
    ]);
    expect(failures).to.deep.equal(['TypeError', 'TypeError']);

    compare('outcome', 'paid', await standInOutcome('shop'), await realOutcome('pay'));
    compare('outcome', 'test-mode paid', await standInOutcome('test-mode'), await realOutcome('pay'));
    compare('outcome', 'declined', await standInOutcome('declined'), await realOutcome('decline'));
    compare('outcome', 'cancelled', await standInOutcome('cancelled'), await realOutcome('cancel'));
    compare('outcome', 'pending', await standInOutcome('pending'), await realOutcome());
    compare('error', 'unknown attempt', await standIn('shop', 'checkout/no-such-attempt'), await bff(real.bff, 'checkout/no-such-attempt'));
    for (const scenario of ['outcome-checking']) {
      const started = (await standIn(scenario, 'checkout', start())).body as { attempt: string };
      await neverAnswers(scenario, `checkout/${started.attempt}`);
    }
  });

  it('answers BLIK on the page as the BFF does: the product, the checkout with a code, and its outcomes', async () => {
    const product = await bff(real.blikBff, 'products/logo-design');
    for (const scenario of STAND_IN_SCENARIOS.blik) compare('product', `${scenario} product`, await standIn(scenario, 'products/logo-design'), product);
    const start = (code: string) => ({ ...json({ ...checkoutBody('coffee-beans', 1), payment: { method: 'blik', code } }), headers: { 'content-type': 'application/json', 'idempotency-key': newKey() } });
    const [realPending, realFailed] = [await bff(real.blikBff, 'checkout', start('777123')), await bff(real.blikBff, 'checkout', start('111111'))];
    compare('blik-checkout', 'BLIK checkout, pending', await standIn('blik', 'checkout', start('777123')), realPending);
    compare('blik-checkout', 'BLIK checkout, wrong code', await standIn('blik-wrong-code', 'checkout', start('111111')), realFailed);
    compare('blik-checkout', 'BLIK checkout, expired code', await standIn('blik-expired-code', 'checkout', start('222222')), await bff(real.blikBff, 'checkout', start('222222')));
    compare('error', 'BLIK code refused', await standIn('blik-invalid', 'checkout', start('777123')), await bff(real.blikBff, 'checkout', start('12345')));

    const attemptOf = (answer: Answer) => encodeURIComponent((answer.body as { attempt: string }).attempt);
    /** The stand-in's outcome of a BLIK checkout in `scenario`, on its `looks`-th look. */
    const standInBlik = async (scenario: string, code: string, looks: number) => {
      const attempt = attemptOf(await standIn(scenario, 'checkout', start(code)));
      for (let i = 1; i < looks; i += 1) await standIn(scenario, `checkout/${attempt}`);
      return standIn(scenario, `checkout/${attempt}`);
    };
    /** The real outcome of a BLIK checkout with `code`, once it says `status`. */
    const realBlik = async (checkout: Answer, status: string) => {
      let answer: Answer | undefined;
      await waitUntil(async () => ((answer = await bff(real.blikBff, `checkout/${attemptOf(checkout)}`)).body as { status: string }).status === status, `the BLIK checkout did not become ${status}`, {
        timeout: 15_000,
        interval: 200,
      });
      return answer!;
    };
    compare('blik-outcome', 'BLIK waiting', await standInBlik('blik-waiting', '777123', 1), await bff(real.blikBff, `checkout/${attemptOf(await bff(real.blikBff, 'checkout', start('444444')))}`));
    compare('blik-outcome', 'BLIK wrong code', await standInBlik('blik-wrong-code', '111111', 1), await realBlik(realFailed, 'failed'));
    compare('blik-outcome', 'BLIK declined', await standInBlik('blik-declined', '333333', 2), await realBlik(await bff(real.blikBff, 'checkout', start('333333')), 'failed'));
    compare('blik-outcome', 'BLIK paid', await standInBlik('blik', '777123', 2), await realBlik(realPending, 'paid'));
    for (const scenario of ['blik-timeout', 'blik-provider-error']) {
      const answer = await standInBlik(scenario, '777123', 2);
      expect((answer.body as { reason: string }).reason, scenario).to.equal(scenario === 'blik-timeout' ? 'timeout' : 'provider_error');
    }
  });

  it('fails as the BFF does when the service is down, the token has expired, or nothing answers', async () => {
    const portal = ['invoices', 'client', 'invoices/1000/pdf-link'];
    for (const route of portal) compare('error', `service down: ${route}`, await standIn('error', route), await bff(real.deadBff, route, {}, real.token));
    compare('error', 'service down: product', await standIn('error', 'products/logo-design'), await bff(real.deadBff, 'products/logo-design'));
    for (const route of portal) compare('error', `expired: ${route}`, await standIn('expired', route), await bff(real.bff, route, {}, real.expiredToken));
    for (const route of ['invoices', 'client', 'products/logo-design']) await neverAnswers('loading', route);
  });

  it('answers the service’s widget routes in direct mode as the service does', async () => {
    const direct = (scenario: string, route: string) => standIn(scenario, `a/demo/widget/${route}`, {}, '/storybook-service/');
    const service = async (route: string) => read(await fetch(`${real.noPaymentsService}/a/${real.account}/widget/${route}`));
    compare('direct', 'product of a shop without payments', await direct('unavailable', 'products/logo-design.json'), await service('products/logo-design.json'));
    const missing = await direct('unavailable', 'products/no-such-product.json');
    const realMissing = await service('products/no-such-product.json');
    expect(missing).to.deep.equal({ ...realMissing, headers: { ...realMissing.headers } });
  });

  it('has the same structure everywhere, and every scenario was compared', () => {
    checkStructure();
    expect([...asked].sort()).to.deep.equal(Object.values(STAND_IN_SCENARIOS).flat().sort());
  });
});
