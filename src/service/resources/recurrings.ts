import type { Hono } from 'hono';
import { recurringCreateInput, recurringUpdateInput } from '../../api/schemas/recurring.js';
import type { Sql } from '../db.js';
import { type Account, invalid, type ServiceEnv } from '../http.js';
import { findRow, type StoredRow, timestampText, todayText } from '../store.js';
import { addDays } from '../invoicing/numbering.js';
import type { RecurringData } from '../invoicing/recurring-schedule.js';
import { merge, mountCrud } from './crud.js';

export function presentRecurring(row: StoredRow<RecurringData>) {
  const d = row.data;
  return {
    id: row.id,
    name: d.name,
    invoice_id: d.invoice_id,
    start_date: d.start_date,
    every: d.every,
    issue_working_day_only: d.issue_working_day_only,
    send_email: d.send_email,
    buyer_email: d.buyer_email,
    end_date: d.end_date,
    next_invoice_date: d.next_invoice_date,
    active: d.active,
    last_invoice_id: d.last_invoice_id,
    invoices_count: d.invoices_count,
    created_at: timestampText(row.created_at),
    updated_at: timestampText(row.updated_at),
  };
}

async function checkTemplate(tx: Sql, account: Account, invoiceId: number): Promise<void> {
  if (!(await findRow(tx, 'invoices', account.id, invoiceId))) throw invalid({ invoice_id: ['does not exist'] });
}

/**
 * How far in the past a schedule's next date may be set. The scheduler catches up missed periods,
 * and a date in 1900 would be tens of thousands of them: a real schedule is never a year behind.
 */
export const MAX_PAST_DAYS = 366;

function checkDates(data: RecurringData, previous: RecurringData | undefined, today: string): void {
  if (data.end_date && data.end_date < data.start_date) throw invalid({ end_date: ['must not be before start_date'] });
  const next = data.next_invoice_date;
  if (next && next !== previous?.next_invoice_date && next < addDays(today, -MAX_PAST_DAYS)) {
    throw invalid({ next_invoice_date: [`must not be more than ${MAX_PAST_DAYS} days in the past`] });
  }
}

/** `GET/POST /recurrings`, `GET/PUT/DELETE /recurrings/<id>`; the scheduler issues the invoices. */
export function mountRecurrings(app: Hono<ServiceEnv>): void {
  mountCrud<RecurringData, typeof recurringCreateInput, typeof recurringUpdateInput>(app, {
    table: 'recurrings',
    wrapper: 'recurring',
    listRoot: 'recurrings',
    createSchema: recurringCreateInput,
    updateSchema: recurringUpdateInput,
    present: presentRecurring,
    async create(tx, account, input, c) {
      await checkTemplate(tx, account, input.invoice_id);
      const data: RecurringData = {
        name: input.name.trim(),
        invoice_id: input.invoice_id,
        start_date: input.start_date,
        every: input.every,
        issue_working_day_only: input.issue_working_day_only ?? false,
        send_email: input.send_email ?? false,
        buyer_email: input.buyer_email?.trim() || null,
        end_date: input.end_date ?? null,
        next_invoice_date: input.next_invoice_date ?? input.start_date,
        active: input.active ?? true,
        last_invoice_id: null,
        invoices_count: 0,
      };
      checkDates(data, undefined, todayText(c.get('config').clock()));
      return data;
    },
    async update(tx, account, current, input, c) {
      const blank = (['name', 'invoice_id', 'start_date', 'every'] as const).filter((field) => input[field] === null);
      if (blank.length > 0) throw invalid(Object.fromEntries(blank.map((field) => [field, ["can't be blank"]])));
      if (input.invoice_id != null) await checkTemplate(tx, account, input.invoice_id);
      const next = merge(current, input);
      // A new start date restarts the schedule there, unless the next date is given as well.
      if (input.start_date && input.next_invoice_date === undefined) next.next_invoice_date = input.start_date;
      checkDates(next, current, todayText(c.get('config').clock()));
      return next;
    },
  });
}
