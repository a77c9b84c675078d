import { describe, expect, it } from 'vitest';
import type { KsefView } from '../../src/contract/ksef.js';
import { PARTY_FIELDS, SELLER_FIELDS, type RenderedInvoice } from '../../src/contract/portal.js';
import { invoiceListHtml } from '../../src/bff/render/invoice-list-html.js';

/**
 * The server renders a row's KSeF state, number and closed disclosure, never an open detail: the
 * detail's template, styles and words are a module the element loads in the browser when a customer
 * is about to open one (docs/decisions/element-loading.md).
 */
const sent: KsefView = {
  state: 'sent',
  number: '5252248481-20260202-0100001AF629-7B',
  verification_link: 'https://qr-test.ksef.mf.gov.pl/invoice/5252248481/02-02-2026/sent-hash',
  test: true,
  sent_at: '2026-02-02T10:15:00.000+01:00',
  offline: false,
  error: null,
};

const invoice: RenderedInvoice = {
  id: 41,
  number: 'K-1',
  kind: 'vat',
  status: 'unpaid',
  issue_date: '2026-02-02',
  sell_date: '2026-02-02',
  payment_to: '2026-03-04',
  payment_type: 'transfer',
  currency: 'PLN',
  price_net: '100.00',
  price_tax: '23.00',
  price_gross: '123.00',
  paid: '0.00',
  outstanding: '123.00',
  paid_date: null,
  seller: Object.fromEntries(SELLER_FIELDS.map((field) => [field, null])) as RenderedInvoice['seller'],
  buyer: Object.fromEntries(PARTY_FIELDS.map((field) => [field, null])) as RenderedInvoice['buyer'],
  payment_url: null,
  view_url: null,
  pdf_url: '/bff/invoices/41/pdf',
  ksef: sent,
};

describe('the server-rendered list and the KSeF detail', () => {
  it('prints the row’s KSeF state and its closed disclosure, and nothing of the detail', async () => {
    const html = await invoiceListHtml({ portalToken: 'token', locale: 'en', perPage: 25, page: { data: [invoice], page: 1, per_page: 25, total: 1 } });
    const markup = html.slice(0, html.indexOf('<script type="application/json"'));
    expect(markup).toContain('<span class="ksef-state">In KSeF (test)</span>');
    expect(markup).toContain('<span class="ksef-number" part="ksef-number"><span class="visually-hidden">KSeF number: </span>5252248481-20260202-0100001AF629-7B</span>');
    expect(/<button type="button" class="ksef-toggle" part="ksef-toggle" data-ksef-toggle="41" aria-expanded="false" aria-controls="ksef-detail-41">/.test(markup)).toBe(true);
    expect(/<div id="ksef-detail-41" class="ksef-detail" part="ksef-detail" role="group" aria-label="KSeF details of invoice K-1" hidden>\s*<\/div>/.test(markup)).toBe(true);
    // No open detail's contents, words or styles.
    for (const absent of ['<dl>', 'ksef-verify-link', 'Sent to KSeF', 'Verify in KSeF', 'no legal force', '.ksef-detail{', '.ksef-note']) expect(markup).not.toContain(absent);
    // The disclosure's own styles are there.
    expect(markup).toContain('.ksef-toggle{');
  });
});
