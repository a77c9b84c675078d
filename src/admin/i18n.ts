/** The back office's languages. Each view keeps its own strings as `Record<Lang, …>` and picks one. */
export type Lang = 'en' | 'pl';

export const langs: readonly Lang[] = ['en', 'pl'];

export function pick<T>(strings: Record<Lang, T>, lang: Lang): T {
  return strings[lang] ?? strings.en;
}

/** `'pl-PL'` → `'pl'`; anything else → `'en'`. */
export function toLang(value: string | null | undefined): Lang {
  return value?.toLowerCase().startsWith('pl') ? 'pl' : 'en';
}

/** The locale `Intl` formats with. */
export function locale(lang: Lang): string {
  return lang === 'pl' ? 'pl-PL' : 'en-GB';
}
