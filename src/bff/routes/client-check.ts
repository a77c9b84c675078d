import { Hono } from 'hono';
import { z } from 'zod';
import { CLIENT_CHECK_FIELDS, type ClientCheck, type ClientCheckField } from '../../contract/client-check.js';
import type { RateLimitRule } from '../../server-kit/rate-limit.js';
import { CLIENT_TEXT_LIMITS, clientProblems, postCodeExample } from '../../kernel/validation/client.js';
import type { Bff, Env } from '../context.js';
import { readJson, validate } from '../validation.js';

/** Checks per client IP: a form asks once typing pauses. */
export const CLIENT_CHECK_LIMIT: RateLimitRule = { limit: 120, windowMs: 60_000 };

const checkInput = z.strictObject({
  ...(Object.fromEntries(
    CLIENT_CHECK_FIELDS.map((field) => [field, z.string({ message: 'must be text' }).max(CLIENT_TEXT_LIMITS[field], `is too long (maximum is ${CLIENT_TEXT_LIMITS[field]} characters)`).optional()]),
  ) as Record<ClientCheckField, z.ZodOptional<z.ZodString>>),
  company: z.boolean({ message: 'must be true or false' }).optional(),
});

/**
 * `POST /client-check`: what the client rules find wrong with a client's fields as typed (NIP and EU
 * VAT check digits, IBAN, post code by country, e-mail, phone, country), for `<client-form>`, which
 * carries none of those rules itself. Nothing is stored; the save and the sign-up check again.
 */
export function clientCheckRoutes(bff: Bff, rule: RateLimitRule = CLIENT_CHECK_LIMIT): Hono<Env> {
  return new Hono<Env>().post('/client-check', async (c) => {
    await bff.enforce(c, rule, `client-check:${c.get('clientIp')}`);
    const { company = false, ...values } = validate(checkInput, await readJson(c));
    const answer: ClientCheck = { problems: clientProblems(values, { company }) };
    const example = answer.problems.post_code === 'postCode' ? postCodeExample((values.country ?? '').trim()) : undefined;
    if (example) answer.post_code_example = example;
    c.header('Cache-Control', 'private, no-store');
    return c.json(answer);
  });
}
