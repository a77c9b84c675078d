import { expect, fixture, html, oneEvent, waitUntil } from '@open-wc/testing';
import '../../src/elements/client-form/define.js';
import type { ClientForm } from '../../src/elements/client-form/client-form.js';
import type { ClientErrorEvent } from '../../src/elements/client-form/events.js';
import { holdNextAnswer } from './support/held-answers.js';
import { portal } from './support/portal.js';

/**
 * `<client-form>` checks an EU VAT number's shape itself and takes its check digits' verdict from the
 * real BFF's `GET /tax-number` (docs/decisions/client-form-weight.md): at the field, in the form's
 * words, as its validity in a page's form, never on a newer number than the one asked about.
 */
const { bff, heldBff } = await portal();

const input = (el: ClientForm, field: string) => el.querySelector<HTMLInputElement>(`[data-field="${field}"]`)!;
const errorOf = (el: ClientForm, field: string) => {
  const id = input(el, field).getAttribute('aria-describedby');
  return id ? document.getElementById(id)?.textContent?.trim() : undefined;
};
const checks = (endpoint: string) => performance.getEntriesByType('resource').filter((entry) => entry.name.startsWith(new URL(`${endpoint}/tax-number?`, location.href).href)).length;

function type(control: HTMLInputElement, value: string): void {
  control.value = value;
  control.dispatchEvent(new Event('input', { bubbles: true }));
  control.dispatchEvent(new Event('change', { bubbles: true }));
}

async function nestedForm(endpoint: string, locale = 'en'): Promise<[HTMLFormElement, ClientForm]> {
  const form = await fixture<HTMLFormElement>(html`<form><client-form endpoint=${endpoint} mode="create" locale=${locale}></client-form><button>Order</button></form>`);
  const el = form.querySelector('client-form')!;
  await waitUntil(() => el.querySelector('.cf-frame')?.getAttribute('aria-busy') === 'false', 'the form kept loading', { timeout: 15_000 });
  type(input(el, 'name'), 'Muster GmbH');
  type(input(el, 'email'), 'buchhaltung@muster.example.com');
  return [form, el];
}

const VAT = {
  en: 'This is not a valid EU VAT number. Check the country code and the digits, as in DE136695976.',
  pl: 'To nie jest poprawny numer VAT UE. Sprawdź kod kraju i cyfry, np. DE136695976.',
} as const;

describe('<client-form> and the BFF’s verdict on EU VAT check digits', () => {
  for (const lang of ['en', 'pl'] as const) {
    it(`shows the verdict at the field and blocks a page’s form while it stands (${lang})`, async () => {
      const [form, el] = await nestedForm(bff, lang);
      type(input(el, 'country'), 'DE');
      // The right shape, the last check digit off by one: only the BFF can tell.
      type(input(el, 'tax_no'), 'DE 136 695 977');
      await el.updateComplete;
      expect(el.validity.valid).to.equal(true);
      await waitUntil(() => !el.validity.valid, 'the BFF’s verdict never came', { timeout: 10_000 });
      expect(el.validationMessage).to.equal(VAT[lang]);
      expect(form.checkValidity()).to.equal(false);
      let submitted = false;
      form.addEventListener('submit', (event) => {
        event.preventDefault();
        submitted = true;
      });
      form.requestSubmit();
      await el.updateComplete;
      expect(submitted).to.equal(false);
      expect(errorOf(el, 'tax_no')).to.equal(VAT[lang]);
      expect(input(el, 'tax_no').getAttribute('aria-invalid')).to.equal('true');
      expect(document.activeElement).to.equal(input(el, 'tax_no'));
      await expect(form).to.be.accessible();

      type(input(el, 'tax_no'), 'DE136695976');
      await el.updateComplete;
      expect(errorOf(el, 'tax_no')).to.equal(undefined);
      await waitUntil(() => checks(bff) >= 2, 'the corrected number was never checked', { timeout: 10_000 });
      await el.updateComplete;
      expect(el.validity.valid).to.equal(true);
      form.requestSubmit();
      expect(submitted).to.equal(true);
    });
  }

  it('never shows a verdict on a newer number than the one asked about', async () => {
    const [, el] = await nestedForm(heldBff);
    const stale = await holdNextAnswer('portal', 'GET', /^\/bff\/tax-number\?country=&tax_no=FR41303265045$/);
    type(input(el, 'tax_no'), 'FR41303265045');
    await stale.arrived();
    expect(el.validity.valid).to.equal(true);
    // The customer goes on typing while the BFF holds its answer about the number before.
    type(input(el, 'tax_no'), 'FR40303265045');
    await waitUntil(() => checks(heldBff) >= 1, 'the newer number was never checked', { timeout: 10_000 });
    expect(await stale.release()).to.equal('abandoned');
    await el.updateComplete;
    expect(el.validity.valid).to.equal(true);
    expect(el.reportValidity()).to.equal(true);
    await el.updateComplete;
    expect(errorOf(el, 'tax_no')).to.equal(undefined);
  });

  it('words the save’s own 422 by the verdict when the save went before it', async () => {
    const el = await fixture<ClientForm>(html`<client-form endpoint=${bff} mode="create" locale="en"></client-form>`);
    await waitUntil(() => el.querySelector('.cf-frame')?.getAttribute('aria-busy') === 'false', 'the form kept loading', { timeout: 15_000 });
    type(input(el, 'name'), 'Atelier Lumière SARL');
    type(input(el, 'email'), `atelier.${Date.now()}@example.com`);
    type(input(el, 'tax_no'), 'FR41303265045');
    // Sent at once, before typing paused: the form knows only the number's shape yet.
    const failed = oneEvent(el, 'client-error') as Promise<ClientErrorEvent>;
    el.querySelector<HTMLButtonElement>('button[type="submit"]')!.click();
    const { detail } = await failed;
    expect(detail).to.deep.include({ action: 'save', status: 422 });
    expect(detail.fields).to.deep.equal({ tax_no: ['is not a valid VAT number of its country (the check digits do not match)'] });
    await el.updateComplete;
    expect(errorOf(el, 'tax_no')).to.equal(VAT.en);
    expect(document.activeElement).to.equal(input(el, 'tax_no'));
    expect(el.validity.valid).to.equal(false);
  });

  it('holds by the number’s shape where no BFF answers, and leaves the check digits to the page’s server', async () => {
    const nowhere = '/no-bff-here';
    const [form, el] = await nestedForm(nowhere);
    type(input(el, 'tax_no'), 'DE13669597');
    await el.updateComplete;
    expect(el.validationMessage).to.equal(VAT.en);
    type(input(el, 'tax_no'), 'DE136695977');
    await waitUntil(() => checks(nowhere) >= 1, 'the number was never asked about', { timeout: 10_000 });
    await el.updateComplete;
    expect(el.validity.valid).to.equal(true);
    expect(form.checkValidity()).to.equal(true);
  });
});
