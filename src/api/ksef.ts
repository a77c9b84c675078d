/**
 * An invoice's KSeF state as people read it (the portal list, the elements): sent with its KSeF
 * number, pending, or an error, from the hosted service's `gov_status`, `gov_id` and
 * `gov_verification_link`. Invoices KSeF has nothing to do with have none.
 */
export const KSEF_STATES = ['sent', 'pending', 'error'] as const;
export type KsefState = (typeof KSEF_STATES)[number];

export interface KsefView {
  state: KsefState;
  /** The KSeF number, once KSeF accepted the invoice. */
  number: string | null;
  /** KOD I, the link of the invoice's QR code. */
  verification_link: string | null;
  /** Sent to a KSeF test environment: no legal force. */
  test: boolean;
}

export interface KsefFields {
  gov_status?: string | null;
  gov_id?: string | null;
  gov_verification_link?: string | null;
}

const STATES: Record<string, KsefState> = { ok: 'sent', processing: 'pending', send_error: 'error', server_error: 'error' };

export function ksefViewOf(invoice: KsefFields): KsefView | null {
  const status = invoice.gov_status ?? '';
  const test = status.startsWith('demo_');
  const state = STATES[test ? status.slice(5) : status];
  if (!state) return null;
  return { state, number: invoice.gov_id || null, verification_link: invoice.gov_verification_link || null, test };
}
