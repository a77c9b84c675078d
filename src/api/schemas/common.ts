import * as z from 'zod';
import { decimal, toPlain } from '../../kernel/money.js';

/**
 * Wire-level building blocks shared by every resource. Inputs accept what the hosted service
 * accepts (numbers or numeric text, comma decimals, `1/0/yes/no` booleans); outputs describe what
 * it answers (decimal strings, integer ids, `YYYY-MM-DD` dates).
 */

const emptyToUndefined = (value: unknown) => (value === '' ? undefined : value);

function readsAsDecimal(value: number | string): boolean {
  try {
    decimal(value);
    return true;
  } catch {
    return false;
  }
}

/**
 * Precision of every decimal the interface accepts (amounts, prices, quantities, rates): at most
 * 13 digits before the decimal point and 8 after it. Anything larger fits no real invoice, and
 * products and sums of such values stay well within what storage and formatting handle exactly.
 */
export const DECIMAL_LIMITS = { integerDigits: 13, fractionDigits: 8 } as const;

function digitsOf(value: number | string): { integer: number; fraction: number } {
  const [integer = '', fraction = ''] = toPlain(decimal(value)).replace(/^-/, '').split('.');
  return { integer: integer.replace(/^0+(?=\d)/, '').length, fraction: fraction.replace(/0+$/, '').length };
}

/** A decimal sent as a number or text (`12`, `"12.50"`, `"59,00"`), normalized to plain text. */
export const decimalInput = z
  .union([z.number(), z.string()])
  // Whatever `decimal` cannot read exactly (1e25 as a number, 31 digits) is refused here, not later.
  .refine(readsAsDecimal, { message: 'is not a number', abort: true })
  .refine((value) => digitsOf(value).integer <= DECIMAL_LIMITS.integerDigits, {
    message: `is too large (at most ${DECIMAL_LIMITS.integerDigits} digits before the decimal point)`,
    abort: true,
  })
  .refine((value) => digitsOf(value).fraction <= DECIMAL_LIMITS.fractionDigits, {
    message: `has too many decimal places (at most ${DECIMAL_LIMITS.fractionDigits})`,
    abort: true,
  })
  .transform((value) => toPlain(decimal(value)));

/** A decimal as the service answers it: `"58.32"`. */
export const decimalString = z.string().regex(/^-?\d+(\.\d+)?$/, 'is not a decimal string');

const TRUE_WORDS = new Set(['true', '1', 'yes', 'on', 't', 'y']);
const FALSE_WORDS = new Set(['false', '0', 'no', 'off', 'f', 'n', '']);

/** `true/false`, `1/0`, `"1"/"0"`, `"yes"/"no"`. */
export const booleanInput = z.preprocess((value) => {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'number') return value === 1 ? true : value === 0 ? false : value;
  if (typeof value === 'string') {
    const word = value.trim().toLowerCase();
    if (TRUE_WORDS.has(word)) return true;
    if (FALSE_WORDS.has(word)) return false;
  }
  return value;
}, z.boolean({ message: 'must be true or false' }));

/** Ids are 32-bit in storage: a larger one names no record (404 in a path, 422 in a field or filter). */
export const MAX_ID = 2_147_483_647;

/** An integer id sent as a number or numeric text. */
export const idInput = z.preprocess((value) => {
  if (typeof value === 'string' && /^\s*\d+\s*$/.test(value)) return Number(value);
  return value;
}, z.number({ message: 'must be an id' }).int('must be an id').positive('must be an id').max(MAX_ID, `must be an id (at most ${MAX_ID})`));

export const optionalId = z.preprocess(emptyToUndefined, idInput.nullish());

/** The years a date may fall in; dates derived from others (a payment date) must too. */
export const MIN_YEAR = 1900;
export const MAX_YEAR = 9999;

function isRealDate(text: string): boolean {
  const [y, m, d] = text.split('-').map(Number) as [number, number, number];
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

/** `YYYY-MM-DD`, a real calendar date. */
export const dateInput = z
  .string()
  .trim()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date (YYYY-MM-DD)')
  // Only a date of the right shape is checked against the calendar, so one mistake gives one message.
  .refine((text) => !/^\d{4}-\d{2}-\d{2}$/.test(text) || isRealDate(text), { message: 'is not a valid date', abort: true })
  .refine((text) => !/^\d{4}/.test(text) || (Number(text.slice(0, 4)) >= MIN_YEAR && Number(text.slice(0, 4)) <= MAX_YEAR), {
    message: `must be in the years ${MIN_YEAR} to ${MAX_YEAR}`,
  });

export const optionalDate = z.preprocess(emptyToUndefined, dateInput.nullish());

/** Free text; numbers are accepted and turned into text, as a form-encoded client sends them. */
export const textInput = (max = 1000) =>
  z.preprocess(
    (value) => (typeof value === 'number' ? String(value) : value),
    z.string({ message: 'must be text' }).max(max, `is too long (maximum is ${max} characters)`),
  );

export const optionalText = (max = 1000) => textInput(max).nullish();

export const currencyInput = z
  .string()
  .trim()
  .regex(/^[A-Za-z]{3}$/, 'must be a three-letter currency code')
  .transform((code) => code.toUpperCase());

export const timestamp = z.string();

/** The error body of the reference: `message` is a string or a map of field → messages. */
export const errorBody = z.looseObject({
  code: z.literal('error'),
  message: z.union([z.string(), z.record(z.string(), z.array(z.string()))]),
});
export type ErrorBody = z.infer<typeof errorBody>;

export const successBody = z.looseObject({ code: z.literal('success'), message: z.string() });
export type SuccessBody = z.infer<typeof successBody>;

/** `page` from 1 and `per_page` up to 100 (larger values are clamped, as the hosted service does). */
export const pageQuery = z.object({
  // Clamped, so that no page number makes an offset storage cannot take.
  page: z.coerce.number().int().min(1).catch(1).default(1).transform((n) => Math.min(n, 1_000_000)),
  per_page: z.coerce
    .number()
    .int()
    .min(1)
    .catch(25)
    .default(25)
    .transform((n) => Math.min(n, 100)),
});
export type PageQuery = z.infer<typeof pageQuery>;

export const nullableString = z.string().nullable();
export const nullableDecimal = decimalString.nullable();
