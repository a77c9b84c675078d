/**
 * An invoice's KSeF state as people read it (the portal list, the elements): sent with its KSeF
 * number, pending, or an error, from the hosted service's `gov_status`, `gov_id`,
 * `gov_send_date` and `gov_verification_link`. Invoices KSeF has nothing to do with have none.
 *
 * What KSeF or the check before sending said (`gov_error_messages`) is the seller's to read: field
 * names, KSeF's codes, the seller's own data. A customer is told only which kind of error it is
 * (`error`): refused, and the seller is correcting it; or KSeF was unavailable, and it is sent again.
 */
export const KSEF_STATES = ['sent', 'pending', 'error'] as const;
export type KsefState = (typeof KSEF_STATES)[number];

/** Why an invoice is not in KSeF, as a customer may read it. */
export type KsefErrorKind = 'rejected' | 'unavailable';

export interface KsefView {
  state: KsefState;
  /** The KSeF number, once KSeF accepted the invoice. */
  number: string | null;
  /** KOD I, the link of the invoice's QR code; once KSeF accepted it, or on an invoice issued offline. */
  verification_link: string | null;
  /** Sent to a KSeF test environment: no legal force. */
  test: boolean;
  /** When the seller sent it to KSeF, ISO 8601; null if never sent. */
  sent_at: string | null;
  /** Issued offline (dated before the day it was sent, OFFLINE24): valid before KSeF numbers it. */
  offline: boolean;
  /** On errors: refused by KSeF (`rejected`) or KSeF unavailable (`unavailable`); null otherwise. */
  error: KsefErrorKind | null;
}
