import { html, nothing, type TemplateResult } from 'lit';
import { type Lang, pick } from '../i18n.js';

/**
 * The invoice page's e-invoices: UBL (Peppol BIS), CII (EN 16931), XRechnung and Factur-X, each a
 * download through `/admin/api`, or, when the invoice lacks what the document needs, the missing
 * fields in the seller's words.
 */

interface EInvoiceDownload {
  key: 'ubl' | 'cii' | 'xrechnung' | 'facturx';
  /** The document asked for to learn whether it can be made (Factur-X carries the CII EN 16931 one). */
  probe: string;
  href: string;
  file: string;
}

/** Whether each document can be made, and what is missing when not: `field: message`. */
export type EInvoiceAvailability = { key: EInvoiceDownload['key']; href: string; file: string; missing: [field: string, message: string][] }[];

const strings = {
  en: {
    title: 'E-invoice',
    intro: 'The invoice as an EU e-invoice (EN 16931), for buyers and accountants who ask for one.',
    names: { ubl: 'UBL (Peppol BIS)', cii: 'CII (EN 16931)', xrechnung: 'XRechnung', facturx: 'Factur-X / ZUGFeRD (PDF)' },
    missing: 'Missing:',
    loading: 'Checking the e-invoices…',
    failed: 'The e-invoices could not be checked.',
    fields: {
      buyer_einvoice_address: 'the client’s electronic address (Peppol ID), set on the customer',
      buyer_reference: 'the buyer reference (Leitweg-ID), set on the customer',
      seller_einvoice_address: 'your electronic address, set in the company settings',
      buyer_tax_no: 'the buyer’s tax number',
      buyer_city: 'the buyer’s city',
      buyer_post_code: 'the buyer’s post code',
      buyer_street: 'the buyer’s street',
      seller_email: 'your e-mail address',
      seller_phone: 'your phone number',
      exempt_tax_kind: 'the legal basis of a VAT exemption',
      exchange_currency_rate: 'the exchange rate',
      kind: 'the kind of invoice',
      income: 'a sales invoice',
    } as Record<string, string>,
  },
  pl: {
    title: 'E-faktura',
    intro: 'Faktura jako unijna e-faktura (EN 16931), dla nabywców i księgowych, którzy o nią proszą.',
    names: { ubl: 'UBL (Peppol BIS)', cii: 'CII (EN 16931)', xrechnung: 'XRechnung', facturx: 'Factur-X / ZUGFeRD (PDF)' },
    missing: 'Brakuje:',
    loading: 'Sprawdzanie e-faktur…',
    failed: 'Nie udało się sprawdzić e-faktur.',
    fields: {
      buyer_einvoice_address: 'adresu elektronicznego klienta (Peppol ID), ustawianego przy kliencie',
      buyer_reference: 'referencji nabywcy (Leitweg-ID), ustawianej przy kliencie',
      seller_einvoice_address: 'Twojego adresu elektronicznego, w ustawieniach firmy',
      buyer_tax_no: 'NIP-u nabywcy',
      buyer_city: 'miasta nabywcy',
      buyer_post_code: 'kodu pocztowego nabywcy',
      buyer_street: 'ulicy nabywcy',
      seller_email: 'Twojego adresu e-mail',
      seller_phone: 'Twojego numeru telefonu',
      exempt_tax_kind: 'podstawy prawnej zwolnienia z VAT',
      exchange_currency_rate: 'kursu waluty',
      kind: 'rodzaju faktury',
      income: 'faktury sprzedaży',
    } as Record<string, string>,
  },
} satisfies Record<Lang, unknown>;

function downloadsOf(id: number, number: string): EInvoiceDownload[] {
  const base = `/admin/api/invoices/${id}`;
  const safe = number.replace(/[^A-Za-z0-9._-]+/g, '-');
  const xml = (syntax: string, profile: string) => `${base}/einvoice.xml?syntax=${syntax}&profile=${profile}`;
  return [
    { key: 'ubl', probe: xml('ubl', 'peppol'), href: xml('ubl', 'peppol'), file: `${safe}-peppol-ubl.xml` },
    { key: 'cii', probe: xml('cii', 'en16931'), href: xml('cii', 'en16931'), file: `${safe}-en16931-cii.xml` },
    { key: 'xrechnung', probe: xml('ubl', 'xrechnung'), href: xml('ubl', 'xrechnung'), file: `${safe}-xrechnung-ubl.xml` },
    { key: 'facturx', probe: xml('cii', 'en16931'), href: `${base}.pdf?format=facturx`, file: `${safe}-factur-x.pdf` },
  ];
}

/** A 422's fields from its XML body (`<error><message><field>…</field></message></error>`). */
function missingOf(xml: string): [string, string][] {
  const message = new DOMParser().parseFromString(xml, 'application/xml').querySelector('message');
  return [...(message?.children ?? [])].map((field) => [field.tagName, field.textContent?.trim() ?? '']);
}

/** Asks the service for each document once (the same document once), as the session's account. */
export async function einvoiceAvailability(id: number, number: string, signal?: AbortSignal): Promise<EInvoiceAvailability> {
  const downloads = downloadsOf(id, number);
  const answers = new Map<string, Promise<[string, string][]>>();
  const probe = (url: string) => {
    let answer = answers.get(url);
    if (!answer) {
      answer = fetch(url, { credentials: 'same-origin', signal }).then(async (response) => {
        if (response.ok) return [];
        if (response.status === 422) return missingOf(await response.text());
        throw new Error(`HTTP ${response.status}`);
      });
      answers.set(url, answer);
    }
    return answer;
  };
  return Promise.all(downloads.map(async ({ key, probe: url, href, file }) => ({ key, href, file, missing: await probe(url) })));
}

/** The section: a download per document that can be made, the missing data of each that cannot. */
export function einvoiceSection(availability: EInvoiceAvailability | undefined, failed: boolean, lang: Lang): TemplateResult {
  const t = pick(strings, lang);
  const body = failed
    ? html`<p class="notice" data-tone="error" role="alert">${t.failed}</p>`
    : !availability
      ? html`<p role="status">${t.loading}</p>`
      : html`<ul data-field="einvoices">
          ${availability.map((item) =>
            item.missing.length === 0
              ? html`<li data-einvoice=${item.key}><a href=${item.href} download=${item.file}>${t.names[item.key]}</a></li>`
              : html`<li data-einvoice=${item.key}>
                  ${t.names[item.key]} — ${t.missing}
                  <ul>
                    ${item.missing.map(([field, message]) => html`<li>${t.fields[field] ?? field}${t.fields[field] ? nothing : html`: ${message}`}</li>`)}
                  </ul>
                </li>`,
          )}
        </ul>`;
  return html`<section aria-labelledby="einvoice">
    <h2 id="einvoice">${t.title}</h2>
    <p class="hint">${t.intro}</p>
    ${body}
  </section>`;
}
