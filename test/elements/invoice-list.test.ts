import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import { sendKeys, setViewport } from '@web/test-runner-commands';
import '../../src/elements/invoice-list/define.js';
import type { InvoiceList } from '../../src/elements/invoice-list/invoice-list.js';
import type { InvoiceQueryChangeDetail } from '../../src/elements/invoice-list/events.js';
import { chip, list, main, money, select, sortButton } from './support/invoice-list.js';
import { announcement, byIssueDateDesc, cents, footer, frame, listRequests, numbers, portal, rows, settled, shadow, statuses } from './support/portal.js';

/**
 * Finding invoices with `<invoice-list>` against the real BFF and service: paging, period, sorting and
 * search, the empty, error and loading states, the query in attributes and events, and its languages.
 */

const { bff, tokens, invoices, today } = await portal();

describe('<invoice-list> against the real BFF', () => {
  // A desktop's size, for every test that does not set its own.
  beforeEach(async () => {
    await setViewport({ width: 1280, height: 900 });
  });

  it('pages forward and back, saying which invoices it shows', async () => {
    const el = await list();
    const [previous, next] = shadow(el).querySelectorAll<HTMLButtonElement>('[part~="page-button"]');
    expect(previous!.disabled).to.equal(true);
    next!.click();
    await settled(el);
    expect(numbers(el)).to.deep.equal(main.slice(25, 50).map((i) => i.number));
    expect(footer(el)).to.equal('Showing 26–50 of 60');
    expect(announcement(el)).to.equal('Showing 26–50 of 60');
    shadow(el).querySelectorAll<HTMLButtonElement>('[part~="page-button"]')[1]!.click();
    await settled(el);
    expect(numbers(el)).to.deep.equal(main.slice(50).map((i) => i.number));
    expect(footer(el)).to.equal('Showing 51–60 of 60');
    expect(shadow(el).querySelectorAll<HTMLButtonElement>('[part~="page-button"]')[1]!.disabled).to.equal(true);
    shadow(el).querySelectorAll<HTMLButtonElement>('[part~="page-button"]')[0]!.click();
    await settled(el);
    expect(numbers(el)).to.deep.equal(main.slice(25, 50).map((i) => i.number));
  });

  it('filters by period', async () => {
    const el = await list();
    select(el, 'period-select', 'last_30_days');
    await settled(el);
    const day = (iso: string) => Date.parse(iso) / 864e5;
    const expected = main.filter((i) => day(today) - day(i.issue_date) < 30);
    expect(expected.map((i) => i.number)).to.have.length(4);
    expect(numbers(el)).to.deep.equal(expected.map((i) => i.number));
    expect(footer(el)).to.equal('Showing 1–4 of 4');
  });

  it('sorts by amount, due date and issue date from the column headers', async () => {
    const el = await list();
    expect(sortButton(el, 'Issued').closest('th')!.getAttribute('aria-sort')).to.equal('descending');
    const byAmount = [...main].sort((a, b) => cents(b.price_gross) - cents(a.price_gross));

    sortButton(el, 'Total').click();
    await settled(el);
    expect(numbers(el)).to.deep.equal(byAmount.slice(0, 25).map((i) => i.number));
    expect(sortButton(el, 'Total').closest('th')!.getAttribute('aria-sort')).to.equal('descending');
    expect(sortButton(el, 'Issued').closest('th')!.getAttribute('aria-sort')).to.equal('none');

    sortButton(el, 'Total').click();
    await settled(el);
    expect(numbers(el)).to.deep.equal([...byAmount].reverse().slice(0, 25).map((i) => i.number));
    expect(sortButton(el, 'Total').closest('th')!.getAttribute('aria-sort')).to.equal('ascending');

    sortButton(el, 'Due').click();
    await settled(el);
    const byDue = [...main].sort((a, b) => a.payment_to.localeCompare(b.payment_to));
    expect(numbers(el)).to.deep.equal(byDue.slice(0, 25).map((i) => i.number));

    sortButton(el, 'Issued').click();
    await settled(el);
    expect(numbers(el)).to.deep.equal(main.slice(0, 25).map((i) => i.number));
  });

  it('searches by number once the customer stops typing', async () => {
    const el = await list();
    const before = listRequests();
    const input = shadow(el).querySelector<HTMLInputElement>('input[type="search"]')!;
    input.focus();
    await sendKeys({ type: 'FV/05' });
    await waitUntil(() => listRequests() > before, 'no search request', { timeout: 5000 });
    await settled(el);
    expect(listRequests() - before, 'one request for the whole word').to.equal(1);
    const expected = main.filter((i) => i.number.includes('FV/05'));
    expect(expected).to.have.length(10);
    expect(numbers(el)).to.deep.equal(expected.map((i) => i.number));
  });

  it('shows an empty state for a customer without invoices, and a way out of filters that match nothing', async () => {
    const empty = await list(tokens.empty);
    expect(frame(empty).dataset.state).to.equal('empty');
    expect(shadow(empty).querySelector('[part~="empty"] .title')!.textContent).to.equal('No invoices yet');
    expect(announcement(empty)).to.equal('No invoices found');
    await expect(empty).to.be.accessible();

    const el = await list();
    el.search = 'no-such-number';
    await settled(el);
    expect(shadow(el).querySelector('[part~="empty"] .title')!.textContent).to.equal('No matching invoices');
    await expect(el).to.be.accessible();
    shadow(el).querySelector<HTMLButtonElement>('[part~="empty"] button')!.click();
    await settled(el);
    expect(numbers(el)).to.deep.equal(main.slice(0, 25).map((i) => i.number));
  });

  it('shows an error with a retry for an expired session', async () => {
    const el = await list(tokens.expired);
    expect(frame(el).dataset.state).to.equal('error');
    expect(shadow(el).querySelector('[part~="error"]')!.textContent).to.contain('Your session has expired');
    await expect(el).to.be.accessible();
    const before = listRequests();
    shadow(el).querySelector<HTMLButtonElement>('[part~="retry-button"]')!.click();
    await waitUntil(() => listRequests() === before + 1, 'retry made no request', { timeout: 10_000 });
    await settled(el);
    expect(frame(el).dataset.state).to.equal('error');
    el.portalToken = tokens.main;
    await settled(el);
    expect(numbers(el)).to.have.length(25);
  });

  it('explains a missing portal token instead of calling the BFF', async () => {
    const before = listRequests();
    const el = await fixture<InvoiceList>(html`<invoice-list endpoint=${bff} locale="en"></invoice-list>`);
    await settled(el);
    expect(shadow(el).querySelector('[part~="error"]')!.textContent).to.contain('did not provide a portal token');
    expect(listRequests()).to.equal(before);
    await expect(el).to.be.accessible();
  });

  it('shows an accessible skeleton while loading', async () => {
    const el = await fixture<InvoiceList>(html`<invoice-list endpoint=${bff} portal-token=${tokens.main} locale="en"></invoice-list>`);
    expect(frame(el).dataset.state).to.equal('loading');
    expect(frame(el).getAttribute('aria-busy')).to.equal('true');
    expect(shadow(el).querySelectorAll('[part~="skeleton"]').length).to.be.greaterThan(0);
    // One pulse for all placeholders: an animation per bar costs a style recalculation per bar in every frame.
    expect(shadow(el).getAnimations().map((a) => (a.effect as KeyframeEffect).target!.localName)).to.deep.equal(['tbody']);
    await expect(el).to.be.accessible();
    await settled(el);
    expect(shadow(el).getAnimations()).to.have.length(0);
    expect(shadow(el).querySelectorAll('[part~="skeleton"]')).to.have.length(0);
  });

  it('logs no false warnings: removing per-page goes back to 25 silently', async () => {
    const warnings: string[] = [];
    const warn = console.warn;
    console.warn = (...args: unknown[]) => warnings.push(args.join(' '));
    try {
      const el = await fixture<InvoiceList>(html`<invoice-list endpoint=${bff} portal-token=${tokens.main} locale="en" per-page="10"></invoice-list>`);
      await settled(el);
      expect(numbers(el)).to.have.length(10);
      el.removeAttribute('per-page');
      await settled(el);
      expect(el.perPage).to.equal(25);
      expect(numbers(el)).to.have.length(25);
    } finally {
      console.warn = warn;
    }
    expect(warnings).to.deep.equal([]);
  });

  it('is usable from the keyboard: sort headers and filters are native controls', async () => {
    const el = await list();
    sortButton(el, 'Total').focus();
    await sendKeys({ press: 'Enter' });
    await settled(el);
    expect(sortButton(el, 'Total').closest('th')!.getAttribute('aria-sort')).to.equal('descending');
    chip(el, 'All').focus();
    await sendKeys({ press: 'ArrowRight' });
    await settled(el);
    expect(chip(el, 'Outstanding').checked).to.equal(true);
    expect(statuses(el).every((s) => s !== 'paid')).to.equal(true);
  });

  it('speaks Polish with locale="pl", and follows the page’s lang by default', async () => {
    const el = await fixture<InvoiceList>(html`<invoice-list endpoint=${bff} portal-token=${tokens.main} locale="pl"></invoice-list>`);
    await settled(el);
    expect(footer(el)).to.equal('Pozycje 1–25 z 60');
    expect(sortButton(el, 'Wystawiona')).to.be.instanceOf(HTMLButtonElement);
    expect(rows(el)[0]!.querySelector('.total')!.textContent!.trim()).to.equal(money(main[0]!.price_gross, 'PLN', 'pl'));
    expect(rows(el)[0]!.querySelector('.total')!.textContent!.trim()).to.match(/^\d[\d\s\u00a0]*,\d\d\s?zł$/);
    await expect(el).to.be.accessible();

    const wrapper = await fixture<HTMLDivElement>(html`<div lang="pl-PL"><invoice-list endpoint=${bff} portal-token=${tokens.empty}></invoice-list></div>`);
    const inner = wrapper.querySelector('invoice-list')!;
    await settled(inner);
    expect(shadow(inner).querySelector('[part~="empty"] .title')!.textContent).to.equal('Nie masz jeszcze faktur');
  });

  it('formats each currency with its own minor units', async () => {
    const el = await list(tokens.yen);
    expect(rows(el)[0]!.querySelector('.total')!.textContent!.trim()).to.equal('¥1,500');
    const scroll = await list(tokens.scroll);
    const first = [...invoices.scroll].sort(byIssueDateDesc)[0]!;
    expect(first.price_gross).to.equal('10.00');
    expect(rows(scroll)[0]!.querySelector('.total')!.textContent!.trim()).to.equal('€10.00');
  });

  it('warns in the console about attribute values it does not understand', async () => {
    const warnings: string[] = [];
    const warn = console.warn;
    console.warn = (...args: unknown[]) => warnings.push(args.join(' '));
    try {
      const el = await fixture<InvoiceList>(
        html`<invoice-list endpoint=${bff} portal-token=${tokens.main} status="settled" per-page="500" theme="neon" locale="xx-invalid-tag-"></invoice-list>`,
      );
      await settled(el);
      expect(el.status).to.equal('');
      expect(el.perPage).to.equal(25);
      expect(numbers(el)).to.have.length(25);
    } finally {
      console.warn = warn;
    }
    expect(warnings.some((w) => w.includes('status="settled"'))).to.equal(true);
    expect(warnings.some((w) => w.includes('per-page="500"'))).to.equal(true);
    expect(warnings.some((w) => w.includes('theme="neon"'))).to.equal(true);
    expect(warnings.some((w) => w.includes('locale="xx-invalid-tag-"'))).to.equal(true);
  });

  it('announces each change of the query the customer makes with invoice-query-change, and none that code makes', async () => {
    const el = await list();
    const seen: InvoiceQueryChangeDetail[] = [];
    const listening = new AbortController();
    document.addEventListener('invoice-query-change', (event) => seen.push(event.detail), { signal: listening.signal });
    const base = { status: '', period: 'all', search: '', order: 'issue_date.desc', page: 1 };
    shadow(el).querySelectorAll<HTMLButtonElement>('[part~="page-button"]')[1]!.click();
    await settled(el);
    expect(seen).to.deep.equal([{ ...base, page: 2 }]);
    // A new filter goes back to page 1, and says so.
    chip(el, 'Paid').click();
    await settled(el);
    select(el, 'sort-select', 'price_gross.asc');
    await settled(el);
    const input = shadow(el).querySelector<HTMLInputElement>('input[type="search"]')!;
    input.focus();
    await sendKeys({ type: 'FV/05' });
    await sendKeys({ press: 'Enter' });
    await settled(el);
    // Enter again asks nothing new: no event.
    await sendKeys({ press: 'Enter' });
    expect(seen.slice(1)).to.deep.equal([
      { ...base, status: 'paid' },
      { ...base, status: 'paid', order: 'price_gross.asc' },
      { ...base, status: 'paid', order: 'price_gross.asc', search: 'FV/05' },
    ]);
    // Code that sets the query, as a page restoring it from its URL does, fires nothing.
    const count = seen.length;
    Object.assign(el, { status: '', period: 'all', search: '', order: 'issue_date.desc', page: 3 });
    await settled(el);
    el.setAttribute('page', '2');
    await settled(el);
    expect(seen).to.have.length(count);
    expect(numbers(el)).to.deep.equal(main.slice(25, 50).map((i) => i.number));
    listening.abort();
  });

  it('takes the whole query from its attributes, a page included, and shows the last page for one past it', async () => {
    const el = await list(tokens.main, html``);
    el.setAttribute('search', 'FV/05');
    el.setAttribute('period', 'all');
    el.setAttribute('per-page', '3');
    el.setAttribute('page', '2');
    await settled(el);
    const found = main.filter((i) => i.number.includes('FV/05'));
    expect(numbers(el)).to.deep.equal(found.slice(3, 6).map((i) => i.number));
    expect(footer(el)).to.equal(`Showing 4–6 of ${found.length}`);
    el.page = 999;
    await settled(el);
    const last = Math.ceil(found.length / 3);
    expect(el.page).to.equal(last);
    expect(numbers(el)).to.deep.equal(found.slice((last - 1) * 3).map((i) => i.number));
  });
});
