import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../helpers/service.js';
import { buyer, decodeQuotedPrintable, expectCodesKeptNowhere, expiresAt, SECRET_CODES, START, useBlikService } from './support/blik.js';

/**
 * BLIK on the pages that need no JavaScript (the service's checkout page and the order page), and an
 * approval that comes after the checkout gave the payment up, with the test provider on a clock the
 * tests move.
 */
const h = useBlikService([{ name: 'Mug', price_gross: '123.00', tax: '23', token: 'blik-mug' }]);

describe('a BLIK payment approved after the page gave up', () => {
  let late: TestService;
  beforeAll(async () => {
    // The bank app answers 10 s after the code, which lives 1 s: the checkout times out first.
    late = await startTestService({
      smtpUrl: h.smtpUrl(),
      clock: h.clock,
      trustProxy: 1,
      blik: { codeLifetimeMs: 1_000, testApprovalMs: 10_000 },
    });
    const created = await fetch(`${late.url}/products.json`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ api_token: late.apiToken, product: { name: 'Kubek', price_gross: '123.00', tax: '23', token: 'late-mug' } }),
    });
    expect(created.status).toBe(201);
  }, 60_000);
  afterAll(() => late?.stop());

  it('times out, then settles once when the approval comes, and the e-mail with the invoice says the payment came late', async () => {
    h.now = START + 1_000_000;
    const sentAt = h.now;
    const started = await h.answerOf(
      await fetch(`${late.url}/a/${late.prefix}/widget/checkout.json`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': h.nextAddress() },
        body: JSON.stringify({ product: 'late-mug', lang: 'pl', buyer: { email: 'late@buyer.example', name: 'Anna Nowak' }, payment: { method: 'blik', code: '777123' } }),
      }),
    );
    expect(started.status).toBe(201);
    expect(started.body).toMatchObject({ status: 'pending', payment: { status: 'pending', expires_at: expiresAt(sentAt, 1_000) } });
    const read = async () => h.answerOf(await fetch(`${late.url}/a/${late.prefix}/widget/checkout/${started.body.attempt as string}.json`));

    h.now = sentAt + 6_001;
    expect((await read()).body).toMatchObject({ status: 'failed', reason: 'timeout', invoice: null });
    expect(h.mails.filter((mail) => mail.to.includes('late@buyer.example'))).toEqual([]);

    h.now = sentAt + 10_000;
    const paid = await read();
    expect(paid.body).toMatchObject({ status: 'paid', reason: null, payment: { status: 'paid', reason: null } });
    expect((await read()).body).toMatchObject({ status: 'paid' });
    await expect.poll(() => h.mails.filter((mail) => mail.to.includes('late@buyer.example')).length, { timeout: 10_000 }).toBe(1);
    const [mail] = h.mails.filter((m) => m.to.includes('late@buyer.example'));
    // Quoted-printable may fold the line: the sentence is read from the unfolded text.
    const text = mail!.data.replace(/=\r?\n/g, '');
    expect(decodeQuotedPrintable(text)).toContain('Twoja płatność BLIK dotarła po tym, jak strona płatności przestała na nią czekać. Płatność została przyjęta, a oto faktura.');
    expect(text).toMatch(/application\/pdf/);
    const payments = (await (await fetch(`${late.url}/banking/payments.json?api_token=${late.apiToken}`)).json()) as Record<string, unknown>[];
    expect(payments.filter((payment) => payment.email === 'late@buyer.example')).toMatchObject([{ paid: true, blik: { status: 'paid', reason: null } }]);
    const invoices = (await (await fetch(`${late.url}/invoices.json?api_token=${late.apiToken}`)).json()) as Record<string, unknown>[];
    expect(invoices.filter((invoice) => invoice.buyer_email === 'late@buyer.example')).toHaveLength(1);
  });
});

describe('BLIK on the pages without JavaScript', () => {
  const page = (path: string, init: RequestInit = {}) =>
    fetch(`${h.service.url}${path}`, { redirect: 'manual', ...init, headers: { 'x-forwarded-for': h.nextAddress(), ...(init.headers as Record<string, string>) } });
  const form = (fields: Record<string, string>) => ({ method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields).toString() });

  it('offers the code field on the checkout page, waits with the time left, then shows the outcome', async () => {
    h.now = START + 2_000_000;
    const started = await h.checkout({ product: 'blik-mug', lang: 'en', buyer: buyer('page@buyer.example') });
    const path = `/banking/payments/pay/${started.body.attempt as string}`;
    const offered = await (await page(path)).text();
    expect(offered).toContain('<input name="code" type="text" inputmode="numeric" autocomplete="one-time-code"');
    expect(offered).toContain('<button class="button primary" type="submit" name="choice" value="blik">Pay with BLIK</button>');
    expect(offered).toContain('Test codes: 777123 is approved, 111111 is a wrong code');

    expect(offered).toContain('<input type="hidden" name="after" value="none">');
    const malformed = await page(path, form({ choice: 'blik', after: 'none', code: '12a456' }));
    expect(malformed.status).toBe(422);
    const malformedPage = await malformed.text();
    expect(malformedPage).toContain('Type the six digits from your bank app.');
    expect(malformedPage).not.toContain('12a456');

    const sentAt = h.now;
    const wrong = await page(path, form({ choice: 'blik', after: 'none', code: '111111' }));
    expect(wrong.status).toBe(303);
    expect(wrong.headers.get('location')).toBe(path);
    const failedPage = await (await page(path)).text();
    expect(failedPage).toContain('The BLIK code was wrong. Check it in your bank app and try again with a new code.');
    expect(failedPage).toContain('value="blik">Pay with BLIK</button>');
    expect(failedPage).toContain(`<input type="hidden" name="after" value="${expiresAt(sentAt)}">`);

    // A new code after a failed one, on the same payment; the first form posted again sends nothing.
    h.now += 1_000;
    expect((await page(path, form({ choice: 'blik', after: expiresAt(sentAt), code: SECRET_CODES[0]! }))).status).toBe(303);
    const resent = await page(path, form({ choice: 'blik', after: 'none', code: '111111' }));
    expect(resent.headers.get('location')).toBe(path);
    expect(await h.paymentsFor('page@buyer.example')).toMatchObject([{ blik: { status: 'pending', reason: null, expires_at: expiresAt(sentAt + 1_000) } }]);
    h.now += 1_500;
    const waiting = await page(path);
    expect(waiting.headers.get('refresh')).toBe(`3; url=${path}`);
    const waitingPage = await waiting.text();
    expect(waitingPage).toContain('<div class="notice" role="status" aria-live="polite"><strong>Confirm the payment in your bank app.</strong>');
    expect(waitingPage).toContain('Time left: 1:59. This page updates by itself.');
    expect(waitingPage).not.toContain('name="code"');
    // While it waits, no second code goes, and no other way to pay starts.
    expect((await page(path, form({ choice: 'blik', after: expiresAt(sentAt + 1_000), code: '777123' }))).status).toBe(303);
    const other = await page(path, form({ choice: 'pay' }));
    expect(other.status).toBe(303);
    expect(other.headers.get('location')).toBe(path);
    expect(await h.paymentsFor('page@buyer.example')).toMatchObject([{ paid: false, blik: { status: 'pending' } }]);

    h.now += 500;
    const paid = await page(path);
    expect(paid.headers.get('refresh')).toBeNull();
    expect(await paid.text()).toContain('Payment received. Thank you!');
  });

  it('speaks Polish on the checkout page of a Polish checkout', async () => {
    h.now = START + 2_100_000;
    const started = await h.checkout({ product: 'blik-mug', lang: 'pl', buyer: buyer('strona@buyer.example') });
    const path = `/banking/payments/pay/${started.body.attempt as string}`;
    expect(await (await page(path)).text()).toContain('value="blik">Zapłać BLIKIEM</button>');
    await page(path, form({ choice: 'blik', after: 'none', code: '444444' }));
    expect(await (await page(path)).text()).toContain('Potwierdź płatność w aplikacji banku.</strong><br>\n      <span class="blik-time-left">Pozostały czas: 2:00.');
    h.now += 125_001;
    expect(await (await page(path)).text()).toContain('Aplikacja banku nie potwierdziła płatności na czas. Nic nie pobrano.');
  });

  it('takes a code on the order page and sends the buyer to the checkout page waiting for the bank app', async () => {
    h.now = START + 2_200_000;
    const orderPath = `/a/${h.service.prefix}/p/blik-mug`;
    const offered = await (await page(`${orderPath}?lang=en`)).text();
    expect(offered).toContain('<input name="blik_code" type="text" inputmode="numeric"');
    expect(offered).toContain('Test codes: 777123 is approved, 111111 is a wrong code, 222222 an expired one');
    expect(offered).toContain('<select name="country" autocomplete="country"');
    expect(offered).toContain('<option value="PL" selected>Poland</option>');
    expect(offered).toContain('name="quantity"');

    const refused = await page(orderPath, form({ lang: 'en', email: 'order@buyer.example', name: 'Jan Kowalski', country: 'PL', quantity: '1', blik_code: '69302' }));
    expect(refused.status).toBe(422);
    const refusedPage = await refused.text();
    expect(refusedPage).toContain('must be the six digits from your bank app');
    expect(refusedPage).not.toContain('69302');
    expect(refusedPage).toContain('value="order@buyer.example"');

    const orderKey = /name="order_key" value="([A-Za-z0-9_-]+)"/.exec(offered)![1]!;
    const order = form({ lang: 'en', order_key: orderKey, email: 'order@buyer.example', name: 'Jan Kowalski', country: 'PL', quantity: '2', blik_code: '777123' });
    const ordered = await page(orderPath, order);
    expect(ordered.status).toBe(303);
    // The same form posted again (a double click, a resubmission) goes where the first went: one order, one code sent.
    const again = await page(orderPath, order);
    expect(again.status).toBe(303);
    expect(again.headers.get('location')).toBe(ordered.headers.get('location'));
    const location = new URL(ordered.headers.get('location')!);
    expect(location.pathname).toMatch(/^\/banking\/payments\/pay\/[A-Za-z0-9_-]+$/);
    expect(await (await page(location.pathname)).text()).toContain('Confirm the payment in your bank app.');
    expect(await h.paymentsFor('order@buyer.example')).toMatchObject([{ price: '246.0', quantity: '2.0', invoice_country: 'PL', blik: { status: 'pending' } }]);
  });

  it('lists every country by its name in the page language, sorted, with the seller’s country chosen; a service asks no quantity', async () => {
    const created = await h.apiCall('POST', '/products.json', { product: { name: 'Konsultacja', price_gross: '246.00', tax: '23', token: 'blik-consulting', service: true } });
    expect(created.status).toBe(201);
    const polish = await (await page(`/a/${h.service.prefix}/p/blik-consulting?lang=pl`)).text();
    const names = [...polish.matchAll(/<option value="([A-Z]{2})"( selected)?>([^<]+)<\/option>/g)].map((match) => match[3]!);
    expect(names).toHaveLength(250);
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b, 'pl')));
    expect(polish).toContain('<option value="PL" selected>Polska</option>');
    expect(polish).toContain('<option value="DE">Niemcy</option>');
    expect(polish).not.toContain('name="quantity"');

    const ordered = await page(`/a/${h.service.prefix}/p/blik-consulting`, form({ lang: 'pl', email: 'service@buyer.example', name: 'Jan Kowalski', country: 'PL', quantity: '5' }));
    expect(ordered.status).toBe(303);
    expect(await h.paymentsFor('service@buyer.example')).toMatchObject([{ quantity: '1.0', price: '246.0' }]);
  });
});

describe('the code typed on the pages, never kept', () => {
  it('appears in no answer, no log line and no file of the data folder', async () => {
    await expectCodesKeptNowhere(h, [SECRET_CODES[0]], 'page@buyer.example');
  });
});
