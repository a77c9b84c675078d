import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import { sendMouse } from '@web/test-runner-commands';
import type { InvoiceList } from '../../src/elements/invoice-list/invoice-list.js';
import { portal, settled } from './support/portal.js';
import { detailRequests, loadBuiltList, toggleOf } from './support/ksef-loading.js';

/**
 * The pointer reaching a KSeF disclosure fetches the detail before the click, as the pay button
 * fetches its dialog on intent (docs/decisions/element-loading.md); the pointer elsewhere on the row
 * does not. Run on the built module, in a page of its own, so nothing has fetched the detail before.
 */
const { bff, tokens } = await portal();
before(loadBuiltList);

/** Moves the real mouse to the middle of `node`. */
async function pointAt(node: Element): Promise<void> {
  const { left, top, width, height } = node.getBoundingClientRect();
  await sendMouse({ type: 'move', position: [Math.round(left + width / 2), Math.round(top + height / 2)] });
}

describe('<invoice-list> KSeF detail on the pointer', () => {
  // The mouse leaves the list, so no hover outlives the test.
  afterEach(() => sendMouse({ type: 'move', position: [0, 0] }));

  it('fetches the detail when the pointer reaches a disclosure, not another cell of its row', async () => {
    const el = await fixture<InvoiceList>(html`<invoice-list endpoint=${bff} portal-token=${tokens.ksef} locale="en" order="issue_date.asc"></invoice-list>`);
    await settled(el);
    const toggle = toggleOf(el, 'K-1');
    const total = toggle.closest('tr')!.querySelector('.total')!;
    await pointAt(total);
    expect(total.matches(':hover')).to.equal(true);
    await el.updateComplete;
    expect(detailRequests(), 'the pointer over the amount fetched the detail').to.equal(0);

    await pointAt(toggle);
    expect(toggle.matches(':hover')).to.equal(true);
    await waitUntil(() => detailRequests() === 1, 'the pointer over the disclosure did not fetch the detail');
    expect(toggle.getAttribute('aria-expanded')).to.equal('false');
  });
});
