import { expect, fixture, html, oneEvent, waitUntil } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import '../../src/elements/product-pay-button/define.js';
import type { PayCancelEvent, PayStartEvent, PaySuccessEvent } from '../../src/elements/product-pay-button/events.js';
import type { ProductPayButton } from '../../src/elements/product-pay-button/product-pay-button.js';
import { installBffStandIn } from '../../stories/support/bff-stand-in.js';
import type { ShopFixtureInfo, ShopState } from './support/shop-fixture.js';

/**
 * BLIK on the page (issue 47) in Chromium, against the BFF stand-in whose answers
 * test/elements/bff-stand-in.test.ts holds to the real BFF's: the field, typing and pasting, a code
 * refused at the field, the wait for the bank app with the time left and what a screen reader hears,
 * the outcome with every reason, Try again and the other ways to pay, by keyboard alone.
 */
const sent: { key: string | null; body: string }[] = [];
before(() => {
  installBffStandIn();
  // Every checkout the button sends, as the stand-in receives it.
  const standIn = globalThis.fetch;
  globalThis.fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input, init);
    if (request.method === 'POST' && new URL(request.url).pathname.endsWith('/checkout')) sent.push({ key: request.headers.get('idempotency-key'), body: await request.clone().text() });
    return standIn(request);
  };
});
beforeEach(() => {
  sent.length = 0;
});

const part = <T extends Element = HTMLElement>(el: ProductPayButton, name: string) => el.shadowRoot!.querySelector<T>(`[part~="${name}"]`);
const squash = (value: string | null | undefined) => value?.replace(/\s+/g, ' ').trim() ?? '';
const text = (el: ProductPayButton, name: string) => squash(part(el, name)?.textContent);
const code = (el: ProductPayButton) => part<HTMLInputElement>(el, 'blik-code')!;
const payButton = (el: ProductPayButton) => el.shadowRoot!.querySelector<HTMLButtonElement>('fieldset [part~="blik-button"]')!;
const errorAt = (el: ProductPayButton, name: string) => squash(el.shadowRoot!.getElementById(`${name}-error`)?.textContent);

/**
 * A button on the stand-in's `scenario` (or a real server's, `where`), with the dialog open for a
 * buyer who typed `email` and a name.
 */
async function openButton(scenario: string, lang = 'en', product = 'logo-design', where?: { endpoint: string } | { appUrl: string; account: string }, email = 'ada@example.com'): Promise<ProductPayButton> {
  const el = !where
    ? await fixture<ProductPayButton>(html`<product-pay-button endpoint="/storybook-bff/${scenario}" product=${product} locale=${lang}></product-pay-button>`)
    : 'endpoint' in where
      ? await fixture<ProductPayButton>(html`<product-pay-button endpoint=${where.endpoint} product=${product} locale=${lang}></product-pay-button>`)
      : await fixture<ProductPayButton>(html`<product-pay-button app-url=${where.appUrl} account=${where.account} product=${product} locale=${lang}></product-pay-button>`);
  // The page takes the buyer to the payment page itself: the test page never navigates.
  el.addEventListener('pay-start', (event) => event.preventDefault());
  await waitUntil(() => part(el, 'price'), 'the product did not load', { timeout: 10_000 });
  part<HTMLButtonElement>(el, 'button')!.click();
  await el.updateComplete;
  for (const [name, value] of [['email', email], ['name', 'Ada Lovelace']]) {
    const input = part(el, 'form')!.querySelector<HTMLInputElement>(`[name=${name}]`)!;
    input.value = value!;
    input.dispatchEvent(new Event('input', { bubbles: true }));
  }
  await waitUntil(() => !part<HTMLButtonElement>(el, 'continue-button')!.disabled, 'the dialog got no price', { timeout: 10_000 });
  return el;
}

/** Types the code as a paste or the keyboard would put it in the field. */
function typeCode(el: ProductPayButton, value: string): void {
  code(el).value = value;
  code(el).dispatchEvent(new Event('input', { bubbles: true }));
}

async function payWithBlik(el: ProductPayButton, value: string): Promise<void> {
  typeCode(el, value);
  payButton(el).click();
  await el.updateComplete;
}

const waitingFor = (el: ProductPayButton, what: string, check: () => boolean, timeout = 10_000) => waitUntil(check, what, { timeout });

describe('product-pay-button with BLIK on the page', () => {
  it('offers a labelled six-digit field beside Continue for a product in PLN that says blik, and none otherwise', async () => {
    const el = await openButton('blik');
    const input = code(el);
    expect([input.inputMode, input.autocomplete, input.getAttribute('pattern'), input.labels![0]!.textContent!.trim()]).to.deep.equal(['numeric', 'one-time-code', '[0-9]{6}', 'BLIK code']);
    expect(squash(payButton(el).textContent)).to.equal('Pay with BLIK');
    expect(squash(part(el, 'continue-button')!.textContent)).to.equal('Continue to payment');
    await expect(el).to.be.accessible();
    for (const [scenario, product] of [['shop', 'logo-design'], ['blik', 'brand-workshop-eur']]) {
      const other = await openButton(scenario!, 'en', product);
      expect(part(other, 'blik'), `${scenario} ${product}`).to.equal(null);
    }
  });

  it('takes a pasted "123 456" or "123-456" as six digits, and drops what is not a digit', async () => {
    const el = await openButton('blik');
    for (const [typed, kept] of [['123 456', '123456'], ['123-456', '123456'], ['12a3b4', '1234'], ['1234567', '123456']]) {
      typeCode(el, typed!);
      expect(code(el).value, typed).to.equal(kept);
    }
  });

  it('says at the field, in English and Polish, when the code is not six digits, and sends nothing', async () => {
    for (const [lang, message] of [['en', 'Enter the six digits from your bank app.'], ['pl', 'Wpisz sześć cyfr z aplikacji banku.']]) {
      const el = await openButton('blik', lang);
      await payWithBlik(el, '12345');
      expect([errorAt(el, 'code'), code(el).getAttribute('aria-invalid')]).to.deep.equal([message, 'true']);
      expect(el.shadowRoot!.activeElement).to.equal(code(el));
      await expect(el).to.be.accessible();
    }
    expect(sent).to.deep.equal([]);
  });

  it('shows the server’s 422 naming payment.code at the field', async () => {
    const el = await openButton('blik-invalid');
    await payWithBlik(el, '777123');
    await waitingFor(el, 'the refusal was not shown', () => errorAt(el, 'code') === 'Enter the six digits from your bank app.');
    expect([code(el).getAttribute('aria-invalid'), part<HTMLFormElement>(el, 'form')!.hidden]).to.deep.equal(['true', false]);
    expect(JSON.parse(sent[0]!.body).payment).to.deep.equal({ method: 'blik', code: '777123' });
  });

  it('waits for the bank app with the time left counting down, says it politely, and keeps the code nowhere in the page', async () => {
    const el = await openButton('blik-waiting');
    await payWithBlik(el, '777 123');
    await waitingFor(el, 'the wait did not start', () => !!part(el, 'blik-time'));
    expect(JSON.parse(sent[0]!.body).payment).to.deep.equal({ method: 'blik', code: '777123' });
    expect(part<HTMLFormElement>(el, 'form')!.hidden).to.equal(true);
    expect(squash(part(el, 'blik-status')!.querySelector('h2')!.textContent)).to.equal('Confirm the payment in your bank app');
    // What the bank app asks the buyer to confirm: the total (one, as a consumer pays it) and the product.
    expect(text(el, 'blik-amount')).to.equal(`${text(el, 'price')} · ${text(el, 'name')}`);
    const first = text(el, 'blik-time');
    expect(['2:00', '1:59']).to.include(first);
    const live = part(el, 'blik-live')!;
    expect([live.getAttribute('role'), live.textContent]).to.deep.equal(['status', `Confirm the payment in your bank app. ${first === '2:00' ? 120 : 119} seconds left.`]);
    await waitingFor(el, 'the time left did not count down', () => text(el, 'blik-time') !== first, 3_000);
    expect(['1:59', '1:58']).to.include(text(el, 'blik-time'));
    // The live region keeps what it said: it speaks again at 90, 60, 30 and 10 seconds, not every second.
    expect(live.textContent).to.equal(`Confirm the payment in your bank app. ${first === '2:00' ? 120 : 119} seconds left.`);
    expect(el.shadowRoot!.innerHTML).not.to.contain('777123');
    expect(el.shadowRoot!.innerHTML).not.to.contain('777 123');
    expect(code(el).value).to.equal('');
    await expect(el).to.be.accessible();
  });

  it('shows the invoice once the bank app approves, and fires pay-success', async () => {
    const el = await openButton('blik');
    const success = oneEvent(el, 'pay-success') as Promise<PaySuccessEvent>;
    await payWithBlik(el, '777123');
    const { detail } = await success;
    expect(detail.invoice?.number).to.match(/^FV\/\d+\/2026$/);
    await el.updateComplete;
    expect(squash(part(el, 'blik-status')!.querySelector('h2')!.textContent)).to.equal(`Payment received. Thank you! Invoice ${detail.invoice!.number} is on its way to your e-mail.`);
    expect(part<HTMLAnchorElement>(el, 'invoice-link')!.href).to.equal(detail.invoice!.view_url);
    expect(part(el, 'blik-live')!.textContent).to.equal(`Payment received. Thank you! Invoice ${detail.invoice!.number} is on its way to your e-mail.`);
    expect([detail.product, detail.amount, detail.currency]).to.deep.equal(['logo-design', '1845', 'PLN']);
    await expect(el).to.be.accessible();
  });

  const REASONS = [
    ['blik-wrong-code', 'wrong_code', 'The code was wrong. Check it in your bank app and try again.'],
    ['blik-expired-code', 'expired_code', 'The code had expired. Get a new one in your bank app.'],
    ['blik-declined', 'declined', 'The payment was declined in your bank app. Nothing was charged.'],
    ['blik-timeout', 'timeout', 'Your bank app gave no answer in time. Nothing was charged.'],
    ['blik-provider-error', 'provider_error', 'The payment provider could not take the payment. Nothing was charged.'],
  ] as const;
  for (const [scenario, reason, message] of REASONS) {
    it(`says why for ${reason}, fires pay-cancel, and tries again with a new code and a new Idempotency-Key`, async () => {
      const el = await openButton(scenario);
      const cancel = oneEvent(el, 'pay-cancel') as Promise<PayCancelEvent>;
      await payWithBlik(el, '111111');
      const { detail } = await cancel;
      expect([detail.reason, detail.failure]).to.deep.equal(['declined', reason]);
      await el.updateComplete;
      expect(squash(part(el, 'blik-status')!.querySelector('h2')!.textContent)).to.equal(message);
      expect(part(el, 'blik-live')!.textContent).to.equal(message);
      await expect(el).to.be.accessible();

      el.shadowRoot!.querySelector<HTMLButtonElement>('[part~="blik-status"] [part~="blik-button"]')!.click();
      await waitingFor(el, 'Try again did not bring the field back', () => el.shadowRoot!.activeElement === code(el));
      expect([part<HTMLFormElement>(el, 'form')!.hidden, code(el).value, part(el, 'blik-status')]).to.deep.equal([false, '', null]);
      await payWithBlik(el, '222222');
      await waitingFor(el, 'the second checkout was not sent', () => sent.length === 2);
      expect(sent.map((each) => JSON.parse(each.body).payment.code)).to.deep.equal(['111111', '222222']);
      expect(sent[1]!.key).not.to.equal(sent[0]!.key);
    });
  }

  it('says why in Polish', async () => {
    const el = await openButton('blik-wrong-code', 'pl');
    await payWithBlik(el, '111111');
    await waitingFor(el, 'no outcome', () => !!part(el, 'blik-status'));
    expect(squash(part(el, 'blik-status')!.querySelector('h2')!.textContent)).to.equal('Nieprawidłowy kod. Sprawdź go w aplikacji banku i spróbuj ponownie.');
    expect(squash(part(el, 'blik-status')!.querySelector('[part~="cancel-button"]')!.textContent)).to.equal('Zapłać inaczej');
  });

  it('pays another way in one click after a failure: the payment page, without a code', async () => {
    const el = await openButton('blik-expired-code');
    await payWithBlik(el, '222222');
    await waitingFor(el, 'no outcome', () => !!part(el, 'blik-status'));
    const start = oneEvent(el, 'pay-start') as Promise<PayStartEvent>;
    el.shadowRoot!.querySelector<HTMLButtonElement>('[part~="blik-status"] [part~="cancel-button"]')!.click();
    const { detail } = await start;
    expect(detail.redirectUrl).to.equal(`https://pay.invoicekit.example/checkout/${detail.attempt}`);
    expect(JSON.parse(sent[1]!.body).payment).to.equal(undefined);
  });

  it('shows the outcome in the dialog even when the buyer closed it while waiting, and moves the focus to it', async () => {
    const el = await openButton('blik');
    await payWithBlik(el, '777123');
    await waitingFor(el, 'the wait did not start', () => !!part(el, 'blik-time'));
    expect(el.shadowRoot!.activeElement?.id).to.equal('blik-title');
    part<HTMLDialogElement>(el, 'dialog')!.close();
    await waitingFor(el, 'the dialog did not close', () => !part<HTMLDialogElement>(el, 'dialog')!.open);
    const { detail } = (await oneEvent(el, 'pay-success')) as PaySuccessEvent;
    await waitingFor(el, 'the outcome did not open the dialog', () => part<HTMLDialogElement>(el, 'dialog')!.open);
    expect(squash(part(el, 'blik-status')!.querySelector('h2')!.textContent)).to.equal(`Payment received. Thank you! Invoice ${detail.invoice!.number} is on its way to your e-mail.`);
    await waitingFor(el, 'the focus did not move to the outcome', () => el.shadowRoot!.activeElement?.id === 'blik-title');
  });

  it('works by keyboard alone: Enter in the code field pays with BLIK, Enter in the others does not', async () => {
    const el = await openButton('blik');
    part(el, 'form')!.querySelector<HTMLInputElement>('[name=name]')!.focus();
    await sendKeys({ press: 'Enter' });
    // Enter in the buyer's fields is Continue, as it always was: no code is asked for.
    await waitingFor(el, 'Enter did not continue', () => sent.length === 1);
    expect(JSON.parse(sent[0]!.body).payment).to.equal(undefined);
    expect(errorAt(el, 'code')).to.equal('');

    const again = await openButton('blik');
    const success = oneEvent(again, 'pay-success') as Promise<PaySuccessEvent>;
    code(again).focus();
    await sendKeys({ type: '777-123' });
    expect(code(again).value).to.equal('777123');
    await sendKeys({ press: 'Enter' });
    await success;
    await again.updateComplete;
    // The only control of the success panel besides the link closes the dialog.
    part<HTMLAnchorElement>(again, 'invoice-link')!.focus();
    await sendKeys({ press: 'Tab' });
    expect(squash(again.shadowRoot!.activeElement?.textContent)).to.equal('Close');
    await sendKeys({ press: 'Enter' });
    await waitingFor(again, 'the dialog did not close', () => !part<HTMLDialogElement>(again, 'dialog')?.open);
  });
});

/**
 * The same through the real parts: the service with its test provider, whose documented codes say how
 * the bank app answers (777123 approved after about 2 s, 111111 a wrong code), and the BFF in front of
 * it (test/elements/support/shop-fixture.ts).
 */
describe('product-pay-button with BLIK against the real service and BFF', () => {
  let shop: ShopFixtureInfo;
  before(async () => {
    shop = (await (await fetch('/__shop/info')).json()) as ShopFixtureInfo;
  });
  const state = async (email: string) => (await (await fetch(`/__shop/state?email=${encodeURIComponent(email)}`)).json()) as ShopState;
  let buyers = 0;
  const newEmail = () => `blik-${Date.now()}-${(buyers += 1)}@example.com`;

  it('pays through the BFF: the code approved in the bank app, the invoice the service issued', async () => {
    const email = newEmail();
    const el = await openButton('', 'pl', 'logo-design', { endpoint: shop.bff }, email);
    const success = oneEvent(el, 'pay-success') as Promise<PaySuccessEvent>;
    await payWithBlik(el, '777 123');
    await waitingFor(el, 'the wait did not start', () => !!part(el, 'blik-time'));
    expect(squash(part(el, 'blik-status')!.querySelector('h2')!.textContent)).to.equal('Potwierdź płatność w aplikacji banku');
    const { detail } = await success;
    const recorded = await state(email);
    expect(recorded.payments.map(({ paid, price, currency }) => ({ paid, price, currency }))).to.deep.equal([{ paid: true, price: '1845.0', currency: 'PLN' }]);
    expect(detail.invoice?.number).to.equal(recorded.invoices[0]!.number);
    await el.updateComplete;
    expect(squash(part(el, 'blik-status')!.querySelector('h2')!.textContent)).to.equal(`Płatność przyjęta. Dziękujemy! Faktura ${detail.invoice!.number} jest w drodze na Twój e-mail.`);
  });

  it('pays in direct mode after a wrong code: the reason, Try again, and a new code approved', async () => {
    const email = newEmail();
    const el = await openButton('', 'en', 'logo-design', { appUrl: shop.service, account: shop.account }, email);
    const cancel = oneEvent(el, 'pay-cancel') as Promise<PayCancelEvent>;
    await payWithBlik(el, '111111');
    expect((await cancel).detail.failure).to.equal('wrong_code');
    await el.updateComplete;
    expect(squash(part(el, 'blik-status')!.querySelector('h2')!.textContent)).to.equal('The code was wrong. Check it in your bank app and try again.');
    el.shadowRoot!.querySelector<HTMLButtonElement>('[part~="blik-status"] [part~="blik-button"]')!.click();
    await waitingFor(el, 'Try again did not bring the field back', () => el.shadowRoot!.activeElement === code(el));
    const success = oneEvent(el, 'pay-success') as Promise<PaySuccessEvent>;
    await payWithBlik(el, '777123');
    const { detail } = await success;
    const recorded = await state(email);
    expect(recorded.payments.map(({ paid }) => paid).sort()).to.deep.equal([false, true]);
    expect(detail.invoice?.number).to.equal(recorded.invoices[0]!.number);
  });
});
