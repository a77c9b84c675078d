import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import type { InvoiceList } from '../../src/elements/invoice-list/invoice-list.js';
import { portal, settled } from './support/portal.js';
import { atNextExpanded, detailRequests, loadBuiltList, panelOf, shadow, toggleOf, values } from './support/ksef-loading.js';

/**
 * The focus reaching a KSeF disclosure (or the pointer, through the same listener) fetches the detail
 * before it is opened, as the pay button fetches its dialog on intent (docs/decisions/element-loading.md):
 * the opening then shows it in its own render. Run on the built module, in a page of its own, so
 * nothing has fetched the detail before.
 */
const { bff, tokens } = await portal();
before(loadBuiltList);

describe('<invoice-list> KSeF detail on intent', () => {
  it('fetches the detail when the focus reaches a disclosure, not another control', async () => {
    const el = await fixture<InvoiceList>(html`<invoice-list endpoint=${bff} portal-token=${tokens.ksef} locale="pl" order="issue_date.asc"></invoice-list>`);
    await settled(el);
    const toggle = toggleOf(el, 'K-1');
    // Tab through the toolbar's controls to the first disclosure: only it fetches the detail.
    while (shadow(el).activeElement !== toggle) {
      expect(detailRequests(), `the focus on ${shadow(el).activeElement?.outerHTML.slice(0, 60) ?? 'the page'} fetched the detail`).to.equal(0);
      await sendKeys({ press: 'Tab' });
    }
    await waitUntil(() => detailRequests() === 1, 'the focus on the disclosure did not fetch the detail');
    expect(toggle.getAttribute('aria-expanded')).to.equal('false');
    // Fetched is not yet run: once the same module has run for this page too, the list has it.
    await import(/* @vite-ignore */ performance.getEntriesByType('resource').find((entry) => entry.name.includes('/ksef-detail-'))!.name);
    const panel = panelOf(toggle);
    const opened = atNextExpanded(toggle, () => ({ expanded: toggle.getAttribute('aria-expanded'), hidden: panel.hidden }));
    await sendKeys({ press: 'Enter' });
    expect(await opened, 'the detail was not shown in the opening’s own render').to.deep.equal({ expanded: 'true', hidden: false });
    expect(values(panel)).to.deep.equal(['W KSeF (test)', '5252248481-20260202-0100001AF629-7B', '2 lut 2026']);
    expect(panel.querySelector('dt')!.textContent).to.equal('Stan');
    expect(detailRequests()).to.equal(1);
  });
});
