import * as z from 'zod';
import { booleanInput, dateInput, idInput, optionalText, textInput } from './common.js';

/** `1d`, `2w`, `1m`, `3m`, `1y`: a count and a unit (day, week, month, year). */
export const EVERY_PATTERN = /^([1-9]\d{0,2})([dwmy])$/;

/** A date, or `null`/`"null"`/`""` for none (the documentation sends `"end_date": "null"`). */
const optionalDateOrNull = z.preprocess((value) => (value === '' || value === 'null' ? null : value), dateInput.nullish());

const recurringFields = {
  name: textInput(300),
  /** The invoice each issued invoice copies: buyer, seller, positions, currency, terms. */
  invoice_id: idInput,
  start_date: dateInput,
  every: z.string({ message: 'must be text' }).trim().toLowerCase().regex(EVERY_PATTERN, 'must be a count and a unit, e.g. 1m, 2w, 1y'),
  issue_working_day_only: booleanInput.nullish(),
  send_email: booleanInput.nullish(),
  buyer_email: optionalText(1000),
  end_date: optionalDateOrNull,
  next_invoice_date: optionalDateOrNull,
  active: booleanInput.nullish(),
};

/** Body of `POST /recurrings` (inside the `recurring` wrapper). */
export const recurringCreateInput = z.object(recurringFields);
export type RecurringCreateInput = z.input<typeof recurringCreateInput>;
export const recurringUpdateInput = z.object(recurringFields).partial();
export type RecurringUpdateInput = z.input<typeof recurringUpdateInput>;

export const recurring = z.looseObject({
  id: z.number(),
  name: z.string(),
  invoice_id: z.number(),
  start_date: z.string(),
  every: z.string(),
  issue_working_day_only: z.boolean(),
  send_email: z.boolean(),
  buyer_email: z.string().nullable(),
  end_date: z.string().nullable(),
  next_invoice_date: z.string().nullable(),
  active: z.boolean(),
  last_invoice_id: z.number().nullable(),
  invoices_count: z.number(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Recurring = z.infer<typeof recurring>;
export const recurringList = z.array(recurring);
