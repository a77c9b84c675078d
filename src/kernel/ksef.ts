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

export interface KsefFields {
  gov_status?: string | null;
  gov_id?: string | null;
  gov_verification_link?: string | null;
  gov_send_date?: string | null;
  issue_date?: string | null;
}

const STATES: Record<string, KsefState> = { ok: 'sent', processing: 'pending', send_error: 'error', server_error: 'error' };

/** The day in Poland of an instant, `YYYY-MM-DD`: the day OFFLINE24 compares an issue date with. */
function polishDay(instant: string | Date): string | null {
  const time = typeof instant === 'string' ? Date.parse(instant) : instant.getTime();
  if (Number.isNaN(time)) return null;
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Warsaw', year: 'numeric', month: '2-digit', day: '2-digit' }).format(time);
}

/** OFFLINE24: an invoice dated before the day (in Poland) it is sent to KSeF was issued offline. */
export function issuedOffline(issueDate: string | null | undefined, sentAt: string | Date | null | undefined): boolean {
  const sentDay = sentAt ? polishDay(sentAt) : null;
  return Boolean(sentDay && issueDate && issueDate < sentDay);
}

export function ksefViewOf(invoice: KsefFields): KsefView | null {
  const status = invoice.gov_status ?? '';
  const test = status.startsWith('demo_');
  const bare = test ? status.slice(5) : status;
  const state = STATES[bare];
  if (!state) return null;
  const sentAt = invoice.gov_send_date || null;
  const offline = issuedOffline(invoice.issue_date, sentAt);
  return {
    state,
    number: invoice.gov_id || null,
    // Before KSeF numbers an online invoice, its link leads nowhere yet; an offline invoice's is printed on it already.
    verification_link: state === 'sent' || (offline && state !== 'error') ? invoice.gov_verification_link || null : null,
    test,
    sent_at: sentAt,
    offline,
    error: state !== 'error' ? null : bare === 'server_error' ? 'unavailable' : 'rejected',
  };
}
