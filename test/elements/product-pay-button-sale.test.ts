import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import '../../src/elements/product-pay-button/define.js';
import type { PayErrorEvent, PayStartEvent } from '../../src/elements/product-pay-button/events.js';
import type { ProductPayButton } from '../../src/elements/product-pay-button/product-pay-button.js';
import type { ShopFixtureInfo, ShopState } from './support/shop-fixture.js';

/**
 * One quote from button to invoice (issue 44), in Chromium against the real service and BFF, whose
 * registers are the stand-ins of VIES and the VAT white list seeded with the demo's companies
 * (test/elements/support/shop-fixture.ts; the seller is registered for OSS there). Each case runs in
 * English and in Polish: the dialog's price is the server's quote for the buyer as typed, the words
 * of the buyer's case are shown, and every problem stands at its field in the buyer's language.
 */
let shop: ShopFixtureInfo;
before(async () => {
  shop = (await (await fetch('/__shop/info')).json()) as ShopFixtureInfo;
});

const state = async (email: string) => (await (await fetch(`/__shop/state?email=${encodeURIComponent(email)}`)).json()) as ShopState;
const vies = (country: string, up: boolean) => fetch(`/__shop/vies?country=${country}&up=${up ? 1 : 0}`);
const part = <T extends Element = HTMLElement>(el: ProductPayButton, name: string) => el.shadowRoot!.querySelector<T>(`[part~="${name}"]`);
const squash = (value: string | null | undefined) => value?.replace(/\s+/g, ' ').trim() ?? '';
const rows = (el: ProductPayButton, name: string) => squash(part(el, name)?.innerText);
const field = <T extends HTMLInputElement | HTMLSelectElement = HTMLInputElement>(el: ProductPayButton, name: string) => part(el, 'form')!.querySelector<T>(`[name=${name}]`)!;
const errorAt = (el: ProductPayButton, name: string) => squash(el.shadowRoot!.getElementById(`${name}-error`)?.textContent);
const continueButton = (el: ProductPayButton) => part<HTMLButtonElement>(el, 'continue-button')!;
let buyers = 0;
const newEmail = () => `sale-${Date.now()}-${(buyers += 1)}@example.com`;

/** Types into a field as a buyer does: the value, then `input` and `change`. */
function type(el: ProductPayButton, name: string, value: string): void {
  const input = field(el, name);
  input.value = value;
  input.dispatchEvent(new Event('input', { bubbles: true }));
  input.dispatchEvent(new Event('change', { bubbles: true }));
}

async function totalBecomes(el: ProductPayButton, total: string): Promise<void> {
  await waitUntil(
    () => rows(el, 'total') === total && part(el, 'summary')!.getAttribute('aria-busy') === 'false',
    `the total did not become "${total}" (it says "${rows(el, 'total')}")`,
    { timeout: 10_000 },
  );
}

/** A button on the service's widget routes (no BFF), with the dialog open for a buyer who typed e-mail and name. */
async function openButton(product: string, lang: string, extra: { showQuantity?: boolean; endpoint?: string } = {}): Promise<ProductPayButton> {
  const el = extra.endpoint
    ? await fixture<ProductPayButton>(html`<product-pay-button endpoint=${extra.endpoint} product=${product} locale=${lang}></product-pay-button>`)
    : await fixture<ProductPayButton>(
        html`<product-pay-button app-url=${shop.service} account=${shop.account} product=${product} locale=${lang} ?show-quantity=${extra.showQuantity}></product-pay-button>`,
      );
  await waitUntil(() => part(el, 'price'), 'the product did not load', { timeout: 10_000 });
  part<HTMLButtonElement>(el, 'button')!.click();
  await el.updateComplete;
  type(el, 'email', newEmail());
  type(el, 'name', 'Jan Kowalski');
  await waitUntil(() => !continueButton(el).disabled, 'the dialog got no price', { timeout: 10_000 });
  return el;
}

async function asCompany(el: ProductPayButton, country: string, taxNo: string): Promise<void> {
  part(el, 'form')!.querySelector<HTMLInputElement>('input[type=checkbox]')!.click();
  await el.updateComplete;
  type(el, 'country', country);
  type(el, 'tax_no', taxNo);
}

async function lookUp(el: ProductPayButton): Promise<void> {
  part<HTMLButtonElement>(el, 'lookup-button')!.click();
  await el.updateComplete;
  expect(part<HTMLButtonElement>(el, 'lookup-button')!.disabled, 'the lookup did not start').to.equal(true);
  await waitUntil(() => !part<HTMLButtonElement>(el, 'lookup-button')!.disabled, 'the lookup did not end', { timeout: 10_000 });
  await el.updateComplete;
}

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

const WORDS = {
  en: {
    filled: 'Filled in from the register: ATELIER LUMIERE SARL. Fields you had typed were kept.',
    unknown: 'The register knows no company with this number. Check it and the country.',
    unavailable: 'The register cannot answer now. Fill in the company details yourself.',
    reverseCharge: 'Reverse charge: a service to a company in another EU country with a valid VAT number is invoiced without Polish VAT, so you pay the net price.',
    reverseChargeNote: 'Reverse charge',
    viesInvalid: 'The EU VAT register (VIES) does not know this number. Check it, or buy without a company invoice.',
    vat: 'This is not a valid EU VAT number of the chosen country. Check its digits.',
    viesDown: 'The EU VAT register (VIES) could not confirm your VAT number just now, so the sale goes ahead with Polish VAT.',
    revised: 'The price changed: the total is now €590.00.',
    continueRevised: 'Continue to payment: €590.00',
    ossNotes: ['OSS procedure (Union scheme, Art. 130a–130d of the Polish VAT Act; Art. 369a–369k of Directive 2006/112/EC)', 'VAT of the member state of consumption: DE'],
    quantity: 'Enter a whole number from 1 to 1000.',
    fixQuantity: 'Correct the quantity to see the price.',
    total: (amount: string) => `Total incl. VAT ${amount}`,
    reverseTotal: (amount: string) => `Total VAT not charged ${amount}`,
    euro: (amount: string) => `€${amount}`,
    pln: (amount: string) => `PLN ${amount}`,
  },
  pl: {
    filled: 'Uzupełniono z rejestru: ATELIER LUMIERE SARL. Pola wpisane przez Ciebie pozostawiono.',
    unknown: 'Rejestr nie zna firmy o tym numerze. Sprawdź numer i kraj.',
    unavailable: 'Rejestr nie może teraz odpowiedzieć. Wpisz dane firmy samodzielnie.',
    reverseCharge: 'Odwrotne obciążenie: usługa dla firmy z innego kraju UE z ważnym numerem VAT jest fakturowana bez polskiego VAT, więc płacisz cenę netto.',
    reverseChargeNote: 'Odwrotne obciążenie',
    viesInvalid: 'Unijny rejestr VAT (VIES) nie zna tego numeru. Sprawdź go albo kup bez faktury na firmę.',
    vat: 'To nie jest poprawny numer VAT UE wybranego kraju. Sprawdź cyfry.',
    viesDown: 'Unijny rejestr VAT (VIES) nie mógł teraz potwierdzić Twojego numeru VAT, więc sprzedaż odbywa się z polskim VAT.',
    revised: 'Cena się zmieniła: do zapłaty jest teraz 590,00 €.',
    continueRevised: 'Przejdź do płatności: 590,00 €',
    ossNotes: ['Procedura OSS (procedura unijna, art. 130a–130d ustawy o VAT; art. 369a–369k dyrektywy 2006/112/WE)', 'VAT państwa członkowskiego konsumpcji: DE'],
    quantity: 'Podaj liczbę całkowitą od 1 do 1000.',
    fixQuantity: 'Popraw ilość, aby zobaczyć cenę.',
    total: (amount: string) => `Razem z VAT ${amount}`,
    reverseTotal: (amount: string) => `Razem bez VAT ${amount}`,
    euro: (amount: string) => `${amount.replace('.', ',')} €`,
    pln: (amount: string) => `${amount.replace('.', ',')} zł`,
  },
} as const;

for (const lang of ['en', 'pl'] as const) {
  const w = WORDS[lang];
  describe(`<product-pay-button> sells by the server's quote (${lang})`, () => {
    it('fills a company from its register in one step, keeps a field the buyer typed, and charges the reverse-charge price the dialog showed', async () => {
      const el = await openButton('brand-workshop-eur', lang);
      await asCompany(el, 'FR', '19 812 345 676');
      type(el, 'city', 'Lyon');
      await lookUp(el);
      expect(squash(part(el, 'lookup-status')!.textContent)).to.equal(w.filled);
      expect(['company', 'street', 'post_code', 'city', 'country', 'tax_no'].map((name) => field(el, name).value)).to.deep.equal([
        'ATELIER LUMIERE SARL',
        '12 RUE DE LA PAIX',
        '75002',
        'Lyon',
        'FR',
        'FR19812345676',
      ]);
      await totalBecomes(el, w.reverseTotal(w.euro('479.67')));
      const note = squash(part(el, 'vat-note')!.textContent);
      expect(note).to.contain(w.reverseCharge);
      expect(note).to.contain(w.reverseChargeNote);
      await expect(el).to.be.accessible();
      const email = field(el, 'email').value;
      const started = nextStart(el);
      continueButton(el).click();
      const start = await started;
      expect(start.detail).to.include({ amount: '479.67', currency: 'EUR', quantity: 1 });
      await fetch(start.detail.redirectUrl, { method: 'POST', mode: 'no-cors', body: new URLSearchParams({ choice: 'pay' }) });
      const after = await state(email);
      expect(after.invoices.map((i) => [i.buyer_name, i.buyer_tax_no, i.price_gross, i.tax, i.lang])).to.deep.equal([['ATELIER LUMIERE SARL', 'FR19812345676', '479.67', 'np', lang]]);
    });

    it('says at the tax number when the register knows no such company, and when it cannot answer, without blocking', async () => {
      const el = await openButton('brand-workshop-eur', lang);
      await asCompany(el, 'FR', 'FR40303265045');
      await lookUp(el);
      expect(errorAt(el, 'tax_no')).to.equal(w.unknown);
      expect(field(el, 'tax_no').getAttribute('aria-invalid')).to.equal('true');
      expect(field(el, 'tax_no').getAttribute('aria-describedby')).to.equal('tax_no-error');
      expect(el.shadowRoot!.activeElement?.getAttribute('name')).to.equal('tax_no');
      await expect(el).to.be.accessible();
      // A number not asked for before: the service keeps a register's answers for an hour.
      const [country, number] = lang === 'en' ? ['NL', 'NL812345678B01'] : ['IT', 'IT12345670157'];
      await vies(country, false);
      try {
        type(el, 'country', country);
        type(el, 'tax_no', number);
        await lookUp(el);
        expect(squash(part(el, 'lookup-status')!.textContent)).to.equal(w.unavailable);
        expect(errorAt(el, 'tax_no')).to.equal('');
        expect(field<HTMLInputElement>(el, 'company').readOnly).to.equal(false);
        await expect(el).to.be.accessible();
      } finally {
        await vies(country, true);
      }
    });

    it('shows a wrong check digit at the tax number once the quote for it answers, and goes on only with the right one', async () => {
      // The dialog checks the number's shape; its check digits are the server's quote's to judge.
      const el = await openButton('brand-workshop-eur', lang);
      await asCompany(el, 'DE', 'DE136695978');
      for (const [name, value] of [['company', 'Acme GmbH'], ['street', 'Hauptstraße 1'], ['post_code', '10115'], ['city', 'Berlin']]) type(el, name!, value!);
      await waitUntil(() => errorAt(el, 'tax_no') === w.vat, `the quote's problem was not shown (the field says "${errorAt(el, 'tax_no')}")`, { timeout: 10_000 });
      expect(field(el, 'tax_no').getAttribute('aria-invalid')).to.equal('true');
      await expect(el).to.be.accessible();
      let before = 0;
      el.addEventListener('pay-before', (event) => {
        before += 1;
        event.preventDefault();
      });
      continueButton(el).click();
      await el.updateComplete;
      expect(before, 'a checkout was started for a number the quote refused').to.equal(0);
      expect(errorAt(el, 'tax_no')).to.equal(w.vat);
      expect(el.shadowRoot!.activeElement?.getAttribute('name')).to.equal('tax_no');
      type(el, 'tax_no', 'DE136695976');
      await totalBecomes(el, w.reverseTotal(w.euro('479.67')));
      expect(errorAt(el, 'tax_no')).to.equal('');
      expect(field(el, 'tax_no').getAttribute('aria-invalid')).to.equal('false');
      continueButton(el).click();
      await el.updateComplete;
      expect(before).to.equal(1);
    });

    it('shows a VIES refusal at the tax number, focused, and sends the buyer nowhere', async () => {
      // DE811907980 passes its check digits, but the service's VIES does not know it.
      const el = await openButton('brand-workshop-eur', lang);
      await asCompany(el, 'DE', 'DE811907980');
      for (const [name, value] of [['company', 'Acme GmbH'], ['street', 'Hauptstraße 1'], ['post_code', '10115'], ['city', 'Berlin']]) type(el, name!, value!);
      await totalBecomes(el, w.reverseTotal(w.euro('479.67')));
      let starts = 0;
      el.addEventListener('pay-start', (event) => {
        starts += 1;
        event.preventDefault();
      });
      const failed = new Promise<PayErrorEvent>((resolve) => el.addEventListener('pay-error', resolve, { once: true }));
      continueButton(el).click();
      expect((await failed).detail).to.include({ status: 422 });
      await el.updateComplete;
      expect(errorAt(el, 'tax_no')).to.equal(w.viesInvalid);
      expect(field(el, 'tax_no').getAttribute('aria-invalid')).to.equal('true');
      expect(el.shadowRoot!.activeElement?.getAttribute('name')).to.equal('tax_no');
      expect(starts).to.equal(0);
      await expect(el).to.be.accessible();
    });

    it('shows the new total and why before going on, when VIES cannot answer at the checkout', async () => {
      const el = await openButton('brand-workshop-eur', lang);
      await asCompany(el, 'FR', 'FR19812345676');
      for (const [name, value] of [['company', 'ATELIER LUMIERE SARL'], ['street', '12 RUE DE LA PAIX'], ['post_code', '75002'], ['city', 'PARIS']]) type(el, name!, value!);
      await totalBecomes(el, w.reverseTotal(w.euro('479.67')));
      await vies('FR', false);
      try {
        let starts = 0;
        el.addEventListener('pay-start', (event) => {
          starts += 1;
          event.preventDefault();
        });
        continueButton(el).click();
        await waitUntil(() => part(el, 'revised'), 'the new total was not shown', { timeout: 10_000 });
        expect(starts, 'the buyer went on to pay a price the dialog did not show').to.equal(0);
        expect(squash(part(el, 'revised')!.textContent)).to.equal(w.revised);
        expect(squash(part(el, 'vat-note')!.textContent)).to.contain(w.viesDown);
        expect(rows(el, 'total')).to.equal(w.total(w.euro('590.00')));
        expect(squash(continueButton(el).textContent)).to.equal(w.continueRevised);
        await expect(el).to.be.accessible();
        const started = nextStart(el);
        continueButton(el).click();
        expect((await started).detail).to.include({ amount: '590', currency: 'EUR' });
        expect(starts).to.equal(1);
      } finally {
        await vies('FR', true);
      }
    });

    it('charges a consumer in Germany the German VAT of an electronic service through OSS, with the invoice’s words', async () => {
      const el = await openButton('hosting-monthly', lang);
      await totalBecomes(el, w.total(w.pln('49.00')));
      type(el, 'country', 'DE');
      await totalBecomes(el, w.total(w.pln('47.41')));
      expect(rows(el, 'summary')).to.contain(`VAT 19% ${w.pln('7.57')}`);
      const note = squash(part(el, 'vat-note')!.textContent);
      for (const words of w.ossNotes) expect(note).to.contain(words);
      await expect(el).to.be.accessible();
      const email = field(el, 'email').value;
      const started = nextStart(el);
      continueButton(el).click();
      expect((await started).detail).to.include({ amount: '47.41', currency: 'PLN' });
      expect((await state(email)).payments.map((p) => p.price)).to.deep.equal(['47.41']);
    });

    it('shows a quantity outside 1 to 1000 at the field, never paying for another, and Pay stays off until it is right', async () => {
      const el = await openButton('coffee-beans', lang, { showQuantity: true });
      const quantity = field(el, 'quantity');
      for (const wrong of ['0', '-3', '2.5', '1001']) {
        quantity.value = wrong;
        quantity.dispatchEvent(new Event('input', { bubbles: true }));
        await el.updateComplete;
        expect(errorAt(el, 'quantity'), wrong).to.equal(w.quantity);
        expect(quantity.getAttribute('aria-invalid'), wrong).to.equal('true');
        expect(quantity.getAttribute('aria-describedby')).to.equal('quantity-error');
        expect(continueButton(el).disabled, wrong).to.equal(true);
        expect(squash(part(el, 'summary')!.textContent)).to.equal(w.fixQuantity);
        expect(quantity.value, 'the field was changed under the buyer').to.equal(wrong);
      }
      await expect(el).to.be.accessible();
      quantity.value = '2';
      quantity.dispatchEvent(new Event('input', { bubbles: true }));
      await totalBecomes(el, w.total(w.pln('179.80')));
      expect(errorAt(el, 'quantity')).to.equal('');
      expect(continueButton(el).disabled).to.equal(false);
    });
  });
}
