import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import { sendKeys, setViewport } from '@web/test-runner-commands';
import '../../src/elements/product-pay-button/define.js';
import type { ProductPayButton } from '../../src/elements/product-pay-button/product-pay-button.js';
import { COUNTRY_CODES } from '../../src/kernel/validation/client.js';
import type { ShopFixtureInfo } from './support/shop-fixture.js';

/**
 * The checkout dialog as a buyer sees it (issue 45): a heading that is the product's name, a close
 * button, the total with what it holds of VAT, every country in the buyer's language, and the company
 * form with Continue in sight on a laptop and on a phone. In Chromium against the real service and BFF.
 */
let shop: ShopFixtureInfo;
before(async () => {
  shop = (await (await fetch('/__shop/info')).json()) as ShopFixtureInfo;
});

const part = <T extends Element = HTMLElement>(el: ProductPayButton, name: string) => el.shadowRoot!.querySelector<T>(`[part~="${name}"]`);
const squash = (value: string | null | undefined) => value?.replace(/\s+/g, ' ').trim() ?? '';
const field = <T extends HTMLInputElement | HTMLSelectElement = HTMLInputElement>(el: ProductPayButton, name: string) => part(el, 'form')!.querySelector<T>(`[name=${name}]`)!;

async function opened(product: string, locale = 'en'): Promise<ProductPayButton> {
  const el = await fixture<ProductPayButton>(html`<product-pay-button endpoint=${shop.bff} product=${product} locale=${locale}></product-pay-button>`);
  await waitUntil(() => part(el, 'price'), 'the product did not load', { timeout: 10_000 });
  part<HTMLButtonElement>(el, 'button')!.click();
  await el.updateComplete;
  await waitUntil(() => part<HTMLButtonElement>(el, 'continue-button')?.disabled === false, 'the dialog got no price', { timeout: 10_000 });
  return el;
}

/** Whether the buyer can see and press `target` as the page stands: inside the viewport and on top there. */
function inSight(el: ProductPayButton, target: HTMLElement): boolean {
  const box = target.getBoundingClientRect();
  if (box.top < 0 || box.left < 0 || box.bottom > innerHeight || box.right > innerWidth) return false;
  return el.shadowRoot!.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2) === target;
}

describe('<product-pay-button> checkout dialog', () => {
  it('is labelled by a heading with the product’s name, larger than the field labels', async () => {
    await setViewport({ width: 1280, height: 800 });
    const el = await opened('logo-design');
    const dialog = part<HTMLDialogElement>(el, 'dialog')!;
    const heading = part(el, 'title')!;
    expect(heading.tagName).to.equal('H2');
    expect(dialog.getAttribute('aria-labelledby')).to.equal(heading.id);
    expect(squash(heading.textContent)).to.equal('Logo design');
    const size = (node: Element) => parseFloat(getComputedStyle(node).fontSize);
    expect(size(heading)).to.equal(19.25);
    expect(size(field(el, 'email').closest('label')!)).to.equal(14);
    await expect(el).to.be.accessible();
  });

  it('closes from its labelled close button at the top right, and on Escape, handing the focus back to the buy button', async () => {
    await setViewport({ width: 1280, height: 800 });
    const el = await opened('logo-design');
    const dialog = part<HTMLDialogElement>(el, 'dialog')!;
    const close = part<HTMLButtonElement>(el, 'close-button')!;
    expect(close.getAttribute('aria-label')).to.equal('Close');
    const box = close.getBoundingClientRect();
    const frame = dialog.getBoundingClientRect();
    expect(frame.right - box.right).to.be.below(24);
    expect(box.top - frame.top).to.be.below(24);
    close.click();
    await el.updateComplete;
    expect(dialog.open).to.equal(false);
    expect(el.shadowRoot!.activeElement).to.equal(part(el, 'button'));

    part<HTMLButtonElement>(el, 'button')!.click();
    await el.updateComplete;
    expect(dialog.open).to.equal(true);
    field(el, 'email').focus();
    await sendKeys({ press: 'Escape' });
    await waitUntil(() => !dialog.open, 'Escape did not close the dialog');
    await el.updateComplete;
    expect(el.shadowRoot!.activeElement).to.equal(part(el, 'button'));
  });

  it('emphasises the total and says it includes VAT, in English and Polish', async () => {
    await setViewport({ width: 1280, height: 800 });
    const el = await opened('logo-design');
    const total = part(el, 'total')!;
    expect(squash(total.innerText)).to.equal('Total incl. VAT PLN 1,845.00');
    expect(getComputedStyle(total).fontWeight).to.equal('700');
    expect(parseFloat(getComputedStyle(total).fontSize)).to.equal(17.5);
    const polish = await opened('logo-design', 'pl');
    expect(squash(part(polish, 'total')!.innerText)).to.equal('Razem z VAT 1845,00 zł');
  });

  it('offers every ISO 3166-1 country, named in the buyer’s language and sorted by that name, Japan among them', async () => {
    await setViewport({ width: 1280, height: 800 });
    for (const locale of ['en', 'pl']) {
      const el = await opened('logo-licence-jpy', locale);
      const options = [...field<HTMLSelectElement>(el, 'country').options];
      expect(options.length, locale).to.equal(COUNTRY_CODES.length);
      expect(options.map((option) => option.value).sort()).to.deep.equal([...COUNTRY_CODES].sort());
      const names = new Intl.DisplayNames([locale], { type: 'region' });
      expect(options.find((option) => option.value === 'JP')!.textContent).to.equal(names.of('JP'));
      const labels = options.map((option) => option.textContent!);
      expect(labels).to.deep.equal([...labels].sort((a, b) => a.localeCompare(b, locale)));
      expect(field<HTMLSelectElement>(el, 'country').value).to.equal('PL');
    }
    const polish = await opened('logo-licence-jpy', 'pl');
    expect(field<HTMLSelectElement>(polish, 'country').selectedOptions[0]!.textContent).to.equal('Polska');
    field<HTMLSelectElement>(polish, 'country').value = 'JP';
    expect(field<HTMLSelectElement>(polish, 'country').selectedOptions[0]!.textContent).to.equal('Japonia');
  });

  for (const [width, height, columns] of [
    [1280, 800, 2],
    [390, 844, 1],
  ] as const) {
    it(`shows the company form in ${columns} column(s) with Continue in sight at ${width}×${height}`, async () => {
      await setViewport({ width, height });
      const el = await opened('brand-workshop-eur');
      part(el, 'form')!.querySelector<HTMLInputElement>('input[type=checkbox]')!.click();
      await el.updateComplete;
      // The company's price is quoted again; the last one stays, dimmed, until it is in.
      await waitUntil(() => part(el, 'summary')!.getAttribute('aria-busy') === 'false', 'the company got no price', { timeout: 10_000 });
      const left = (name: string) => Math.round(field(el, name).getBoundingClientRect().left);
      expect(new Set(['email', 'name', 'country', 'tax_no', 'company', 'street'].map(left)).size).to.equal(columns);
      // Post code and city stand side by side at every width.
      expect(left('city')).to.be.above(left('post_code'));
      expect(inSight(el, part(el, 'continue-button')!)).to.equal(true);
      const dialog = part<HTMLDialogElement>(el, 'dialog')!;
      expect(dialog.scrollWidth).to.equal(dialog.clientWidth);
      await expect(el).to.be.accessible();
    });
  }
});
