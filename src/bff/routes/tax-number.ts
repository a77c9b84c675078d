import { Hono } from 'hono';
import type { TaxNumberVerdict } from '../../contract/tax-number.js';
import type { RateLimitRule } from '../../server-kit/rate-limit.js';
import { CLIENT_TEXT_LIMITS, isCountryCode, taxNumberProblem } from '../../kernel/validation/client.js';
import { CLIENT_PROBLEM_TEXT } from '../../kernel/validation/problem-text.js';
import type { Bff, Env } from '../context.js';
import { BffError, ERROR_CODES } from '../errors.js';

/** Tax number checks per client IP: a form asks once typing pauses, and only for an EU VAT number of the right shape. */
export const TAX_NUMBER_CHECK_LIMIT: RateLimitRule = { limit: 120, windowMs: 60_000 };

const invalid = (field: string, message: string) => new BffError(422, ERROR_CODES.validation, 'Some fields are not valid.', { fields: { [field]: [message] } });

/**
 * `GET /tax-number?country=DE&tax_no=DE136695976`: what the full check of a client's tax number finds
 * wrong with it for that country (`taxNumberProblem`, the rule every save and sign-up applies), for
 * `<client-form>`, which checks only a VAT number's shape itself. `country` may be empty, as in the form.
 */
export function taxNumberRoutes(bff: Bff, rule: RateLimitRule = TAX_NUMBER_CHECK_LIMIT): Hono<Env> {
  return new Hono<Env>().get('/tax-number', async (c) => {
    await bff.enforce(c, rule, `tax-number:${c.get('clientIp')}`);
    const country = (c.req.query('country') ?? '').toUpperCase();
    const taxNo = c.req.query('tax_no') ?? '';
    if (country && !isCountryCode(country)) throw invalid('country', CLIENT_PROBLEM_TEXT.country);
    if (!taxNo.trim()) throw invalid('tax_no', CLIENT_PROBLEM_TEXT.required);
    if (taxNo.length > CLIENT_TEXT_LIMITS.tax_no) throw invalid('tax_no', `is too long (maximum is ${CLIENT_TEXT_LIMITS.tax_no} characters)`);
    const verdict: TaxNumberVerdict = { problem: (taxNumberProblem(taxNo, country) as TaxNumberVerdict['problem'] | undefined) ?? null };
    // The verdict is a pure function of the query: a browser asks once per number.
    c.header('Cache-Control', 'private, max-age=86400');
    return c.json(verdict);
  });
}
