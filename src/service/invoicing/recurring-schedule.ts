import { EVERY_PATTERN } from '../../api/schemas/recurring.js';
import { addDays } from './numbering.js';

/** A recurring invoice's schedule as stored, and the date arithmetic of its periods. */

export interface RecurringData {
  name: string;
  invoice_id: number;
  start_date: string;
  every: string;
  issue_working_day_only: boolean;
  send_email: boolean;
  buyer_email: string | null;
  end_date: string | null;
  next_invoice_date: string | null;
  active: boolean;
  last_invoice_id: number | null;
  invoices_count: number;
}

/** `date` moved on by `count` periods of `every` (`1m` from 2026-01-31 is 2026-02-28, then 03-31). */
export function advance(start: string, every: string, count: number): string {
  const [, amount, unit] = EVERY_PATTERN.exec(every)!;
  const n = Number(amount) * count;
  if (unit === 'd') return addDays(start, n);
  if (unit === 'w') return addDays(start, 7 * n);
  const [y, m, d] = start.split('-').map(Number) as [number, number, number];
  const months = unit === 'y' ? 12 * n : n;
  const target = new Date(Date.UTC(y, m - 1 + months, 1));
  const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(d, lastDay));
  return target.toISOString().slice(0, 10);
}

/** The first Monday–Friday on or after `date`. */
export function workingDayFrom(date: string): string {
  let day = date;
  for (;;) {
    const weekday = new Date(`${day}T00:00:00Z`).getUTCDay();
    if (weekday !== 0 && weekday !== 6) return day;
    day = addDays(day, 1);
  }
}
