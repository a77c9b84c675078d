import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import '../../src/elements/client-form/define.js';
import type { ClientForm } from '../../src/elements/client-form/client-form.js';
import { holdNextAnswer } from './support/held-answers.js';
import { portal } from './support/portal.js';

/**
 * `<client-form>` takes the client rules' verdict on its fields (NIP and EU VAT check digits, IBAN,
 * post code, e-mail, phone, country) from the real BFF's `POST /client-check`
 * (docs/decisions/client-form-weight.md): at the field, in the form's words, as its validity in a
 * page's form, never on newer input than the one asked about.
 */
const { bff, heldBff } = await portal();

const input = (el: ClientForm, field: string) => el.querySelector<HTMLInputElement>(`[data-field="${field}"]`)!;
const errorOf = (el: ClientForm, field: string) => {
  const id = input(el, field).getAttribute('aria-describedby');
  return id ? document.getElementById(id)?.textContent?.trim() : undefined;
};
/** How many checks the page has finished asking `endpoint` (the browser's own resource timing). */
const checks = (endpoint: string) => performance.getEntriesByType('resource').filter((entry) => entry.name === new URL(`${endpoint}/client-check`, location.href).href).length;

function type(control: HTMLInputElement, value: string): void {
  control.value = value;
  control.dispatchEvent(new Event('input', { bubbles: true }));
  control.dispatchEvent(new Event('change', { bubbles: true }));
}

async function ready(el: ClientForm): Promise<void> {
  await waitUntil(() => el.querySelector('.cf-frame')?.getAttribute('aria-busy') === 'false', 'the form kept loading', { timeout: 15_000 });
}

async function nestedForm(endpoint: string, locale = 'en'): Promise<[HTMLFormElement, ClientForm]> {
  const form = await fixture<HTMLFormElement>(html`<form><client-form endpoint=${endpoint} mode="create" locale=${locale}></client-form><button>Order</button></form>`);
  const el = form.querySelector('client-form')!;
  await ready(el);
  type(input(el, 'name'), 'Muster GmbH');
  type(input(el, 'email'), 'buchhaltung@muster.example.com');
  return [form, el];
}

const WORDS = {
  en: { vat: 'This is not a valid EU VAT number. Check the country code and the digits, as in DE136695976.', postCode: 'Enter the post code as 10115.' },
  pl: { vat: 'To nie jest poprawny numer VAT UE. Sprawdź kod kraju i cyfry, np. DE136695976.', postCode: 'Podaj kod pocztowy w postaci 10115.' },
} as const;

describe('<client-form> and the BFF’s verdict on its fields', () => {
  for (const lang of ['en', 'pl'] as const) {
    it(`shows the verdict at each field and blocks a page’s form while it stands (${lang})`, async () => {
      const [form, el] = await nestedForm(bff, lang);
      type(input(el, 'country'), 'DE');
      // The right shape, the last check digit off by one; a post code one digit short.
      type(input(el, 'tax_no'), 'DE 136 695 977');
      type(input(el, 'post_code'), '1011');
      await el.updateComplete;
      expect(el.validity.valid).to.equal(true);
      await waitUntil(() => !el.validity.valid, 'the BFF’s verdict never came', { timeout: 10_000 });
      expect(el.validationMessage).to.equal(WORDS[lang].vat);
      expect(form.checkValidity()).to.equal(false);
      let submitted = false;
      form.addEventListener('submit', (event) => {
        event.preventDefault();
        submitted = true;
      });
      form.requestSubmit();
      await el.updateComplete;
      expect(submitted).to.equal(false);
      expect(errorOf(el, 'tax_no')).to.equal(WORDS[lang].vat);
      expect(errorOf(el, 'post_code')).to.equal(WORDS[lang].postCode);
      expect(input(el, 'tax_no').getAttribute('aria-invalid')).to.equal('true');
      expect(document.activeElement).to.equal(input(el, 'tax_no'));
      await expect(form).to.be.accessible();

      // Correcting one field leaves the other's verdict standing.
      const before = checks(bff);
      type(input(el, 'tax_no'), 'DE136695976');
      await el.updateComplete;
      expect(errorOf(el, 'tax_no')).to.equal(undefined);
      expect(errorOf(el, 'post_code')).to.equal(WORDS[lang].postCode);
      expect(el.validationMessage).to.equal(WORDS[lang].postCode);
      type(input(el, 'post_code'), '10115');
      await el.updateComplete;
      expect(el.validity.valid).to.equal(true);
      await waitUntil(() => checks(bff) > before, 'the corrected fields were never checked', { timeout: 10_000 });
      await el.updateComplete;
      expect(el.validity.valid).to.equal(true);
      form.requestSubmit();
      expect(submitted).to.equal(true);
    });
  }

  it('never shows a verdict on newer input than the one asked about', async () => {
    const [, el] = await nestedForm(heldBff);
    await waitUntil(() => checks(heldBff) >= 1, 'the new customer was never checked', { timeout: 10_000 });
    const stale = await holdNextAnswer('portal', 'POST', /^\/bff\/client-check$/);
    // A wrong check digit, whose verdict the BFF holds while the customer goes on typing.
    type(input(el, 'tax_no'), 'FR41303265045');
    await stale.arrived();
    type(input(el, 'tax_no'), 'FR40303265045');
    await el.updateComplete;
    expect(await stale.release()).to.equal('abandoned');
    await el.updateComplete;
    expect(el.validity.valid).to.equal(true);
    const before = checks(heldBff);
    await waitUntil(() => checks(heldBff) > before, 'the newer number was never checked', { timeout: 10_000 });
    await el.updateComplete;
    expect(el.reportValidity()).to.equal(true);
    await el.updateComplete;
    expect(errorOf(el, 'tax_no')).to.equal(undefined);
  });

  it('saves only once the verdict on the fields as they stand is in', async () => {
    const el = await fixture<ClientForm>(html`<client-form endpoint=${bff} mode="create" locale="en"></client-form>`);
    await ready(el);
    const email = `atelier.${Date.now()}@example.com`;
    type(input(el, 'name'), 'Atelier Lumière SARL');
    type(input(el, 'email'), email);
    type(input(el, 'tax_no'), 'FR41303265045');
    let failures = 0;
    el.addEventListener('client-error', () => (failures += 1));
    // Sent at once, before typing paused: the form asks the BFF first, and sends nothing.
    el.querySelector<HTMLButtonElement>('button[type="submit"]')!.click();
    await el.updateComplete;
    expect(el.querySelector('button[type="submit"]')!.getAttribute('aria-disabled')).to.equal('true');
    await waitUntil(() => errorOf(el, 'tax_no') !== undefined, 'no problem shown at the tax number', { timeout: 10_000 });
    expect(errorOf(el, 'tax_no')).to.equal(WORDS.en.vat);
    await el.updateComplete;
    expect(document.activeElement).to.equal(input(el, 'tax_no'));
    expect(el.querySelector('[role="status"]')!.textContent!.trim()).to.equal('Some fields need your attention.');
    expect(failures).to.equal(0);
    expect(await (await fetch(`/__portal/clients?email=${encodeURIComponent(email)}`)).json()).to.deep.equal([]);
  });

  it('holds its required fields where no BFF answers, and leaves the rules to the page’s server', async () => {
    const nowhere = '/no-bff-here';
    const [form, el] = await nestedForm(nowhere);
    type(input(el, 'tax_no'), 'DE13669597');
    await waitUntil(() => checks(nowhere) >= 1, 'the fields were never asked about', { timeout: 10_000 });
    await el.updateComplete;
    expect(el.validity.valid).to.equal(true);
    expect(form.checkValidity()).to.equal(true);
    type(input(el, 'name'), ' ');
    await el.updateComplete;
    expect(el.validationMessage).to.equal('Enter the company name.');
  });
});
