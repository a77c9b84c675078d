import { describe, expect, it } from 'vitest';
import { verificationPage } from '../../../src/service/ksef/double/verification-page.js';
import type { StoredInvoice } from '../../../src/service/ksef/double/state.js';

const INVOICE: StoredInvoice = {
  referenceNumber: '20260202-EE-0000000001-01',
  sessionReferenceNumber: '20260202-SO-0000000001-01',
  ordinalNumber: 1,
  sellerNip: '5252248481',
  tokenReferenceNumber: '20260202-EC-0000000001-01',
  invoiceHash: 'hash',
  invoicingDate: '2026-02-02T10:00:00Z',
  offlineMode: false,
  content: '',
  invoiceNumber: 'FV/2026/02/0001',
  issueDate: '2026-02-02',
  kind: 'VAT',
  status: { code: 200, description: 'Sukces' },
  ksefNumber: '5252248481-20260202-0100001AF629',
  acquisitionDate: '2026-02-02T10:00:05Z',
  upo: null,
};

describe('the local KSeF verification page (KOD I)', () => {
  it('is a page in the service’s own look: its style, its sheet and the data as labelled pairs', () => {
    const text = verificationPage(INVOICE, { nip: '5252248481', date: '02-02-2026', english: true });
    expect(text).toContain('<html lang="en">');
    expect(text).toContain('<meta name="robots" content="noindex">');
    expect(text).toContain('<title>Invoice verification — local KSeF (test)</title>');
    expect(text).toMatch(/<style>[^<]*\.sheet \{ background: var\(--surface\)/);
    expect(text).toContain('<div class="sheet">\n<h1>Invoice verification — local KSeF (test)</h1>');
    expect(text).toContain('<p role="status" data-state="found">The invoice is in KSeF.</p>');
    expect(text).toContain('<div><dt>KSeF number</dt><dd>5252248481-20260202-0100001AF629</dd></div>');
    expect(text).toContain('<div><dt>Sending mode</dt><dd>Online</dd></div>');
  });

  it('says in Polish that no invoice matches, with what was asked', () => {
    const text = verificationPage(undefined, { nip: '5252248481', date: '02-02-2026', english: false });
    expect(text).toContain('<html lang="pl">');
    expect(text).toContain('<p role="status" data-state="missing">Nie znaleziono faktury o tych danych w KSeF.</p>');
    expect(text).toContain('<dl class="facts"><div><dt>NIP sprzedawcy</dt><dd>5252248481</dd></div><div><dt>Data wystawienia</dt><dd>02-02-2026</dd></div></dl>');
  });
});
