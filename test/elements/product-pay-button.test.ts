import { expect, fixture, html, oneEvent, waitUntil } from '@open-wc/testing';
import '../../src/elements/product-pay-button/define.js';
import type { PayCancelEvent, PayStartEvent, PaySuccessEvent } from '../../src/elements/product-pay-button/events.js';
import type { ProductPayButton } from '../../src/elements/product-pay-button/product-pay-button.js';
import { holdNextAnswer } from './support/held-answers.js';
import type { ShopFixtureInfo, ShopState } from './support/shop-fixture.js';

/**
 * The buy button in Chromium against the real service and BFF (test/elements/support/shop-fixture.ts).
 * The payment page is on the service's origin: tests take the `pay-start` event's payment page
 * themselves (as a page handling it in a popup would) and press Pay or Decline there with a real form
 * post, then ask the button for the outcome. The full redirect and return runs in test/e2e/.
 */
let shop: ShopFixtureInfo;
before(async () => {
  shop = (await (await fetch('/__shop/info')).json()) as ShopFixtureInfo;
});

const state = async (email: string) => (await (await fetch(`/__shop/state?email=${encodeURIComponent(email)}`)).json()) as ShopState;
const part = <T extends Element = HTMLElement>(el: ProductPayButton, name: string) => el.shadowRoot!.querySelector<T>(`[part~="${name}"]`);
const dialogOf = (el: ProductPayButton) => part<HTMLDialogElement>(el, 'dialog')!;
const squash = (value: string | null | undefined) => value?.replace(/\s+/g, ' ').trim() ?? '';
const text = (el: ProductPayButton, name: string) => squash(part(el, name)?.textContent);
/** What a block of rows says: `innerText` keeps the gaps the layout puts between cells. */
const rows = (el: ProductPayButton, name: string) => squash(part(el, name)?.innerText);
const accessibleName = (el: ProductPayButton) => squash(part(el, 'button')!.getAttribute('aria-label'));
let buyers = 0;
const newEmail = () => `buyer-${Date.now()}-${(buyers += 1)}@example.com`;

async function ready(el: ProductPayButton): Promise<void> {
  await waitUntil(() => part(el, 'price') || part(el, 'error'), 'the product did not load', { timeout: 10_000 });
  await el.updateComplete;
}

async function bffButton(product: string, extra = '', endpoint = shop.bff) {
  const el = await fixture<ProductPayButton>(html`<product-pay-button endpoint=${endpoint} product=${product} locale="en"></product-pay-button>`);
  if (extra) el.setAttribute('theme', extra);
  await ready(el);
  return el;
}

/** Waits for the server's quote for the buyer as typed: Continue is enabled once it is in. */
async function priced(el: ProductPayButton): Promise<void> {
  await waitUntil(() => part<HTMLButtonElement>(el, 'continue-button')?.disabled === false, 'the dialog got no price', { timeout: 10_000 });
}

/** Waits until the dialog's total row says `total`: the quote follows the buyer as typed. */
async function totalBecomes(el: ProductPayButton, total: string): Promise<void> {
  await waitUntil(() => rows(el, 'total') === total && part(el, 'summary')!.getAttribute('aria-busy') === 'false', `the total did not become "${total}" (it says "${rows(el, 'total')}")`, { timeout: 10_000 });
}

async function openDialog(el: ProductPayButton, email: string, name = 'Ada Lovelace'): Promise<HTMLFormElement> {
  part<HTMLButtonElement>(el, 'button')!.click();
  await el.updateComplete;
  expect(dialogOf(el).open).to.equal(true);
  const form = part<HTMLFormElement>(el, 'form')!;
  form.querySelector<HTMLInputElement>('input[name=email]')!.value = email;
  form.querySelector<HTMLInputElement>('input[name=name]')!.value = name;
  await priced(el);
  return form;
}

/** Presses a button of the checkout page with a real form post, as the buyer's browser would. */
async function onPaymentPage(redirectUrl: string, choice: 'pay' | 'decline'): Promise<void> {
  await fetch(redirectUrl, { method: 'POST', mode: 'no-cors', body: new URLSearchParams({ choice }) });
}

/** Takes over the next navigation to the payment page: cancelled in the listener, before the button goes on. */
function nextStart(el: ProductPayButton): Promise<PayStartEvent> {
  return new Promise((resolve) =>
    el.addEventListener(
      'pay-start',
      (event) => {
        event.preventDefault();
        resolve(event);
      },
      { once: true },
    ),
  );
}

/** Submits the dialog and takes over the navigation to the payment page. */
async function startPayment(el: ProductPayButton): Promise<PayStartEvent> {
  await priced(el);
  const started = nextStart(el);
  part<HTMLButtonElement>(el, 'continue-button')!.click();
  return started;
}

const checkoutRequests = () => performance.getEntriesByType('resource').filter((entry) => /\/bff\/checkout$/.test(entry.name)).length;

describe('<product-pay-button>', () => {
  it('shows the product price exactly as the service has it, with a distinct accessible name', async () => {
    const el = await bffButton('logo-design');
    expect(text(el, 'name')).to.equal('Logo design');
    expect(text(el, 'price')).to.equal('PLN 1,845.00');
    expect(text(el, 'test-badge')).to.equal('Test mode');
    const other = await bffButton('coffee-beans');
    expect(accessibleName(el)).to.equal('Buy now: Logo design, PLN 1,845.00');
    expect(accessibleName(other)).to.equal('Buy now: Coffee beans, 1 kg, PLN 89.90');
    await expect(el).to.be.accessible();
  });

  it('shows a zero-decimal currency without decimals: JPY', async () => {
    const el = await bffButton('logo-licence-jpy');
    expect(text(el, 'price')).to.equal('¥15,000');
    el.quantity = 3;
    await el.updateComplete;
    part<HTMLButtonElement>(el, 'button')!.click();
    await totalBecomes(el, 'Total incl. VAT ¥45,000');
    expect(rows(el, 'summary')).to.include('¥45,000');
    expect(rows(el, 'summary')).to.include('VAT 23%');
    expect(rows(el, 'summary')).to.include('¥8,415');
    await expect(el).to.be.accessible();
  });

  it('names the unit as the seller stored it on a Polish page', async () => {
    const el = await fixture<ProductPayButton>(html`<product-pay-button endpoint=${shop.bff} product="logo-design" locale="pl"></product-pay-button>`);
    await ready(el);
    part<HTMLButtonElement>(el, 'button')!.click();
    await el.updateComplete;
    await waitUntil(() => rows(el, 'summary').includes('Cena jednostkowa'), 'the Polish messages did not load', { timeout: 10_000 });
    expect(rows(el, 'summary')).to.include('1 usł.');
  });

  it('reads the unit in the new language when the page switches its locale', async () => {
    const el = await fixture<ProductPayButton>(html`<product-pay-button endpoint=${shop.bff} product="logo-design" locale="pl"></product-pay-button>`);
    await ready(el);
    el.locale = 'en';
    await waitUntil(() => text(el, 'price') === 'PLN 1,845.00', 'the price did not turn English', { timeout: 10_000 });
    part<HTMLButtonElement>(el, 'button')!.click();
    await el.updateComplete;
    await waitUntil(() => rows(el, 'summary').includes('1 service'), `the unit stayed as it was: ${rows(el, 'summary')}`, { timeout: 10_000 });
    expect(rows(el, 'summary')).not.to.include('usł.');
  });

  it('sells: dialog, payment page, Pay, and back the service holds one paid payment, one paid invoice and the e-mail', async () => {
    const el = await bffButton('logo-design');
    const email = newEmail();
    await openDialog(el, email);
    // The seller stored the unit in Polish (usł.); an English page reads it in English.
    expect(rows(el, 'summary')).to.equal('Unit price PLN 1,845.00 Quantity 1 service VAT 23% PLN 345.00 Total incl. VAT PLN 1,845.00');
    await expect(el).to.be.accessible();
    const start = await startPayment(el);
    expect(start.detail).to.include({ product: 'logo-design', quantity: 1, amount: '1845', currency: 'PLN' });
    await onPaymentPage(start.detail.redirectUrl, 'pay');
    const success = oneEvent(el, 'pay-success') as Promise<PaySuccessEvent>;
    void el.checkOutcome();
    const { detail } = await success;
    expect(detail.invoice!.number).to.match(/^\d+\/\d{2}\/\d{4}$/);
    await el.updateComplete;
    expect(text(el, 'status')).to.include(`Invoice ${detail.invoice!.number}`);
    expect(part<HTMLAnchorElement>(el, 'invoice-link')!.href).to.equal(detail.invoice!.view_url);
    await expect(el).to.be.accessible();
    const after = await state(email);
    expect(after.payments).to.deep.equal([{ price: '1845.0', paid: true, provider_status: 'paid', invoice_id: after.payments[0]!.invoice_id, quantity: '1.0', currency: 'PLN' }]);
    expect(after.invoices).to.deep.equal([{ number: detail.invoice!.number, status: 'paid', price_gross: '1845.0', currency: 'PLN', buyer_name: 'Ada Lovelace', buyer_tax_no: null, lang: 'en', tax: '23' }]);
    expect(after.mails).to.equal(1);
  });

  it('sells to a signed-in customer with a portal token: the dialog asks nothing, and the invoice carries their details', async () => {
    const email = newEmail();
    const query = new URLSearchParams({ name: 'Signed-in Studio Sp. z o.o.', email, tax_no: '7010000000' });
    const customer = (await (await fetch(`/__shop/customer?${query}`)).json()) as { id: number; token: string };
    const el = await fixture<ProductPayButton>(
      html`<product-pay-button endpoint=${shop.bff} product="website-audit" locale="en" portal-token=${customer.token}></product-pay-button>`,
    );
    await ready(el);
    part<HTMLButtonElement>(el, 'button')!.click();
    await el.updateComplete;
    const form = part<HTMLFormElement>(el, 'form')!;
    // Nothing about the buyer: the only field is the BLIK code, a way to pay (the test provider takes codes).
    expect([...form.querySelectorAll('input')].map((input) => input.name)).to.deep.equal(['code']);
    expect(squash(form.textContent)).to.include('Invoiced to your account details.');
    await expect(el).to.be.accessible();
    const start = await startPayment(el);
    await onPaymentPage(start.detail.redirectUrl, 'pay');
    const success = oneEvent(el, 'pay-success') as Promise<PaySuccessEvent>;
    void el.checkOutcome();
    const { detail } = await success;
    const after = await state(email);
    expect(after.invoices).to.deep.equal([
      { number: detail.invoice!.number, status: 'paid', price_gross: after.payments[0]!.price, currency: 'PLN', buyer_name: 'Signed-in Studio Sp. z o.o.', buyer_tax_no: '7010000000', lang: 'en', tax: '23' },
    ]);
    expect(after.mails).to.equal(1);
  });

  it('reports how the attempt stands to a page that asks from its pay-start listener, as a page paying in a popup may', async () => {
    const el = await bffButton('coffee-beans');
    await openDialog(el, newEmail());
    await priced(el);
    const cancelled = oneEvent(el, 'pay-cancel') as Promise<PayCancelEvent>;
    el.addEventListener(
      'pay-start',
      (event) => {
        event.preventDefault();
        // The popup would open here, and the page asks at once; nobody pays in it.
        void el.checkOutcome();
      },
      { once: true },
    );
    part<HTMLButtonElement>(el, 'continue-button')!.click();
    // Asked a few times, then called unfinished: never "Checking the payment…" for good.
    expect((await cancelled).detail).to.include({ reason: 'pending', product: 'coffee-beans' });
    await el.updateComplete;
    expect(part<HTMLButtonElement>(el, 'button')!.disabled).to.equal(false);
  });

  it('reports a declined payment as pay-cancel, and nothing is paid', async () => {
    const el = await bffButton('coffee-beans');
    const email = newEmail();
    await openDialog(el, email);
    const start = await startPayment(el);
    await onPaymentPage(start.detail.redirectUrl, 'decline');
    const cancelled = oneEvent(el, 'pay-cancel') as Promise<PayCancelEvent>;
    void el.checkOutcome();
    expect((await cancelled).detail).to.include({ reason: 'declined', product: 'coffee-beans' });
    await el.updateComplete;
    expect(text(el, 'status')).to.equal('Payment declined. Nothing was charged. Try again');
    expect(part(el, 'status')!.getAttribute('role')).to.equal('status');
    await expect(el).to.be.accessible();
    // The buyer may try again at once: the dialog opens with what they typed.
    part(el, 'status')!.querySelector<HTMLButtonElement>('button')!.click();
    await el.updateComplete;
    expect(dialogOf(el).open).to.equal(true);
    const after = await state(email);
    expect(after.payments.map((p) => [p.paid, p.provider_status])).to.deep.equal([[false, 'declined']]);
    expect(after.invoices).to.deep.equal([]);
  });

  it('makes one payment from a double click on Continue, and stays locked while the request is in flight', async () => {
    const el = await bffButton('website-audit');
    const email = newEmail();
    await openDialog(el, email);
    const before = checkoutRequests();
    const started = nextStart(el);
    const submit = part<HTMLButtonElement>(el, 'continue-button')!;
    submit.click();
    submit.click();
    part<HTMLFormElement>(el, 'form')!.requestSubmit();
    await el.updateComplete;
    expect(submit.disabled).to.equal(true);
    expect(submit.textContent!.trim()).to.equal('Opening payment…');
    await expect(el).to.be.accessible();
    await started;
    expect(checkoutRequests() - before).to.equal(1);
    expect((await state(email)).payments).to.have.length(1);
  });

  it('never pays the old price when the product changes while the dialog is open', async () => {
    const el = await bffButton('logo-design', '', shop.heldBff);
    const email = newEmail();
    await openDialog(el, email);
    let starts = 0;
    el.addEventListener('pay-start', (event) => {
      starts += 1;
      event.preventDefault();
    });
    // Continue for the old product; while the server holds its answer, the shop switches the product.
    const stale = await holdNextAnswer('shop', 'POST', /^\/bff\/checkout$/);
    part<HTMLButtonElement>(el, 'continue-button')!.click();
    await stale.arrived();
    el.product = 'website-audit';
    await waitUntil(() => rows(el, 'summary').includes('PLN 615.00'), 'the dialog did not follow the new product', { timeout: 10_000 });
    expect(dialogOf(el).open).to.equal(true);
    await stale.release();
    await el.updateComplete;
    expect(starts, 'the stale attempt went on to payment').to.equal(0);
    expect(rows(el, 'summary')).to.not.include('1,845');
    const start = await startPayment(el);
    expect(start.detail).to.include({ product: 'website-audit', amount: '615' });
    await onPaymentPage(start.detail.redirectUrl, 'pay');
    const after = await state(email);
    expect(after.payments.filter((p) => p.paid).map((p) => p.price)).to.deep.equal(['615.0']);
  });

  it('follows quantity changes live and sends the quantity, never a price', async () => {
    const el = await fixture<ProductPayButton>(html`<product-pay-button endpoint=${shop.bff} product="coffee-beans" show-quantity locale="en"></product-pay-button>`);
    await ready(el);
    const email = newEmail();
    await openDialog(el, email);
    const quantity = part(el, 'form')!.querySelector<HTMLInputElement>('input[name=quantity]')!;
    quantity.value = '3';
    quantity.dispatchEvent(new Event('input'));
    await totalBecomes(el, 'Total incl. VAT PLN 269.70');
    expect(accessibleName(el)).to.equal('Buy now: Coffee beans, 1 kg, PLN 269.70');
    const start = await startPayment(el);
    expect(start.detail).to.include({ quantity: 3, amount: '269.7' });
    expect((await state(email)).payments.map((p) => [p.quantity, p.price])).to.deep.equal([['3.0', '269.7']]);
  });

  it('survives being removed and added again, as SPA route changes do', async () => {
    const el = await bffButton('logo-design', '', shop.heldBff);
    const parent = el.parentNode!;
    let starts = 0;
    el.addEventListener('pay-start', (event) => {
      starts += 1;
      event.preventDefault();
    });
    await openDialog(el, newEmail());
    // Continue, and the route changes while the server holds the answer.
    const stale = await holdNextAnswer('shop', 'POST', /^\/bff\/checkout$/);
    part<HTMLButtonElement>(el, 'continue-button')!.click();
    await stale.arrived();
    el.remove();
    await stale.release();
    expect(starts, 'a removed button went on to payment').to.equal(0);
    parent.appendChild(el);
    await ready(el);
    expect(dialogOf(el).open).to.equal(false);
    expect(text(el, 'price')).to.equal('PLN 1,845.00');
    const email = newEmail();
    await openDialog(el, email);
    await startPayment(el);
    expect(starts).to.equal(1);
    expect((await state(email)).payments).to.have.length(1);
  });

  it('asks a company for what its invoice needs, and charges an EU company the net price of a service, saying why', async () => {
    const el = await bffButton('brand-workshop-eur');
    const email = newEmail();
    const form = await openDialog(el, email, 'Jan Kowalski');
    expect(form.querySelector('input[name=company]')).to.equal(null);
    expect(form.querySelector('input[name=street]')).to.equal(null);
    form.querySelector<HTMLInputElement>('input[type=checkbox]')!.click();
    await el.updateComplete;
    const set = (name: string, value: string) => {
      const input = form.querySelector<HTMLInputElement | HTMLSelectElement>(`[name=${name}]`)!;
      expect(input.getAttribute('autocomplete'), name).to.not.equal(null);
      input.value = value;
      input.dispatchEvent(new Event('input', { bubbles: true }));
      input.dispatchEvent(new Event('change', { bubbles: true }));
    };
    set('company', 'Acme GmbH');
    set('street', 'Hauptstraße 1');
    set('post_code', '10115');
    set('city', 'Berlin');
    set('country', 'DE');
    // Not yet a valid VAT number: the product's own rate.
    await totalBecomes(el, 'Total incl. VAT €590.00');
    expect(part(el, 'vat-note')).to.equal(null);
    set('tax_no', 'DE811907980');
    await totalBecomes(el, 'Total VAT not charged €479.67');
    expect(text(el, 'vat-note')).to.contain('Reverse charge');
    await expect(el).to.be.accessible();
    const start = await startPayment(el);
    expect(start.detail.amount).to.equal('479.67');
    await onPaymentPage(start.detail.redirectUrl, 'pay');
    const after = await state(email);
    expect(after.invoices.map((i) => [i.buyer_name, i.buyer_tax_no, i.price_gross, i.currency, i.tax, i.lang])).to.deep.equal([['Acme GmbH', 'DE811907980', '479.67', 'EUR', 'np', 'en']]);
  });

  it('shows each problem at its field in the buyer’s language, never a field key, and sends nothing', async () => {
    const el = await fixture<ProductPayButton>(html`<product-pay-button endpoint=${shop.bff} product="brand-workshop-eur" locale="pl"></product-pay-button>`);
    await ready(el);
    const form = await openDialog(el, newEmail(), 'Jan Kowalski');
    form.querySelector<HTMLInputElement>('input[type=checkbox]')!.click();
    await el.updateComplete;
    form.querySelector<HTMLInputElement>('input[name=company]')!.value = 'Prosta Sp. z o.o.';
    form.querySelector<HTMLInputElement>('input[name=tax_no]')!.value = 'XX123';
    const sent = checkoutRequests();
    part<HTMLButtonElement>(el, 'continue-button')!.click();
    const errorAt = (name: string) => squash(el.shadowRoot!.getElementById(`${name}-error`)?.textContent);
    // Continue waits for the server's quote for the fields as typed, which names each problem.
    await waitUntil(() => errorAt('tax_no') !== '', 'the quote named no problem', { timeout: 10_000 });
    await el.updateComplete;
    expect(errorAt('tax_no')).to.equal('Ten NIP jest nieprawidłowy. Sprawdź jego 10 cyfr.');
    expect(errorAt('street')).to.equal('Uzupełnij to pole.');
    expect(errorAt('city')).to.equal('Uzupełnij to pole.');
    expect(form.querySelector('[name=tax_no]')!.getAttribute('aria-invalid')).to.equal('true');
    expect(el.shadowRoot!.activeElement?.getAttribute('name')).to.equal('tax_no');
    const shown = squash(dialogOf(el).innerText);
    for (const key of ['tax_no', 'buyer.', 'post_code', 'required']) expect(shown).to.not.contain(key);
    expect(checkoutRequests()).to.equal(sent);
    await expect(el).to.be.accessible();
  });

  it('says a product the server does not know is no longer for sale, offers no retry, and speaks Polish', async () => {
    const broken = await fixture<ProductPayButton>(html`<product-pay-button endpoint=${shop.bff} product="no-such-product" locale="en"></product-pay-button>`);
    await ready(broken);
    expect(text(broken, 'error')).to.equal('This product is no longer for sale.');
    expect(part(broken, 'retry-button')).to.equal(null);
    await expect(broken).to.be.accessible();
    const gonePolish = await fixture<ProductPayButton>(html`<product-pay-button endpoint=${shop.bff} product="no-such-product" locale="pl"></product-pay-button>`);
    await ready(gonePolish);
    expect(text(gonePolish, 'error')).to.equal('Ten produkt nie jest już w sprzedaży.');
    broken.product = 'logo-design';
    await ready(broken);
    await waitUntil(() => part(broken, 'price'), 'the price never showed', { timeout: 10_000 });
    const polish = await fixture<ProductPayButton>(html`<product-pay-button endpoint=${shop.bff} product="logo-design" locale="pl"></product-pay-button>`);
    await ready(polish);
    expect(text(polish, 'price')).to.equal('1845,00 zł');
    expect(part(polish, 'button')!.textContent!.trim()).to.equal('Kup teraz');
    expect(text(polish, 'test-badge')).to.equal('Tryb testowy');
  });

  it('is accessible in the dark theme, on a dark page, and while loading', async () => {
    const page = await fixture<HTMLElement>(html`<div style="background:#0b101b;padding:1rem">
      <product-pay-button endpoint=${shop.bff} product="logo-design" theme="dark" locale="en"></product-pay-button>
    </div>`);
    const el = page.querySelector('product-pay-button')!;
    await expect(el).to.be.accessible();
    await ready(el);
    // The theme picks the dark half of each light-dark() token; a light button beside it keeps the light half.
    expect(getComputedStyle(part(el, 'button')!).backgroundColor).to.equal('rgb(139, 147, 255)');
    const light = await bffButton('logo-design');
    expect(getComputedStyle(part(light, 'button')!).backgroundColor).to.equal('rgb(79, 70, 229)');
    part<HTMLButtonElement>(el, 'button')!.click();
    await el.updateComplete;
    expect(getComputedStyle(dialogOf(el)).backgroundColor).to.equal('rgb(15, 21, 35)');
    await expect(el).to.be.accessible();
  });

  it('talks to the service directly, with no BFF: app-url and account', async () => {
    const el = await fixture<ProductPayButton>(html`<product-pay-button app-url=${shop.service} account=${shop.account} product="logo-licence-jpy" locale="en"></product-pay-button>`);
    await ready(el);
    expect(text(el, 'price')).to.equal('¥15,000');
    expect(text(el, 'test-badge')).to.equal('Test mode');
    const email = newEmail();
    await openDialog(el, email);
    const start = await startPayment(el);
    expect(start.detail).to.include({ amount: '15000', currency: 'JPY' });
    await onPaymentPage(start.detail.redirectUrl, 'pay');
    const success = oneEvent(el, 'pay-success') as Promise<PaySuccessEvent>;
    void el.checkOutcome();
    expect((await success).detail.invoice!.number).to.match(/^\d+\/\d{2}\/\d{4}$/);
    const after = await state(email);
    expect(after.invoices.map((i) => [i.price_gross, i.currency, i.status])).to.deep.equal([['15000.0', 'JPY', 'paid']]);
  });

  it('lets the page stop a checkout with pay-before', async () => {
    const el = await bffButton('logo-design');
    const email = newEmail();
    await openDialog(el, email);
    el.addEventListener('pay-before', (event) => event.preventDefault(), { once: true });
    const sent = checkoutRequests();
    const before = oneEvent(el, 'pay-before');
    part<HTMLButtonElement>(el, 'continue-button')!.click();
    expect((await before).defaultPrevented).to.equal(true);
    await el.updateComplete;
    // A checkout starts in the same task as pay-before and makes the form read-only first: an editable form sent nothing.
    expect([...part(el, 'form')!.querySelectorAll<HTMLInputElement>('input[part~="input"]')].map((input) => input.readOnly)).to.not.include(true);
    expect(checkoutRequests()).to.equal(sent);
    expect((await state(email)).payments).to.deep.equal([]);
    expect(dialogOf(el).open).to.equal(true);
  });
});
