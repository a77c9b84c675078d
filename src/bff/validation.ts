import type { Context } from 'hono';
import { z } from 'zod';
import { BffError, ERROR_CODES, type FieldErrors } from './errors.js';
import { parseJsonInput, UnsafeInputError } from '../kernel/json-input.js';

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
 * The paths of the strings in `value` that hold a NUL character: no text field can store one (the
 * service refuses it, and PostgreSQL text cannot hold it), so it is refused here, in a query as in
 * a body, before anything is asked of the service.
 */
function nulPaths(value: unknown, path: string[] = [], found: string[] = []): string[] {
  if (typeof value === 'string') {
    if (value.includes('\u0000')) found.push(path.join('.') || 'base');
  } else if (Array.isArray(value)) {
    value.forEach((item, index) => nulPaths(item, [...path, String(index)], found));
  } else if (typeof value === 'object' && value !== null) {
    for (const [key, item] of Object.entries(value)) nulPaths(item, [...path, key], found);
  }
  return found;
}

export function validate<T extends z.ZodType>(schema: T, value: unknown): z.output<T> {
  const withNul = nulPaths(value);
  if (withNul.length > 0) {
    const fields: FieldErrors = Object.create(null);
    for (const path of withNul) fields[path] = ['must not contain NUL characters'];
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
