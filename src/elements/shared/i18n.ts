/**
 * Localization: each element carries a catalog per language (English is the reference shape, every other
 * language must match it), and the language comes from the element's `locale` attribute, else the
 * nearest `lang` in the page, else the browser.
 */

export const SUPPORTED_LANGUAGES = ['en', 'pl'] as const;
export type Language = (typeof SUPPORTED_LANGUAGES)[number];

/**
 * English is built in; every other language is a module loaded the first time a page needs it, so
 * a page pays only for the languages it shows.
 */
export type Catalogs<M> = { readonly en: M } & { readonly [L in Exclude<Language, 'en'>]: () => Promise<{ default: M }> };

/** Translations already loaded, by their loader. */
const loaded = new WeakMap<object, unknown>();

/** The catalog for `language` if it is ready, else `undefined`. */
export function readyCatalog<M>(catalogs: Catalogs<M>, language: Language): M | undefined {
  return language === 'en' ? catalogs.en : (loaded.get(catalogs[language]) as M | undefined);
}

/** Loads a language's catalog; a failed load leaves English in place. */
export async function loadCatalog<M>(catalogs: Catalogs<M>, language: Language): Promise<void> {
  if (readyCatalog(catalogs, language)) return;
  const load = catalogs[language as Exclude<Language, 'en'>];
  loaded.set(load, (await load().catch(() => undefined))?.default ?? catalogs.en);
}

/** The BCP 47 tag to format with, or `undefined` when the text is not a valid tag. */
export function canonicalLocale(tag: string): string | undefined {
  try {
    return Intl.getCanonicalLocales(tag)[0];
  } catch {
    return undefined;
  }
}

/** `"pl-PL"` → `"pl"`; a language without a catalog → `undefined`. */
export function catalogLanguage(locale: string): Language | undefined {
  const language = locale.toLowerCase().split('-')[0];
  return (SUPPORTED_LANGUAGES as readonly string[]).includes(language!) ? (language as Language) : undefined;
}

/** The locale the page implies for `element`: the nearest `lang`, crossing shadow roots, then the browser. */
export function pageLocale(element: Element): string {
  // Read without `instanceof Element` or `ShadowRoot`, which a server renderer (Node, no DOM) lacks: there it is the tag's own `lang`, else English.
  for (let node: Node | null = element; node; node = (node as ShadowRoot).host || node.parentNode) {
    const lang = (node as Element).getAttribute?.('lang');
    if (lang) return lang;
  }
  return globalThis.navigator?.language || 'en';
}
