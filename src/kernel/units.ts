/**
 * Units are stored as the seller typed them, most often in Polish (`szt.`, `usł.`). Shown in another
 * language, the common ones read in that language's words and any other unit reads as stored.
 */
const UNITS: Record<string, Record<string, string>> = {
  en: { 'szt.': 'pcs', szt: 'pcs', 'usł.': 'service', 'mies.': 'month', 'godz.': 'h', 'kpl.': 'set', 'opak.': 'pack', 'dzień': 'day', 'dni': 'days' },
  de: { 'szt.': 'Stk.', szt: 'Stk.', 'usł.': 'Leistung', 'mies.': 'Monat', 'godz.': 'Std.', 'kpl.': 'Satz', 'opak.': 'Pck.', 'dzień': 'Tag', 'dni': 'Tage' },
};

/** `unit` as a reader of `locale` (`en`, `en-GB`, `de-AT`, …) should see it. */
export function unitIn(unit: string, locale: string): string {
  return UNITS[locale.split('-')[0]!.toLowerCase()]?.[unit.trim().toLowerCase()] ?? unit;
}

/** The first language of an `Accept-Language` header (`en-GB,en;q=0.9` gives `en-GB`), if it names one. */
export function firstLanguage(header: string | undefined): string | undefined {
  const tag = header?.split(',')[0]?.split(';')[0]?.trim();
  return tag && /^[a-z]{2,3}(-[a-z0-9]{1,8})*$/i.test(tag) ? tag : undefined;
}

/** A product's unit as a buyer reading `acceptLanguage` sees it: stored, unless that language names it otherwise. */
export function unitForReader(unit: string | null | undefined, acceptLanguage: string | undefined): string | null {
  if (!unit) return unit ?? null;
  const language = firstLanguage(acceptLanguage);
  return language ? unitIn(unit, language) : unit;
}
