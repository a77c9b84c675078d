import type { Context } from 'hono';
import { z } from 'zod';
import { BffError, ERROR_CODES, type FieldErrors } from './errors.js';

export const text = (max: number) => z.string({ message: 'must be text' }).trim().max(max, `is too long (maximum is ${max} characters)`);
export const optionalText = (max: number) => text(max).nullish();
export const email = z
  .string({ message: 'must be text' })
  .trim()
  .max(300, 'is too long (maximum is 300 characters)')
  .pipe(z.email({ message: 'is not an e-mail address' }));
export const webUrl = z
  .string({ message: 'must be a URL' })
  .max(2000, 'is too long (maximum is 2000 characters)')
  .refine((value) => {
    try {
      const url = new URL(value);
      return url.protocol === 'https:' || url.protocol === 'http:';
    } catch {
      return false;
    }
  }, 'must be an http(s) URL');

/** What a customer may change of their own client record, and what sign-up takes. */
export const customerClientInput = z.strictObject({
  name: optionalText(300),
  first_name: optionalText(200),
  last_name: optionalText(200),
  person: optionalText(200),
  tax_no: optionalText(50),
  email: z.union([z.literal(''), email]).nullish(),
  phone: optionalText(100),
  street: optionalText(300),
  post_code: optionalText(30),
  city: optionalText(200),
  country: optionalText(100),
});

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
  const fields: FieldErrors = {};
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

export function validate<T extends z.ZodType>(schema: T, value: unknown): z.output<T> {
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
  const raw = await c.req.text();
  try {
    return JSON.parse(raw);
  } catch {
    throw new BffError(400, ERROR_CODES.badRequest, 'The body is not valid JSON.');
  }
}
