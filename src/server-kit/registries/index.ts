import { createOutboundClient, type OutboundClient } from '../outbound.js';
import { BoundedMap } from '../bounded-map.js';
import { type CompanyDetails, lookupCompany, normalTaxNumber } from './company.js';
import { createNbpClient, NBP_API_URL, type NbpClient } from './nbp.js';
import { createViesClient, VIES_API_URL, type ViesClient, type ViesNumber } from './vies.js';
import { createWhitelistClient, MF_WHITELIST_URL, type WhitelistClient } from './whitelist.js';

export * from './company.js';
export * from './errors.js';
export * from './nbp.js';
export * from './vies.js';
export * from './whitelist.js';

/** Where the registers are (`INVOICEKIT_NBP_API_URL`, `INVOICEKIT_VIES_API_URL`, `INVOICEKIT_MF_WHITELIST_URL`) and how they are called. */
export interface RegistryOptions {
  /** Default `https://api.nbp.pl`. */
  nbpApiUrl?: string | undefined;
  /** Default `https://ec.europa.eu/taxation_customs/vies/rest-api`. */
  viesApiUrl?: string | undefined;
  /** Default `https://wl-api.mf.gov.pl`. */
  mfWhitelistUrl?: string | undefined;
  /** The outbound client the calls go through. Default: one with 10 s per call and two attempts. */
  outbound?: OutboundClient | undefined;
  /** The clock whose day the white list is asked about. Default the real one. */
  clock?: (() => Date) | undefined;
  /** How long a company lookup's answer (a company, or none) is reused. Default one hour; 0 asks every time. */
  lookupKeepMs?: number | undefined;
  /** The seller, as the requester of VIES consultations (their `requestIdentifier` needs one). */
  viesRequester?: ViesNumber | undefined;
}

export interface Registries {
  nbp: NbpClient;
  vies: ViesClient;
  whitelist: WhitelistClient;
  /** See `lookupCompany`; answers are reused for `lookupKeepMs`, failures never. */
  lookupCompany(country: string, taxNo: string): Promise<CompanyDetails | null>;
}

/** The three registers' clients from one configuration. */
export function createRegistries(options: RegistryOptions = {}): Registries {
  const outbound = options.outbound ?? createOutboundClient();
  const nbp = createNbpClient({ baseUrl: options.nbpApiUrl ?? NBP_API_URL, outbound });
  const vies = createViesClient({ baseUrl: options.viesApiUrl ?? VIES_API_URL, outbound, ...(options.viesRequester ? { requester: options.viesRequester } : {}) });
  const clock = options.clock ?? (() => new Date());
  const whitelist = createWhitelistClient({ baseUrl: options.mfWhitelistUrl ?? MF_WHITELIST_URL, outbound, today: () => clock().toISOString().slice(0, 10) });
  // The white list counts each address's searches a day: a company asked for again is answered from here.
  const keepMs = options.lookupKeepMs ?? 60 * 60_000;
  const kept = new BoundedMap<string, { at: number; company: CompanyDetails | null }>();
  return {
    nbp,
    vies,
    whitelist,
    async lookupCompany(country, taxNo) {
      const key = `${country.trim().toUpperCase()}:${normalTaxNumber(country, taxNo) ?? taxNo}`;
      const now = clock().getTime();
      const hit = kept.get(key);
      if (hit && now - hit.at < keepMs) return hit.company;
      const company = await lookupCompany({ whitelist, vies }, country, taxNo);
      if (keepMs > 0) kept.set(key, { at: now, company });
      return company;
    },
  };
}
