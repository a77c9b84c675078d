import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import { sendMouse } from '@web/test-runner-commands';
import type { InvoiceList } from '../../src/elements/invoice-list/invoice-list.js';
import { render } from 'lit';
import { en } from '../../src/elements/invoice-list/messages.js';
import { unreachableState } from '../../src/elements/invoice-list/summary.js';
import { loadBuiltList } from './support/ksef-loading.js';
import { byIssueDateDesc, numbers, portal, rows, settled, shadow } from './support/portal.js';

/**
 * What the list loads only when it is about to be needed (docs/decisions/invoice-list-weight.md), on
 * the built module, in a page of its own, so nothing has fetched a chunk before: the pay flow when
 * the pointer or the focus reaches a row's Pay, and scroll mode's window when the list is set to
 * scroll. The chunks are counted by the browser's own resource timing.
 */
const { bff, tokens, invoices } = await portal();
before(loadBuiltList);

const requests = (chunk: string) =>
  performance.getEntriesByType('resource').filter((entry) => new RegExp(`/dist/elements/shared/${chunk}-[\\w-]+\\.js$`).test(new URL(entry.name).pathname)).length;

/** Moves the real mouse to the middle of `node`. */
async function pointAt(node: Element): Promise<void> {
  const { left, top, width, height } = node.getBoundingClientRect();
  await sendMouse({ type: 'move', position: [Math.round(left + width / 2), Math.round(top + height / 2)] });
}

describe('<invoice-list> loads on demand', () => {
  afterEach(() => sendMouse({ type: 'move', position: [0, 0] }));

  it('fetches the pay flow when the pointer reaches a row’s Pay, not another cell of its row, and once', async () => {
    const el = await fixture<InvoiceList>(html`<invoice-list endpoint=${bff} portal-token=${tokens.main} locale="en"></invoice-list>`);
    await settled(el);
    expect(requests('payment-flow'), 'a list nobody is about to pay fetched the pay flow').to.equal(0);
    const row = rows(el).find((r) => r.querySelector('[part~="pay-link"]'))!;
    const total = row.querySelector('.total')!;
    await pointAt(total);
    expect(total.matches(':hover')).to.equal(true);
    await el.updateComplete;
    expect(requests('payment-flow'), 'the pointer over the amount fetched the pay flow').to.equal(0);

    const pay = row.querySelector<HTMLAnchorElement>('[part~="pay-link"]')!;
    await pointAt(pay);
    expect(pay.matches(':hover')).to.equal(true);
    await waitUntil(() => requests('payment-flow') === 1, 'the pointer over Pay did not fetch the pay flow');
    rows(el)
      .filter((r) => r.querySelector('[part~="pay-link"]'))[1]!
      .querySelector<HTMLAnchorElement>('[part~="pay-link"]')!
      .focus();
    await el.updateComplete;
    expect(requests('payment-flow'), 'the flow is fetched once').to.equal(1);
  });

  it('fetches scroll mode’s window only for a list that scrolls, and scrolls once it is in', async () => {
    const el = await fixture<InvoiceList>(html`<invoice-list endpoint=${bff} portal-token=${tokens.scroll} locale="en"></invoice-list>`);
    await settled(el);
    expect(shadow(el).querySelector('.scrolling')).to.equal(null);
    expect(requests('scroll-window'), 'a list of pages fetched the scroll window').to.equal(0);

    el.paging = 'scroll';
    await waitUntil(() => shadow(el).querySelector('.scrolling'), 'the list never turned to scrolling', { timeout: 10_000 });
    await settled(el);
    expect(requests('scroll-window')).to.equal(1);
    const scroll = [...invoices.scroll].sort(byIssueDateDesc);
    expect(shadow(el).querySelector('table')!.getAttribute('aria-rowcount')).to.equal(String(scroll.length + 1));
    expect(numbers(el)[0]).to.equal(scroll[0]!.number);
    // Its styles came with it: every row is as tall as the row height says.
    const heights = new Set(rows(el).map((row) => Math.round(row.getBoundingClientRect().height)));
    expect([...heights]).to.deep.equal([72]);
  });

  it('fetches the error state’s words when a load fails, and shows the error only once they are in', async () => {
    const fine = await fixture<InvoiceList>(html`<invoice-list endpoint=${bff} portal-token=${tokens.main} locale="en"></invoice-list>`);
    await settled(fine);
    expect(requests('error-state'), 'a list that loaded fetched the error state').to.equal(0);

    const expired = await fixture<InvoiceList>(html`<invoice-list endpoint=${bff} portal-token=${tokens.expired} locale="pl"></invoice-list>`);
    await settled(expired);
    expect(requests('error-state')).to.equal(1);
    expect(shadow(expired).querySelector('[part~="frame"]')!.getAttribute('data-state')).to.equal('error');
    expect(shadow(expired).querySelector('[part~="error"]')!.textContent!.replace(/\s+/g, ' ').trim()).to.equal(
      'Nie udało się wczytać faktur Sesja wygasła. Odśwież stronę, aby zalogować się ponownie. Spróbuj ponownie',
    );
    const none = await fixture<InvoiceList>(html`<invoice-list endpoint=${bff} locale="en"></invoice-list>`);
    await settled(none);
    expect(shadow(none).querySelector('[part~="error"] p:not(.title)')!.textContent).to.equal('This page did not provide a portal token.');
    expect(shadow(none).querySelector('[part~="retry-button"]')).to.equal(null);
    expect(requests('error-state'), 'the error state is fetched once').to.equal(1);
  });

  it('says the server is out of reach, with a retry, where the error state’s words cannot be loaded either', async () => {
    let retried = 0;
    const host = document.createElement('div');
    document.body.append(host);
    render(unreachableState(en, () => (retried += 1)), host);
    const box = host.querySelector('[part~="error"]')!;
    expect(box.getAttribute('role')).to.equal('alert');
    expect([...box.querySelectorAll('p')].map((p) => p.textContent)).to.deep.equal(['We couldn’t load your invoices', 'We couldn’t reach the server. Check your connection.']);
    box.querySelector<HTMLButtonElement>('[part~="retry-button"]')!.click();
    expect(retried).to.equal(1);
    host.remove();
  });
});
