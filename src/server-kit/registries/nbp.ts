import { createOutboundClient, OutboundError, type OutboundClient } from '../outbound.js';
import { addDays, isDay, RegistryInputError, trimBase, unavailable } from './errors.js';

/**
 * The National Bank of Poland's Web API, table A (average rates): the rate a foreign-currency
 * invoice is converted by, which is the table of the last working day before the tax point.
 * `GET {base}/api/exchangerates/rates/a/{code}/{startDate}/{endDate}/?format=json` answers the
 * tables published in the range; a range without any (weekends, holidays) is a 404 "Brak danych".
 */
export const NBP_API_URL = 'https://api.nbp.pl';

/** One published average rate, as NBP prints it. */
export interface NbpRate {
  /** ISO 4217, upper case (`EUR`). */
  currency: string;
  /** The mid rate's exact decimal text (`"4.2512"`, `"0.026478"` for JPY): PLN per one unit. */
  mid: string;
  /** The table's number, `230/A/NBP/2026`. */
  tableNo: string;
  /** The day the table was published, `YYYY-MM-DD`. */
  effectiveDate: string;
}

export interface NbpClient {
  /**
   * The rate of the last table published before `taxPoint` (`YYYY-MM-DD`); `null` when NBP publishes
   * no table A rate for the currency. Throws `RegistryUnavailableError` when NBP cannot answer.
   */
  rateBefore(currency: string, taxPoint: string): Promise<NbpRate | null>;
  /** Every table A rate of the currency published from `startDate` to `endDate`, oldest first. */
  rates(currency: string, startDate: string, endDate: string): Promise<NbpRate[]>;
}

/** Days looked back for a table: the longest run of days without one (Easter, Christmas) is far shorter. */
export const NBP_LOOKBACK_DAYS = 14;

export function createNbpClient(options: { baseUrl?: string; outbound?: OutboundClient } = {}): NbpClient {
  const base = trimBase(options.baseUrl ?? NBP_API_URL);
  const outbound = options.outbound ?? createOutboundClient();

  async function rates(currency: string, startDate: string, endDate: string): Promise<NbpRate[]> {
    const code = currency.trim().toUpperCase();
    if (!/^[A-Z]{3}$/.test(code)) throw new RegistryInputError('nbp', 'currency', `Not a currency code: ${currency}`);
    if (!isDay(startDate) || !isDay(endDate) || startDate > endDate) throw new RegistryInputError('nbp', 'range', `Not a range of days: ${startDate}..${endDate}`);
    let text: string;
    try {
      ({ text } = await outbound.request({ url: `${base}/api/exchangerates/rates/a/${code.toLowerCase()}/${startDate}/${endDate}/?format=json`, headers: { accept: 'application/json' } }));
    } catch (error) {
      if (!(error instanceof OutboundError)) throw error;
      // "404 NotFound - Not Found - Brak danych": no table in the range, or no such currency in table A.
      if (error.kind === 'status' && error.status === 404) return [];
      throw unavailable('nbp', error);
    }
    return parseRates(code, text);
  }

  return {
    rates,
    async rateBefore(currency, taxPoint) {
      if (!isDay(taxPoint)) throw new RegistryInputError('nbp', 'date', `Not a day: ${taxPoint}`);
      const end = addDays(taxPoint, -1);
      const found = await rates(currency, addDays(end, -(NBP_LOOKBACK_DAYS - 1)), end);
      return found.at(-1) ?? null;
    },
  };
}

/**
 * The rates of an answer, each mid kept as the text NBP wrote: read as a binary float, 4.2510
 * would come back as 4.251 and a long rate could lose digits.
 */
export function parseRates(code: string, text: string): NbpRate[] {
  let body: unknown;
  try {
    body = JSON.parse(text.replace(/"mid"\s*:\s*(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)/g, '"mid":"$1"'));
  } catch (error) {
    throw unavailable('nbp', new OutboundError('bad_json', 'NBP', 'the answer is not JSON', { cause: error }));
  }
  const rows = (body as { rates?: unknown } | null)?.rates;
  if (!Array.isArray(rows)) throw unavailable('nbp', new OutboundError('bad_json', 'NBP', 'the answer has no rates'), 'unexpected answer');
  const rates = rows.map((row: unknown): NbpRate => {
    const { no, effectiveDate, mid } = (row ?? {}) as Record<string, unknown>;
    if (typeof no !== 'string' || typeof effectiveDate !== 'string' || !isDay(effectiveDate) || typeof mid !== 'string' || !/^\d+(\.\d+)?$/.test(mid)) {
      throw unavailable('nbp', new OutboundError('bad_json', 'NBP', 'a rate is malformed'), 'unexpected answer');
    }
    return { currency: code, mid, tableNo: no, effectiveDate };
  });
  return rates.sort((a, b) => (a.effectiveDate < b.effectiveDate ? -1 : a.effectiveDate > b.effectiveDate ? 1 : 0));
}
