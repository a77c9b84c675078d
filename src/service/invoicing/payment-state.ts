import type { Filters } from '../store.js';

/**
 * What is left to pay on an invoice, and which invoices still ask for money, as SQL over the stored
 * document. Amounts are `numeric`, so sums are exact.
 */
export const AMOUNT_DUE = `((data->>'price_gross')::numeric - coalesce(nullif(data->>'paid', '')::numeric, 0))`;
const NOT_CANCELLED = `coalesce(data->>'cancelled', 'false') <> 'true'`;
export const IS_ACTIVE = `(data->>'status' not in ('rejected', 'cancelled') and ${NOT_CANCELLED})`;
export const IS_OUTSTANDING = `(data->>'status' in ('issued', 'sent', 'partial') and ${NOT_CANCELLED} and ${AMOUNT_DUE} > 0)`;
/** Overdue: outstanding and due before the day in placeholder `p`. */
export const isOverdue = (p: string) => `(${IS_OUTSTANDING} and data->>'payment_to' < ${p})`;

/** The list's `status` filter: a stored status, or one of the payment filters judged against `today`. */
export function addStatusFilter(f: Filters, status: string, today: string): void {
  switch (status) {
    case 'outstanding':
      f.where.push(IS_OUTSTANDING);
      return;
    case 'overdue':
      f.add(isOverdue, today);
      return;
    case 'unpaid':
      f.where.push(`(${IS_OUTSTANDING} and coalesce(nullif(data->>'paid', '')::numeric, 0) = 0)`);
      return;
    case 'active':
      f.where.push(IS_ACTIVE);
      return;
    default:
      f.add((p) => `data->>'status' = ${p}`, status);
  }
}
