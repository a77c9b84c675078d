import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import type { InvoiceList } from '../../src/elements/invoice-list/invoice-list.js';
import { portal, settled } from './support/portal.js';
import { atNextExpanded, box, detailRequests, loadBuiltList, panelOf, shadow, toggleOf, values } from './support/ksef-loading.js';

/**
 * The list loads its KSeF detail (template, styles, words) when a customer opens one, not with the
 * list (docs/decisions/element-loading.md): run on the built module, as a page loads it. Opening
 * stays instant to the eye: the disclosure turns open in the click's own render, the row keeps its
 * height until the panel is in, and the keyboard works the disclosure as before.
 */
const { bff, tokens } = await portal();
before(loadBuiltList);

async function list(): Promise<InvoiceList> {
  const el = await fixture<InvoiceList>(html`<invoice-list endpoint=${bff} portal-token=${tokens.ksef} locale="en" order="issue_date.asc"></invoice-list>`);
  await settled(el);
  return el;
}

describe('<invoice-list> KSeF detail loading', () => {
  it('fetches the detail on the first opening, not with the list, and once', async () => {
    const el = await list();
    expect(detailRequests(), 'the detail loaded with the list').to.equal(0);

    // A click with no pointer over the disclosure and no focus on it before: the opening itself loads the detail.
    const toggle = toggleOf(el, 'K-1');
    const panel = panelOf(toggle);
    const row = toggle.closest('tr')!;
    const [rowBefore, toggleBefore] = [box(row), box(toggle)];
    const opening = atNextExpanded(toggle, () => ({ expanded: toggle.getAttribute('aria-expanded'), hidden: panel.hidden, row: box(row), toggle: box(toggle) }));
    toggle.click();
    expect(await opening, 'an empty panel or a moved row while the detail loads').to.deep.equal({ expanded: 'true', hidden: true, row: rowBefore, toggle: toggleBefore });

    await el.updateComplete;
    expect(panel.hidden).to.equal(false);
    expect(values(panel)).to.deep.equal(['In KSeF (test)', '5252248481-20260202-0100001AF629-7B', 'Feb 2, 2026']);
    // Its styles came with it: the panel's frame and its terms beside their values.
    expect(getComputedStyle(panel).borderTopWidth).to.equal('1px');
    expect(getComputedStyle(panel.querySelector('dl')!).display).to.equal('grid');
    expect(detailRequests()).to.equal(1);

    // Closed, and another opened: shown in the click's own render, with no second request.
    toggle.click();
    await el.updateComplete;
    expect(panel.hidden).to.equal(true);
    const second = toggleOf(el, 'K-2');
    const shown = atNextExpanded(second, () => panelOf(second).hidden === false);
    second.click();
    expect(await shown, 'the detail was not shown in the opening’s own render').to.equal(true);
    expect(values(panelOf(second))).to.deep.equal(['Sending to KSeF (test)', 'Feb 3, 2026']);
    expect(detailRequests()).to.equal(1);
  });

  it('opens and closes by keyboard, the focus staying on the disclosure', async () => {
    const el = await list();
    const toggle = toggleOf(el, 'K-3');
    for (let i = 0; i < 80 && shadow(el).activeElement !== toggle; i++) await sendKeys({ press: 'Tab' });
    expect(shadow(el).activeElement).to.equal(toggle);
    await sendKeys({ press: 'Enter' });
    await el.updateComplete;
    expect(toggle.getAttribute('aria-expanded')).to.equal('true');
    expect(shadow(el).activeElement).to.equal(toggle);
    const panel = panelOf(toggle);
    expect(panel.hidden).to.equal(false);
    expect(panel.textContent).to.contain('KSeF did not accept the invoice.');
    await sendKeys({ press: 'Escape' });
    await waitUntil(() => toggle.getAttribute('aria-expanded') === 'false', 'Escape did not close the detail');
    expect(panel.hidden).to.equal(true);
    expect(shadow(el).activeElement).to.equal(toggle);
    await sendKeys({ press: 'Space' });
    await el.updateComplete;
    expect(panel.hidden).to.equal(false);
    expect(detailRequests()).to.equal(1);
  });
});
