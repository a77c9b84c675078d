import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import '../../src/elements/invoice-list/define.js';
import type { InvoiceList } from '../../src/elements/invoice-list/invoice-list.js';
import { portal, rows, settled, shadow } from './support/portal.js';

/**
 * The KSeF detail of each row, against the real BFF and service: a disclosure under the invoice's
 * number with its state, KSeF number, sent date and verification link, worked with the keyboard, in
 * English and Polish. The seller's `gov_error_messages` never reach the page.
 */

const { bff, tokens } = await portal();

async function list(locale = 'en'): Promise<InvoiceList> {
  const el = await fixture<InvoiceList>(html`<invoice-list endpoint=${bff} portal-token=${tokens.ksef} locale=${locale} order="issue_date.asc"></invoice-list>`);
  await settled(el);
  return el;
}

const rowOf = (el: InvoiceList, number: string) => rows(el).find((row) => row.querySelector('th')!.textContent!.trim().startsWith(number))!;
const toggleOf = (el: InvoiceList, number: string) => rowOf(el, number).querySelector<HTMLButtonElement>('[part~="ksef-toggle"]');
const panelOf = (el: InvoiceList, number: string) => shadow(el).getElementById(toggleOf(el, number)!.getAttribute('aria-controls')!)!;
const text = (node: Element) => node.textContent!.replace(/\s+/g, ' ').trim();
/** The detail's terms and their values. */
const fields = (panel: Element) => Object.fromEntries([...panel.querySelectorAll('dt')].map((dt) => [text(dt), text(dt.nextElementSibling!)]));

/** Tabs forward from the page until the focus is on `target` inside the element. */
async function tabTo(el: InvoiceList, target: Element): Promise<void> {
  for (let i = 0; i < 80 && shadow(el).activeElement !== target; i++) await sendKeys({ press: 'Tab' });
  expect(shadow(el).activeElement).to.equal(target);
}

describe('<invoice-list> KSeF detail', () => {
  it('is a disclosure per row that the keyboard opens and closes, with what a customer may see', async () => {
    const el = await list();
    // Not applicable: no KSeF state and no detail.
    expect(rowOf(el, 'K-6').querySelector('[part~="ksef"]')).to.equal(null);
    expect(toggleOf(el, 'K-6')).to.equal(null);

    const toggle = toggleOf(el, 'K-1')!;
    expect(toggle.getAttribute('aria-expanded')).to.equal('false');
    expect(text(toggle)).to.equal('KSeF details, Invoice K-1');
    const panel = panelOf(el, 'K-1');
    expect(panel.hidden).to.equal(true);

    await tabTo(el, toggle);
    await sendKeys({ press: 'Enter' });
    await el.updateComplete;
    expect(toggle.getAttribute('aria-expanded')).to.equal('true');
    expect(panel.hidden).to.equal(false);
    expect(panel.getAttribute('role')).to.equal('group');
    expect(panel.getAttribute('aria-label')).to.equal('KSeF details of invoice K-1');
    expect(fields(panel)).to.deep.equal({ State: 'In KSeF (test)', 'KSeF number': '5252248481-20260202-0100001AF629-7B', 'Sent to KSeF': 'Feb 2, 2026' });
    expect(text(panel)).to.contain('Sent to a KSeF test environment: it has no legal force.');
    const link = panel.querySelector<HTMLAnchorElement>('[part~="ksef-verify-link"]')!;
    expect(link.href).to.equal('https://qr-test.ksef.mf.gov.pl/invoice/5252248481/02-02-2026/sent-hash');
    expect(link.target).to.equal('_blank');

    // Tab reaches the link inside; Escape there closes the detail and gives the focus back.
    await sendKeys({ press: 'Tab' });
    expect(shadow(el).activeElement).to.equal(link);
    await sendKeys({ press: 'Escape' });
    await waitUntil(() => shadow(el).activeElement === toggle, 'the focus returns to the toggle');
    expect(toggle.getAttribute('aria-expanded')).to.equal('false');
    expect(panel.hidden).to.equal(true);

    // Space opens it again, as on any button; a click on the toggle does not open the invoice.
    await sendKeys({ press: 'Space' });
    await el.updateComplete;
    expect(toggle.getAttribute('aria-expanded')).to.equal('true');
    let selected = false;
    el.addEventListener('invoice-select', () => (selected = true));
    toggle.click();
    panel.click();
    await el.updateComplete;
    expect(selected).to.equal(false);
    expect(toggle.getAttribute('aria-expanded')).to.equal('false');
  });

  it('says pending, offline and the kind of error in the customer’s words, never the seller’s messages', async () => {
    const el = await list();
    for (const number of ['K-2', 'K-3', 'K-4', 'K-5']) toggleOf(el, number)!.click();
    await el.updateComplete;

    const pending = panelOf(el, 'K-2');
    expect(fields(pending)).to.deep.equal({ State: 'Sending to KSeF (test)', 'Sent to KSeF': 'Feb 3, 2026' });
    expect(text(pending)).to.contain('KSeF has not assigned its number yet');
    expect(pending.querySelector('[part~="ksef-verify-link"]')).to.equal(null);

    const rejected = panelOf(el, 'K-3');
    expect(fields(rejected).State).to.equal('KSeF error (test)');
    expect(text(rejected)).to.contain('KSeF did not accept the invoice. The seller has been told');
    const unavailable = panelOf(el, 'K-4');
    expect(text(unavailable)).to.contain('KSeF was unavailable');
    expect(shadow(el).innerHTML).not.to.contain('seller-secret-detail');
    expect(shadow(el).innerHTML).not.to.contain('503 Service Unavailable');

    // Issued on 6 February, sent on the 7th: offline, valid already, with its verification link.
    const offline = panelOf(el, 'K-5');
    expect(text(offline)).to.contain('Issued offline');
    expect(offline.querySelector<HTMLAnchorElement>('[part~="ksef-verify-link"]')!.href).to.contain('/offline-hash');
  });

  it('gets from the BFF only what a customer may see of KSeF', async () => {
    const answer = await fetch(`${bff}/invoices?order=issue_date.asc&per_page=10`, { headers: { authorization: `Bearer ${tokens.ksef}` } });
    const body = await answer.text();
    expect(body).not.to.contain('seller-secret-detail');
    expect(body).not.to.contain('gov_error_messages');
    const ksef = (JSON.parse(body) as { data: { number: string; ksef: unknown }[] }).data.map((invoice) => [invoice.number, invoice.ksef]);
    expect(Object.fromEntries(ksef)).to.deep.equal({
      'K-1': { state: 'sent', number: '5252248481-20260202-0100001AF629-7B', verification_link: 'https://qr-test.ksef.mf.gov.pl/invoice/5252248481/02-02-2026/sent-hash', test: true, sent_at: '2026-02-02T10:15:00.000+01:00', offline: false, error: null },
      'K-2': { state: 'pending', number: null, verification_link: null, test: true, sent_at: '2026-02-03T10:15:00.000+01:00', offline: false, error: null },
      'K-3': { state: 'error', number: null, verification_link: null, test: true, sent_at: '2026-02-04T10:15:00.000+01:00', offline: false, error: 'rejected' },
      'K-4': { state: 'error', number: null, verification_link: null, test: true, sent_at: '2026-02-05T10:15:00.000+01:00', offline: false, error: 'unavailable' },
      'K-5': { state: 'pending', number: null, verification_link: 'https://qr-test.ksef.mf.gov.pl/invoice/5252248481/06-02-2026/offline-hash', test: true, sent_at: '2026-02-07T10:15:00.000+01:00', offline: true, error: null },
      'K-6': null,
    });
  });

  it('speaks Polish', async () => {
    const el = await list('pl');
    const toggle = toggleOf(el, 'K-1')!;
    expect(text(toggle)).to.match(/^Szczegóły KSeF, /);
    await tabTo(el, toggle);
    await sendKeys({ press: 'Enter' });
    await el.updateComplete;
    const panel = panelOf(el, 'K-1');
    expect(panel.getAttribute('aria-label')).to.equal('Szczegóły KSeF faktury K-1');
    expect(fields(panel)).to.deep.equal({ Stan: 'W KSeF (test)', 'Numer KSeF': '5252248481-20260202-0100001AF629-7B', 'Wysłano do KSeF': '2 lut 2026' });
    expect(text(panel.querySelector('[part~="ksef-verify-link"]')!)).to.match(/^Sprawdź w KSeF/);
    toggleOf(el, 'K-3')!.click();
    await el.updateComplete;
    expect(text(panelOf(el, 'K-3'))).to.contain('KSeF nie przyjął faktury');
  });
});
