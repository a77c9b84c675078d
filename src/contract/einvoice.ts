/**
 * EU e-invoices (EN 16931) on the wire: the syntaxes and profiles `GET /invoices/<id>/einvoice.xml`
 * takes, and how an electronic address (BT-34, BT-49) is written in the API.
 */

export const EINVOICE_SYNTAXES = ['ubl', 'cii'] as const;
export type EInvoiceSyntax = (typeof EINVOICE_SYNTAXES)[number];

/** EN 16931 alone, Peppol BIS Billing 3.0, or XRechnung 3.0. */
export const EINVOICE_PROFILES = ['en16931', 'peppol', 'xrechnung'] as const;
export type EInvoiceProfile = (typeof EINVOICE_PROFILES)[number];

/**
 * An electronic address as a Peppol participant identifier is written: the EAS scheme (four digits,
 * or `EM` for an e-mail address), a colon, the identifier (`0208:0123456789`, `9930:DE123456789`).
 */
export const ELECTRONIC_ADDRESS = /^([0-9]{4}|EM):(\S{1,200})$/;

/**
 * The e-invoice a client may prefer (`einvoice_format`), and the document each one is: `ubl` is
 * Peppol BIS Billing 3.0, `cii` EN 16931 in CII, `xrechnung` XRechnung 3.0 in UBL, each an XML
 * document; `facturx` is the Factur-X PDF/A-3 carrying the CII document.
 */
export const EINVOICE_FORMAT_DOCUMENTS = {
  ubl: { syntax: 'ubl', profile: 'peppol' },
  cii: { syntax: 'cii', profile: 'en16931' },
  xrechnung: { syntax: 'ubl', profile: 'xrechnung' },
  facturx: 'facturx',
} as const satisfies Record<string, { syntax: EInvoiceSyntax; profile: EInvoiceProfile } | 'facturx'>;
export type EInvoiceFormatName = keyof typeof EINVOICE_FORMAT_DOCUMENTS;

/** Each format's name as a customer reads it beside the PDF ("E-invoice (XRechnung)"): names of standards, the same in every language. */
export const EINVOICE_FORMAT_LABELS: Record<EInvoiceFormatName, string> = { ubl: 'Peppol', cii: 'CII', xrechnung: 'XRechnung', facturx: 'Factur-X' };
