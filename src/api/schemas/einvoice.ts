import * as z from 'zod';
import { EINVOICE_PROFILES, EINVOICE_SYNTAXES, ELECTRONIC_ADDRESS } from '../../contract/einvoice.js';

/**
 * EU e-invoices (EN 16931): the query of `GET /invoices/<id>/einvoice.xml` and the fields the
 * documents need, settable on departments, clients and invoices. Extensions of this service.
 */

export const einvoiceQuery = z.object({
  syntax: z.enum(EINVOICE_SYNTAXES, { message: `must be one of ${EINVOICE_SYNTAXES.join(', ')}` }).default('ubl'),
  profile: z.enum(EINVOICE_PROFILES, { message: `must be one of ${EINVOICE_PROFILES.join(', ')}` }).default('en16931'),
});
export type EInvoiceQuery = z.input<typeof einvoiceQuery>;

const blankToNull = (value: unknown) => (typeof value === 'string' && value.trim() === '' ? null : value);

/** An electronic address (BT-34, BT-49) as a Peppol participant identifier: the EAS scheme, a colon, the identifier. */
export const einvoiceAddressInput = z.preprocess(
  blankToNull,
  z
    .string({ message: 'must be text' })
    .trim()
    .regex(ELECTRONIC_ADDRESS, 'must be a scheme and an identifier, such as 0208:0123456789 or EM:invoices@example.com')
    .nullish(),
);

/** The buyer reference (BT-10): in Germany the Leitweg-ID that XRechnung requires. */
export const buyerReferenceInput = z.preprocess(blankToNull, z.string({ message: 'must be text' }).trim().max(200, 'is too long (maximum is 200 characters)').nullish());

/**
 * The e-invoice a client prefers to receive with `send_by_email`: Peppol BIS (UBL), EN 16931 in
 * CII, XRechnung (UBL) as an XML attachment beside the PDF, or a Factur-X PDF in the plain PDF's place.
 */
export const EINVOICE_FORMATS = ['ubl', 'cii', 'xrechnung', 'facturx'] as const;
export type EInvoiceFormat = (typeof EINVOICE_FORMATS)[number];

export const einvoiceFormatInput = z.preprocess(
  blankToNull,
  z.enum(EINVOICE_FORMATS, { message: `must be one of ${EINVOICE_FORMATS.join(', ')}, or empty for none` }).nullish(),
);
