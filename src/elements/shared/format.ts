/**
 * Money, date and number formatting through `Intl`. Amounts arrive as decimal strings and are handed
 * to `Intl.NumberFormat` as strings, which it formats exactly (no binary float on the way), rounded to
 * the currency's own minor units: 2 for PLN, 0 for JPY, 3 for KWD.
 */

const formats = new Map<string, Intl.NumberFormat | Intl.DateTimeFormat>();

function cached<T extends Intl.NumberFormat | Intl.DateTimeFormat>(key: string, create: () => T): T {
  let format = formats.get(key) as T | undefined;
  if (!format) formats.set(key, (format = create()));
  return format;
}

/** `formatMoney("1234.5", "PLN", "pl")` → `"1234,50 zł"`; `formatMoney("1500", "JPY", "en")` → `"¥1,500"`. */
export function formatMoney(amount: string, currency: string, locale: string): string {
  const format = cached(`${locale}|${currency}`, () => {
    try {
      return new Intl.NumberFormat(locale, { style: 'currency', currency });
    } catch {
      // An unknown currency code still deserves a readable amount.
      return new Intl.NumberFormat(locale, { minimumFractionDigits: 2 });
    }
  });
  // A numeric string is formatted as the exact decimal it spells; the lib typings only list numbers.
  return format.format(amount as unknown as number);
}

/** Formats a `YYYY-MM-DD` calendar date in the locale, without any time-zone shift. */
export function formatDate(isoDate: string | null | undefined, locale: string): string {
  if (!isoDate) return '';
  const [y, m, d] = isoDate.split('-').map(Number);
  if (!y || !m || !d) return isoDate;
  return cached(locale, () => new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeZone: 'UTC' })).format(
    Date.UTC(y, m - 1, d),
  );
}

export function formatNumber(value: number, locale: string): string {
  return cached(`${locale}#`, () => new Intl.NumberFormat(locale)).format(value);
}

/** Today as `YYYY-MM-DD` in the customer's own time zone. */
export function localToday(now = new Date()): string {
  return new Date(now.getTime() - now.getTimezoneOffset() * 60_000).toISOString().slice(0, 10);
}
