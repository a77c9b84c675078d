import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import { setViewport } from '@web/test-runner-commands';
import '../../src/elements/invoice-list/define.js';
import type { InvoiceList } from '../../src/elements/invoice-list/invoice-list.js';
import { list } from './support/invoice-list.js';
import { byIssueDateDesc, footer, frame, listRequests, numbers, portal, rows, settled, shadow, waitForRows } from './support/portal.js';

/**
 * How `<invoice-list>` lays itself out against the real BFF and service: the widths it is given, cards
 * on phones, never a sideways scroll, the scrolling window over a long list, and its themes.
 */

const { bff, tokens, invoices } = await portal();

describe('<invoice-list> layout and scrolling against the real BFF', () => {
  // A desktop's size, for every test that does not set its own.
  beforeEach(async () => {
    await setViewport({ width: 1280, height: 900 });
  });

  it('uses the space it is given: Issued and labelled actions at desktop widths', async () => {
    for (const width of [1056, 1280]) {
      const wrapper = await fixture<HTMLDivElement>(html`<div style="display: flex; width: ${width}px"><invoice-list endpoint=${bff} portal-token=${tokens.main} locale="en"></invoice-list></div>`);
      const el = wrapper.querySelector('invoice-list')!;
      await settled(el);
      expect(el.getBoundingClientRect().width, `${width}px`).to.equal(width);
      expect(getComputedStyle(shadow(el).querySelector('th.issue')!).display, `${width}px`).not.to.equal('none');
      const label = rows(el)[0]!.querySelector('[part~="view-link"] .label')!;
      expect(label.getBoundingClientRect().width, `${width}px`).to.be.greaterThan(10);
      expect(frame(el).scrollWidth).to.be.at.most(frame(el).clientWidth + 1);
    }
  });

  it('turns into cards at 320 px with no horizontal scrolling', async () => {
    await setViewport({ width: 320, height: 800 });
    const el = await list();
    expect(getComputedStyle(shadow(el).querySelector('thead')!).display).to.equal('none');
    expect(document.documentElement.scrollWidth).to.be.at.most(320);
    const boxes = [frame(el), ...rows(el), ...shadow(el).querySelectorAll<HTMLElement>('[part~="toolbar"], [part~="pagination"], td, th')];
    for (const box of boxes) expect(box.scrollWidth, box.className || box.tagName).to.be.at.most(box.clientWidth + 1);
    expect(frame(el).getBoundingClientRect().right).to.be.at.most(320);
    const sortSelect = shadow(el).querySelector<HTMLElement>('[part~="sort-select"]')!;
    expect(getComputedStyle(sortSelect).display).not.to.equal('none');
    await expect(el).to.be.accessible();
  });

  it('never scrolls sideways, in English or Polish, at any width from a phone to a desktop', async () => {
    for (const locale of ['en', 'pl']) {
      const wrapper = await fixture<HTMLDivElement>(
        html`<div style="width: 1100px"><invoice-list endpoint=${bff} portal-token=${tokens.main} locale=${locale} per-page="10"></invoice-list></div>`,
      );
      const el = wrapper.querySelector('invoice-list')!;
      await settled(el);
      for (const width of [1300, 1100, 1000, 960, 900, 800, 600, 420, 320]) {
        wrapper.style.width = `${width}px`;
        await el.updateComplete;
        const table = shadow(el).querySelector('table')!;
        expect(table.getBoundingClientRect().width, `${locale} at ${width}px`).to.be.at.most(frame(el).clientWidth + 1);
        expect(frame(el).scrollWidth, `${locale} at ${width}px`).to.be.at.most(frame(el).clientWidth + 1);
      }
    }
  });

  it('renders only the visible rows of a long list and fetches the rest while scrolling', async () => {
    const scroll = [...invoices.scroll].sort(byIssueDateDesc);
    const el = await fixture<InvoiceList>(
      html`<invoice-list endpoint=${bff} portal-token=${tokens.scroll} locale="en" paging="scroll" style="--invoice-list-max-height: 480px"></invoice-list>`,
    );
    await settled(el);
    const table = shadow(el).querySelector('table')!;
    expect(table.getAttribute('aria-rowcount')).to.equal(String(scroll.length + 1));
    expect(rows(el).length).to.be.lessThan(60);
    expect(numbers(el)[0]).to.equal(scroll[0]!.number);
    expect(footer(el)).to.equal('240 invoices');

    const scroller = shadow(el).querySelector<HTMLElement>('.scrolling')!;
    scroller.scrollTop = scroller.scrollHeight;
    await waitUntil(() => numbers(el).includes(scroll.at(-1)!.number), 'the last rows never arrived', { timeout: 10_000 });
    const last = rows(el).at(-1)!;
    expect(last.getAttribute('aria-rowindex')).to.equal(String(scroll.length + 1));
    expect(rows(el).length).to.be.lessThan(60);
    await expect(el).to.be.accessible();
  });

  it('scrolls with fixed row heights, a steady scrollbar, few requests and no warnings', async () => {
    const warnings: string[] = [];
    const warn = console.warn;
    console.warn = (...args: unknown[]) => warnings.push(args.join(' '));
    try {
      const el = await fixture<InvoiceList>(
        html`<invoice-list endpoint=${bff} portal-token=${tokens.scroll} locale="en" paging="scroll" style="--invoice-list-max-height: 480px; --invoice-list-row-height: 80px"></invoice-list>`,
      );
      await settled(el);
      const scroller = shadow(el).querySelector<HTMLElement>('.scrolling')!;
      await waitUntil(() => rows(el)[0]!.getBoundingClientRect().height === 80, 'the row height from CSS was not used');
      const height = scroller.scrollHeight;
      const before = listRequests();
      const scrolled = performance.now();
      // A quick scroll through every row, a few steps per frame, then a rest at the end.
      // Placeholders met while scrolling stay still: animating them restyled every bar in every frame.
      const animatedPlaceholders: number[] = [];
      // Where each step left the list once the window had moved: where it was put, as a customer
      // would see it, and not where the browser's scroll anchoring followed a reused row.
      const positions: [wanted: number, found: number][] = [];
      for (let step = 1; step <= 24; step++) {
        scroller.scrollTop = (height * step) / 24;
        const wanted = scroller.scrollTop;
        await new Promise((resolve) => requestAnimationFrame(resolve));
        positions.push([wanted, scroller.scrollTop]);
        if (shadow(el).querySelector('[part~="skeleton"]')) animatedPlaceholders.push(shadow(el).getAnimations().length);
      }
      expect(positions.filter(([wanted, found]) => Math.abs(found - wanted) > 1), 'the list jumped away from where it was scrolled to').to.deep.equal([]);
      expect(animatedPlaceholders.length, 'the scroll outran the rows').to.be.greaterThan(0);
      expect(animatedPlaceholders.every((count) => count === 0)).to.equal(true);
      const scroll = [...invoices.scroll].sort(byIssueDateDesc);
      await waitForRows(el, () => numbers(el).includes(scroll.at(-1)!.number), 'the last rows never arrived', 10_000, scrolled);
      await settled(el);
      expect(scroller.scrollHeight, 'the scrollbar kept its length while rows loaded').to.equal(height);
      expect(listRequests() - before, 'rows are fetched where the scroll rests, not for every chunk passed').to.be.at.most(2);
      const later = performance.getEntriesByType('resource').filter((e) => /\/bff\/invoices\?/.test(e.name)).slice(-1)[0]!;
      expect(later.name).to.contain('totals=false');
      for (const row of shadow(el).querySelectorAll<HTMLElement>('tr[data-index]')) expect(row.getBoundingClientRect().height).to.equal(80);
    } finally {
      console.warn = warn;
    }
    expect(warnings.filter((w) => /update|invoice-list/i.test(w))).to.deep.equal([]);
  });

  it('follows the theme attribute', async () => {
    const el = await list(tokens.main, html``);
    const light = getComputedStyle(frame(el)).backgroundColor;
    el.theme = 'dark';
    await el.updateComplete;
    expect(light).to.equal('rgb(255, 255, 255)');
    expect(getComputedStyle(frame(el)).backgroundColor).to.equal('rgb(15, 21, 35)');
    await expect(el).to.be.accessible();
  });
});
