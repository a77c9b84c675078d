import { normalTaxNumber, type Registries, type ViesConsultation, type ViesNumber } from '../server-kit/registries/index.js';
import type { Bff, BffContext } from './context.js';

/** How long VIES's word on a number is reused: a number's registration rarely changes within the hour. */
const KEPT_MS = 60 * 60_000;

export interface ViesCheck {
  /** Asks VIES about an EU VAT number (prefixed, `DE812345673`) as `requester`; a valid or invalid answer is kept for an hour. */
  consult(c: BffContext, vatNumber: string, requester: ViesNumber | undefined): Promise<ViesConsultation>;
  /** What VIES last said of the number, when it said it within the hour. */
  known(vatNumber: string): Promise<ViesConsultation | undefined>;
}

/**
 * The BFF's VIES consultations before a sale goes without Polish VAT. Answers are kept in the BFF's
 * cache store, so a quote and the checkout after it ask once; an unavailable VIES is never kept.
 */
export function viesCheck(bff: Bff, registries: Registries): ViesCheck {
  const keyOf = (vatNumber: string) => `vies:${vatNumber}`;
  return {
    async known(vatNumber) {
      return ((await bff.cache.get(keyOf(vatNumber))) as ViesConsultation | undefined) ?? undefined;
    },
    async consult(c, vatNumber, requester) {
      const consultation = await registries.vies.check({ countryCode: vatNumber.slice(0, 2), vatNumber: vatNumber.slice(2) }, requester);
      if (consultation.status === 'unavailable') {
        bff.emit({ level: 'warn', msg: 'register unavailable', request_id: c.get('requestId'), call: 'vies', error: consultation.reason ?? undefined });
      } else {
        await bff.cache.set(keyOf(vatNumber), consultation, KEPT_MS);
      }
      return consultation;
    },
  };
}

/** The seller as VIES's requester: their country and VAT number without its prefix, when both are known. */
export function viesRequester(country: string, taxNo: string | null | undefined): ViesNumber | undefined {
  const normal = taxNo ? normalTaxNumber(country, taxNo) : undefined;
  if (!normal) return undefined;
  const prefix = country === 'GR' ? 'EL' : country;
  return { countryCode: prefix, vatNumber: normal.startsWith(prefix) ? normal.slice(prefix.length) : normal };
}
