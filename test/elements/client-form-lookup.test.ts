import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import '../../src/elements/client-form/define.js';
import type { ClientForm } from '../../src/elements/client-form/client-form.js';
import type { ClientChangeEvent } from '../../src/elements/client-form/events.js';
import { portal } from './support/portal.js';

/**
 * `<client-form>` fills a company's details from its register in one step, through the real BFF's
 * `GET /company/:country/:tax_no`, whose registers are the stand-ins of the VAT white list and VIES
 * seeded with the demo's companies. In English and Polish.
 */
const { bff } = await portal();

const input = (el: ClientForm, field: string) => el.querySelector<HTMLInputElement>(`[data-field="${field}"]`)!;
const squash = (value: string | null | undefined) => value?.replace(/\s+/g, ' ').trim() ?? '';
const errorOf = (el: ClientForm, field: string) => {
  const id = input(el, field).getAttribute('aria-describedby');
  return id ? squash(document.getElementById(id)?.textContent) : undefined;
};
const lookupButton = (el: ClientForm) => el.querySelector<HTMLButtonElement>('[part~="lookup-button"]')!;
const lookupStatus = (el: ClientForm) => squash(el.querySelector('[part~="lookup-status"]')?.textContent);

function type(control: HTMLInputElement | HTMLSelectElement, value: string): void {
  control.value = value;
  control.dispatchEvent(new Event('input', { bubbles: true }));
  control.dispatchEvent(new Event('change', { bubbles: true }));
}

async function newForm(locale: string): Promise<ClientForm> {
  const el = await fixture<ClientForm>(html`<client-form endpoint=${bff} mode="create" locale=${locale}></client-form>`);
  await waitUntil(() => el.querySelector('.cf-frame')?.getAttribute('aria-busy') === 'false', 'the form kept loading', { timeout: 15_000 });
  return el;
}

async function lookUp(el: ClientForm): Promise<void> {
  await el.updateComplete;
  lookupButton(el).click();
  await el.updateComplete;
  expect(lookupButton(el).disabled, 'the lookup did not start').to.equal(true);
  await waitUntil(() => !lookupButton(el).disabled, 'the lookup did not end', { timeout: 10_000 });
  await el.updateComplete;
}

const WORDS = {
  en: {
    filled: 'Filled in from the register: KWADRAT SPÓŁKA Z OGRANICZONĄ ODPOWIEDZIALNOŚCIĄ. Fields you had typed were kept.',
    unknown: 'The register knows no company with this number. Check it and the country.',
  },
  pl: {
    filled: 'Uzupełniono z rejestru: KWADRAT SPÓŁKA Z OGRANICZONĄ ODPOWIEDZIALNOŚCIĄ. Pola wpisane przez Ciebie pozostawiono.',
    unknown: 'Rejestr nie zna firmy o tym numerze. Sprawdź numer i kraj.',
  },
} as const;

for (const lang of ['en', 'pl'] as const) {
  describe(`<client-form> company lookup (${lang})`, () => {
    it('fills name, address and country from the white list by NIP, in its normal form, keeping a field the customer typed', async () => {
      const el = await newForm(lang);
      expect(lookupButton(el).disabled, 'a lookup without a number').to.equal(true);
      type(input(el, 'tax_no'), '677-123-45-61');
      type(input(el, 'street'), 'ul. Długa 2');
      await el.updateComplete;
      const changed: string[] = [];
      el.addEventListener('client-change', (event) => changed.push((event as ClientChangeEvent).detail.field));
      await lookUp(el);
      expect(lookupStatus(el)).to.equal(WORDS[lang].filled);
      expect(['name', 'tax_no', 'street', 'post_code', 'city', 'country'].map((field) => input(el, field).value)).to.deep.equal([
        'KWADRAT SPÓŁKA Z OGRANICZONĄ ODPOWIEDZIALNOŚCIĄ',
        '6771234561',
        'ul. Długa 2',
        '31-019',
        'KRAKÓW',
        'PL',
      ]);
      // A Polish page starts a new customer in Poland already: the country is not a change there.
      expect(changed.sort()).to.deep.equal(lang === 'en' ? ['city', 'country', 'name', 'post_code', 'tax_no'] : ['city', 'name', 'post_code', 'tax_no']);
      expect(el.value).to.include({ name: 'KWADRAT SPÓŁKA Z OGRANICZONĄ ODPOWIEDZIALNOŚCIĄ', tax_no: '6771234561', city: 'KRAKÓW' });
      await expect(el).to.be.accessible();
    });

    it('says at the tax number when the register knows no such company', async () => {
      const el = await newForm(lang);
      // A NIP with the right check digit that the white list does not hold.
      type(input(el, 'tax_no'), '1234563218');
      await lookUp(el);
      expect(errorOf(el, 'tax_no')).to.equal(WORDS[lang].unknown);
      expect(input(el, 'tax_no').getAttribute('aria-invalid')).to.equal('true');
      expect(lookupStatus(el)).to.equal('');
      await expect(el).to.be.accessible();
    });
  });
}
