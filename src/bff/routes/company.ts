import { Hono } from 'hono';
import type { CompanyDetails } from '../../contract/company.js';
import type { RateLimitRule } from '../../server-kit/rate-limit.js';
import { createRegistries, isLookupCountry, normalTaxNumber, type Registries, RegistryInputError, RegistryUnavailableError } from '../../server-kit/registries/index.js';
import type { Bff, Env } from '../context.js';
import { BffError, ERROR_CODES } from '../errors.js';
import type { BffOptions } from '../options.js';

/** Company lookups per client IP: each one costs a call to a register that counts ours. */
export const DEFAULT_COMPANY_LOOKUP_LIMIT: RateLimitRule = { limit: 30, windowMs: 60_000 };

/** The registers' clients the options give, or make, and the lookup limit. */
export function resolveRegistries(option: BffOptions['registries']): { registries: Registries; lookupRateLimit: RateLimitRule | false } {
  if (option && 'lookupCompany' in option) return { registries: option, lookupRateLimit: DEFAULT_COMPANY_LOOKUP_LIMIT };
  return { registries: createRegistries(option ?? {}), lookupRateLimit: option?.lookupRateLimit ?? DEFAULT_COMPANY_LOOKUP_LIMIT };
}

const invalid = (field: string, message: string) => new BffError(422, ERROR_CODES.validation, 'Some fields are not valid.', { fields: { [field]: [message] } });

/**
 * `GET /company/:country/:tax_no`: a company's name and address by its tax number, for a form to fill
 * its company fields. Polish NIPs from the VAT white list, other member states' numbers from VIES.
 */
export function companyRoutes(bff: Bff, registries: Registries, rule: RateLimitRule | false = DEFAULT_COMPANY_LOOKUP_LIMIT): Hono<Env> {
  const routes = new Hono<Env>();
  routes.get('/company/:country/:tax_no', async (c) => {
    const country = c.req.param('country').toUpperCase();
    const raw = c.req.param('tax_no');
    if (!/^[A-Z]{2}$/.test(country) || !isLookupCountry(country)) throw invalid('country', 'is not a member state of the EU');
    const taxNo = raw.length <= 50 ? normalTaxNumber(country, raw) : undefined;
    if (!taxNo) throw invalid('tax_no', country === 'PL' ? 'is not a valid NIP' : `is not a valid VAT number of ${country}`);
    if (rule) await bff.enforce(c, rule, `company:${c.get('clientIp')}`);
    let company: CompanyDetails | null;
    try {
      company = await registries.lookupCompany(country, taxNo);
    } catch (error) {
      if (error instanceof RegistryInputError) throw invalid('tax_no', error.message);
      if (!(error instanceof RegistryUnavailableError)) throw error;
      bff.emit({ level: 'warn', msg: 'register unavailable', request_id: c.get('requestId'), call: error.registry, error: error.reason });
      const retryAfter = Math.min(3600, Math.max(1, error.retryAfterSeconds ?? 60));
      throw new BffError(503, ERROR_CODES.upstreamBusy, `The ${error.registry === 'vies' ? 'VIES' : 'VAT'} register cannot answer now. Try again later.`, {
        headers: { 'Retry-After': String(retryAfter) },
      });
    }
    if (!company) throw new BffError(404, ERROR_CODES.notFound, 'No company with this tax number.');
    c.header('Cache-Control', 'private, max-age=300');
    return c.json(company);
  });
  return routes;
}
