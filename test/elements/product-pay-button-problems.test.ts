import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import '../../src/elements/product-pay-button/define.js';
import type { ProductPayButton } from '../../src/elements/product-pay-button/product-pay-button.js';
import { installBffStandIn } from '../../stories/support/bff-stand-in.js';

/**
 * The buyer's problems (docs/decisions/pay-button-weight.md), in Chromium against the BFF stand-in,
 * which quotes by the checkout's own rules (src/kernel/checkout.ts) as test/elements/bff-stand-in.test.ts
 * holds the real BFF to. The quote judges the country, tax number and post code; a blank field and the
 * e-mail's form are known in the page, and never travel in the quote's URL. A problem stands at a field
 * the buyer left, or at every field after Continue; an answer for older input never paints newer input;
 * and Continue waits for the quote of the fields as they stand. Quotes are held and released, never slept on.
 */
const held: { query: URLSearchParams; release: () => void }[] = [];
let holding = false;
const checkouts: string[] = [];
before(() => {
  installBffStandIn();
  const standIn = globalThis.fetch;
  globalThis.fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    if (request.method === 'POST' && url.pathname.endsWith('/checkout')) checkouts.push(await request.clone().text());
    // A quote for the buyer as typed waits until the test releases it.
    if (holding && url.searchParams.has('country')) await new Promise<void>((release) => held.push({ query: url.searchParams, release }));
    return standIn(request);
  };
});
beforeEach(() => {
  held.length = 0;
  holding = false;
  checkouts.length = 0;
});

const part = <T extends Element = HTMLElement>(el: ProductPayButton, name: string) => el.shadowRoot!.querySelector<T>(`[part~="${name}"]`);
const field = (el: ProductPayButton, name: string) => part(el, 'form')!.querySelector<HTMLInputElement>(`[name=${name}]`)!;
const errorAt = (el: ProductPayButton, name: string) => el.shadowRoot!.getElementById(`${name}-error`)?.textContent?.trim() ?? '';
const continueButton = (el: ProductPayButton) => part<HTMLButtonElement>(el, 'continue-button')!;
const quoted = (el: ProductPayButton) => part(el, 'summary')!.getAttribute('aria-busy') === 'false';

/** Types into a field; `left` also fires `change`, as leaving the field does. */
function type(el: ProductPayButton, name: string, value: string, left = true): void {
  const input = field(el, name);
  input.value = value;
  input.dispatchEvent(new Event('input', { bubbles: true }));
  if (left) input.dispatchEvent(new Event('change', { bubbles: true }));
}

async function opened(lang = 'en'): Promise<ProductPayButton> {
  const el = await fixture<ProductPayButton>(html`<product-pay-button endpoint="/storybook-bff/shop" product="logo-design" locale=${lang}></product-pay-button>`);
  el.addEventListener('pay-start', (event) => event.preventDefault());
  await waitUntil(() => part(el, 'price'), 'the product did not load', { timeout: 10_000 });
  part<HTMLButtonElement>(el, 'button')!.click();
  await el.updateComplete;
  await waitUntil(() => !continueButton(el).disabled && quoted(el), 'the dialog got no price', { timeout: 10_000 });
  return el;
}

const heldQuote = (what: string) => waitUntil(() => held.length > 0, `no quote was asked for ${what}`, { timeout: 10_000 }).then(() => held.shift()!);

/** Ticks the company invoice box: the tax number, address and post code fields show. */
async function asCompany(el: ProductPayButton): Promise<void> {
  part(el, 'form')!.querySelector<HTMLInputElement>('input[type=checkbox]')!.click();
  await el.updateComplete;
}

describe('<product-pay-button> shows the buyer’s problems', () => {
  it('at a field once the buyer has left it, and at every field after Continue, in the buyer’s language; a blank field or an e-mail’s form without asking', async () => {
    const el = await opened('pl');
    holding = true;
    type(el, 'email', 'ada@', false);
    await el.updateComplete;
    expect(errorAt(el, 'email'), 'a problem at a field the buyer is still in').to.equal('');
    field(el, 'email').dispatchEvent(new Event('change', { bubbles: true }));
    await el.updateComplete;
    // Known in the page while the quote is still held: the e-mail never goes into the quote's URL.
    expect(errorAt(el, 'email')).to.equal('Podaj adres e-mail, np. jan@example.com.');
    expect(field(el, 'email').getAttribute('aria-invalid')).to.equal('true');
    expect(errorAt(el, 'name'), 'a problem at a field the buyer never reached').to.equal('');
    const asked = await heldQuote('the typed e-mail');
    expect([...asked.query.keys()].sort()).to.deep.equal(['country', 'lang', 'quantity']);
    asked.release();
    holding = false;
    continueButton(el).click();
    await waitUntil(() => errorAt(el, 'name') !== '', 'Continue showed no problem at the name', { timeout: 10_000 });
    expect(errorAt(el, 'name')).to.equal('Uzupełnij to pole.');
    // Focus goes to the first problem once the quote has answered too.
    await waitUntil(() => el.shadowRoot!.activeElement?.getAttribute('name') === 'email', 'focus did not go to the first problem', { timeout: 10_000 });
    expect(checkouts).to.deep.equal([]);
    await expect(el).to.be.accessible();
  });

  it('never from an answer for older input: an answer that lands after the buyer typed on paints nothing', async () => {
    const el = await opened();
    await asCompany(el);
    holding = true;
    type(el, 'post_code', '00838');
    const older = await heldQuote('the first post code');
    expect(older.query.get('post_code')).to.equal('00838');
    type(el, 'post_code', '00-838');
    const newer = await heldQuote('the corrected post code');
    expect(newer.query.get('post_code')).to.equal('00-838');
    // The answer naming the old post code's problem lands while the new one is still asked.
    older.release();
    await waitUntil(() => !quoted(el), 'the newer quote is not pending');
    await el.updateComplete;
    expect(errorAt(el, 'post_code')).to.equal('');
    expect(field(el, 'post_code').getAttribute('aria-invalid')).to.equal('false');
    newer.release();
    await waitUntil(() => quoted(el), 'the newer quote did not answer', { timeout: 10_000 });
    expect(errorAt(el, 'post_code')).to.equal('');
  });

  it('after Continue only once the quote for the fields as they stand has answered, and sends nothing unchecked', async () => {
    const el = await opened();
    let before = 0;
    el.addEventListener('pay-before', () => (before += 1));
    await asCompany(el);
    holding = true;
    // Filled without a keystroke the dialog heard (a script, a password manager): Continue reads the form itself.
    const fill = { email: 'ada@example.com', name: 'Ada Lovelace', company: 'Prosta Sp. z o.o.', tax_no: '5252445768', street: 'Prosta 51', post_code: '00-838', city: 'Warszawa' };
    for (const [name, value] of Object.entries(fill)) field(el, name).value = value;
    continueButton(el).click();
    const first = await heldQuote('the fields at Continue');
    expect(Object.fromEntries(first.query)).to.deep.equal({ quantity: '1', lang: 'en', country: 'PL', company: '1', tax_no: '5252445768', post_code: '00-838' });
    await el.updateComplete;
    expect([continueButton(el).disabled, continueButton(el).textContent!.trim(), field(el, 'email').readOnly]).to.deep.equal([true, 'Opening payment…', true]);
    expect(before).to.equal(0);
    first.release();
    await waitUntil(() => errorAt(el, 'tax_no') !== '', 'the quote’s problem was not shown', { timeout: 10_000 });
    expect(errorAt(el, 'tax_no')).to.equal('This NIP is not valid. Check its 10 digits.');
    expect([continueButton(el).disabled, field(el, 'tax_no').readOnly, el.shadowRoot!.activeElement?.getAttribute('name')]).to.deep.equal([false, false, 'tax_no']);
    expect([before, checkouts.length]).to.deep.equal([0, 0]);

    field(el, 'tax_no').value = '5252445767';
    continueButton(el).click();
    const second = await heldQuote('the corrected fields');
    await el.updateComplete;
    expect([before, checkouts.length]).to.deep.equal([0, 0]);
    second.release();
    await waitUntil(() => checkouts.length === 1, 'the checkout was not sent', { timeout: 10_000 });
    expect(before).to.equal(1);
    expect(JSON.parse(checkouts[0]!).buyer).to.deep.equal({
      email: 'ada@example.com',
      company: true,
      name: 'Prosta Sp. z o.o.',
      tax_no: '5252445767',
      street: 'Prosta 51',
      post_code: '00-838',
      city: 'Warszawa',
      country: 'PL',
      first_name: 'Ada Lovelace',
    });
  });
});
