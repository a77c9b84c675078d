import type { Hono } from 'hono';
import { isLookupCountry, normalTaxNumber, RegistryInputError, RegistryUnavailableError } from '../../server-kit/registries/index.js';
import type { Account, ServiceContext, ServiceEnv } from '../http.js';
import { ApiError, invalid } from '../http.js';
import type { Sql } from '../db.js';
import type { RateLimitRule } from './rate-limit.js';

/**
 * `GET /a/<prefix>/widget/company/<country>/<tax_no>`: a company's name and address by its tax number,
 * for a buyer filling a checkout's company fields. Polish NIPs from the Ministry of Finance's VAT
 * register (the white list), other member states' numbers from VIES. Public like the rest of the
 * widget, so limited per address more tightly than it: each lookup costs a call to a register that
 * counts ours.
 */
export const COMPANY_LOOKUP_RATE_LIMIT: RateLimitRule = { limit: 30, windowMs: 60_000 };

/** How long a lookup's answer may be reused: a company's address changes rarely. */
const CACHE_SECONDS = 300;

export interface CompanyLookupDeps {
  limit(c: ServiceContext, rule: RateLimitRule, key: string): Promise<void>;
  clientIp(c: ServiceContext): string;
  accountByPrefix(sql: Sql, prefix: string): Promise<Account>;
}

export function mountCompanyLookup(app: Hono<ServiceEnv>, deps: CompanyLookupDeps): void {
  app.get('/widget/company/:country/:tax_no', async (c) => {
    await deps.accountByPrefix(c.get('db'), c.req.param('prefix') ?? '');
    const country = c.req.param('country').toUpperCase();
    const raw = c.req.param('tax_no');
    if (!/^[A-Z]{2}$/.test(country) || !isLookupCountry(country)) throw invalid({ country: ['is not a member state of the EU'] });
    const taxNo = raw.length <= 50 ? normalTaxNumber(country, raw) : undefined;
    if (!taxNo) throw invalid({ tax_no: [country === 'PL' ? 'is not a valid NIP' : `is not a valid VAT number of ${country}`] });
    await deps.limit(c, COMPANY_LOOKUP_RATE_LIMIT, `widget-company:${deps.clientIp(c)}`);
    const registries = c.get('config').registries;
    let company;
    try {
      company = await registries.lookupCompany(country, taxNo);
    } catch (error) {
      if (error instanceof RegistryInputError) throw invalid({ tax_no: [error.message] });
      if (error instanceof RegistryUnavailableError) {
        const retryAfter = Math.min(3600, Math.max(1, error.retryAfterSeconds ?? 60));
        throw new ApiError(503, `The ${error.registry === 'vies' ? 'VIES' : 'VAT'} register cannot answer now. Try again later.`, undefined, { 'retry-after': String(retryAfter) });
      }
      throw error;
    }
    if (!company) throw new ApiError(404, 'No company with this tax number');
    c.header('cache-control', `public, max-age=${CACHE_SECONDS}`);
    return c.json(company);
  });
}
