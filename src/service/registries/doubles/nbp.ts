import { Hono } from 'hono';
import { addDays, workingDays } from './calendar.js';
import { failing, type FailureSwitch } from './failures.js';

/**
 * A stand-in for NBP's Web API, table A, written from its published reference (api.nbp.pl):
 * `GET /api/exchangerates/rates/a/{code}/{date}/` and `…/{startDate}/{endDate}/`, JSON (`?format=json`
 * or `Accept: application/json`) with the rates as numbers, `404 NotFound - Not Found - Brak danych` as
 * plain text for a range without a table, `400 BadRequest - …` for a range it refuses (backwards, or
 * over 93 days). Tables are numbered by working day of the year, `230/A/NBP/2026`.
 */

export const NBP_CURRENCIES: Record<string, { name: string; base: number; places: number }> = {
  EUR: { name: 'euro', base: 42_500, places: 4 },
  USD: { name: 'dolar amerykański', base: 36_800, places: 4 },
  GBP: { name: 'funt szterling', base: 48_900, places: 4 },
  CHF: { name: 'frank szwajcarski', base: 45_400, places: 4 },
  JPY: { name: 'jen (Japonia)', base: 24_500, places: 6 },
};

/** A deterministic rate for a day, as exact decimal text: the base moved by up to ±2 % by the day's number. */
export function demoMid(currency: string, day: string): string {
  const spec = NBP_CURRENCIES[currency];
  if (!spec) throw new TypeError(`No demo rate for ${currency}`);
  const ordinal = Math.floor(Date.parse(`${day}T00:00:00Z`) / 86_400_000);
  const spread = Math.floor(spec.base / 50);
  const units = spec.base + ((ordinal * 7919) % (2 * spread + 1)) - spread;
  const text = String(units).padStart(spec.places + 1, '0');
  return `${text.slice(0, -spec.places)}.${text.slice(-spec.places)}`;
}

export interface NbpDouble extends FailureSwitch {
  app: Hono;
  /** Sets a day's mid rate (exact decimal text); the day then has a table. */
  setRate(currency: string, day: string, mid: string): void;
  /** Takes a day's table away, for every currency: NBP published none that day. */
  dropTable(day: string): void;
  /** Publishes the demo rates of every working day from `from` to `to`. */
  seed(from: string, to: string): void;
  /** The requests answered, as `METHOD path?query`. */
  readonly requests: string[];
}

export function createNbpDouble(): NbpDouble {
  const rates = new Map<string, Map<string, string>>();
  const failure = failing();
  const requests: string[] = [];
  // NBP answers its addresses with and without the trailing slash.
  const app = new Hono({ strict: false });

  const tableNo = (day: string) => {
    const year = day.slice(0, 4);
    return `${workingDays(`${year}-01-01`, day).length}/A/NBP/${year}`;
  };
  const text = (status: 400 | 404, message: string) => new Response(message, { status, headers: { 'content-type': 'text/plain; charset=utf-8' } });
  const isDay = (value: string) => /^\d{4}-\d{2}-\d{2}$/.test(value) && addDays(value, 0) === value;

  app.use('*', async (c, next) => {
    const url = new URL(c.req.url);
    requests.push(`${c.req.method} ${url.pathname}${url.search}`);
    const answer = await failure.answer();
    if (answer) return answer;
    await next();
  });

  app.get('/api/exchangerates/rates/:table/:code/:from/:to?', (c) => {
    const { table, code, from } = c.req.param();
    const to = c.req.param('to') ?? from;
    if (table.toLowerCase() !== 'a') return text(404, '404 NotFound - Not Found - Brak danych');
    if (!isDay(from) || !isDay(to)) return text(400, '400 BadRequest - Błędny zakres dat / Invalid date range');
    if (from > to) return text(400, '400 BadRequest - Błędny zakres dat / Invalid date range');
    if (Date.parse(to) - Date.parse(from) > 93 * 86_400_000) return text(400, '400 BadRequest - Przekroczony limit 93 dni / Limit of 93 days has been exceeded');
    const currency = code.toUpperCase();
    const days = [...(rates.get(currency) ?? new Map<string, string>())].filter(([day]) => day >= from && day <= to).sort(([a], [b]) => (a < b ? -1 : 1));
    if (!days.length) return text(404, '404 NotFound - Not Found - Brak danych');
    const format = c.req.query('format');
    if (format && format.toLowerCase() !== 'json') return text(400, '400 BadRequest - Nieprawidłowy format / Invalid format');
    // Written by hand so that each mid is exactly the decimal it was set to, as NBP writes it.
    const body = `{"table":"A","currency":${JSON.stringify(NBP_CURRENCIES[currency]?.name ?? currency.toLowerCase())},"code":"${currency}","rates":[${days
      .map(([day, mid]) => `{"no":"${tableNo(day)}","effectiveDate":"${day}","mid":${mid}}`)
      .join(',')}]}`;
    return new Response(body, { status: 200, headers: { 'content-type': 'application/json; charset=utf-8' } });
  });
  app.notFound(() => text(404, '404 NotFound'));

  const setRate = (currency: string, day: string, mid: string) => {
    const code = currency.toUpperCase();
    if (!rates.has(code)) rates.set(code, new Map());
    rates.get(code)!.set(day, mid);
  };

  return {
    app,
    requests,
    ...failure.switch,
    setRate,
    dropTable(day) {
      for (const days of rates.values()) days.delete(day);
    },
    seed(from, to) {
      for (const day of workingDays(from, to)) {
        for (const currency of Object.keys(NBP_CURRENCIES)) setRate(currency, day, demoMid(currency, day));
      }
    },
  };
}
