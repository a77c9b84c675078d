import { createOutboundClient, OutboundError, type OutboundClient } from '../outbound.js';
import { trimBase } from './errors.js';

/**
 * The European Commission's VIES REST API: whether a VAT number is registered for intra-EU trade.
 * `POST {base}/check-vat-number` with the requester's (the seller's) own number, so that the answer
 * carries a `requestIdentifier`: the consultation's number, the seller's evidence that it checked.
 */
export const VIES_API_URL = 'https://ec.europa.eu/taxation_customs/vies/rest-api';

export type ViesStatus = 'valid' | 'invalid' | 'unavailable';

/** A VAT number as VIES takes it: the member state's VAT prefix (EL for Greece, XI for Northern Ireland) and the rest. */
export interface ViesNumber {
  countryCode: string;
  vatNumber: string;
}

/** One consultation: its outcome and, when VIES gave them, its identifier, date, and the trader's name and address. */
export interface ViesConsultation extends ViesNumber {
  status: ViesStatus;
  /** The consultation number, present when the request named a requester. */
  requestIdentifier: string | null;
  /** When VIES answered, as it wrote it (`2026-11-28T10:15:30.123Z`). */
  requestDate: string | null;
  /** `null` where the member state does not disclose it (VIES writes `---`). */
  name: string | null;
  /** Lines separated by `\n`, as the member state keeps them. */
  address: string | null;
  /** For `unavailable` (and `invalid` input): VIES's own code (`MS_UNAVAILABLE`, `TIMEOUT`) or the failure's kind. */
  reason: string | null;
  /** For `unavailable`: how long VIES asked us to wait, when it did. */
  retryAfterSeconds?: number;
}

export interface ViesClient {
  /** Never throws for VIES's own failures: they come back as `unavailable` with a reason. */
  check(number: ViesNumber, requester?: ViesNumber): Promise<ViesConsultation>;
}

/** What each of VIES's error codes means for the number asked about. */
export const VIES_ERRORS: Record<string, ViesStatus> = {
  INVALID: 'invalid',
  INVALID_INPUT: 'invalid',
  VALID: 'valid',
  INVALID_REQUESTER_INFO: 'unavailable',
  SERVICE_UNAVAILABLE: 'unavailable',
  MS_UNAVAILABLE: 'unavailable',
  TIMEOUT: 'unavailable',
  VAT_BLOCKED: 'unavailable',
  IP_BLOCKED: 'unavailable',
  GLOBAL_MAX_CONCURRENT_REQ: 'unavailable',
  GLOBAL_MAX_CONCURRENT_REQ_TIME: 'unavailable',
  MS_MAX_CONCURRENT_REQ: 'unavailable',
  MS_MAX_CONCURRENT_REQ_TIME: 'unavailable',
};

/** VIES writes `---` for what a member state does not disclose. */
const disclosed = (value: unknown): string | null => (typeof value === 'string' && value.trim() && !/^-+$/.test(value.trim()) ? value.trim() : null);

export function createViesClient(options: { baseUrl?: string; outbound?: OutboundClient; requester?: ViesNumber } = {}): ViesClient {
  const base = trimBase(options.baseUrl ?? VIES_API_URL);
  // VIES answers in seconds when a member state is slow; a checkout waits no longer than this.
  const outbound = options.outbound ?? createOutboundClient({ timeoutMs: 15_000 });

  return {
    async check(number, requester = options.requester) {
      const asked = { countryCode: number.countryCode.toUpperCase(), vatNumber: number.vatNumber };
      const outcome = (status: ViesStatus, reason: string | null, body: Record<string, unknown> = {}): ViesConsultation => ({
        ...asked,
        status,
        requestIdentifier: disclosed(body['requestIdentifier']),
        requestDate: disclosed(body['requestDate']),
        name: disclosed(body['name']),
        address: disclosed(body['address']),
        reason,
      });
      let body: Record<string, unknown>;
      try {
        const answer = await outbound.json({
          url: `${base}/check-vat-number`,
          method: 'POST',
          // A consultation changes nothing: asking again is safe.
          idempotent: true,
          json: { ...asked, ...(requester ? { requesterMemberStateCode: requester.countryCode.toUpperCase(), requesterNumber: requester.vatNumber } : {}) },
        });
        body = (answer.body ?? {}) as Record<string, unknown>;
      } catch (error) {
        if (!(error instanceof OutboundError)) throw error;
        // A refusal comes as 400 or 500 with the same error body as on 200.
        const code = error.kind === 'status' ? errorCodeOf(error.text) : undefined;
        const wait = error.retryAfterSeconds();
        const failed = code ? outcome(VIES_ERRORS[code] ?? 'unavailable', code) : outcome('unavailable', error.kind === 'status' ? `HTTP ${error.status}` : error.kind);
        return failed.status === 'unavailable' && wait !== undefined ? { ...failed, retryAfterSeconds: wait } : failed;
      }
      const code = errorCodeOf(body);
      if (code) return outcome(VIES_ERRORS[code] ?? 'unavailable', code);
      const userError = typeof body['userError'] === 'string' ? body['userError'] : undefined;
      if (userError && VIES_ERRORS[userError] === 'unavailable') return outcome('unavailable', userError, body);
      if (body['valid'] === true || body['isValid'] === true) return outcome('valid', null, body);
      if (body['valid'] === false || body['isValid'] === false) return outcome('invalid', userError ?? 'INVALID', body);
      return outcome('unavailable', 'unexpected answer');
    },
  };
}

/** The first code of VIES's error body, `{"actionSucceed":false,"errorWrappers":[{"error":"MS_UNAVAILABLE"}]}`. */
function errorCodeOf(body: unknown): string | undefined {
  let value = body;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value) as unknown;
    } catch {
      return undefined;
    }
  }
  const wrappers = (value as { actionSucceed?: unknown; errorWrappers?: unknown } | null)?.errorWrappers;
  if (!Array.isArray(wrappers)) return undefined;
  const first = (wrappers[0] ?? {}) as { error?: unknown };
  return typeof first.error === 'string' ? first.error : 'SERVICE_UNAVAILABLE';
}
