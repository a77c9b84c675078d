import { expect, fixture, html, oneEvent, waitUntil } from '@open-wc/testing';
import { sendKeys, setViewport } from '@web/test-runner-commands';
import '../../src/elements/invoice-list/define.js';
import type { InvoiceList } from '../../src/elements/invoice-list/invoice-list.js';
import type { InvoiceDownloadEvent, InvoicePayEvent, InvoiceQueryChangeDetail, InvoiceSelectEvent } from '../../src/elements/invoice-list/events.js';
import { holdNextAnswer } from './support/held-answers.js';
import type { SeededInvoice } from './support/portal-fixture.js';
import {
  announcement,
  byIssueDateDesc,
  cents,
  footer,
  frame,
  listRequests,
  waitForRows,
  numbers,
  portal,
  rows,
  settled,
  shadow,
  statuses,
} from './support/portal.js';

// Request counts come from resource timing, whose buffer holds only 250 entries by default.
performance.setResourceTimingBufferSize(10_000);
const { bff, heldBff, tokens, invoices, today } = await portal();
const main = [...invoices.main].sort(byIssueDateDesc);

async function list(token = tokens.main, attributes = html``, endpoint = bff): Promise<InvoiceList> {
  const el = await fixture<InvoiceList>(html`<invoice-list endpoint=${endpoint} portal-token=${token} locale="en">${attributes}</invoice-list>`);
  await settled(el);
  return el;
}

function chip(el: InvoiceList, label: string): HTMLInputElement {
  const found = [...shadow(el).querySelectorAll<HTMLLabelElement>('.chip')].find((c) => c.textContent!.trim() === label);
  return found!.querySelector('input')!;
}

function select(el: InvoiceList, part: string, value: string): void {
  const element = shadow(el).querySelector<HTMLSelectElement>(`[part~="${part}"] select`)!;
  element.value = value;
  element.dispatchEvent(new Event('change'));
}

const sortButton = (el: InvoiceList, label: string) =>
  [...shadow(el).querySelectorAll<HTMLButtonElement>('th .sort')].find((b) => b.textContent!.trim() === label)!;

const money = (amount: string, currency = 'PLN', locale = 'en') =>
  new Intl.NumberFormat(locale, { style: 'currency', currency }).format(amount as unknown as number);

describe('<invoice-list> against the real BFF', () => {
  afterEach(async () => {
    await setViewport({ width: 1280, height: 900 });
  });

  it('renders the customer’s first page, newest first, with totals, balances and statuses', async () => {
    const el = await list();
    const firstPage = main.slice(0, 25);
    expect(numbers(el)).to.deep.equal(firstPage.map((i) => i.number));
    expect(statuses(el)).to.deep.equal(firstPage.map((i) => i.status));
    expect(footer(el)).to.equal('Showing 1–25 of 60');
    expect(frame(el).dataset.state).to.equal('ready');

    const [first] = rows(el);
    expect(first!.querySelector('.total')!.textContent!.trim()).to.equal(money(firstPage[0]!.price_gross));
    for (const [i, row] of rows(el).entries()) {
      const invoice = firstPage[i]!;
      const outstanding = cents(invoice.price_gross) - cents(invoice.paid);
      const balance = row.querySelector('[part~="balance"]')!.textContent!.replace(/[ \t\n\r]+/g, ' ').trim();
      const due = money((outstanding / 100).toFixed(2));
      const expected =
        outstanding <= 0
          ? `Paid ${money(invoice.paid)}`
          : cents(invoice.paid) > 0
            ? `Due ${due}Paid ${money(invoice.paid)} of ${money(invoice.price_gross)}`
            : `Due ${due}`;
      expect(balance, invoice.number).to.equal(expected);
      expect(Boolean(row.querySelector('[part~="pay-link"]')), invoice.number).to.equal(invoice.status !== 'paid');
    }
    await expect(el).to.be.accessible();
  });

  it('shows the BFF’s own links: pay and view open the service’s pages', async () => {
    const el = await list();
    const answer = await (await fetch(`${bff}/invoices?per_page=25`, { headers: { authorization: `Bearer ${tokens.main}` } })).json();
    const unpaid = answer.data.find((invoice: { payment_url: string | null }) => invoice.payment_url);
    const row = rows(el).find((r) => r.querySelector('th')!.textContent!.trim() === unpaid.number)!;
    expect(row.querySelector<HTMLAnchorElement>('[part~="pay-link"]')!.href).to.equal(unpaid.payment_url);
    expect(row.querySelector<HTMLAnchorElement>('[part~="view-link"]')!.href).to.equal(unpaid.view_url);
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

  const owes = (i: SeededInvoice) => cents(i.paid) < cents(i.price_gross);
  const filters = {
    outstanding: (i: SeededInvoice) => owes(i),
    overdue: (i: SeededInvoice) => i.status === 'overdue',
    paid: (i: SeededInvoice) => i.status === 'paid',
    partial: (i: SeededInvoice) => owes(i) && cents(i.paid) > 0,
    unpaid: (i: SeededInvoice) => owes(i) && cents(i.paid) === 0,
  };
  for (const [status, label] of [['outstanding', 'Outstanding'], ['overdue', 'Overdue'], ['paid', 'Paid']] as const) {
    it(`filters by status from its chips: ${status}`, async () => {
      const el = await list();
      chip(el, label).click();
      await settled(el);
      const expected = main.filter(filters[status]);
      expect(expected.length, `the seed has ${status} invoices`).to.be.greaterThan(0);
      expect(numbers(el)).to.deep.equal(expected.slice(0, 25).map((i) => i.number));
      expect(footer(el)).to.equal(`Showing 1–${Math.min(25, expected.length)} of ${expected.length}`);
    });
  }

  it('shows overdue and partly paid invoices under Outstanding', async () => {
    const el = await list(tokens.main, html``);
    chip(el, 'Outstanding').click();
    await settled(el);
    el.perPage = 100;
    await settled(el);
    expect(new Set(statuses(el))).to.deep.equal(new Set(['overdue', 'partial', 'unpaid']));
    expect(numbers(el)).to.deep.equal(main.filter(filters.outstanding).map((i) => i.number));
  });

  for (const status of ['partial', 'unpaid'] as const) {
    it(`filters by the status attribute: ${status}`, async () => {
      const el = await list(tokens.main, html``);
      el.status = status;
      await settled(el);
      const expected = main.filter(filters[status]);
      expect(expected.length).to.be.greaterThan(0);
      expect(numbers(el)).to.deep.equal(expected.slice(0, 25).map((i) => i.number));
    });
  }

  it('shows what the customer owes in total, with the overdue part, whatever the filter', async () => {
    const el = await list();
    const sum = (list: SeededInvoice[]) => (list.reduce((n, i) => n + cents(i.price_gross) - cents(i.paid), 0) / 100).toFixed(2);
    const outstanding = main.filter(filters.outstanding);
    const overdue = main.filter(filters.overdue);
    const text = () => shadow(el).querySelector('[part~="totals"]')!.textContent!.replace(/[ \t\n\r]+/g, ' ').trim();
    expect(text()).to.equal(`You owe ${money(sum(outstanding))} on ${outstanding.length} invoices · ${money(sum(overdue))} overdue`);
    chip(el, 'Paid').click();
    await settled(el);
    expect(text()).to.equal(`You owe ${money(sum(outstanding))} on ${outstanding.length} invoices · ${money(sum(overdue))} overdue`);
    const yen = await list(tokens.yen);
    expect(shadow(yen).querySelector('[part~="totals"]')!.textContent!.replace(/[ \t\n\r]+/g, ' ').trim()).to.equal('You owe ¥1,500 on 1 invoice');
    await expect(el).to.be.accessible();
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

  it('ends on the last of two quick filter changes', async () => {
    const el = await list(tokens.main, html``, heldBff);
    // The first change's answer is held at the server until the second change has landed.
    const paid = await holdNextAnswer('portal', 'GET', /^\/bff\/invoices\?(.*&)?status=paid(&|$)/);
    chip(el, 'Paid').click();
    await paid.arrived();
    chip(el, 'Overdue').click();
    await settled(el);
    const overdue = main.filter((i) => i.status === 'overdue');
    expect(statuses(el)).to.deep.equal(overdue.slice(0, 25).map(() => 'overdue'));
    expect(footer(el)).to.equal(`Showing 1–${Math.min(25, overdue.length)} of ${overdue.length}`);
    // The answer to the first change may not arrive later and win.
    await paid.release();
    await settled(el);
    expect(statuses(el).every((s) => s === 'overdue')).to.equal(true);
    expect(footer(el)).to.equal(`Showing 1–${Math.min(25, overdue.length)} of ${overdue.length}`);
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
    await waitUntil(() => listRequests() === before + 1, 'retry made no request');
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

  it('downloads the PDF through a short-lived link, after an invoice-download event', async () => {
    const el = await list();
    const clicked: string[] = [];
    const click = HTMLAnchorElement.prototype.click;
    HTMLAnchorElement.prototype.click = function (this: HTMLAnchorElement) {
      clicked.push(this.href);
    };
    try {
      const row = rows(el)[0]!;
      const event = oneEvent(el, 'invoice-download') as Promise<InvoiceDownloadEvent>;
      // A real click: the link's own `click()` is the stub above.
      row.querySelector('[part~="download-button"]')!.dispatchEvent(new MouseEvent('click', { bubbles: true, composed: true, cancelable: true }));
      const { detail } = await event;
      expect(detail.invoice.number).to.equal(main[0]!.number);
      expect(detail.invoice.id).to.equal(main[0]!.id);
      await waitUntil(() => clicked.length === 1, 'no download started');
    } finally {
      HTMLAnchorElement.prototype.click = click;
    }
    expect(clicked[0]).to.match(new RegExp(`/bff/invoices/${main[0]!.id}/pdf\\?link=[^&]+&download$`));
    const response = await fetch(clicked[0]!);
    expect(response.status).to.equal(200);
    expect(response.headers.get('content-type')).to.equal('application/pdf');
    const bytes = new Uint8Array(await response.arrayBuffer());
    expect(new TextDecoder().decode(bytes.slice(0, 5))).to.equal('%PDF-');
  });

  it('lets the host take over a download by cancelling the event', async () => {
    const el = await list();
    const before = performance.getEntriesByType('resource').filter((e) => e.name.includes('/pdf-link')).length;
    el.addEventListener('invoice-download', (event) => event.preventDefault(), { once: true });
    const event = oneEvent(el, 'invoice-download');
    rows(el)[1]!.querySelector<HTMLAnchorElement>('[part~="download-button"]')!.click();
    expect((await event).defaultPrevented).to.equal(true);
    await el.updateComplete;
    // Asking for a link marks the row busy in the same task as the event: a row that is not busy asked nothing.
    expect(rows(el)[1]!.querySelector('[part~="download-button"]')!.getAttribute('aria-disabled')).to.equal(null);
    expect(performance.getEntriesByType('resource').filter((e) => e.name.includes('/pdf-link')).length).to.equal(before);
  });

  it('fires invoice-select from View and from a click on the row, and invoice-pay from Pay', async () => {
    const el = await list();
    const target = main.find((i) => i.status === 'overdue')!;
    const row = rows(el).find((r) => r.querySelector('th')!.textContent!.trim() === target.number)!;
    const cancel = (event: Event) => event.preventDefault();
    el.addEventListener('invoice-select', cancel);
    el.addEventListener('invoice-pay', cancel);

    let selected = oneEvent(el, 'invoice-select') as Promise<InvoiceSelectEvent>;
    row.querySelector<HTMLAnchorElement>('[part~="view-link"]')!.click();
    let event = await selected;
    expect(event.detail.invoice.number).to.equal(target.number);
    expect(event.bubbles && event.composed).to.equal(true);

    selected = oneEvent(el, 'invoice-select') as Promise<InvoiceSelectEvent>;
    row.querySelector<HTMLElement>('.issue')!.click();
    event = await selected;
    expect(event.detail.invoice.id).to.equal(target.id);

    const paid = oneEvent(el, 'invoice-pay') as Promise<InvoicePayEvent>;
    const pay = row.querySelector<HTMLAnchorElement>('[part~="pay-link"]')!;
    pay.click();
    const payEvent = await paid;
    expect(payEvent.detail.invoice.number).to.equal(target.number);
    expect(payEvent.detail.paymentUrl).to.equal(pay.href);
    expect(payEvent.defaultPrevented).to.equal(true);
    expect(location.href).not.to.equal(pay.href);
  });

  it('pays on the service’s page and comes back to the host page, or falls back to payment_url', async () => {
    const clicked: string[] = [];
    const click = HTMLAnchorElement.prototype.click;
    HTMLAnchorElement.prototype.click = function (this: HTMLAnchorElement) {
      clicked.push(this.href);
    };
    try {
      const el = await list();
      const target = main.find((i) => i.status === 'overdue')!;
      const row = () => rows(el).find((r) => r.querySelector('th')!.textContent!.trim() === target.number)!;
      const event = oneEvent(el, 'invoice-pay') as Promise<InvoicePayEvent>;
      const press = () => row().querySelector('[part~="pay-link"]')!.dispatchEvent(new MouseEvent('click', { bubbles: true, composed: true, cancelable: true }));
      press();
      expect((await event).defaultPrevented, 'the host did not take over').to.equal(false);
      await waitUntil(() => clicked.length === 1, 'the element never went to pay');
      expect(clicked[0]).to.match(/\/banking\/payments\/pay\/[^/]+$/);

      // A return address the BFF does not allow: the invoice's own payment page, and a word why.
      el.returnUrl = 'https://evil.example/after-paying';
      await el.updateComplete;
      press();
      await waitUntil(() => clicked.length === 2, 'no fallback to payment_url');
      expect(clicked[1]).to.equal(row().querySelector<HTMLAnchorElement>('[part~="pay-link"]')!.href);
      expect(announcement(el)).to.equal(`Could not start paying invoice ${target.number}.`);
    } finally {
      HTMLAnchorElement.prototype.click = click;
      sessionStorage.removeItem('invoicekit-invoice-payment');
    }
  });

  it('says how the payment ended when the customer comes back, as the BFF knows it, with a way to pay again', async () => {
    const clicked: string[] = [];
    const click = HTMLAnchorElement.prototype.click;
    HTMLAnchorElement.prototype.click = function (this: HTMLAnchorElement) {
      clicked.push(this.href);
    };
    // The payment page's own form, as the customer presses its buttons (the page is another origin).
    const choose = (url: string, choice: string) => fetch(url, { method: 'POST', mode: 'no-cors', body: new URLSearchParams({ choice }) });
    const outcome = (el: InvoiceList) => shadow(el).querySelector('[part~="pay-outcome"]');
    // Its own live region: a list load announcing its count never talks over it.
    const said = (el: InvoiceList) => shadow(el).querySelector('.outcome-live[role="status"][aria-live="polite"]')!.textContent!.trim();
    try {
      const target = main.filter((i) => i.status === 'overdue')[1]!;
      const first = await list();
      rows(first).find((r) => r.querySelector('th')!.textContent!.trim() === target.number)!
        .querySelector('[part~="pay-link"]')!.dispatchEvent(new MouseEvent('click', { bubbles: true, composed: true, cancelable: true }));
      await waitUntil(() => clicked.length === 1, 'the element never went to pay');
      expect(outcome(first), 'no outcome before paying').to.equal(null);
      await choose(clicked[0]!, 'decline');

      // Back on the page: a new list, as after the payment page's redirect.
      const back = await list();
      await waitUntil(() => outcome(back), 'no word about the declined payment');
      const declined = `Payment for ${target.number} declined: nothing was charged. Try again?`;
      expect(outcome(back)!.getAttribute('part')).to.contain('pay-outcome-declined');
      expect(outcome(back)!.querySelector('p')!.textContent).to.equal(declined);
      expect(said(back)).to.equal(declined);
      // Told once: a later visit says nothing.
      const later = await list();
      expect(outcome(later)).to.equal(null);

      outcome(back)!.querySelector<HTMLButtonElement>('[part~="pay-again-button"]')!.click();
      await waitUntil(() => clicked.length === 2, 'Pay again did not go to pay');
      expect(clicked[1], 'a declined payment is not offered again').not.to.equal(clicked[0]);
      await choose(clicked[1]!, 'cancel');
      const polish = await fixture<InvoiceList>(html`<invoice-list endpoint=${bff} portal-token=${tokens.main} locale="pl"></invoice-list>`);
      await waitUntil(() => outcome(polish), 'no word about the cancelled payment');
      expect(said(polish)).to.equal(`Płatność za ${target.number} anulowana: nic nie pobrano. Spróbować ponownie?`);
      expect(outcome(polish)!.querySelector('[part~="pay-again-button"]')!.textContent).to.equal('Zapłać ponownie');

      outcome(polish)!.querySelector<HTMLButtonElement>('[part~="pay-again-button"]')!.click();
      await waitUntil(() => clicked.length === 3, 'Pay again did not go to pay');
      await choose(clicked[2]!, 'pay');
      // The return address carries nothing the element believes: the outcome comes from the BFF.
      const paid = await list();
      await waitUntil(() => outcome(paid), 'no word about the payment');
      expect(said(paid)).to.equal(`Payment for ${target.number} received. Thank you!`);
      expect(outcome(paid)!.querySelector('[part~="pay-again-button"]')).to.equal(null);
      await settled(paid);
      expect(rows(paid).find((r) => r.querySelector('th')!.textContent!.trim() === target.number)!.querySelector('.badge')!.classList[1]).to.equal('paid');
      outcome(paid)!.querySelector<HTMLButtonElement>('.dismiss')!.click();
      await paid.updateComplete;
      expect(outcome(paid)).to.equal(null);
    } finally {
      HTMLAnchorElement.prototype.click = click;
      sessionStorage.removeItem('invoicekit-invoice-payment');
    }
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

  it('opens the invoice’s page from a row click when the host does not take over', async () => {
    const el = await list();
    const opened: string[] = [];
    const open = window.open;
    window.open = ((url?: string | URL) => {
      opened.push(String(url));
      return null;
    }) as typeof window.open;
    try {
      rows(el)[0]!.querySelector<HTMLElement>('.total')!.click();
      await waitUntil(() => opened.length === 1);
    } finally {
      window.open = open;
    }
    const answer = await (await fetch(`${bff}/invoices?per_page=1`, { headers: { authorization: `Bearer ${tokens.main}` } })).json();
    expect(opened[0]).to.equal(answer.data[0].view_url);
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

  it('reload() shows what changed on the server', async () => {
    const el = await list();
    const target = main.find((i: SeededInvoice) => i.status === 'overdue')!;
    const badge = () => rows(el).find((r) => r.querySelector('th')!.textContent!.trim() === target.number)!.querySelector('.badge')!.classList[1];
    expect(badge()).to.equal('overdue');
    await fetch(`/__portal/mark-paid/${target.id}`, { method: 'POST' });
    await el.reload();
    await settled(el);
    expect(badge()).to.equal('paid');
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
