import type { Context } from 'hono';
import { z } from 'zod';
import { BffError, ERROR_CODES, type FieldErrors } from './errors.js';
import { parseJsonInput, UnsafeInputError } from '../kernel/json-input.js';
import { textProblems } from '../kernel/validation/text.js';

export { email, optionalText, text, webUrl } from '../kernel/validation/checkout.js';

export const intParam = (name: string, min: number, max: number, fallback: number) =>
  z
    .string()
    .optional()
    .transform((value, ctx) => {
      if (value === undefined) return fallback;
      const n = /^\d{1,9}$/.test(value) ? Number(value) : Number.NaN;
      if (!Number.isInteger(n) || n < min || n > max) {
        ctx.addIssue({ code: 'custom', message: `${name} must be a whole number from ${min} to ${max}` });
        return z.NEVER;
      }
      return n;
    });

function fieldErrors(error: z.ZodError): FieldErrors {
  // Keyed by names the caller chose: no prototype, so `__proto__` or `constructor` is just a name.
  const fields: FieldErrors = Object.create(null);
  for (const issue of error.issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) {
        const path = [...issue.path, key].join('.');
        (fields[path] ??= []).push('is not a known field');
      }
      continue;
    }
    const path = issue.path.join('.') || 'base';
    (fields[path] ??= []).push(issue.message);
  }
  return fields;
}

/**
 * Text fields are checked with the kernel's rule before anything is asked of the service: a NUL,
 * another control character, U+FFFE, U+FFFF or an unpaired surrogate is refused naming its field,
 * in a query as in a body (XML, KSeF and PostgreSQL cannot carry them).
 */
export function validate<T extends z.ZodType>(schema: T, value: unknown): z.output<T> {
  const problems = textProblems(value);
  if (problems.size > 0) {
    const fields: FieldErrors = Object.create(null);
    for (const [path, problem] of problems) fields[path] = [problem];
    throw new BffError(422, ERROR_CODES.validation, 'Some fields are not valid.', { fields });
  }
  const result = schema.safeParse(value);
  if (!result.success) {
    throw new BffError(422, ERROR_CODES.validation, 'Some fields are not valid.', { fields: fieldErrors(result.error) });
  }
  return result.data;
}

export async function readJson(c: Context): Promise<unknown> {
  const type = c.req.header('content-type') ?? '';
  if (!/^application\/json\b/i.test(type)) {
    throw new BffError(415, ERROR_CODES.unsupportedMediaType, 'Send the body as application/json.');
  }
  try {
    // Refuses `__proto__`, `constructor` and `prototype` as field names, and deep nesting.
    return parseJsonInput(await c.req.text());
  } catch (error) {
    const reason = error instanceof UnsafeInputError ? error.reason : 'syntax';
    throw new BffError(400, ERROR_CODES.badRequest, reason === 'syntax' ? 'The body is not valid JSON.' : `${(error as Error).message}.`);
  }
}
