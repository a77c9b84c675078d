import { expect, fixture, html, oneEvent, waitUntil } from '@open-wc/testing';
import { render } from 'lit';
import { totalsLine } from '../../src/elements/invoice-list/summary.js';
import { en } from '../../src/elements/invoice-list/messages.js';
import pl from '../../src/elements/invoice-list/messages.pl.js';
import { setViewport } from '@web/test-runner-commands';
import '../../src/elements/invoice-list/define.js';
import type { InvoiceList } from '../../src/elements/invoice-list/invoice-list.js';
import type { InvoiceDownloadEvent, InvoicePayEvent, InvoiceSelectEvent } from '../../src/elements/invoice-list/events.js';
import { holdNextAnswer } from './support/held-answers.js';
import { chip, list, main, money } from './support/invoice-list.js';
import type { SeededInvoice } from './support/portal-fixture.js';
import { announcement, cents, footer, frame, numbers, portal, rows, settled, shadow, statuses } from './support/portal.js';

/**
 * Each invoice's row against the real BFF and service: its status and balance, the status filters and
 * what the customer owes, and what a row does: pay (and the word on how paying ended), view, download,
 * open. This file changes the main customer's invoices on the server (it pays one and marks another
 * paid); the other list files assert nothing that those changes move.
 */

const { bff, heldBff, tokens } = await portal();

describe('<invoice-list> rows, statuses and payments against the real BFF', () => {
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

  it('writes a large count of invoices owed as the language writes numbers', async () => {
    const owed = (outstanding_count: number) => [{ currency: 'PLN', outstanding: '12345.60', outstanding_count, overdue: '0.00', overdue_count: 0 }];
    const said = (lang: 'en' | 'pl', count: number) => {
      const box = document.createElement('div');
      render(totalsLine(owed(count), lang === 'en' ? en : pl, lang), box);
      return box.textContent!.replace(/\s+/g, ' ').trim();
    };
    expect(said('en', 4429)).to.equal('You owe PLN 12,345.60 on 4,429 invoices');
    expect(said('en', 1)).to.equal('You owe PLN 12,345.60 on 1 invoice');
    // Polish groups from five digits on, with a no-break space: 4429 faktur, 12 345 faktur.
    expect(said('pl', 4429)).to.equal('Do zapłaty 12 345,60 zł za 4429 faktur');
    expect(said('pl', 12345)).to.equal('Do zapłaty 12 345,60 zł za 12 345 faktur');
  });

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
      await waitUntil(() => clicked.length === 1, 'no download started', { timeout: 10_000 });
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
      await waitUntil(() => clicked.length === 1, 'the element never went to pay', { timeout: 10_000 });
      expect(clicked[0]).to.match(/\/banking\/payments\/pay\/[^/]+$/);

      // A return address the BFF does not allow: the invoice's own payment page, and a word why.
      el.returnUrl = 'https://evil.example/after-paying';
      await el.updateComplete;
      press();
      await waitUntil(() => clicked.length === 2, 'no fallback to payment_url', { timeout: 10_000 });
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
      await waitUntil(() => clicked.length === 1, 'the element never went to pay', { timeout: 10_000 });
      expect(outcome(first), 'no outcome before paying').to.equal(null);
      await choose(clicked[0]!, 'decline');

      // Back on the page: a new list, as after the payment page's redirect.
      const back = await list();
      await waitUntil(() => outcome(back), 'no word about the declined payment', { timeout: 10_000 });
      const declined = `Payment for ${target.number} declined: nothing was charged. Try again?`;
      expect(outcome(back)!.getAttribute('part')).to.contain('pay-outcome-declined');
      expect(outcome(back)!.querySelector('p')!.textContent).to.equal(declined);
      expect(said(back)).to.equal(declined);
      // Told once: a later visit says nothing.
      const later = await list();
      expect(outcome(later)).to.equal(null);

      outcome(back)!.querySelector<HTMLButtonElement>('[part~="pay-again-button"]')!.click();
      await waitUntil(() => clicked.length === 2, 'Pay again did not go to pay', { timeout: 10_000 });
      expect(clicked[1], 'a declined payment is not offered again').not.to.equal(clicked[0]);
      await choose(clicked[1]!, 'cancel');
      const polish = await fixture<InvoiceList>(html`<invoice-list endpoint=${bff} portal-token=${tokens.main} locale="pl"></invoice-list>`);
      await waitUntil(() => outcome(polish), 'no word about the cancelled payment', { timeout: 10_000 });
      expect(said(polish)).to.equal(`Płatność za ${target.number} anulowana: nic nie pobrano. Spróbować ponownie?`);
      expect(outcome(polish)!.querySelector('[part~="pay-again-button"]')!.textContent).to.equal('Zapłać ponownie');

      outcome(polish)!.querySelector<HTMLButtonElement>('[part~="pay-again-button"]')!.click();
      await waitUntil(() => clicked.length === 3, 'Pay again did not go to pay', { timeout: 10_000 });
      await choose(clicked[2]!, 'pay');
      // The return address carries nothing the element believes: the outcome comes from the BFF.
      const paid = await list();
      await waitUntil(() => outcome(paid), 'no word about the payment', { timeout: 10_000 });
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
      await waitUntil(() => opened.length === 1, undefined, { timeout: 10_000 });
    } finally {
      window.open = open;
    }
    const answer = await (await fetch(`${bff}/invoices?per_page=1`, { headers: { authorization: `Bearer ${tokens.main}` } })).json();
    expect(opened[0]).to.equal(answer.data[0].view_url);
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
});
