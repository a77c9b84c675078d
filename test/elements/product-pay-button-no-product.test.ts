import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import '../../src/elements/product-pay-button/define.js';
import type { ProductPayButton } from '../../src/elements/product-pay-button/product-pay-button.js';
import type { ShopFixtureInfo } from './support/shop-fixture.js';

/**
 * A buy button whose product comes after it is created (a framework sets properties once the element
 * exists): it asks the real BFF for nothing until it has one, waits as while loading, and then loads it.
 */
let shop: ShopFixtureInfo;
before(async () => {
  shop = (await (await fetch('/__shop/info')).json()) as ShopFixtureInfo;
});

const productRequests = () => performance.getEntriesByType('resource').filter((entry) => /\/bff\/products\//.test(entry.name)).map((entry) => new URL(entry.name).pathname);
const part = (el: ProductPayButton, name: string) => el.shadowRoot!.querySelector<HTMLElement>(`[part~="${name}"]`);

describe('<product-pay-button> without a product', () => {
  it('sends no request until it has a product, then loads that one alone', async () => {
    const before = productRequests().length;
    const el = await fixture<ProductPayButton>(html`<product-pay-button endpoint=${shop.bff} locale="en"></product-pay-button>`);
    await el.updateComplete;
    // Long enough for a request to have gone out and come back from the local BFF.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(productRequests().slice(before)).to.deep.equal([]);
    expect(part(el, 'error')).to.equal(null);
    expect(part(el, 'price')).to.equal(null);
    el.product = 'logo-design';
    await waitUntil(() => part(el, 'price'), 'the product did not load', { timeout: 10_000 });
    expect(part(el, 'price')!.textContent!.replace(/\s+/g, ' ').trim()).to.equal('PLN 1,845.00');
    expect(productRequests().slice(before)).to.deep.equal(['/bff/products/logo-design']);
    // Emptied again: nothing is asked for, and the old product is not shown as buyable.
    el.product = '';
    await el.updateComplete;
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(productRequests().slice(before)).to.deep.equal(['/bff/products/logo-design']);
    expect(part(el, 'price')).to.equal(null);
  });
});
