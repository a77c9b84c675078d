import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import '../../src/elements/invoice-list/define.js';
import type { InvoiceList } from '../../src/elements/invoice-list/invoice-list.js';
import { list } from './support/invoice-list.js';
import { portal, rows, settled } from './support/portal.js';

/**
 * The e-invoice beside the PDF, against the real BFF and service: the fixture's e-invoice customer
 * prefers CII, the main customer has no format and sees the PDF alone.
 */

const { bff, tokens, invoices } = await portal();
const [invoice] = invoices.einvoice;

const downloads = (row: HTMLTableRowElement) => [...row.querySelectorAll<HTMLAnchorElement>('[part~="download-button"]')];
const words = (element: Element) => element.textContent!.replace(/\s+/g, ' ').trim();

describe('<invoice-list> e-invoice downloads against the real BFF', () => {
  it('offers the e-invoice in the customer’s format beside the PDF, named with the invoice number', async () => {
    const el = await list(tokens.einvoice);
    expect(rows(el)).to.have.length(1);
    const links = downloads(rows(el)[0]!);
    expect(links.map(words)).to.deep.equal(['PDF, Invoice E-1', 'E-invoice (CII), Invoice E-1']);
    expect(new URL(links[1]!.href).pathname).to.equal(`/bff/invoices/${invoice!.id}/einvoice`);
    await expect(el).to.be.accessible();
  });

  it('says it in Polish', async () => {
    const el = await fixture<InvoiceList>(html`<invoice-list endpoint=${bff} portal-token=${tokens.einvoice} locale="pl"></invoice-list>`);
    await settled(el);
    expect(words(downloads(rows(el)[0]!)[1]!)).to.equal('E-faktura (CII), Faktura E-1');
  });

  it('offers no e-invoice to a customer without a format', async () => {
    const el = await list();
    expect(rows(el).length).to.be.greaterThan(0);
    expect(rows(el).map((row) => downloads(row).map(words)[1] ?? null)).to.deep.equal(rows(el).map(() => null));
  });

  it('downloads the document through a short-lived link, without an invoice-download event', async () => {
    const el = await list(tokens.einvoice);
    let pdfEvents = 0;
    el.addEventListener('invoice-download', () => pdfEvents++);
    const clicked: string[] = [];
    const click = HTMLAnchorElement.prototype.click;
    HTMLAnchorElement.prototype.click = function (this: HTMLAnchorElement) {
      clicked.push(this.href);
    };
    try {
      downloads(rows(el)[0]!)[1]!.dispatchEvent(new MouseEvent('click', { bubbles: true, composed: true, cancelable: true }));
      await waitUntil(() => clicked.length === 1, 'no download started', { timeout: 10_000 });
    } finally {
      HTMLAnchorElement.prototype.click = click;
    }
    expect(pdfEvents).to.equal(0);
    expect(clicked[0]).to.match(new RegExp(`/bff/invoices/${invoice!.id}/einvoice\\?link=[^&]+$`));
    const response = await fetch(clicked[0]!);
    expect(response.status).to.equal(200);
    expect(response.headers.get('content-type')).to.equal('application/xml; charset=utf-8');
    expect(response.headers.get('content-disposition')).to.equal('attachment; filename="E-1.xml"');
    const xml = new DOMParser().parseFromString(await response.text(), 'application/xml');
    expect(xml.documentElement.localName).to.equal('CrossIndustryInvoice');
    expect(xml.querySelector('ExchangedDocument > ID')!.textContent).to.equal('E-1');
  });

  it('answers no one the e-invoice without the portal token or a signed link', async () => {
    const el = await list(tokens.einvoice);
    // The row's link is the BFF's route, relative to where the BFF is reached.
    const answer = await fetch(new URL(new URL(downloads(rows(el)[0]!)[1]!.href).pathname, bff));
    expect(answer.status).to.equal(401);
    expect((await answer.json()).error.code).to.equal('unauthorized');
  });
});
