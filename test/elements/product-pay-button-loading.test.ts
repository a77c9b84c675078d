import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import type { ProductPayButton } from '../../src/elements/product-pay-button/product-pay-button.js';
import type { ShopFixtureInfo } from './support/shop-fixture.js';

/**
 * The buy button loads its checkout dialog only when the buyer is about to need it
 * (docs/decisions/element-loading.md). The first test runs the built module (`npm run build` writes
 * it; `npm test` builds first), as a shop page loads it: a click on a button nobody hovered, focused
 * or scrolled to must still open the dialog within 100 ms. The second runs the sources under another
 * tag, a module of their own, so its dialog is not loaded yet either.
 */
let shop: ShopFixtureInfo;
before(async () => {
  shop = (await (await fetch('/__shop/info')).json()) as ShopFixtureInfo;
});

const part = <T extends Element = HTMLElement>(el: Element, name: string) => el.shadowRoot!.querySelector<T>(`[part~="${name}"]`);
const loaded = (pattern: RegExp) => performance.getEntriesByType('resource').filter((entry) => pattern.test(new URL(entry.name).pathname)).length;
/** Far below the fold: no intersection observer sees the button until the page scrolls. */
const belowTheFold = (button: unknown) => html`<div><div style="height: 300vh"></div>${button}</div>`;

describe('<product-pay-button> loading', () => {
  it('opens the dialog within 100 ms of a click on a button nobody hovered, focused or scrolled to', async () => {
    const built = '/dist/elements/product-pay-button.js';
    const present = await fetch(built, { method: 'HEAD' });
    expect(present.ok, `${built} is missing: run npm run build`).to.equal(true);
    await import(/* @vite-ignore */ built);
    const page = await fixture<HTMLDivElement>(belowTheFold(html`<product-pay-button endpoint=${shop.bff} product="logo-design" locale="en"></product-pay-button>`));
    const el = page.querySelector<ProductPayButton>('product-pay-button')!;
    await waitUntil(() => part(el, 'price'), 'the product did not load', { timeout: 10_000 });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(loaded(/\/dist\/elements\/shared\/checkout-dialog-[\w-]+\.js$/), 'the dialog loaded before any intent').to.equal(0);
    expect(part(el, 'dialog')).to.equal(null);

    const button = part<HTMLButtonElement>(el, 'button')!;
    const start = performance.now();
    button.click();
    await el.updateComplete;
    const dialog = part<HTMLDialogElement>(el, 'dialog');
    const elapsed = performance.now() - start;
    expect(dialog?.open).to.equal(true);
    expect(elapsed, `the dialog opened ${elapsed.toFixed(0)} ms after the click`).to.be.below(100);
    expect(loaded(/\/dist\/elements\/shared\/checkout-dialog-[\w-]+\.js$/)).to.equal(1);
    expect(part(el, 'continue-button')!.textContent!.trim()).to.equal('Continue to payment');
  });

  it('starts loading the dialog when the button scrolls into view, before any click', async () => {
    const { ProductPayButton } = await import('../../src/elements/product-pay-button/product-pay-button.js');
    // A class of its own under another tag: the sources' dialog module is not loaded in this page yet.
    customElements.define('loading-pay-button', class extends ProductPayButton {});
    const page = await fixture<HTMLDivElement>(belowTheFold(html`<loading-pay-button endpoint=${shop.bff} product="logo-design" locale="en"></loading-pay-button>`));
    const el = page.querySelector<ProductPayButton>('loading-pay-button')!;
    await waitUntil(() => part(el, 'price'), 'the product did not load', { timeout: 10_000 });
    await new Promise((resolve) => setTimeout(resolve, 300));
    const dialogModule = /\/src\/elements\/product-pay-button\/checkout-dialog\.ts$/;
    expect(loaded(dialogModule), 'the dialog loaded before the button was in view').to.equal(0);

    el.scrollIntoView();
    await waitUntil(() => loaded(dialogModule) === 1, 'the dialog did not start loading when the button came into view', { timeout: 5_000 });
    expect(part(el, 'dialog')).to.equal(null);
    part<HTMLButtonElement>(el, 'button')!.click();
    await el.updateComplete;
    expect(part<HTMLDialogElement>(el, 'dialog')!.open).to.equal(true);
  });
});
