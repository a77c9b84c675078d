/**
 * The Polish banking calendar the NBP stand-in publishes by: no table on weekends or public holidays
 * (Christmas Eve included, since 2025). Days are `YYYY-MM-DD` in UTC arithmetic.
 */

const day = (date: Date): string => date.toISOString().slice(0, 10);

/** Easter Sunday (the anonymous Gregorian computus). */
function easter(year: number): Date {
  const a = year % 19;
  const b = Math.floor(year / 100);
  const c = year % 100;
  const d = Math.floor(b / 4);
  const e = b % 4;
  const f = Math.floor((b + 8) / 25);
  const g = Math.floor((b - f + 1) / 3);
  const h = (19 * a + b - d - g + 15) % 30;
  const i = Math.floor(c / 4);
  const k = c % 4;
  const l = (32 + 2 * e + 2 * i - h - k) % 7;
  const m = Math.floor((a + 11 * h + 22 * l) / 451);
  const month = Math.floor((h + l - 7 * m + 114) / 31);
  return new Date(Date.UTC(year, month - 1, ((h + l - 7 * m + 114) % 31) + 1));
}

const holidayCache = new Map<number, Set<string>>();

export function polishHolidays(year: number): Set<string> {
  let days = holidayCache.get(year);
  if (days) return days;
  const fixed = ['01-01', '01-06', '05-01', '05-03', '08-15', '11-01', '11-11', '12-25', '12-26', ...(year >= 2025 ? ['12-24'] : [])];
  const sunday = easter(year).getTime();
  const movable = [1, 60].map((offset) => day(new Date(sunday + offset * 86_400_000)));
  days = new Set([...fixed.map((md) => `${year}-${md}`), ...movable]);
  holidayCache.set(year, days);
  return days;
}

export function isWorkingDay(value: string): boolean {
  const date = new Date(`${value}T00:00:00Z`);
  const weekday = date.getUTCDay();
  return weekday !== 0 && weekday !== 6 && !polishHolidays(date.getUTCFullYear()).has(value);
}

/** Working days from `from` to `to`, both included, oldest first. */
export function workingDays(from: string, to: string): string[] {
  const days: string[] = [];
  for (let t = Date.parse(`${from}T00:00:00Z`); t <= Date.parse(`${to}T00:00:00Z`); t += 86_400_000) {
    const value = day(new Date(t));
    if (isWorkingDay(value)) days.push(value);
  }
  return days;
}

export const addDays = (value: string, days: number): string => day(new Date(Date.parse(`${value}T00:00:00Z`) + days * 86_400_000));
