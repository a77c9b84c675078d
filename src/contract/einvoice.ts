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
