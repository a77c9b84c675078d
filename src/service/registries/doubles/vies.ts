import { Hono } from 'hono';
import { isValidVatNumber } from '../../../kernel/validation/vat-numbers.js';
import { failing, type FailureSwitch } from './failures.js';

/**
 * A stand-in for the European Commission's VIES REST API, written from its published reference:
 * `POST /check-vat-number` with `{countryCode, vatNumber, requesterMemberStateCode?, requesterNumber?}`
 * answers `{countryCode, vatNumber, requestDate, valid, requestIdentifier, name, address, trader…}`,
 * with a `requestIdentifier` only when a requester is named and `---` for what a member state does not
 * disclose (Germany and Spain give no name or address). Failures come as
 * `{"actionSucceed":false,"errorWrappers":[{"error":"MS_UNAVAILABLE","message":…}]}`: `INVALID_INPUT`
 * with 400, a member state's outage with 200, as VIES answers them.
 */

export interface ViesTrader {
  name: string;
  /** Lines separated by `\n`, as the member state keeps them. */
  address: string;
}

export interface ViesDouble extends FailureSwitch {
  app: Hono;
  /** Registers a VAT number (prefix and number, `DE`, `812345673`). */
  register(countryCode: string, vatNumber: string, trader: ViesTrader): void;
  /** Makes a member state's register answer `MS_UNAVAILABLE` (or another code) until `restore`. */
  makeUnavailable(countryCode: string, error?: string): void;
  restore(countryCode: string): void;
  /** The consultations answered, newest last. */
  readonly consultations: { countryCode: string; vatNumber: string; requester: string | null; requestIdentifier: string | null }[];
}

/** VIES's member states by VAT prefix (Greece EL, Northern Ireland XI). */
const MEMBER_STATES = new Set('AT BE BG CY CZ DE DK EE EL ES FI FR HR HU IE IT LT LU LV MT NL PL PT RO SE SI SK XI'.split(' '));
/** Member states whose registers do not disclose a trader's name and address to VIES. */
const UNDISCLOSED = new Set(['DE', 'ES']);

const MESSAGES: Record<string, string> = {
  INVALID_INPUT: 'The provided CountryCode is invalid or the VAT number is empty',
  INVALID_REQUESTER_INFO: 'The requester info is invalid',
  MS_UNAVAILABLE: 'The application at the Member State is not replying or not available. Please refer to the Technical Information page to check the status of the requested Member State, try again later',
  TIMEOUT: 'The application did not receive a reply within the allocated time, try again later',
  MS_MAX_CONCURRENT_REQ: 'Your Request for VAT validation has not been processed; the maximum number of concurrent requests for this Member State has been reached. Please re-submit your request later',
  SERVICE_UNAVAILABLE: 'An error was encountered either at the network level or the Web application level, try again later',
};

export const viesErrorBody = (error: string): string => JSON.stringify({ actionSucceed: false, errorWrappers: [{ error, message: MESSAGES[error] ?? error }] });

export function createViesDouble(options: { clock?: () => Date } = {}): ViesDouble {
  const clock = options.clock ?? (() => new Date());
  const traders = new Map<string, ViesTrader>();
  const down = new Map<string, string>();
  const consultations: ViesDouble['consultations'] = [];
  const failure = failing();
  let counter = 0;
  const app = new Hono();
  const refuse = (error: string, status: 200 | 400 | 500) => new Response(viesErrorBody(error), { status, headers: { 'content-type': 'application/json' } });

  app.use('*', async (_c, next) => {
    const answer = await failure.answer();
    if (answer) return answer;
    await next();
  });

  app.post('/check-vat-number', async (c) => {
    const body = (await c.req.json().catch(() => null)) as Record<string, unknown> | null;
    const countryCode = typeof body?.['countryCode'] === 'string' ? body['countryCode'].toUpperCase() : '';
    const vatNumber = typeof body?.['vatNumber'] === 'string' ? body['vatNumber'].replace(/[\s.-]/g, '').toUpperCase() : '';
    if (!MEMBER_STATES.has(countryCode) || !/^[0-9A-Z+*]{2,12}$/.test(vatNumber)) return refuse('INVALID_INPUT', 400);
    const requesterState = typeof body?.['requesterMemberStateCode'] === 'string' ? body['requesterMemberStateCode'].toUpperCase() : '';
    const requesterNumber = typeof body?.['requesterNumber'] === 'string' ? body['requesterNumber'] : '';
    const requester = requesterState || requesterNumber ? `${requesterState}${requesterNumber}` : null;
    if (requester && !(MEMBER_STATES.has(requesterState) && isValidVatNumber(requesterState, requesterNumber))) return refuse('INVALID_REQUESTER_INFO', 400);
    const outage = down.get(countryCode);
    if (outage) return refuse(outage, 200);
    const trader = traders.get(`${countryCode}${vatNumber}`);
    counter += 1;
    const requestIdentifier = requester ? `WAPIAAAA${counter.toString(36).toUpperCase().padStart(8, '0')}` : '';
    consultations.push({ countryCode, vatNumber, requester, requestIdentifier: requestIdentifier || null });
    const hidden = !trader || UNDISCLOSED.has(countryCode);
    return c.json({
      countryCode,
      vatNumber,
      requestDate: clock().toISOString(),
      valid: trader !== undefined,
      requestIdentifier,
      name: hidden ? '---' : trader.name,
      address: hidden ? '---' : trader.address,
      traderName: '',
      traderStreet: '',
      traderPostalCode: '',
      traderCity: '',
      traderCompanyType: '',
      traderNameMatch: 'NOT_PROCESSED',
      traderStreetMatch: 'NOT_PROCESSED',
      traderPostalCodeMatch: 'NOT_PROCESSED',
      traderCityMatch: 'NOT_PROCESSED',
      traderCompanyTypeMatch: 'NOT_PROCESSED',
    });
  });
  app.notFound(() => refuse('SERVICE_UNAVAILABLE', 500));

  return {
    app,
    consultations,
    ...failure.switch,
    register(countryCode, vatNumber, trader) {
      traders.set(`${countryCode.toUpperCase()}${vatNumber.toUpperCase()}`, trader);
    },
    makeUnavailable(countryCode, error = 'MS_UNAVAILABLE') {
      down.set(countryCode.toUpperCase(), error);
    },
    restore(countryCode) {
      down.delete(countryCode.toUpperCase());
    },
  };
}
