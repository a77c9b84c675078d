import { expect, fixture, html } from '@open-wc/testing';
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

  it('links the document signed for the customer, so a plain link downloads it without the token', async () => {
    const el = await list(tokens.einvoice);
    const link = downloads(rows(el)[0]!)[1]!;
    expect(link.href).to.match(new RegExp(`^${bff}/invoices/${invoice!.id}/einvoice\\?link=[^&]+$`));
    const response = await fetch(link.href);
    expect(response.status).to.equal(200);
    expect(response.headers.get('content-type')).to.equal('application/xml; charset=utf-8');
    expect(response.headers.get('content-disposition')).to.equal('attachment; filename="E-1.xml"');
    const xml = new DOMParser().parseFromString(await response.text(), 'application/xml');
    expect(xml.documentElement.localName).to.equal('CrossIndustryInvoice');
    expect(xml.querySelector('ExchangedDocument > ID')!.textContent).to.equal('E-1');
  });

  it('answers no one the e-invoice without the portal token or its signed link', async () => {
    const el = await list(tokens.einvoice);
    const answer = await fetch(downloads(rows(el)[0]!)[1]!.href.replace(/\?.*$/, ''));
    expect(answer.status).to.equal(401);
    expect((await answer.json()).error.code).to.equal('unauthorized');
  });
});
