import { expect, fixture, html } from '@open-wc/testing';
import { setViewport } from '@web/test-runner-commands';
import '../../src/elements/invoice-list/define.js';
import type { InvoiceList } from '../../src/elements/invoice-list/invoice-list.js';
import { portal, rows, settled, shadow } from './support/portal.js';

/**
 * The KSeF detail on a phone (issue 45): at 390 px the list is cards, and the detail once opened as a
 * strip 117 px wide and 1,130 px tall, one character per line. It takes the card's width and wraps
 * by words, in the flowing list and in the virtually scrolled one.
 */
const { bff, tokens } = await portal();

const toggleOf = (el: InvoiceList, number: string) =>
  rows(el)
    .find((row) => row.querySelector('th')!.textContent!.trim().startsWith(number))!
    .querySelector<HTMLButtonElement>('[part~="ksef-toggle"]')!;

/** How many lines a block of text takes, from its height and its line height. */
const lines = (node: Element) => Math.round(node.getBoundingClientRect().height / parseFloat(getComputedStyle(node).lineHeight));

for (const mode of ['flowing', 'virtual'] as const) {
  it(`opens full width on a 390 px phone, wrapping by words (${mode} list)`, async () => {
    await setViewport({ width: 390, height: 844 });
    const el = await fixture<InvoiceList>(
      html`<invoice-list style="display: block; width: 358px" endpoint=${bff} portal-token=${tokens.ksef} locale="en" order="issue_date.asc" paging=${mode === "virtual" ? "scroll" : "pages"}></invoice-list>`,
    );
    await settled(el);
    expect(shadow(el).querySelector('.scrolling') !== null, 'the list is in the expected mode').to.equal(mode === 'virtual');
    const toggle = toggleOf(el, 'K-1');
    toggle.click();
    await el.updateComplete;
    const panel = shadow(el).getElementById(toggle.getAttribute('aria-controls')!)!;
    const card = toggle.closest('tr')!.getBoundingClientRect();
    const box = panel.getBoundingClientRect();
    // The card's width less its padding (1rem each side), inside the card.
    expect(Math.round(box.width)).to.equal(Math.round(card.width - 32));
    expect(box.left).to.be.at.least(card.left);
    expect(box.right).to.be.at.most(card.right);
    const values = [...panel.querySelectorAll('dd')];
    expect(values.map((dd) => dd.textContent!.trim())).to.deep.equal(['In KSeF (test)', '5252248481-20260202-0100001AF629-7B', 'Feb 2, 2026']);
    for (const dd of values) expect(lines(dd), dd.textContent!).to.equal(1);
    // The note wraps between words: no word is broken.
    const note = panel.querySelector('.ksef-note')!;
    expect(note.textContent).to.equal('Sent to a KSeF test environment: it has no legal force.');
    expect(lines(note)).to.be.at.most(2);
    expect(box.height).to.be.below(200);
    await expect(el).to.be.accessible();
  });
}
