import { decimal, minorUnits, round, toFixed } from '../../api/money.js';

/**
 * Money, date and number formatting through `Intl`. Amounts arrive as decimal strings and are handed
 * to `Intl.NumberFormat` as strings, which formats them exactly (no binary float on the way), with
 * the currency's own minor units: 2 for PLN, 0 for JPY, 3 for KWD.
 */

const numberFormats = new Map<string, Intl.NumberFormat>();
const dateFormats = new Map<string, Intl.DateTimeFormat>();

function moneyFormat(locale: string, currency: string): Intl.NumberFormat {
  const key = `${locale}|${currency}`;
  let format = numberFormats.get(key);
  if (!format) {
    try {
      format = new Intl.NumberFormat(locale, { style: 'currency', currency });
    } catch {
      // An unknown currency code still deserves a readable amount.
      format = new Intl.NumberFormat(locale, { minimumFractionDigits: 2, maximumFractionDigits: 2 });
    }
    numberFormats.set(key, format);
  }
  return format;
}

/** `formatMoney("1234.5", "PLN", "pl")` → `"1234,50 zł"`; `formatMoney("1500", "JPY", "en")` → `"¥1,500"`. */
export function formatMoney(amount: string, currency: string, locale: string): string {
  const code = currency.toUpperCase();
  const exact = toFixed(round(decimal(amount), minorUnits(code)), minorUnits(code));
  // Intl formats a numeric string exactly; the cast is for lib typings that only list number | bigint.
  return moneyFormat(locale, code).format(exact as unknown as number);
}

/** Formats a `YYYY-MM-DD` calendar date in the locale, without any time-zone shift. */
export function formatDate(isoDate: string | null | undefined, locale: string): string {
  if (!isoDate) return '';
  const [y, m, d] = isoDate.slice(0, 10).split('-').map(Number);
  if (!y || !m || !d) return isoDate;
  let format = dateFormats.get(locale);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, { year: 'numeric', month: 'short', day: 'numeric', timeZone: 'UTC' });
    dateFormats.set(locale, format);
  }
  return format.format(new Date(Date.UTC(y, m - 1, d)));
}

export function formatNumber(value: number, locale: string): string {
  return new Intl.NumberFormat(locale).format(value);
}

/** Today's date as `YYYY-MM-DD` in the browser's own time zone (the customer's "today"). */
export function localToday(now = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}
