import { createOutboundClient, OutboundError, type OutboundClient } from '../outbound.js';
import { isDay, RegistryInputError, RegistryUnavailableError, trimBase, unavailable } from './errors.js';

/**
 * The Ministry of Finance's register of VAT taxpayers, the "white list" (Wykaz podatników VAT):
 * `GET {base}/api/search/nip/{nip}?date=YYYY-MM-DD` answers `{"result":{"subject":…,"requestId":…}}`,
 * `subject: null` for a NIP it does not list, and `{"code":"WL-1xx","message":…}` for a request it refuses.
 */
export const MF_WHITELIST_URL = 'https://wl-api.mf.gov.pl';

/** A taxpayer as the register lists them. */
export interface WhitelistSubject {
  name: string;
  nip: string;
  /** `Czynny` (active VAT payer), `Zwolniony` (exempt), or `null` for one no longer registered. */
  statusVat: string | null;
  regon: string | null;
  krs: string | null;
  /** One line, `UL. PROSTA 51, 00-838 WARSZAWA`; a company's. */
  workingAddress: string | null;
  /** One line; a person's. */
  residenceAddress: string | null;
  accountNumbers: string[];
}

export interface WhitelistAnswer {
  subject: WhitelistSubject | null;
  /** The register's identifier of this search, its evidence of the consultation. */
  requestId: string | null;
  requestDateTime: string | null;
}

export interface WhitelistClient {
  /**
   * The taxpayer with this NIP on `date` (default today). Throws `RegistryInputError` for a NIP the
   * register refuses as malformed and `RegistryUnavailableError` when it cannot answer.
   */
  searchNip(nip: string, date?: string): Promise<WhitelistAnswer>;
}

/** The register's own failures (`WL-100` an internal error, `WL-19x` its limits), as against a refused request. */
const UNAVAILABLE_CODES = /^WL-(100|19\d)$/;

const text = (value: unknown): string | null => (typeof value === 'string' && value.trim() ? value.trim() : null);

export function createWhitelistClient(options: { baseUrl?: string; outbound?: OutboundClient; today?: () => string } = {}): WhitelistClient {
  const base = trimBase(options.baseUrl ?? MF_WHITELIST_URL);
  const outbound = options.outbound ?? createOutboundClient();
  const today = options.today ?? (() => new Date().toISOString().slice(0, 10));

  return {
    async searchNip(nip, date = today()) {
      if (!isDay(date)) throw new RegistryInputError('whitelist', 'date', `Not a day: ${date}`);
      let body: unknown;
      try {
        ({ body } = await outbound.json({ url: `${base}/api/search/nip/${encodeURIComponent(nip)}?date=${date}` }));
      } catch (error) {
        if (!(error instanceof OutboundError)) throw error;
        const refusal = error.kind === 'status' ? refusalOf(error.text) : undefined;
        if (refusal && error.status !== undefined && error.status < 500 && error.status !== 429 && !UNAVAILABLE_CODES.test(refusal.code)) {
          throw new RegistryInputError('whitelist', refusal.code, refusal.message);
        }
        throw unavailable('whitelist', error, refusal?.code);
      }
      const result = (body as { result?: unknown } | null)?.result as Record<string, unknown> | undefined;
      if (!result || typeof result !== 'object') throw new RegistryUnavailableError('whitelist', 'unexpected answer');
      const subject = result['subject'] as Record<string, unknown> | null | undefined;
      return {
        subject: subject && typeof subject === 'object' && typeof subject['name'] === 'string' ? subjectOf(subject) : null,
        requestId: text(result['requestId']),
        requestDateTime: text(result['requestDateTime']),
      };
    },
  };
}

function subjectOf(subject: Record<string, unknown>): WhitelistSubject {
  const accounts = subject['accountNumbers'];
  return {
    name: text(subject['name']) ?? '',
    nip: text(subject['nip']) ?? '',
    statusVat: text(subject['statusVat']),
    regon: text(subject['regon']),
    krs: text(subject['krs']),
    workingAddress: text(subject['workingAddress']),
    residenceAddress: text(subject['residenceAddress']),
    accountNumbers: Array.isArray(accounts) ? accounts.filter((a): a is string => typeof a === 'string') : [],
  };
}

function refusalOf(body: string | undefined): { code: string; message: string } | undefined {
  try {
    const value = JSON.parse(body ?? '') as { code?: unknown; message?: unknown };
    return typeof value.code === 'string' && value.code.startsWith('WL-') ? { code: value.code, message: typeof value.message === 'string' ? value.message : value.code } : undefined;
  } catch {
    return undefined;
  }
}
