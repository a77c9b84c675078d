import type { KsefState, KsefView } from '../contract/ksef.js';

/** How the service's `gov_*` fields read as the KSeF state a customer sees (src/contract/ksef.ts). */
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
